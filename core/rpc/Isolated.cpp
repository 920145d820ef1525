#include "rpc/Isolated.h"

#include "rpc/Connection.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tessel::rpc {

std::string signalText(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    const char* desc = strsignal(sig);
    std::string s = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
    if (desc) s += std::string(" (") + desc + ")";
    return s;
}

namespace {

void writeAllFd(int fd, const char* p, size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w;
        n -= static_cast<size_t>(w);
    }
}

/// The child's side: one status byte, then the bytes or the message.
[[noreturn]] void childMain(int fd, const std::function<std::vector<char>()>& work) {
    // A crash must end the child at once, whatever handlers the parent had
    // (a test framework's stack printer would otherwise run in here).
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT})
        ::signal(sig, SIG_DFL);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a run does not outlive its session
    char status = 0;
    std::vector<char> out;
    try {
        out = work();
    } catch (const std::exception& e) {
        status = 1;
        const char* m = e.what();
        out.assign(m, m + std::strlen(m));
    } catch (...) {
        status = 1;
        const char m[] = "unknown exception";
        out.assign(m, m + sizeof m - 1);
    }
    writeAllFd(fd, &status, 1);
    writeAllFd(fd, out.data(), out.size());
    ::close(fd);
    ::_exit(0); // no destructors: the inherited state belongs to the parent
}

} // namespace

IsolatedResult runIsolated(const std::function<std::vector<char>()>& work, int64_t timeoutMs) {
    IsolatedResult r;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        r.status = IsolatedResult::Status::Failed;
        r.message = std::string("cannot create a pipe: ") + std::strerror(errno);
        return r;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        r.status = IsolatedResult::Status::Failed;
        r.message = std::string("cannot fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        ::close(fds[0]);
        childMain(fds[1], work);
    }
    ::close(fds[1]);

    // Read until the child closes its end (it exits, crashes or is killed).
    std::vector<char> got;
    const Deadline deadline = deadlineIn(timeoutMs);
    bool timedOut = false;
    char buf[65536];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) { timedOut = true; break; }
        pollfd p{fds[0], POLLIN, 0};
        const int rc = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
        if (rc < 0 && errno == EINTR) continue;
        if (rc == 0) { timedOut = true; break; }
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got.insert(got.end(), buf, buf + n);
    }
    ::close(fds[0]);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}

    if (timedOut) {
        r.status = IsolatedResult::Status::TimedOut;
        r.message = "ran past the time limit of " + std::to_string(timeoutMs / 1000.0).substr(0, 6) + " s and was killed";
        return r;
    }
    if (WIFSIGNALED(status)) {
        r.status = IsolatedResult::Status::Crashed;
        r.signal = WTERMSIG(status);
        r.message = "crashed: " + signalText(r.signal);
        return r;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty()) {
        r.status = IsolatedResult::Status::Crashed;
        r.message = "exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                    " before it finished";
        return r;
    }
    if (got[0] != 0) {
        r.status = IsolatedResult::Status::Failed;
        r.message.assign(got.begin() + 1, got.end());
        return r;
    }
    r.bytes.assign(got.begin() + 1, got.end());
    return r;
}

} // namespace tessel::rpc
