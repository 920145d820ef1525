/// \file
/// The tracker's pool and queues without sockets: servers by key, one queue
/// per key, who holds what, liveness by heartbeat, and the status JSON.
///
/// The socket loop (Tracker.cpp) tells it about peers and their messages and
/// sends what it puts in its outbox; time comes in as an argument, so the
/// queue rules are tested on their own (tests/rpc/tst_trackerstate.cpp).
///
/// Rules (docs/rpc.md, "Tracker"): a server can be handed out when it said
/// it is free, no client holds it and it is not suspect. A key's queue is
/// served requeued requests first, then higher priority first, then by
/// arrival. A held server that is dropped, or that its client reports as
/// failed, sends the request back to the front of its queue.
#pragma once

#include "rpc/Connection.h"
#include "rpc/Handshake.h"
#include "rpc/TrackerMessage.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessel::rpc {

class TrackerState {
public:
    using PeerId = uint64_t;
    using Time = Clock::time_point;

    /// Something for the socket loop to do: send a frame to `peer` (code 0:
    /// none), then close the connection when `close` is set.
    struct Output {
        PeerId peer = 0;
        uint16_t code = 0;
        std::vector<char> payload;
        bool close = false;
    };

    TrackerState(int heartbeatTimeoutMs, std::function<void(const std::string&)> log, Time now);

    /// A peer finished its handshake. `address` is "IP:PORT" as seen here.
    void connected(PeerId peer, Role role, const std::string& name, const std::string& address,
                   Time now);
    /// A parsed message from a connected peer (a message its role may not
    /// send closes the connection with an Error frame).
    void handle(PeerId peer, const TrackerMessage& message, Time now);
    /// The peer's connection is gone: its server is dropped, its request
    /// withdrawn, the server it held freed.
    void disconnected(PeerId peer, const std::string& why, Time now);
    /// Drops servers whose heartbeat stopped, and server connections that
    /// registered nothing in time.
    void tick(Time now);

    /// What to send since the last call.
    std::vector<Output> takeOutputs();
    /// The status as JSON (the Query reply); `withDevices` false leaves the
    /// device facts out (for a reply that would not fit a frame).
    std::string statusJson(Time now, bool withDevices = true) const;

    size_t serverCount() const { return servers_.size(); }
    /// Requests waiting, all keys.
    size_t pendingCount() const;

private:
    struct Server {
        uint64_t id = 0;
        PeerId peer = 0;
        std::string key, host;
        uint16_t port = 0;
        std::string deviceJson;
        bool reportedFree = true;
        bool suspect = false;
        /// Failure reports since the last clean release; from the second on,
        /// a suspect server waits 2^(n-2) s (at most 60 s) before a free
        /// heartbeat clears it, so a broken board cannot eat a queue.
        int failures = 0;
        Time suspectUntil{};
        PeerId holder = 0;
        Time lastBeat{}, registered{}, idleSince{};
    };
    enum class ClientState { Idle, Waiting, Holding };
    struct Peer {
        Role role = Role::Client;
        std::string name, address, ip;
        Time since{};
        /// Told to go (an Error frame and a close are on their way).
        bool closing = false;
        // Server role: its registration (0: none yet).
        uint64_t serverId = 0;
        // Client role.
        ClientState state = ClientState::Idle;
        std::string key;
        int32_t priority = 0;
        uint64_t seq = 0;
        bool front = false;
        uint64_t held = 0;
        Time queuedAt{};
    };

    void onRegister(PeerId id, Peer& p, const RegisterMessage& m, Time now);
    void onHeartbeat(Peer& p, const HeartbeatMessage& m, Time now);
    void onRequest(PeerId id, Peer& p, const RequestMessage& m, Time now);
    void onRelease(PeerId id, Peer& p, const ReleaseMessage& m, Time now);
    void onQuery(PeerId id, Time now);

    bool available(const Server& s, Time now) const;
    void enqueue(PeerId id, Peer& p, Time now);
    void unqueue(PeerId id, const Peer& p);
    /// Hands free servers of `key` to the front of its queue.
    void dispatch(const std::string& key, Time now);
    /// Removes a server; the request it held goes back to the front.
    void dropServer(uint64_t id, const std::string& why, Time now);
    void freeServer(Server& s, Time now);
    void send(PeerId peer, Code code, std::vector<char> payload);
    void refuse(PeerId peer, ErrorCode code, const std::string& why, bool close);
    std::string who(const Peer& p) const;
    std::string what(const Server& s) const;

    int heartbeatTimeoutMs_;
    std::function<void(const std::string&)> log_;
    Time started_;
    uint64_t nextServerId_ = 1;
    uint64_t nextSeq_ = 1;
    std::map<PeerId, Peer> peers_;
    std::map<uint64_t, Server> servers_;
    /// Per key, the waiting clients in the order they are served.
    std::map<std::string, std::vector<PeerId>> queues_;
    std::vector<Output> out_;
};

} // namespace tessel::rpc
