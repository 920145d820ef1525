/// \file
/// The RPC server (`tessel-rpc server`; docs/rpc.md, "Server"): accepts
/// connections and serves each in its own child process (a session), so a
/// session that dies takes nothing else with it; inside a session kernels
/// run in a further child, the session's runner (rpc/RunnerProcess.h),
/// forked once and replaced only after a crash or a hang, so a crash or a
/// hang is an Error frame that names the signal or the time limit, and the
/// session goes on.
///
/// The server loop is single-threaded (it forks); a tracker link
/// (TrackerClient.h) is driven from its onTick hook.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace tessel::rpc {

struct ServerOptions {
    std::string host = "127.0.0.1";
    uint16_t port = 9090; ///< 0 picks a free port
    /// Empty: no authentication (then only a loopback host may be bound).
    std::string token;
    /// Largest upload (a module, a model's weights), bytes.
    uint64_t maxUploadBytes = uint64_t(512) << 20;
    /// Most tensor bytes one session may hold.
    uint64_t maxSessionBytes = uint64_t(8) << 30;
    /// Sessions served at once; more connections get a Busy error.
    int maxSessions = 4;
    /// A session with no request for this long is closed.
    int sessionIdleMs = 10 * 60 * 1000;
    /// The longest time limit a client may ask for one run.
    int64_t maxRunMs = 60 * 60 * 1000;
    /// Tessel's version, reported with the device's facts.
    std::string version;
    /// Called with the bound port once listening.
    std::function<void(uint16_t)> onListening;
    /// One line per event worth a log (sessions, refusals, crashes).
    std::function<void(const std::string&)> log;
    /// Called when the server turns free (no session) or busy.
    std::function<void(bool free)> onFreeChanged;
    /// Called every ~100 ms from the server's loop.
    std::function<void()> onTick;
};

/// Serves until `stop` becomes true. Throws RpcError when it cannot listen,
/// or std::invalid_argument for a non-loopback host without a token.
void runServer(const ServerOptions& options, const std::atomic<bool>& stop);

} // namespace tessel::rpc
