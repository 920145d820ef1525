#include "rpc/Connection.h"

#include <asio.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tessel::rpc {

Deadline deadlineIn(int64_t ms) { return Clock::now() + std::chrono::milliseconds(ms); }

const char* failureName(Failure failure) {
    switch (failure) {
    case Failure::Connect: return "connect";
    case Failure::Timeout: return "timeout";
    case Failure::Closed: return "closed";
    case Failure::Protocol: return "protocol";
    case Failure::Remote: return "remote";
    }
    return "remote";
}

RpcError::RpcError(std::string step, Failure failure, const std::string& why, ErrorCode remote)
    : std::runtime_error(step + ": " + why), step_(std::move(step)), failure_(failure), remote_(remote), why_(why) {}

namespace {

/// Milliseconds left until `deadline` (0 when past), for poll().
int msLeft(Deadline deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return 0;
    return left > 1 << 30 ? 1 << 30 : static_cast<int>(left);
}

/// Waits for `events` on `fd` until `deadline`; false on timeout.
bool waitFor(int fd, short events, Deadline deadline) {
    for (;;) {
        pollfd p{fd, events, 0};
        const int ms = msLeft(deadline);
        const int rc = ::poll(&p, 1, ms);
        if (rc > 0) return true;
        if (rc == 0) return false;
        if (errno != EINTR) return true; // let the read or write report the error
    }
}

} // namespace

struct Connection::State {
    asio::io_context io;
    asio::ip::tcp::socket socket{io};
};

Connection::Connection() = default;
Connection::~Connection() = default;
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&&) noexcept = default;

Connection Connection::connect(const std::string& host, uint16_t port, Deadline deadline) {
    const std::string step = "connect " + host + ":" + std::to_string(port);
    Connection c;
    c.s_ = std::make_unique<State>();
    asio::error_code ec;
    asio::ip::tcp::resolver resolver(c.s_->io);
    auto endpoints = resolver.resolve(host, std::to_string(port), asio::ip::tcp::resolver::numeric_service, ec);
    if (ec) throw RpcError(step, Failure::Connect, "cannot resolve '" + host + "': " + ec.message());
    std::string last = "no address";
    for (const auto& entry : endpoints) {
        auto& sock = c.s_->socket;
        sock.close(ec);
        sock.open(entry.endpoint().protocol(), ec);
        if (ec) { last = ec.message(); continue; }
        sock.non_blocking(true, ec);
        ::fcntl(sock.native_handle(), F_SETFD, FD_CLOEXEC);
        sock.connect(entry.endpoint(), ec);
        if (ec == asio::error::in_progress || ec == asio::error::would_block) {
            if (!waitFor(sock.native_handle(), POLLOUT, deadline))
                throw RpcError(step, Failure::Timeout, "no answer within the time limit");
            int err = 0;
            socklen_t len = sizeof err;
            ::getsockopt(sock.native_handle(), SOL_SOCKET, SO_ERROR, &err, &len);
            ec = asio::error_code(err, asio::system_category());
        }
        if (!ec) {
            sock.set_option(asio::ip::tcp::no_delay(true), ec);
            return c;
        }
        last = ec.message();
    }
    throw RpcError(step, Failure::Connect, last);
}

Connection Connection::adopt(int fd) {
    Connection c;
    c.s_ = std::make_unique<State>();
    asio::error_code ec;
    c.s_->socket.assign(asio::ip::tcp::v4(), fd, ec); // the protocol only picks the socket's family label
    if (ec) {
        ::close(fd);
        throw RpcError("adopt", Failure::Connect, ec.message());
    }
    c.s_->socket.non_blocking(true, ec);
    c.s_->socket.set_option(asio::ip::tcp::no_delay(true), ec);
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    return c;
}

bool Connection::isOpen() const { return s_ && s_->socket.is_open(); }
int Connection::fd() const { return isOpen() ? s_->socket.native_handle() : -1; }

std::string Connection::peer() const {
    if (!isOpen()) return "(closed)";
    asio::error_code ec;
    auto ep = s_->socket.remote_endpoint(ec);
    if (ec) return "(unknown peer)";
    return ep.address().to_string() + ":" + std::to_string(ep.port());
}

void Connection::close() {
    if (!s_) return;
    asio::error_code ec;
    s_->socket.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    s_->socket.close(ec);
}

void Connection::abandon() {
    if (!isOpen()) return;
    asio::error_code ec;
    const int fd = s_->socket.release(ec);
    if (!ec && fd >= 0) ::close(fd);
}

bool Connection::waitReadable(int ms) const {
    if (!isOpen()) return true;
    pollfd p{fd(), POLLIN, 0};
    return ::poll(&p, 1, ms) > 0;
}

void Connection::writeAll(const char* data, size_t size, Deadline deadline, const std::string& step) {
    if (!isOpen()) throw RpcError(step, Failure::Closed, "the connection is closed");
    while (size > 0) {
        asio::error_code ec;
        const size_t n = s_->socket.write_some(asio::buffer(data, size), ec);
        if (ec == asio::error::would_block || ec == asio::error::try_again || ec == asio::error::interrupted) {
            if (!waitFor(fd(), POLLOUT, deadline))
                throw RpcError(step, Failure::Timeout, "the peer took no data within the time limit");
            continue;
        }
        if (ec) throw RpcError(step, Failure::Closed, "the connection broke while sending (" + ec.message() + ")");
        data += n;
        size -= n;
    }
}

