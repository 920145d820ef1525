/// \file
/// A `tessel-rpc server` child process on loopback, with a fresh random
/// token in a private folder, started on demand and restarted when it died.
/// Its log goes to a file in that folder (lastLog() shows its end).
/// Its standard input is a pipe this process holds open: however this
/// process ends (a kill -9 of `tesselc tune` included), the pipe closes and
/// the server stops (`tessel-rpc server --exit-on-eof`), so no server
/// outlives its owner. Thread-safe.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace tessel::rpc {

class LocalServer {
public:
    /// `binary` empty: findBinary().
    explicit LocalServer(std::string binary = {});
    ~LocalServer();
    LocalServer(const LocalServer&) = delete;
    LocalServer& operator=(const LocalServer&) = delete;

    /// Starts the server unless it runs; throws std::runtime_error when it
    /// cannot (no binary, it exits, it does not say where it listens).
    void ensureRunning();
    bool running() const;
    /// Stops it (SIGTERM, then SIGKILL after a second).
    void stop();
    uint16_t port() const { return port_; }
    const std::string& token() const { return token_; }
    /// How many times it was started.
    int starts() const { return starts_; }
    /// The last lines of its log.
    std::string lastLog(int lines = 10) const;

    /// The process's one local server (the IDE keeps it warm; every
    /// measurement opens its own session on it, so threads may share it).
    static std::shared_ptr<LocalServer> shared();

    /// TESSEL_RPC_SERVER, else `tessel-rpc` next to this executable, else
    /// `tessel-rpc` on PATH; empty when none exists.
    static std::string findBinary();

private:
    void stopLocked();
    mutable std::mutex m_;
    std::string binary_;
    std::string dir_;
    std::string token_;
    pid_t pid_ = -1;
    /// The write end of the server's standard input (-1 without a server).
    int lifeline_ = -1;
    uint16_t port_ = 0;
    int starts_ = 0;
};

} // namespace tessel::rpc
