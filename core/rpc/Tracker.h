/// \file
/// The tracker: pools RPC servers by key and hands them to clients
/// (`tessel-rpc tracker`; docs/rpc.md, "Tracker").
///
/// Servers register under a key and heartbeat (free or busy); a server whose
/// heartbeat stops for `heartbeatTimeoutMs`, or whose connection closes, is
/// dropped, and a request it had been given goes back to the front of its
/// key's queue. Clients request a server of a key with a priority; each key
/// has one queue, higher priority first, first come first served within a
/// priority. A client releases its server by a Release message or by closing
/// its connection.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace tessel::rpc {

struct TrackerOptions {
    std::string host = "127.0.0.1";
    uint16_t port = 9190; ///< 0 picks a free port
    /// Empty: no authentication. Binding a non-loopback host requires one.
    std::string token;
    int heartbeatTimeoutMs = 3000;
    /// Called with the bound port once listening (tests use port 0).
    std::function<void(uint16_t)> onListening;
    /// One line per event worth a log (registrations, drops, refusals, malformed frames).
    std::function<void(const std::string&)> log;
};

/// Serves until `stop` becomes true (checked at least every 100 ms).
/// Throws RpcError when it cannot listen.
void runTracker(const TrackerOptions& options, const std::atomic<bool>& stop);

} // namespace tessel::rpc
