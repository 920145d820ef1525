/// \file
/// Runners (runtime/Runner.h) that measure on an RPC server: RpcRunner on a
/// server given by address, and LocalRunner on a `tessel-rpc server` child
/// on loopback that it starts, keeps warm and restarts when it died (TVM's
/// "local runner"), so a kernel that crashes or hangs is a failed
/// measurement, never a crashed caller.
///
/// A run uploads the artifact's shared object, allocates its arguments on
/// the device, fills the inputs with the same seeded values the in-process
/// runner uses (so references are shared), makes one untimed call (its
/// outputs are fetched), then times it with the request's evaluator.
#pragma once

#include "rpc/Client.h"
#include "rpc/LocalServer.h"
#include "rpc/TrackerClient.h"
#include "runtime/Runner.h"

#include <memory>
#include <optional>
#include <string>

namespace tessel::rpc {

class RpcRunner : public runtime::Runner {
public:
    RpcRunner(std::string host, uint16_t port, ClientOptions options = {});
    std::string name() const override;
    /// The device's facts (asked once, on the first call). Throws RpcError
    /// when the server cannot be reached.
    runtime::DeviceInfo device() const override;
    runtime::RunResult run(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request) override;

    /// The open session, connecting when there is none; throws RpcError.
    Client& session() const;

protected:
    /// Where to connect; LocalRunner starts its server here.
    virtual void endpoint(std::string& host, uint16_t& port) const;
    /// A connection failed: LocalRunner restarts a dead server.
    virtual void connectionFailed() const {}

    std::string host_;
    mutable uint16_t port_ = 0;         // LocalRunner learns it when its server starts
    mutable ClientOptions options_;     // and the server's token with it

private:
    runtime::RunResult runOnce(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request);
    mutable Client client_;
    mutable std::optional<runtime::DeviceInfo> device_;
    uint64_t uploads_ = 0;
};

/// Measures in a `tessel-rpc server` child on loopback with a fresh token.
class LocalRunner : public RpcRunner {
public:
    /// `serverBinary` empty: LocalServer::findBinary().
    explicit LocalRunner(std::string serverBinary = {});
    /// On a server shared with other runners (LocalServer::shared()).
    explicit LocalRunner(std::shared_ptr<LocalServer> server);
    ~LocalRunner() override;
    std::string name() const override { return "local server"; }
    LocalServer& server() const { return *server_; }

protected:
    void endpoint(std::string& host, uint16_t& port) const override;
    void connectionFailed() const override;

private:
    std::shared_ptr<LocalServer> server_;
};

/// Measures on a server of `key` that a tracker hands out. It holds the
/// server while it lives; when the server fails (refused, closed, crashed
/// mid-run) it tells the tracker, which gives it another of the key.
class TrackerRunner : public RpcRunner {
public:
    /// `serverOptions.token` is the servers' token; `trackerToken` the tracker's.
    TrackerRunner(std::string trackerHost, uint16_t trackerPort, std::string key, ClientOptions serverOptions,
                  std::string trackerToken, int priority = 0, int waitMs = 10 * 60 * 1000);
    ~TrackerRunner() override;
    std::string name() const override;
    /// The server it holds now (empty host before the first run).
    const Assignment& assignment() const { return assignment_; }

protected:
    void endpoint(std::string& host, uint16_t& port) const override;
    void connectionFailed() const override;

private:
    std::string trackerHost_;
    uint16_t trackerPort_;
    std::string key_;
    std::string trackerToken_;
    int priority_;
    int waitMs_;
    mutable std::unique_ptr<TrackerClient> tracker_;
    mutable Assignment assignment_;
    mutable bool failed_ = false;
};

/// runtime::MeasureError for an RPC step's failure.
runtime::MeasureError measureErrorOf(const RpcError& e);

} // namespace tessel::rpc
