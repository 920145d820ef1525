#include "rpc/Tracker.h"

#include "rpc/Connection.h"
#include "rpc/Handshake.h"
#include "rpc/TrackerMessage.h"
#include "rpc/TrackerState.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>

namespace tessel::rpc {

namespace {

using PeerId = TrackerState::PeerId;
using Time = Clock::time_point;

/// Bytes read from one peer per turn of the loop, so a peer that floods
/// cannot starve the others.
constexpr size_t kReadChunk = 64 << 10;
/// Replies queued for a peer that does not read them, before it is dropped.
constexpr size_t kMaxQueuedOutput = 16 << 20;
/// How long a peer told to go gets to take its Error frame.
constexpr int kCloseGraceMs = 1000;

int64_t msSince(Time then, Time now) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(now - then).count();
}

enum class Stage { Hello, Auth, Ready, Closing };

struct Peer {
    Connection conn;
    std::string address;
    Stage stage = Stage::Hello;
    Role role = Role::Client;
    std::string name;
    Nonce nonce{};
    FrameDecoder decoder{kMaxHandshakeFrame};
    std::vector<char> out;
    size_t outPos = 0;
    Time accepted{}, lastInput{}, lastOutput{}, closeBy{};
    /// When the frame now incomplete began (epoch: none).
    Time partialSince{};
    /// TrackerState knows it (connected) and has not been told it is gone.
    bool inState = false;
    bool dead = false;
};

class TrackerLoop {
public:
    TrackerLoop(const TrackerOptions& o, Listener& listener)
        : o_(o), listener_(listener), state_(o.heartbeatTimeoutMs, o.log, Clock::now()) {}
    void run(const std::atomic<bool>& stop);

private:
    void log(const std::string& line) const {
        if (o_.log) o_.log(line);
    }
    std::string describe(const Peer& p) const {
        if (p.stage == Stage::Hello) return "peer " + p.address;
        return std::string(roleName(p.role)) + " '" + p.name + "' (" + p.address + ")";
    }
    void acceptAll(Time now);
    void readFrom(PeerId id, Peer& p, Time now);
    void onFrame(PeerId id, Peer& p, const Frame& f, Time now);
    void writeTo(Peer& p, Time now);
    void enqueue(Peer& p, uint16_t code, const std::vector<char>& payload);
    /// Sends an Error frame, then closes once it is out (or the grace ends).
    void closeWith(PeerId id, Peer& p, ErrorCode code, const std::string& why, Time now,
                   bool quiet = false);
    /// Closes at once.
    void kill(PeerId id, Peer& p, const std::string& why);
    void forget(PeerId id, Peer& p, const std::string& why, Time now);
    void applyOutputs(Time now);
    void checkTimeouts(Time now);