void Connection::readAll(char* data, size_t size, Deadline deadline, const std::string& step) {
    if (!isOpen()) throw RpcError(step, Failure::Closed, "the connection is closed");
    while (size > 0) {
        asio::error_code ec;
        const size_t n = s_->socket.read_some(asio::buffer(data, size), ec);
        if (ec == asio::error::would_block || ec == asio::error::try_again || ec == asio::error::interrupted) {
            if (!waitFor(fd(), POLLIN, deadline))
                throw RpcError(step, Failure::Timeout, "no answer within the time limit");
            continue;
        }
        if (ec == asio::error::eof) throw RpcError(step, Failure::Closed, "the peer closed the connection");
        if (ec) throw RpcError(step, Failure::Closed, "the connection broke while receiving (" + ec.message() + ")");
        data += n;
        size -= n;
    }
}

void Connection::send(uint16_t code, const std::vector<char>& payload, Deadline deadline, const std::string& step,
                      const void* tail, size_t tailBytes) {
    char header[kHeaderBytes];
    writeHeader(header, code, payload.size() + tailBytes);
    writeAll(header, sizeof header, deadline, step);
    writeAll(payload.data(), payload.size(), deadline, step);
    if (tailBytes) writeAll(static_cast<const char*>(tail), tailBytes, deadline, step);
}

Frame Connection::receive(uint64_t maxPayload, Deadline deadline, const std::string& step) {
    char header[kHeaderBytes];
    readAll(header, sizeof header, deadline, step);
    Header h;
    try {
        h = readHeader(header, maxPayload);
    } catch (const ProtocolError& e) {
        throw RpcError(step, Failure::Protocol, e.what());
    }
    Frame f;
    f.code = h.code;
    // Grow with the bytes that actually arrive, so a peer that announces a
    // large frame and sends little costs little.
    const size_t total = static_cast<size_t>(h.length);
    size_t have = 0;
    while (have < total) {
        const size_t next = std::min(total, std::max<size_t>(have * 2, 1 << 16));
        f.payload.resize(next);
        readAll(f.payload.data() + have, next - have, deadline, step);
        have = next;
    }
    return f;
}

std::vector<char> Connection::call(Code code, const std::vector<char>& payload, uint64_t maxReply, Deadline deadline,
                                   const std::string& step, const void* tail, size_t tailBytes) {
    send(static_cast<uint16_t>(code), payload, deadline, step, tail, tailBytes);
    Frame reply = receive(maxReply, deadline, step);
    if (reply.code == static_cast<uint16_t>(Code::Ok)) return std::move(reply.payload);
    if (reply.code == static_cast<uint16_t>(Code::Error)) {
        ErrorInfo e;
        try {
            e = readError(reply);
        } catch (const ProtocolError& pe) {
            throw RpcError(step, Failure::Protocol, std::string("malformed error frame: ") + pe.what());
        }
        throw RpcError(step, Failure::Remote, e.message, e.code);
    }
    throw RpcError(step, Failure::Protocol, "unexpected " + codeName(reply.code) + " frame in reply");
}

struct Listener::State {
    asio::io_context io;
    asio::ip::tcp::acceptor acceptor{io};
};

Listener::Listener(const std::string& host, uint16_t port) : s_(std::make_unique<State>()) {
    asio::error_code ec;
    asio::ip::tcp::resolver resolver(s_->io);
    auto endpoints = resolver.resolve(host, std::to_string(port),
                                      asio::ip::tcp::resolver::numeric_service | asio::ip::tcp::resolver::passive, ec);
    if (ec || endpoints.empty())
        throw RpcError("listen " + host + ":" + std::to_string(port), Failure::Connect,
                       "cannot resolve '" + host + "'" + (ec ? ": " + ec.message() : ""));
    const auto ep = endpoints.begin()->endpoint();
    auto fail = [&](const char* what) {
        throw RpcError("listen " + host + ":" + std::to_string(port), Failure::Connect,
                       std::string(what) + ": " + ec.message());
    };
    s_->acceptor.open(ep.protocol(), ec);
    if (ec) fail("cannot open a socket");
    s_->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    s_->acceptor.bind(ep, ec);
    if (ec) fail("cannot bind");
    s_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) fail("cannot listen");
    s_->acceptor.non_blocking(true, ec);
    ::fcntl(s_->acceptor.native_handle(), F_SETFD, FD_CLOEXEC);
}

Listener::~Listener() = default;

uint16_t Listener::port() const {
    asio::error_code ec;
    return s_->acceptor.local_endpoint(ec).port();
}

int Listener::fd() const { return s_->acceptor.native_handle(); }

Connection Listener::accept(int ms, int wakeFd) {
    pollfd p[2] = {{fd(), POLLIN, 0}, {wakeFd, POLLIN, 0}};
    if (::poll(p, wakeFd >= 0 ? 2 : 1, ms) <= 0 || !(p[0].revents & POLLIN)) return {};
    asio::error_code ec;
    asio::ip::tcp::socket sock(s_->io);
    s_->acceptor.accept(sock, ec);
    if (ec) return {};
    const int fd = sock.release(ec);
    if (ec) return {};
    return Connection::adopt(fd);
}

bool isLoopback(const std::string& host) {
    if (host == "localhost") return true;
    asio::error_code ec;
    const auto addr = asio::ip::make_address(host, ec);
    return !ec && addr.is_loopback();
}

} // namespace tessel::rpc
