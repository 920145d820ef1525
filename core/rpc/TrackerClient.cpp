#include "rpc/TrackerClient.h"

#include "rpc/Handshake.h"

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <thread>

namespace tessel::rpc {

namespace {

std::string defaultName() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "client");
    return std::string(host) + ":" + std::to_string(::getpid());
}

int msUntil(Deadline d) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(d - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, 1 << 30));
}

std::string where(const std::string& host, uint16_t port) {
    return host + ":" + std::to_string(port);
}

/// clientHandshake, its errors naming the tracker.
void shakeHands(Connection& c, Role role, const std::string& name, const std::string& token,
                const std::string& host, uint16_t port, Deadline deadline) {
    try {
        clientHandshake(c, role, name, token, deadline);
    } catch (const RpcError& e) {
        throw RpcError("handshake with the tracker at " + where(host, port), e.failure(), e.why(),
                       e.remote());
    }
}

[[noreturn]] void remoteError(const Frame& f, const std::string& step) {
    ErrorInfo e;
    try {
        e = readError(f);
    } catch (const ProtocolError& pe) {
        throw RpcError(step, Failure::Protocol, std::string("malformed error frame: ") + pe.what());
    }
    throw RpcError(step, Failure::Remote, e.message, e.code);
}

Assignment readAssign(const Frame& f, const std::string& step) {
    try {
        return parseAssign(f);
    } catch (const ProtocolError& e) {
        throw RpcError(step, Failure::Protocol, std::string("malformed assign frame: ") + e.what());
    }
}

} // namespace

TrackerClient::TrackerClient(const std::string& host, uint16_t port, const std::string& token,
                             int timeoutMs, std::string name)
    : host_(host), port_(port), token_(token), timeoutMs_(timeoutMs), name_(std::move(name)) {
    if (name_.empty()) name_ = defaultName();
    connect();
}

TrackerClient::~TrackerClient() = default;
TrackerClient::TrackerClient(TrackerClient&&) noexcept = default;
TrackerClient& TrackerClient::operator=(TrackerClient&&) noexcept = default;

void TrackerClient::connect() {
    Connection c = Connection::connect(host_, port_, deadlineIn(timeoutMs_));
    shakeHands(c, Role::Client, name_, token_, host_, port_, deadlineIn(timeoutMs_));
    c_ = std::move(c);
    state_ = State::Idle;
}

void TrackerClient::sendRequest(Deadline) {
    c_.send(Code::Request, payloadOf(RequestMessage{key_, priority_, name_}),
            deadlineIn(timeoutMs_), "request a server of key '" + key_ + "'");
    state_ = State::Waiting;
}

Frame TrackerClient::next(Deadline deadline, const std::string& step) {
    while (!c_.waitReadable(std::min(msUntil(deadline), 1000)))
        if (Clock::now() >= deadline)
            throw RpcError(step, Failure::Timeout,
                           "no server of key '" + key_ +
                               "' became free in time; the request keeps its place in the "
                               "queue (`tessel-rpc query " +
                               where(host_, port_) + "` shows it)");
    // Something came: a whole frame follows at once (the tracker writes
    // whole frames), so take it even when the caller's deadline just ended.
    return c_.receive(kMaxTrackerFrame, std::max(deadline, deadlineIn(timeoutMs_)), step);
}

Assignment TrackerClient::awaitAssign(Deadline deadline, const std::string& step) {
    for (;;) {
        Frame f = next(deadline, step);
        if (f.code == static_cast<uint16_t>(Code::Assign)) {
            held_ = readAssign(f, step);
            state_ = State::Holding;
            return held_;
        }
        if (f.code == static_cast<uint16_t>(Code::Error)) {
            state_ = State::Idle;
            remoteError(f, step);
        }
        throw RpcError(step, Failure::Protocol,
                       "unexpected " + codeName(f.code) + " frame while waiting for a server");
    }
}