    const TrackerOptions& o_;
    Listener& listener_;
    TrackerState state_;
    std::map<PeerId, std::unique_ptr<Peer>> peers_;
    PeerId nextId_ = 1;
    const std::string welcome_ =
        "tessel-rpc tracker (protocol " + std::to_string(kProtocolVersion) + ")";
};

void TrackerLoop::enqueue(Peer& p, uint16_t code, const std::vector<char>& payload) {
    const size_t at = p.out.size();
    p.out.resize(at + kHeaderBytes);
    writeHeader(p.out.data() + at, code, payload.size());
    p.out.insert(p.out.end(), payload.begin(), payload.end());
}

void TrackerLoop::forget(PeerId id, Peer& p, const std::string& why, Time now) {
    if (!p.inState) return;
    p.inState = false;
    state_.disconnected(id, why, now);
}

void TrackerLoop::closeWith(PeerId id, Peer& p, ErrorCode code, const std::string& why, Time now,
                            bool quiet) {
    if (p.stage == Stage::Closing || p.dead) return;
    const bool refusal = code == ErrorCode::Auth || code == ErrorCode::Version;
    if (!quiet) log((refusal ? "refuse " : "close ") + describe(p) + ": " + why);
    enqueue(p, static_cast<uint16_t>(Code::Error), errorPayload(code, why));
    p.stage = Stage::Closing;
    p.closeBy = now + std::chrono::milliseconds(kCloseGraceMs);
    forget(id, p, why, now);
}

void TrackerLoop::kill(PeerId id, Peer& p, const std::string& why) {
    if (p.dead) return;
    // Who gave up on the handshake (a client refusing to prove a token it
    // lacks, a port scanner) is worth a line; the others are logged by
    // TrackerState.
    if (p.stage == Stage::Hello || p.stage == Stage::Auth)
        log(describe(p) + " left during the handshake (" + why + ")");
    p.dead = true;
    p.conn.close();
    forget(id, p, why, Clock::now());
}

void TrackerLoop::acceptAll(Time now) {
    for (int n = 0; n < 64; ++n) {
        Connection c = listener_.accept(0);
        if (!c.isOpen()) return;
        if (static_cast<int>(peers_.size()) >= o_.maxConnections) {
            log("refuse connection from " + c.peer() + ": " + std::to_string(peers_.size()) +
                " connections already (the limit)");
            continue; // closed as `c` goes
        }
        // Keep-alive finds a client whose machine vanished without a word
        // (it would hold its server forever): about 25 s.
        const int on = 1, idle = 10, interval = 5, count = 3;
        ::setsockopt(c.fd(), SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
        ::setsockopt(c.fd(), IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
        ::setsockopt(c.fd(), IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
        ::setsockopt(c.fd(), IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
        auto p = std::make_unique<Peer>();
        p->address = c.peer();
        p->conn = std::move(c);
        p->accepted = p->lastInput = p->lastOutput = now;
        peers_.emplace(nextId_++, std::move(p));
    }
}

void TrackerLoop::readFrom(PeerId id, Peer& p, Time now) {
    char buf[kReadChunk];
    const ssize_t n = ::recv(p.conn.fd(), buf, sizeof buf, 0);
    if (n == 0) {
        kill(id, p, "closed by the peer");
        return;
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
        kill(id, p, std::string("connection broke: ") + std::strerror(errno));
        return;
    }
    p.lastInput = now;
    try {
        p.decoder.feed(buf, static_cast<size_t>(n));
        while (p.stage != Stage::Closing && !p.dead) {
            std::optional<Frame> f = p.decoder.next();
            if (!f) break;
            onFrame(id, p, *f, now);
            applyOutputs(now);
        }
    } catch (const ProtocolError& e) {
        closeWith(id, p, ErrorCode::Protocol, std::string("malformed frame: ") + e.what(), now);
        return;
    }
    if (p.decoder.pending() == 0)
        p.partialSince = {};
    else if (p.partialSince == Time{})
        p.partialSince = now;
}

void TrackerLoop::onFrame(PeerId id, Peer& p, const Frame& f, Time now) {
    switch (p.stage) {
    case Stage::Hello: {
        Hello hello;
        try {
            hello = readHello(f);
        } catch (const RpcError& e) {
            closeWith(id, p, ErrorCode::Protocol, "handshake: " + e.why(), now);
            return;
        }
        p.role = hello.role;
        p.name = hello.name;
        p.stage = Stage::Auth; // from here on describe() names it
        if (const std::string why = versionRefusal(hello); !why.empty()) {
            closeWith(id, p, ErrorCode::Version, why, now);
            return;
        }
        p.nonce = randomNonce();
        enqueue(p, static_cast<uint16_t>(Code::Challenge),
                challengePayload(hello, !o_.token.empty(), p.nonce, welcome_));
        return;
    }
    case Stage::Auth: {
        std::string why;
        try {
            why = authRefusal(f, o_.token, p.nonce);
        } catch (const RpcError& e) {
            closeWith(id, p, ErrorCode::Protocol, "handshake: " + e.why(), now);
            return;
        }
        if (!why.empty()) {
            closeWith(id, p, ErrorCode::Auth, why, now);
            return;
        }
        enqueue(p, static_cast<uint16_t>(Code::Welcome), welcomePayload(welcome_));
        p.stage = Stage::Ready;
        p.decoder.setMaxPayload(kMaxTrackerFrame);
        state_.connected(id, p.role, p.name, p.address, now);
        p.inState = true;
        return;
    }
    case Stage::Ready: {
        TrackerMessage m;
        try {
            m = parseTrackerMessage(f);
        } catch (const ProtocolError& e) {
            closeWith(id, p, ErrorCode::Protocol,
                      "malformed " + codeName(f.code) + " frame: " + e.what(), now);
            return;
        }
        state_.handle(id, m, now);
        return;
    }
    case Stage::Closing:
        return;
    }
}

void TrackerLoop::writeTo(Peer& p, Time now) {
    while (p.outPos < p.out.size()) {
        const ssize_t n =
            ::send(p.conn.fd(), p.out.data() + p.outPos, p.out.size() - p.outPos, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
            p.dead = true; // reaped below with the reason
            return;
        }
        p.outPos += static_cast<size_t>(n);
        p.lastOutput = now;
    }
    p.out.clear();
    p.outPos = 0;
}

void TrackerLoop::applyOutputs(Time now) {
    for (;;) {
        auto outs = state_.takeOutputs();
        if (outs.empty()) return;
        for (auto& o : outs) {
            auto it = peers_.find(o.peer);
            if (it == peers_.end() || it->second->dead || it->second->stage == Stage::Closing)
                continue;
            Peer& p = *it->second;
            if (o.code) enqueue(p, o.code, o.payload);
            if (o.close) {
                // TrackerState logged why; the Error frame is queued.
                p.stage = Stage::Closing;
                p.closeBy = now + std::chrono::milliseconds(kCloseGraceMs);
                forget(o.peer, p, "closed by the tracker", now);
            }
        }
    }
}

void TrackerLoop::checkTimeouts(Time now) {
    for (auto& [id, pp] : peers_) {
        Peer& p = *pp;
        if (p.dead) continue;
        const size_t queued = p.out.size() - p.outPos;
        if (p.stage == Stage::Closing) {
            if (queued == 0 || now > p.closeBy) kill(id, p, "closed by the tracker");
            continue;
        }
        if (queued > kMaxQueuedOutput) {
            log("close " + describe(p) + ": it does not read its replies (" +
                std::to_string(queued) + " bytes queued)");
            kill(id, p, "does not read");
            continue;
        }
        if (queued > 0 && msSince(p.lastOutput, now) > o_.frameTimeoutMs) {
            log("close " + describe(p) + ": it took no data for " +
                std::to_string(msSince(p.lastOutput, now)) + " ms");
            kill(id, p, "does not read");
            continue;
        }
        if ((p.stage == Stage::Hello || p.stage == Stage::Auth) &&
            msSince(p.accepted, now) > o_.handshakeTimeoutMs) {
            closeWith(id, p, ErrorCode::Timeout,
                      "no handshake within " + std::to_string(o_.handshakeTimeoutMs) + " ms", now);
            continue;
        }
        if (p.partialSince != Time{} && msSince(p.partialSince, now) > o_.frameTimeoutMs) {
            closeWith(id, p, ErrorCode::Timeout,
                      "a frame stayed incomplete for " +
                          std::to_string(msSince(p.partialSince, now)) + " ms (" +
                          std::to_string(p.decoder.pending()) + " bytes of it came)",
                      now);
            continue;
        }
        if (p.stage == Stage::Ready && p.role == Role::Query && queued == 0 &&
            msSince(p.lastInput, now) > o_.queryIdleMs)
            closeWith(id, p, ErrorCode::Timeout, "idle", now, true);
    }
    state_.tick(now);
    applyOutputs(now);
}

void TrackerLoop::run(const std::atomic<bool>& stop) {
    std::vector<pollfd> fds;
    std::vector<PeerId> ids;
    while (!stop.load()) {
        fds.clear();
        ids.clear();
        fds.push_back({listener_.fd(), POLLIN, 0});
        for (auto& [id, p] : peers_) {
            short events = p->stage == Stage::Closing ? 0 : POLLIN;
            if (p->outPos < p->out.size()) events |= POLLOUT;
            fds.push_back({p->conn.fd(), events, 0});
            ids.push_back(id);
        }
        const int rc = ::poll(fds.data(), fds.size(), 100);
        Time now = Clock::now();
        if (rc > 0) {
            for (size_t i = 1; i < fds.size(); ++i) {
                if (!fds[i].revents) continue;
                auto it = peers_.find(ids[i - 1]);
                if (it == peers_.end()) continue;
                Peer& p = *it->second;
                if (!p.dead && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
                    p.stage != Stage::Closing)
                    readFrom(it->first, p, now);
                else if (!p.dead && p.stage == Stage::Closing &&
                         (fds[i].revents & (POLLHUP | POLLERR)))
                    kill(it->first, p, "closed by the peer");
            }
            if (fds[0].revents & POLLIN) acceptAll(now);
        }
        now = Clock::now();
        checkTimeouts(now);
        for (auto& [id, p] : peers_) {
            if (!p->dead && p->outPos < p->out.size()) writeTo(*p, now);
        }
        for (auto it = peers_.begin(); it != peers_.end();) {
            if (it->second->dead) {
                forget(it->first, *it->second, "the connection broke", now);
                it = peers_.erase(it);
            } else {
                ++it;
            }
        }
        applyOutputs(now);
    }
    log("stopped (" + std::to_string(state_.serverCount()) + " servers, " +
        std::to_string(state_.pendingCount()) + " requests waiting)");
}

} // namespace

void runTracker(const TrackerOptions& options, const std::atomic<bool>& stop) {
    const std::string where = options.host + ":" + std::to_string(options.port);
    if (options.token.empty() && !isLoopback(options.host))
        throw RpcError("listen " + where, Failure::Connect,
                       "refusing to listen on the non-loopback address '" + options.host +
                           "' without a token (--token-file): anyone who reaches it could take and "
                           "disrupt the "
                           "servers");
    Listener listener(options.host, options.port);
    if (options.log)
        options.log("listening on " + options.host + ":" + std::to_string(listener.port()) +
                    (options.token.empty() ? " (no token)" : " (token required)") +
                    ", heartbeat timeout " + std::to_string(options.heartbeatTimeoutMs) + " ms");
    if (options.onListening) options.onListening(listener.port());
    TrackerLoop loop(options, listener);
    loop.run(stop);
}

} // namespace tessel::rpc
