/// \file
/// The clients of a tracker: a client that asks for a server of a key (and
/// holds it until it releases it), a server's registration, and the query
/// `tessel-rpc query` and the device panel read.
#pragma once

#include "rpc/Connection.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rpc {

/// A server the tracker handed out.
struct Assignment {
    uint64_t serverId = 0;
    std::string host;
    uint16_t port = 0;
    std::string key;
    /// The server's runtime::DeviceInfo as JSON (DeviceInfo::toJson).
    std::string deviceJson;
};

class TrackerClient {
public:
    /// Connects and shakes hands (role client); throws RpcError.
    TrackerClient(const std::string& host, uint16_t port, const std::string& token, int timeoutMs = 5000);
    ~TrackerClient();
    TrackerClient(TrackerClient&&) noexcept;
    TrackerClient& operator=(TrackerClient&&) noexcept;

    /// Asks for a server of `key`; blocks until one is assigned or `deadline`.
    /// Asking again while a request of this client is queued keeps its place.
    Assignment request(const std::string& key, int priority, Deadline deadline);
    /// The assigned server failed us (refused, closed, crashed): give it
    /// back as suspect and wait for another (the request keeps the front of
    /// its queue).
    Assignment reassign(Deadline deadline);
    /// Gives the assigned server back.
    void release();

private:
    Connection c_;
    std::string key_;
    int priority_ = 0;
    bool holding_ = false;
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

/// A server's link to its tracker, driven from the server's own loop:
/// connects, registers, heartbeats, and registers again after the tracker
/// restarts. Never throws; lastError() says what went wrong.
class TrackerLink {
public:
    TrackerLink(std::string host, uint16_t port, std::string token, Registration registration);
    ~TrackerLink();
    /// Free (no session) or busy; sent with the next heartbeat.
    void setFree(bool free);
    /// Call often (every <= 100 ms): connects when not connected (at most
    /// once a second), sends a heartbeat every second, reads what the
    /// tracker sent. Blocks at most ~1 s (a connect).
    void poll();
    bool connected() const;
    const std::string& lastError() const { return lastError_; }

private:
    std::string host_;
    uint16_t port_;
    std::string token_;
    Registration reg_;
    Connection c_;
    bool free_ = true;
    Clock::time_point lastBeat_{};
    Clock::time_point lastTry_{};
    std::string lastError_;
};

/// One server as the tracker sees it.
struct ServerStatus {
    uint64_t id = 0;
    std::string key;
    std::string host;
    uint16_t port = 0;
    bool free = false;
    std::string deviceJson;
    /// Milliseconds since its last heartbeat.
    int64_t lastHeartbeatMs = 0;
};

struct KeyStatus {
    std::string key;
    int total = 0;
    int free = 0;
    int pending = 0;
};

struct TrackerStatus {
    std::vector<ServerStatus> servers;
    std::vector<KeyStatus> keys;
    /// The whole status as JSON (what `tessel-rpc query --json` prints).
    std::string json;
    /// As a table for a terminal (what `tessel-rpc query` prints).
    std::string text() const;
};

/// Reads the tracker's status (role query); throws RpcError.
TrackerStatus queryTracker(const std::string& host, uint16_t port, const std::string& token, int timeoutMs = 5000);

} // namespace tessel::rpc
