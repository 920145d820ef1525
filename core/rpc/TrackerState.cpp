#include "rpc/TrackerState.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace tessel::rpc {

namespace {

int64_t msBetween(TrackerState::Time from, TrackerState::Time to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

/// The address part of "IP:PORT" ("::1" from "::1:5555"), without the
/// IPv4-mapped prefix of a dual-stack socket.
std::string ipOf(const std::string& address) {
    const auto colon = address.rfind(':');
    std::string ip = colon == std::string::npos ? address : address.substr(0, colon);
    if (ip.starts_with("::ffff:") && ip.find('.') != std::string::npos) ip = ip.substr(7);
    return ip;
}

} // namespace

TrackerState::TrackerState(int heartbeatTimeoutMs, std::function<void(const std::string&)> log,
                           Time now)
    : heartbeatTimeoutMs_(heartbeatTimeoutMs), log_(std::move(log)), started_(now) {}

std::string TrackerState::who(const Peer& p) const {
    return std::string(roleName(p.role)) + " '" + p.name + "' (" + p.address + ")";
}

std::string TrackerState::what(const Server& s) const {
    return "server #" + std::to_string(s.id) + " '" + s.key + "' " + s.host + ":" +
           std::to_string(s.port);
}

void TrackerState::send(PeerId peer, Code code, std::vector<char> payload) {
    out_.push_back(Output{peer, static_cast<uint16_t>(code), std::move(payload), false});
}

void TrackerState::refuse(PeerId peer, ErrorCode code, const std::string& why, bool close) {
    out_.push_back(
        Output{peer, static_cast<uint16_t>(Code::Error), errorPayload(code, why), close});
    auto it = peers_.find(peer);
    if (it == peers_.end()) return;
    if (close) it->second.closing = true;
    if (log_) log_((close ? "close " : "refuse ") + who(it->second) + ": " + why);
}

std::vector<TrackerState::Output> TrackerState::takeOutputs() {
    return std::exchange(out_, {});
}

size_t TrackerState::pendingCount() const {
    size_t n = 0;
    for (const auto& [key, q] : queues_)
        n += q.size();
    return n;
}

void TrackerState::connected(PeerId peer, Role role, const std::string& name,
                             const std::string& address, Time now) {
    Peer p;
    p.role = role;
    p.name = name;
    p.address = address;
    p.ip = ipOf(address);
    p.since = now;
    peers_[peer] = std::move(p);
}

void TrackerState::handle(PeerId id, const TrackerMessage& message, Time now) {
    auto it = peers_.find(id);
    if (it == peers_.end() || it->second.closing) return;
    Peer& p = it->second;
    const Code code = codeOf(message);
    const bool allowed = p.role == Role::Server
                             ? (code == Code::Register || code == Code::Heartbeat)
                         : p.role == Role::Client ? (code == Code::Request || code == Code::Release)
                                                  : code == Code::Query;
    if (!allowed) {
        refuse(id, ErrorCode::Protocol,
               std::string("a ") + roleName(p.role) + " connection may not send " +
                   codeName(static_cast<uint16_t>(code)),
               true);
        return;
    }
    if (auto* m = std::get_if<RegisterMessage>(&message))
        onRegister(id, p, *m, now);
    else if (auto* m = std::get_if<HeartbeatMessage>(&message))
        onHeartbeat(p, *m, now);
    else if (auto* m = std::get_if<RequestMessage>(&message))
        onRequest(id, p, *m, now);
    else if (auto* m = std::get_if<ReleaseMessage>(&message))
        onRelease(id, p, *m, now);
    else
        onQuery(id, now);
    if (p.role == Role::Server && p.serverId == 0 && !p.closing) {
        // A heartbeat before its registration.
        refuse(id, ErrorCode::Protocol, "a server must register before anything else", true);
    }
}

bool TrackerState::available(const Server& s, Time) const {
    return s.reportedFree && !s.suspect && s.holder == 0;
}

void TrackerState::onRegister(PeerId id, Peer& p, const RegisterMessage& m, Time now) {
    if (p.serverId != 0) {
        refuse(id, ErrorCode::Protocol,
               "already registered as server #" + std::to_string(p.serverId), true);
        return;
    }
    Server s;
    s.peer = id;
    s.key = m.key;
    s.host = m.host.empty() ? p.ip : m.host;
    s.port = m.port;
    s.deviceJson = m.deviceJson;
    s.reportedFree = m.free;
    s.lastBeat = s.registered = s.idleSince = now;
    std::string replaced;
    // The same address registering again (its old connection broke and is
    // not dead to us yet): the new registration takes the old one's place,
    // id and holder, so a client using that server notices nothing.
    for (auto& [oldId, old] : servers_) {
        if (old.host != s.host || old.port != s.port) continue;
        if (old.key == s.key) {
            s.id = oldId;
            s.holder = old.holder;
            s.suspect = old.suspect;
            s.suspectUntil = old.suspectUntil;
            s.failures = old.failures;
            s.idleSince = old.idleSince;
            const PeerId oldPeer = old.peer;
            servers_.erase(oldId);
            if (auto op = peers_.find(oldPeer); op != peers_.end()) {
                op->second.serverId = 0;
                refuse(oldPeer, ErrorCode::Protocol,
                       "replaced by a new registration of the same server from " + p.address, true);
            }
            replaced = " (replaces its earlier registration)";
        } else {
            const PeerId oldPeer = old.peer;
            dropServer(oldId, "registered again under key '" + s.key + "'", now);
            refuse(oldPeer, ErrorCode::Protocol,
                   "replaced by a registration under another key from " + p.address, true);
        }
        break;
    }
    if (s.id == 0) s.id = nextServerId_++;
    p.serverId = s.id;
    Writer w;
    w.u64(s.id);
    send(id, Code::Ok, w.take());
    if (log_)
        log_("register " + what(s) + " from " + p.address + " (" +
             (s.reportedFree ? "free" : "busy") + ")" + replaced);
    const std::string key = s.key;
    servers_[s.id] = std::move(s);
    dispatch(key, now);
}

void TrackerState::onHeartbeat(Peer& p, const HeartbeatMessage& m, Time now) {
    auto it = servers_.find(p.serverId);
    if (it == servers_.end()) return; // not registered: handle() closes it
    Server& s = it->second;
    const bool before = available(s, now);
    s.lastBeat = now;
    s.reportedFree = m.free;
    if (s.suspect && m.free && now >= s.suspectUntil) {
        s.suspect = false;
        if (log_) log_(what(s) + " is free again after the failure report");
    }
    if (!before && available(s, now)) dispatch(s.key, now);
}

void TrackerState::onRequest(PeerId id, Peer& p, const RequestMessage& m, Time now) {
    if (p.state != ClientState::Idle) {
        refuse(id, ErrorCode::Protocol,
               "this connection already has a request for key '" + p.key + "': release it first",
               false);
        return;
    }
    if (!m.client.empty()) p.name = m.client;
    p.key = m.key;
    p.priority = m.priority;
    p.seq = nextSeq_++;
    p.front = false;
    enqueue(id, p, now);
    if (log_) {
        int total = 0, free = 0;
        for (const auto& [sid, s] : servers_)
            if (s.key == m.key) total += 1, free += available(s, now) ? 1 : 0;
        log_("request from " + who(p) + " for key '" + m.key + "' priority " +
             std::to_string(m.priority) + " (" + std::to_string(total) + " servers, " +
             std::to_string(free) + " free)");
    }
    dispatch(p.key, now);
}

void TrackerState::onRelease(PeerId id, Peer& p, const ReleaseMessage& m, Time now) {
    if (m.failed) {
        if (p.state == ClientState::Idle) {
            refuse(id, ErrorCode::Protocol, "no server to reassign: request one first", false);
            return;
        }
        if (p.state == ClientState::Holding && p.held == m.serverId) {
            Server& s = servers_.at(p.held);
            s.holder = 0;
            s.idleSince = now;
            s.failures += 1;
            s.suspect = true;
            const int backoffS =
                s.failures <= 1 ? 0 : std::min(60, 1 << std::min(s.failures - 2, 6));
            s.suspectUntil = now + std::chrono::seconds(backoffS);
            p.held = 0;
            p.front = true;
            enqueue(id, p, now);
            if (log_)
                log_(who(p) + " reports " + what(s) + " failed: suspect until it heartbeats free" +
                     (backoffS ? " after " + std::to_string(backoffS) + " s" : std::string()) +
                     "; the request goes back to the front");
            send(id, Code::Ok, {});
            dispatch(p.key, now);
            return;
        }
        // The tracker had already moved the request on (it dropped that
        // server); what it assigned since, or will, answers the client.
        send(id, Code::Ok, {});
        return;
    }
    if (p.state == ClientState::Holding) {
        auto it = servers_.find(p.held);
        p.state = ClientState::Idle;
        p.held = 0;
        send(id, Code::Ok, {});
        if (it != servers_.end()) {
            it->second.failures = 0;
            if (log_) log_(who(p) + " releases " + what(it->second));
            freeServer(it->second, now);
        }
    } else {
        if (p.state == ClientState::Waiting) {
            unqueue(id, p);
            p.state = ClientState::Idle;
            if (log_) log_(who(p) + " withdraws its request for key '" + p.key + "'");
        }
        send(id, Code::Ok, {});
    }
}

void TrackerState::onQuery(PeerId id, Time now) {
    std::string json = statusJson(now, true);
    if (json.size() + 64 > kMaxTrackerFrame) json = statusJson(now, false);
    if (json.size() + 64 > kMaxTrackerFrame) {
        refuse(id, ErrorCode::Limit, "the status is larger than a tracker frame", false);
        return;
    }
    Writer w;
    w.str(json);
    send(id, Code::Ok, w.take());
}

void TrackerState::freeServer(Server& s, Time now) {
    s.holder = 0;
    s.idleSince = now;
    dispatch(s.key, now);
}

void TrackerState::enqueue(PeerId id, Peer& p, Time now) {
    p.state = ClientState::Waiting;
    p.queuedAt = now;
    auto& q = queues_[p.key];
    // Requeued requests first, then higher priority, then earlier arrival.
    auto precedes = [this](const Peer& a, const Peer& b) {
        if (a.front != b.front) return a.front;
        if (a.priority != b.priority) return a.priority > b.priority;
        return a.seq < b.seq;
    };
    auto at = std::find_if(q.begin(), q.end(),
                           [&](PeerId other) { return precedes(p, peers_.at(other)); });
    q.insert(at, id);
}

void TrackerState::unqueue(PeerId id, const Peer& p) {
    auto it = queues_.find(p.key);
    if (it == queues_.end()) return;
    std::erase(it->second, id);
    if (it->second.empty()) queues_.erase(it);
}

void TrackerState::dispatch(const std::string& key, Time now) {
    auto qit = queues_.find(key);
    if (qit == queues_.end()) return;
    auto& q = qit->second;
    while (!q.empty()) {
        // The server idle longest, so work spreads over the pool.
        Server* best = nullptr;
        for (auto& [id, s] : servers_)
            if (s.key == key && available(s, now) && (!best || s.idleSince < best->idleSince))
                best = &s;
        if (!best) break;
        const PeerId cid = q.front();
        q.erase(q.begin());
        Peer& c = peers_.at(cid);
        c.state = ClientState::Holding;
        c.held = best->id;
        c.front = false;
        best->holder = cid;
        send(cid, Code::Assign,
             assignPayload({best->id, best->host, best->port, best->key, best->deviceJson}));
        if (log_)
            log_("assign " + what(*best) + " to " + who(c) + " after " +
                 std::to_string(msBetween(c.queuedAt, now)) + " ms in the queue");
    }
    if (q.empty()) queues_.erase(qit);
}

void TrackerState::dropServer(uint64_t id, const std::string& why, Time now) {
    auto it = servers_.find(id);
    if (it == servers_.end()) return;
    Server s = std::move(it->second);
    servers_.erase(it);
    if (auto p = peers_.find(s.peer); p != peers_.end() && p->second.serverId == id)
        p->second.serverId = 0;
    if (log_) log_("drop " + what(s) + ": " + why);
    if (s.holder != 0) {
        Peer& c = peers_.at(s.holder);
        c.held = 0;
        c.front = true;
        enqueue(s.holder, c, now);
        if (log_)
            log_("the request of " + who(c) + " goes back to the front of key '" + c.key + "'");
    }
    dispatch(s.key, now);
}

void TrackerState::disconnected(PeerId id, const std::string& why, Time now) {
    auto it = peers_.find(id);
    if (it == peers_.end()) return;
    Peer& p = it->second;
    if (p.role == Role::Server && p.serverId != 0)
        dropServer(p.serverId, "its connection closed (" + why + ")", now);
    if (p.role == Role::Client) {
        if (p.state == ClientState::Waiting) {
            unqueue(id, p);
            if (log_)
                log_(who(p) + " left (" + why + "); its request for key '" + p.key +
                     "' is withdrawn");
        } else if (p.state == ClientState::Holding) {
            auto s = servers_.find(p.held);
            p.state = ClientState::Idle;
            if (s != servers_.end()) {
                if (log_) log_(who(p) + " left (" + why + "); " + what(s->second) + " is released");
                peers_.erase(it); // before dispatch, which must not hand the server back to it
                freeServer(s->second, now);
                return;
            }
        }
    }
    peers_.erase(it);
}

void TrackerState::tick(Time now) {
    std::vector<std::pair<uint64_t, PeerId>> late;
    for (const auto& [id, s] : servers_)
        if (msBetween(s.lastBeat, now) > heartbeatTimeoutMs_) late.emplace_back(id, s.peer);
    for (const auto& [id, peer] : late) {
        const std::string why =
            "no heartbeat for " + std::to_string(msBetween(servers_.at(id).lastBeat, now)) + " ms";
        dropServer(id, why, now);
        refuse(peer, ErrorCode::Timeout, "dropped: " + why, true);
    }
    for (auto& [id, p] : peers_)
        if (p.role == Role::Server && p.serverId == 0 && !p.closing &&
            msBetween(p.since, now) > heartbeatTimeoutMs_)
            refuse(id, ErrorCode::Timeout,
                   "registered nothing within " + std::to_string(heartbeatTimeoutMs_) + " ms",
                   true);
}

std::string TrackerState::statusJson(Time now, bool withDevices) const {
    using nlohmann::json;
    json servers = json::array();
    std::set<std::string> keys;
    for (const auto& [id, s] : servers_) {
        keys.insert(s.key);
        const char* state = s.holder          ? "held"
                            : s.suspect       ? "suspect"
                            : !s.reportedFree ? "busy"
                                              : "free";
        json device = withDevices ? json::parse(s.deviceJson, nullptr, false) : json(nullptr);
        servers.push_back({{"id", id},
                           {"key", s.key},
                           {"host", s.host},
                           {"port", s.port},
                           {"free", available(s, now)},
                           {"state", state},
                           {"client", s.holder ? peers_.at(s.holder).name : std::string()},
                           {"failures", s.failures},
                           {"device", device.is_discarded() ? json(nullptr) : device},
                           {"last_heartbeat_ms", msBetween(s.lastBeat, now)},
                           {"registered_ms", msBetween(s.registered, now)}});
    }
    for (const auto& [key, q] : queues_)
        keys.insert(key);
    json keyList = json::array();
    for (const auto& key : keys) {
        int total = 0, free = 0;
        for (const auto& [id, s] : servers_)
            if (s.key == key) total += 1, free += available(s, now) ? 1 : 0;
        json queue = json::array();
        if (auto q = queues_.find(key); q != queues_.end())
            for (PeerId c : q->second) {
                const Peer& p = peers_.at(c);
                queue.push_back({{"client", p.name},
                                 {"priority", p.priority},
                                 {"waiting_ms", msBetween(p.queuedAt, now)},
                                 {"requeued", p.front}});
            }
        const size_t pending = queue.size();
        keyList.push_back({{"key", key},
                           {"total", total},
                           {"free", free},
                           {"pending", pending},
                           {"queue", queue}});
    }
    json j = {{"tracker",
               {{"protocol", kProtocolVersion},
                {"uptime_ms", msBetween(started_, now)},
                {"heartbeat_timeout_ms", heartbeatTimeoutMs_},
                {"connections", peers_.size()}}},
              {"servers", servers},
              {"keys", keyList}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace tessel::rpc
