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
/// its connection. One thread serves every peer (a poll loop over
/// non-blocking sockets): every handshake, every frame and every write has a
/// time limit, so a slow or malicious peer only ever loses its own
/// connection.
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
    /// A server whose last heartbeat is older is dropped (servers beat every second).
    int heartbeatTimeoutMs = 3000;
    /// A peer must finish the handshake within this time of connecting.
    int handshakeTimeoutMs = 5000;
    /// A frame begun must be whole within this time; a peer that takes no
    /// data for this long while the tracker has some for it is dropped too.
    int frameTimeoutMs = 10000;
    /// A query connection idle this long is closed.
    int queryIdleMs = 60000;
    /// Connections beyond this many are closed at once.
    int maxConnections = 1024;
    /// Called with the bound port once listening (tests use port 0).
    std::function<void(uint16_t)> onListening;
    /// One line per event worth a log (registrations, drops, refusals, malformed frames).
    std::function<void(const std::string&)> log;
};

/// Serves until `stop` becomes true (checked at least every 100 ms).
/// Throws RpcError when it cannot listen, and when `host` is not a loopback
/// address and no token is set.
void runTracker(const TrackerOptions& options, const std::atomic<bool>& stop);

} // namespace tessel::rpc
