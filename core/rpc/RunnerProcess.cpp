#include "rpc/RunnerProcess.h"

#include "rpc/Connection.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tessel::rpc {

std::string signalText(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    const char* desc = strsignal(sig);
    std::string s = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
    if (desc) s += std::string(" (") + desc + ")";
    return s;
}

namespace {

bool writeAllFd(int fd, const char* p, size_t n) {
    while (n > 0) {
        const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

/// Blocking read of exactly n bytes; false at the end of the stream.
bool readAllFd(int fd, char* p, size_t n) {
    while (n > 0) {
        const ssize_t r = ::read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= static_cast<size_t>(r);
    }
    return true;
}

bool sendMessage(int fd, const std::vector<char>& payload) {
    const uint64_t n = payload.size();
    return writeAllFd(fd, reinterpret_cast<const char*>(&n), sizeof n) && writeAllFd(fd, payload.data(), payload.size());
}

/// The largest reply the parent takes (replies are timings and names).
constexpr uint64_t kMaxReply = uint64_t(64) << 20;

} // namespace

RunnerProcess::RunnerProcess(std::function<void()> start, Serve serve)
    : start_(std::move(start)), serve_(std::move(serve)) {}

RunnerProcess::~RunnerProcess() { stop(); }

void RunnerProcess::stop() {
    if (pid_ <= 0) return;
    ::close(fd_);
    fd_ = -1;
    ::kill(pid_, SIGKILL); // it may be in the middle of a kernel
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {}
    pid_ = -1;
}

void RunnerProcess::ensureRunning() {
    if (pid_ > 0) return;
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw std::runtime_error(std::string("cannot create a socket pair: ") + std::strerror(errno));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(std::string("cannot fork the runner: ") + std::strerror(errno));
    }
    if (pid == 0) {
        ::close(fds[0]);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL); // it does not outlive its session
        if (::getppid() != parent) ::_exit(0);
        childMain(fds[1]);
    }
    ::close(fds[1]);
    fd_ = fds[0];
    pid_ = pid;
    ++forks_;
}

void RunnerProcess::childMain(int fd) {
    // A crash must end the child at once, whatever handlers the parent had
    // (a test framework's stack printer would otherwise run in here).
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT}) ::signal(sig, SIG_DFL);
    std::string startError;
    try {
        if (start_) start_();
    } catch (const std::exception& e) {
        startError = std::string("the runner could not take over the session's state: ") + e.what();
    }
    std::vector<char> request;
    for (;;) {
        uint64_t n = 0;
        if (!readAllFd(fd, reinterpret_cast<char*>(&n), sizeof n) || n > (uint64_t(1) << 30)) ::_exit(0);
        request.resize(static_cast<size_t>(n));
        if (!readAllFd(fd, request.data(), request.size())) ::_exit(0);
        std::vector<char> reply(1, 0);
        try {
            if (!startError.empty()) throw std::runtime_error(startError);
            Reader r(request);
            std::vector<char> out = serve_(r);
            reply.insert(reply.end(), out.begin(), out.end());
        } catch (const std::exception& e) {
            const char* m = e.what();
            reply.assign(1, 1);
            reply.insert(reply.end(), m, m + std::strlen(m));
        } catch (...) {
            const char m[] = "unknown exception";
            reply.assign(1, 1);
            reply.insert(reply.end(), m, m + sizeof m - 1);
        }
        if (!sendMessage(fd, reply)) ::_exit(0);
    }
}

RunnerReply RunnerProcess::reap(bool killIt, bool timedOut, int64_t timeoutMs) {
    ::close(fd_);
    fd_ = -1;
    if (killIt) ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
    pid_ = -1;
    RunnerReply r;
    if (timedOut) {
        r.status = RunnerReply::Status::TimedOut;
        r.message = "ran past the time limit of " + std::to_string(timeoutMs / 1000.0).substr(0, 6) + " s and was killed";
    } else if (WIFSIGNALED(status)) {
        r.status = RunnerReply::Status::Crashed;
        r.signal = WTERMSIG(status);
        r.message = "crashed: " + signalText(r.signal);
    } else {
        r.status = RunnerReply::Status::Crashed;
        r.message = "exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                    " before it finished";
    }
    return r;
}

RunnerReply RunnerProcess::call(const std::vector<char>& request, int64_t timeoutMs) {
    ensureRunning();
    if (!sendMessage(fd_, request)) return reap(false, false, timeoutMs); // it died since the last request

    // The reply: its length, then status byte and bytes; or the end of the
    // stream when the child dies.
    const Deadline deadline = deadlineIn(timeoutMs);
    std::vector<char> got;
    uint64_t want = sizeof(uint64_t);
    bool haveLength = false;
    char buf[65536];
    while (got.size() < want) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return reap(true, true, timeoutMs);
        pollfd p{fd_, POLLIN, 0};
        const int rc = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 1 << 30)));
        if (rc < 0 && errno == EINTR) continue;
        if (rc == 0) return reap(true, true, timeoutMs);
        const ssize_t n = ::read(fd_, buf, std::min<size_t>(sizeof buf, static_cast<size_t>(want - got.size())));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return reap(false, false, timeoutMs);
        got.insert(got.end(), buf, buf + n);
        if (!haveLength && got.size() == sizeof(uint64_t)) {
            uint64_t len = 0;
            std::memcpy(&len, got.data(), sizeof len);
            if (len == 0 || len > kMaxReply) return reap(true, false, timeoutMs);
            want += len;
            haveLength = true;
        }
    }
    RunnerReply r;
    const char status = got[sizeof(uint64_t)];
    const auto body = got.begin() + sizeof(uint64_t) + 1;
    if (status == 0) {
        r.bytes.assign(body, got.end());
    } else {
        r.status = RunnerReply::Status::Failed;
        r.message.assign(body, got.end());
    }
    return r;
}

} // namespace tessel::rpc
