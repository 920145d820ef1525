/// \file
/// Running a piece of work in a forked child, so that a kernel that crashes
/// or never returns costs that child only.
///
/// The child inherits the caller's memory copy-on-write (the loaded module,
/// the session's tensors, which live in shared mappings so the kernel's
/// writes reach the caller), runs the work, writes its result bytes into a
/// pipe and exits without running destructors. The caller waits at most
/// `timeoutMs`, then kills it. Call it only from a single-threaded process
/// (a server session): the child gets only the calling thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tessel::rpc {

struct IsolatedResult {
    enum class Status { Ok, Failed, Crashed, TimedOut };
    Status status = Status::Ok;
    /// Ok: what the work returned. Failed: nothing.
    std::vector<char> bytes;
    /// Failed: the exception's message. Crashed: the signal ("SIGSEGV
    /// (Segmentation fault)") or exit status. TimedOut: the limit.
    std::string message;
    /// Crashed by a signal: its number.
    int signal = 0;
};

/// Runs `work` in a child process. An exception in `work` is Failed with
/// its message; a signal is Crashed; past `timeoutMs` the child is killed
/// (SIGKILL) and the result is TimedOut.
IsolatedResult runIsolated(const std::function<std::vector<char>()>& work, int64_t timeoutMs);

/// "SIGSEGV (Segmentation fault)".
std::string signalText(int signal);

} // namespace tessel::rpc