Assignment TrackerClient::request(const std::string& key, int priority, Deadline deadline) {
    const std::string step =
        "request a server of key '" + key + "' from the tracker at " + where(host_, port_);
    if (!isValidTrackerKey(key))
        throw RpcError(step, Failure::Protocol,
                       "a key is 1 to " + std::to_string(kMaxTrackerKey) +
                           " printable ASCII characters without spaces");
    if (state_ == State::Holding || (state_ == State::Waiting && key != key_)) release();
    for (;;) {
        try {
            if (!c_.isOpen()) connect();
            if (state_ == State::Idle) {
                key_ = key;
                priority_ = priority;
                sendRequest(deadline);
            }
            return awaitAssign(deadline, step);
        } catch (const RpcError& e) {
            // The tracker went away (restarted): the request went with the
            // connection, so ask anew until the deadline.
            const bool retry =
                e.failure() == Failure::Closed || (e.failure() == Failure::Connect && !c_.isOpen());
            if (!retry || Clock::now() + std::chrono::milliseconds(200) >= deadline) throw;
            c_.close();
            c_ = Connection();
            state_ = State::Idle;
            std::this_thread::sleep_for(
                std::chrono::milliseconds(std::min(500, msUntil(deadline) / 2)));
        }
    }
}

Assignment TrackerClient::reassign(Deadline deadline) {
    const std::string step = "reassign (server #" + std::to_string(held_.serverId) +
                             " failed) at the tracker at " + where(host_, port_);
    if (state_ != State::Holding)
        throw RpcError(step, Failure::Protocol, "no server is held: request one first");
    if (!c_.isOpen()) {
        state_ = State::Idle;
        return request(key_, priority_, deadline);
    }
    try {
        c_.send(Code::Release, payloadOf(ReleaseMessage{held_.serverId, true}),
                deadlineIn(timeoutMs_), step);
        // The tracker may have moved the request on already (it dropped the
        // failed server): then an Assign comes before the Ok.
        std::optional<Assignment> moved;
        for (;;) {
            Frame f = next(deadlineIn(timeoutMs_), step);
            if (f.code == static_cast<uint16_t>(Code::Assign)) {
                moved = readAssign(f, step);
                continue;
            }
            if (f.code == static_cast<uint16_t>(Code::Ok)) break;
            if (f.code == static_cast<uint16_t>(Code::Error)) {
                state_ = State::Idle;
                remoteError(f, step);
            }
            throw RpcError(step, Failure::Protocol, "unexpected " + codeName(f.code) + " frame");
        }
        if (moved) {
            held_ = *moved;
            return held_;
        }
        state_ = State::Waiting;
        return awaitAssign(deadline, step);
    } catch (const RpcError& e) {
        if (e.failure() != Failure::Closed) throw;
        c_.close();
        c_ = Connection();
        state_ = State::Idle;
        return request(key_, priority_, deadline);
    }
}

void TrackerClient::release() {
    if (state_ == State::Idle) return;
    const uint64_t id = state_ == State::Holding ? held_.serverId : 0;
    state_ = State::Idle;
    held_ = {};
    if (!c_.isOpen()) return;
    try {
        c_.send(Code::Release, payloadOf(ReleaseMessage{id, false}), deadlineIn(timeoutMs_),
                "release");
        // An Assign before the Ok was for this request (the tracker moved it
        // to another server): the release gave that one back too.
        for (;;) {
            Frame f = next(deadlineIn(timeoutMs_), "release");
            if (f.code == static_cast<uint16_t>(Code::Assign)) continue;
            if (f.code != static_cast<uint16_t>(Code::Ok)) c_.close();
            break;
        }
    } catch (const RpcError&) {
        c_.close(); // the tracker releases what a closed connection held
    }
}

TrackerStatus queryTracker(const std::string& host, uint16_t port, const std::string& token,
                           int timeoutMs) {
    const Deadline deadline = deadlineIn(timeoutMs);
    Connection c = Connection::connect(host, port, deadline);
    shakeHands(c, Role::Query, "tessel-rpc query", token, host, port, deadline);
    const std::string step = "query the tracker at " + where(host, port);
    const std::vector<char> reply = c.call(Code::Query, {}, kMaxTrackerFrame, deadline, step);
    try {
        Reader r(reply);
        std::string json = r.str(kMaxTrackerFrame);
        r.finish();
        return TrackerStatus::fromJson(json);
    } catch (const ProtocolError& e) {
        throw RpcError(step, Failure::Protocol, e.what());
    }
}

} // namespace tessel::rpc
