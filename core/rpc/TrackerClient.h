/// \file
/// The clients of a tracker: a client that asks for a server of a key (and
/// holds it until it releases it), a server's registration, and the query
/// `tessel-rpc query` and the device panel read.
///
/// TrackerClient and queryTracker block with a deadline on every step;
/// TrackerLink never blocks for more than about a second and starts no
/// thread (a server forks per session and drives it from its poll loop).
#pragma once

#include "rpc/Connection.h"
#include "rpc/TrackerMessage.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::rpc {

/// A client of the tracker (the tuner's RPC runner, `tesselc run
/// --rpc-tracker`). It holds at most one server at a time; the tracker takes
/// the server back when the client releases it or when this object (its
/// connection) goes away.
class TrackerClient {
public:
    /// Connects and shakes hands (role client); throws RpcError. `name`
    /// identifies the client in the tracker's log and status (default
    /// "HOSTNAME:PID").
    TrackerClient(const std::string& host, uint16_t port, const std::string& token,
                  int timeoutMs = 5000, std::string name = {});
    ~TrackerClient();
    TrackerClient(TrackerClient&&) noexcept;
    TrackerClient& operator=(TrackerClient&&) noexcept;

    /// Asks for a server of `key`; blocks until one is assigned or `deadline`
    /// (RpcError, Failure::Timeout: the request stays queued, and asking again
    /// for the same key keeps its place; asking for another key moves it).
    /// A server still held is released first. When the tracker's connection
    /// broke (a restarted tracker), connects again and asks anew.
    Assignment request(const std::string& key, int priority, Deadline deadline);
    /// The assigned server failed us (refused, closed, crashed): the tracker
    /// marks it suspect (not handed out until it heartbeats free again) and
    /// puts this request back at the front of its queue; blocks for the next
    /// server like request(). If the tracker had already moved the request
    /// to another server (it dropped the failed one), returns that one.
    Assignment reassign(Deadline deadline);
    /// Gives the assigned server back, or withdraws a queued request. Never
    /// throws: when the tracker cannot be told, the connection is closed,
    /// which releases too.
    void release();

    /// Whether a server is held, and which.
    bool holding() const { return state_ == State::Holding; }
    const Assignment& assignment() const { return held_; }
    /// Whether a request is queued (a request() that timed out).
    bool waiting() const { return state_ == State::Waiting; }
    const std::string& name() const { return name_; }

private:
    enum class State { Idle, Waiting, Holding };
    void connect();
    void sendRequest(Deadline deadline);
    Assignment awaitAssign(Deadline deadline, const std::string& step);
    Frame next(Deadline deadline, const std::string& step);
    std::string host_;
    uint16_t port_ = 0;
    std::string token_;
    int timeoutMs_ = 5000;
    std::string name_;
    Connection c_;
    std::string key_;
    int priority_ = 0;
    State state_ = State::Idle;
    Assignment held_;
};

/// What a server tells the tracker about itself.
struct Registration {
    std::string key;
    /// Where clients reach the server; empty host: the address the tracker
    /// sees the registration come from.
    std::string host;
    uint16_t port = 0;
    std::string deviceJson;
};

/// How often a TrackerLink beats and retries (tests use shorter times).
struct TrackerLinkTiming {
    int heartbeatMs = 1000;
    /// Least time between two connection attempts.
    int retryMs = 1000;
    /// Longest a connection attempt (connect, handshake, register) blocks.
    int connectTimeoutMs = 1000;
};

/// A server's link to its tracker, driven from the server's own loop:
/// connects, registers, heartbeats, and registers again after the tracker
/// restarts or drops it. Never throws; lastError() says what went wrong.
///
/// Fork-safe: a session child may simply _exit(); if the child destroys the
/// link, its copy of the socket is closed without shutting the parent's
/// connection down.
class TrackerLink {
public:
    TrackerLink(std::string host, uint16_t port, std::string token, Registration registration,
                TrackerLinkTiming timing = {});
    ~TrackerLink();
    TrackerLink(const TrackerLink&) = delete;
    TrackerLink& operator=(const TrackerLink&) = delete;
    /// Free (no session) or busy; a change is sent at once when connected.
    void setFree(bool free);
    /// Call often (every <= 100 ms): connects when not connected (at most
    /// once per retryMs), sends a heartbeat every heartbeatMs, notices the
    /// tracker's close or its Error frame. Blocks at most about
    /// connectTimeoutMs (a connection attempt).
    void poll();
    bool connected() const;
    /// The tracker's id of this registration (0 while not registered).
    uint64_t serverId() const { return serverId_; }
    /// How many times it registered (more than 1: the tracker came back).
    int registrations() const { return registrations_; }
    const std::string& lastError() const { return lastError_; }
    /// One line per change worth a log (registered, lost the tracker, refused).
    void setLog(std::function<void(const std::string&)> log) { log_ = std::move(log); }

private:
    void connectAndRegister();
    void sendHeartbeat();
    void drop(const std::string& why);
    std::string host_;
    uint16_t port_;
    std::string token_;
    Registration reg_;
    TrackerLinkTiming timing_;
    Connection c_;
    bool free_ = true;
    bool everTried_ = false;
    Clock::time_point lastBeat_{};
    Clock::time_point lastTry_{};
    uint64_t serverId_ = 0;
    int registrations_ = 0;
    std::string lastError_;
    std::function<void(const std::string&)> log_;
    int pid_ = 0;
};

/// One server as the tracker sees it.
struct ServerStatus {
    uint64_t id = 0;
    std::string key;
    std::string host;
    uint16_t port = 0;
    /// The tracker would hand it out now.
    bool free = false;
    /// "free", "held" (a client has it), "busy" (it says so), "suspect" (a
    /// client reported it failed; back when it heartbeats free).
    std::string state;
    /// The client holding it ("" when none).
    std::string client;
    std::string deviceJson;
    /// Milliseconds since its last heartbeat.
    int64_t lastHeartbeatMs = 0;
    /// Milliseconds since it registered.
    int64_t registeredMs = 0;
};

/// A request waiting in a key's queue.
struct QueuedRequest {
    std::string client;
    int priority = 0;
    int64_t waitingMs = 0;
    /// Back at the front after its server failed or was dropped.
    bool requeued = false;
};

struct KeyStatus {
    std::string key;
    int total = 0;
    int free = 0;
    int pending = 0;
    /// The queue in the order it is served.
    std::vector<QueuedRequest> queue;
};

struct TrackerStatus {
    std::vector<ServerStatus> servers;
    std::vector<KeyStatus> keys;
    int64_t uptimeMs = 0;
    int heartbeatTimeoutMs = 0;
    /// The whole status as JSON (what `tessel-rpc query --json` prints;
    /// docs/rpc.md, "Tracker messages", Query).
    std::string json;
    /// As tables for a terminal (what `tessel-rpc query` prints).
    std::string text() const;
    /// Reads the tracker's JSON; throws ProtocolError when malformed.
    static TrackerStatus fromJson(const std::string& json);
};

/// Reads the tracker's status (role query); throws RpcError.
TrackerStatus queryTracker(const std::string& host, uint16_t port, const std::string& token,
                           int timeoutMs = 5000);

} // namespace tessel::rpc
