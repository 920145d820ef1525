/// \file
/// The process a session runs its kernels in: forked once, ahead of the
/// work, and replaced only after it crashes or hangs (TVM pre-forks its
/// runners the same way), so a kernel that crashes or never returns costs
/// that process and not the session, and a run costs two small messages on
/// a socket pair rather than a fork.
///
/// Requests and replies are byte strings; the child serves them one at a
/// time with the `serve` function given, in its own copy of the parent's
/// memory (it is a fork: whatever the parent had when it was forked, the
/// child has), and `start` runs in the child right after each fork to set
/// up what the parent's state implies (a session's loaded module). The
/// caller waits at most a time limit for a reply, then kills the child.
/// Call it from a single-threaded process (a server session): a fork
/// carries only the calling thread.
#pragma once

#include "rpc/Protocol.h"

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace tessel::rpc {

struct RunnerReply {
    enum class Status { Ok, Failed, Crashed, TimedOut };
    Status status = Status::Ok;
    /// Ok: what `serve` returned.
    std::vector<char> bytes;
    /// Failed: the exception's message. Crashed: the signal ("crashed:
    /// SIGSEGV (Segmentation fault)") or exit status. TimedOut: the limit.
    std::string message;
    /// Crashed by a signal: its number.
    int signal = 0;
};

class RunnerProcess {
public:
    /// Runs in the child for each request; an exception is a Failed reply
    /// with its message (the child goes on).
    using Serve = std::function<std::vector<char>(Reader& request)>;

    /// `start` (may be empty) runs in the child once after each fork; an
    /// exception there ends the child (the request that forked it fails as
    /// crashed, with the message).
    RunnerProcess(std::function<void()> start, Serve serve);
    ~RunnerProcess();
    RunnerProcess(const RunnerProcess&) = delete;
    RunnerProcess& operator=(const RunnerProcess&) = delete;

    /// Forks the child now unless it runs; throws std::runtime_error when the
    /// fork fails.
    void ensureRunning();
    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }
    /// How many children were forked (1 until one crashed or hung).
    int forks() const { return forks_; }

    /// Sends `request` (forking a child first when none runs) and waits at
    /// most `timeoutMs` for the reply. After Crashed or TimedOut the child
    /// is gone; the next call forks another.
    RunnerReply call(const std::vector<char>& request, int64_t timeoutMs);

    /// Ends the child (it reads the end of its requests and exits; SIGKILL
    /// if it does not at once).
    void stop();

private:
    [[noreturn]] void childMain(int fd);
    RunnerReply reap(bool killIt, bool timedOut, int64_t timeoutMs);

    std::function<void()> start_;
    Serve serve_;
    pid_t pid_ = -1;
    int fd_ = -1; ///< the parent's end of the socket pair
    int forks_ = 0;
};

/// "SIGSEGV (Segmentation fault)".
std::string signalText(int signal);

} // namespace tessel::rpc
