#include "rpc/Server.h"

#include "rpc/Connection.h"
#include "rpc/Session.h"

#include <signal.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>

namespace tessel::rpc {

namespace {

/// SIGCHLD wakes the loop through this pipe, so an ended session frees the
/// server at once (the tracker hands it out again without waiting a turn).
int gChildPipe[2] = {-1, -1};

extern "C" void onChild(int) {
    const int saved = errno;
    const char b = 0;
    if (::write(gChildPipe[1], &b, 1) < 0) {} // full: a wake-up is pending anyway
    errno = saved;
}

} // namespace

void runServer(const ServerOptions& options, const std::atomic<bool>& stop) {
    if (!isLoopback(options.host) && options.token.empty())
        throw std::invalid_argument("refusing to serve on '" + options.host +
                                    "' without a token: anyone who can reach it could run code here "
                                    "(give --token-file, or bind 127.0.0.1)");
    Listener listener(options.host, options.port);
    // A client that goes away mid-reply must not kill a session with SIGPIPE
    // (Asio sends with MSG_NOSIGNAL; this covers the pipes of isolated runs).
    ::signal(SIGPIPE, SIG_IGN);
    auto log = [&](const std::string& line) {
        if (options.log) options.log(line);
    };
    log("listening on " + options.host + ":" + std::to_string(listener.port()));
    if (options.onListening) options.onListening(listener.port());

    if (gChildPipe[0] < 0 && ::pipe2(gChildPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    struct sigaction sa {};
    sa.sa_handler = onChild;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    ::sigaction(SIGCHLD, &sa, nullptr);

    std::set<pid_t> sessions;
    bool free = true;
    auto updateFree = [&] {
        const bool nowFree = sessions.empty();
        if (nowFree != free) {
            free = nowFree;
            if (options.onFreeChanged) options.onFreeChanged(free);
        }
    };
    while (!stop.load()) {
        Connection c = listener.accept(100, gChildPipe[0]);
        char drain[64];
        while (::read(gChildPipe[0], drain, sizeof drain) > 0) {}
        for (auto it = sessions.begin(); it != sessions.end();) {
            int status = 0;
            const pid_t done = ::waitpid(*it, &status, WNOHANG);
            if (done == *it) {
                if (WIFSIGNALED(status))
                    log("session " + std::to_string(*it) + " ended by signal " + std::to_string(WTERMSIG(status)));
                it = sessions.erase(it);
            } else {
                ++it;
            }
        }
        if (c.isOpen()) {
            if (static_cast<int>(sessions.size()) >= options.maxSessions) {
                log("refused " + c.peer() + ": " + std::to_string(sessions.size()) + " sessions already");
                try {
                    c.send(Code::Error,
                           errorPayload(ErrorCode::Busy, "the server serves " + std::to_string(sessions.size()) +
                                                             " sessions already; try again later"),
                           deadlineIn(1000), "refuse");
                } catch (const RpcError&) {
                }
                c.close();
            } else {
                const pid_t parent = ::getpid();
                const pid_t pid = ::fork();
                if (pid == 0) {
                    // A session does not outlive its server: a client of a
                    // killed server sees it gone (and a tracker hands it another).
                    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
                    if (::getppid() != parent) ::_exit(0);
                    ::signal(SIGTERM, SIG_DFL); // the server's handlers only set its stop flag
                    ::signal(SIGINT, SIG_DFL);
                    ::signal(SIGCHLD, SIG_DFL); // the session waits for its own runs
                    ::close(listener.fd());
                    serveSession(std::move(c), options);
                    ::_exit(0);
                }
                if (pid < 0) {
                    log(std::string("cannot fork a session: ") + std::strerror(errno));
                    c.close();
                } else {
                    sessions.insert(pid);
                    c.abandon();
                }
            }
        }
        updateFree();
        if (options.onTick) options.onTick();
    }
    for (pid_t pid : sessions) ::kill(pid, SIGTERM);
    for (pid_t pid : sessions) ::waitpid(pid, nullptr, 0);
    log("stopped");
}

} // namespace tessel::rpc
