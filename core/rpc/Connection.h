/// \file
/// One TCP connection that sends and receives frames with a deadline on every
/// step, and the error every RPC step throws.
///
/// The socket is Asio's, in non-blocking mode; a step waits with poll() until
/// its deadline, so a Connection needs no running io_context and survives a
/// fork() (the server hands an accepted socket to a session process). Every
/// failure is an RpcError that says which step failed ("connect",
/// "upload", ...) and why (refused, timed out, closed, a malformed frame, or
/// the peer's own Error frame).
#pragma once

#include "rpc/Protocol.h"

#include <chrono>
#include <memory>
#include <string>

namespace tessel::rpc {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
/// Now + `ms` milliseconds.
Deadline deadlineIn(int64_t ms);

/// Why an RPC step failed.
enum class Failure {
    Connect,  ///< could not reach the peer (refused, unreachable, name unknown)
    Timeout,  ///< the step ran past its deadline
    Closed,   ///< the peer closed the connection
    Protocol, ///< the peer sent something malformed or unexpected
    Remote,   ///< the peer answered with an Error frame (remote() says which)
};

const char* failureName(Failure failure);

class RpcError : public std::runtime_error {
public:
    RpcError(std::string step, Failure failure, const std::string& why, ErrorCode remote = ErrorCode::Internal);
    /// The step that failed: "connect 127.0.0.1:9090", "handshake", "run gemm", ...
    const std::string& step() const { return step_; }
    Failure failure() const { return failure_; }
    /// The Error frame's code, for Failure::Remote.
    ErrorCode remote() const { return remote_; }
    /// Just the reason, without the step.
    const std::string& why() const { return why_; }

private:
    std::string step_;
    Failure failure_;
    ErrorCode remote_;
    std::string why_;
};

class Connection {
public:
    Connection();
    ~Connection();
    Connection(Connection&&) noexcept;
    Connection& operator=(Connection&&) noexcept;

    /// Connects to host:port (a name or an address) before `deadline`.
    static Connection connect(const std::string& host, uint16_t port, Deadline deadline);
    /// Takes over a connected socket descriptor (it is closed with the Connection).
    static Connection adopt(int fd);

    bool isOpen() const;
    int fd() const;
    /// "127.0.0.1:53422".
    std::string peer() const;
    /// Shuts the connection down (the peer sees it closed) and closes it.
    void close();
    /// Closes this process's descriptor only, without shutting the socket
    /// down: after fork(), the parent lets go of a socket its child serves.
    void abandon();

    /// Sends one frame: header, `payload`, then `tail` (so an upload's bytes
    /// are not copied into the payload). `step` names the step in errors.
    void send(uint16_t code, const std::vector<char>& payload, Deadline deadline, const std::string& step,
              const void* tail = nullptr, size_t tailBytes = 0);
    void send(Code code, const std::vector<char>& payload, Deadline deadline, const std::string& step) {
        send(static_cast<uint16_t>(code), payload, deadline, step);
    }
    /// Receives one frame of at most `maxPayload` bytes. A malformed header
    /// is Failure::Protocol; the caller closes the connection.
    Frame receive(uint64_t maxPayload, Deadline deadline, const std::string& step);
    /// Whether a byte (or the peer's close) is ready within `ms` milliseconds.
    bool waitReadable(int ms) const;

    /// Sends a request and receives its reply: Ok's payload, or an RpcError
    /// (Failure::Remote) for an Error frame.
    std::vector<char> call(Code code, const std::vector<char>& payload, uint64_t maxReply, Deadline deadline,
                           const std::string& step, const void* tail = nullptr, size_t tailBytes = 0);

private:
    struct State;
    std::unique_ptr<State> s_;
    void writeAll(const char* data, size_t size, Deadline deadline, const std::string& step);
    void readAll(char* data, size_t size, Deadline deadline, const std::string& step);
};

/// A listening socket; accept() waits at most until a deadline.
class Listener {
public:
    /// Binds host:port (port 0 picks a free one) and listens.
    Listener(const std::string& host, uint16_t port);
    ~Listener();
    uint16_t port() const;
    int fd() const;
    /// The next connection, or an unopened Connection when none came within
    /// `ms` or `wakeFd` (when not -1) became readable first.
    Connection accept(int ms, int wakeFd = -1);

private:
    struct State;
    std::unique_ptr<State> s_;
};

/// Whether `host` names a loopback address (127.0.0.0/8, ::1, "localhost").
bool isLoopback(const std::string& host);

} // namespace tessel::rpc
