/// \file
/// Where sessions are opened: a server given by address, this machine's
/// local tessel-rpc server (started on demand, restarted when it died), or a
/// server of a key that a tracker hands out and this endpoint holds. The
/// runners of kernels (RpcRunner) and of models (RpcModelRunner) take one;
/// runners that share an endpoint share its server, each in a session of
/// its own (both sides of a comparison on one board).
#pragma once

#include "rpc/Client.h"
#include "rpc/LocalServer.h"
#include "rpc/TrackerClient.h"

#include <memory>
#include <mutex>
#include <string>

namespace tessel::rpc {

class Endpoint {
public:
    virtual ~Endpoint() = default;
    /// "rpc 10.0.0.2:9090", "local server", "rpc key 'rk3399' at ...".
    virtual std::string name() const = 0;
    /// Opens a new session; throws RpcError naming the step.
    Client open();
    /// Whether a session's failure means the server itself may be gone (then
    /// open() starts or asks for another).
    virtual void failed() {}

protected:
    /// Where to connect and with which options.
    virtual void address(std::string& host, uint16_t& port, ClientOptions& options) = 0;
    mutable std::mutex m_;
};

/// A server at a fixed address.
class AddressEndpoint : public Endpoint {
public:
    AddressEndpoint(std::string host, uint16_t port, ClientOptions options = {});
    std::string name() const override;

protected:
    void address(std::string& host, uint16_t& port, ClientOptions& options) override;

private:
    std::string host_;
    uint16_t port_;
    ClientOptions options_;
};

/// This machine's tessel-rpc server child (LocalServer), on loopback with
/// its fresh token; started when a session is first opened, and again when
/// it died.
class LocalEndpoint : public Endpoint {
public:
    /// `server` null: a server of its own (LocalServer with findBinary()).
    explicit LocalEndpoint(std::shared_ptr<LocalServer> server = nullptr, std::string clientName = "tessel");
    std::string name() const override { return "local server"; }
    LocalServer& server() const { return *server_; }
    const std::shared_ptr<LocalServer>& sharedServer() const { return server_; }

protected:
    void address(std::string& host, uint16_t& port, ClientOptions& options) override;

private:
    std::shared_ptr<LocalServer> server_;
    std::string clientName_;
};

/// A server of `key` from a tracker, held while the endpoint lives; when a
/// session on it fails (refused, closed, crashed mid-run), the tracker is
/// told and hands out another of the key.
class TrackerEndpoint : public Endpoint {
public:
    /// `serverOptions.token` is the servers' token; `trackerToken` the tracker's.
    TrackerEndpoint(std::string trackerHost, uint16_t trackerPort, std::string key, ClientOptions serverOptions,
                    std::string trackerToken, int priority = 0, int waitMs = 10 * 60 * 1000);
    ~TrackerEndpoint() override;
    std::string name() const override;
    void failed() override;
    /// The server it holds now (empty host before the first session).
    Assignment assignment() const;

protected:
    void address(std::string& host, uint16_t& port, ClientOptions& options) override;

private:
    std::string trackerHost_;
    uint16_t trackerPort_;
    std::string key_;
    ClientOptions serverOptions_;
    std::string trackerToken_;
    int priority_;
    int waitMs_;
    std::unique_ptr<TrackerClient> tracker_;
    Assignment assignment_;
    bool failed_ = false;
};

} // namespace tessel::rpc
