#include "rpc/Endpoint.h"

namespace tessel::rpc {

Client Endpoint::open() {
    std::string host;
    uint16_t port = 0;
    ClientOptions options;
    {
        std::lock_guard<std::mutex> lock(m_);
        address(host, port, options);
    }
    try {
        return Client::connect(host, port, options);
    } catch (const RpcError&) {
        failed();
        throw;
    }
}

AddressEndpoint::AddressEndpoint(std::string host, uint16_t port, ClientOptions options)
    : host_(std::move(host)), port_(port), options_(std::move(options)) {}

std::string AddressEndpoint::name() const { return "rpc " + host_ + ":" + std::to_string(port_); }

void AddressEndpoint::address(std::string& host, uint16_t& port, ClientOptions& options) {
    host = host_;
    port = port_;
    options = options_;
}

LocalEndpoint::LocalEndpoint(std::shared_ptr<LocalServer> server, std::string clientName)
    : server_(server ? std::move(server) : std::make_shared<LocalServer>()), clientName_(std::move(clientName)) {}

void LocalEndpoint::address(std::string& host, uint16_t& port, ClientOptions& options) {
    try {
        server_->ensureRunning(); // starts it again when it died
    } catch (const std::exception& e) {
        throw RpcError("start the local server", Failure::Connect, e.what());
    }
    host = "127.0.0.1";
    port = server_->port();
    options.token = server_->token();
    options.name = clientName_;
    // This machine's own child: a slow handshake means a loaded machine (or a
    // sanitized build, 2-5x slower), not a lost peer, so it gets longer than a
    // remote server's 5 s (a child that died is restarted above instead).
    options.connectTimeoutMs = 30000;
}

TrackerEndpoint::TrackerEndpoint(std::string trackerHost, uint16_t trackerPort, std::string key,
                                 ClientOptions serverOptions, std::string trackerToken, int priority, int waitMs)
    : trackerHost_(std::move(trackerHost)), trackerPort_(trackerPort), key_(std::move(key)),
      serverOptions_(std::move(serverOptions)), trackerToken_(std::move(trackerToken)), priority_(priority),
      waitMs_(waitMs) {}

TrackerEndpoint::~TrackerEndpoint() {
    if (tracker_) tracker_->release();
}

std::string TrackerEndpoint::name() const {
    std::string n = "rpc key '" + key_ + "' at " + trackerHost_ + ":" + std::to_string(trackerPort_);
    const Assignment a = assignment();
    if (!a.host.empty()) n += " (" + a.host + ":" + std::to_string(a.port) + ")";
    return n;
}

Assignment TrackerEndpoint::assignment() const {
    std::lock_guard<std::mutex> lock(m_);
    return assignment_;
}

void TrackerEndpoint::failed() {
    std::lock_guard<std::mutex> lock(m_);
    if (!assignment_.host.empty()) failed_ = true;
}

void TrackerEndpoint::address(std::string& host, uint16_t& port, ClientOptions& options) {
    if (!tracker_) tracker_ = std::make_unique<TrackerClient>(trackerHost_, trackerPort_, trackerToken_);
    if (assignment_.host.empty()) {
        assignment_ = tracker_->request(key_, priority_, deadlineIn(waitMs_));
    } else if (failed_) {
        assignment_ = tracker_->reassign(deadlineIn(waitMs_));
    }
    failed_ = false;
    host = assignment_.host;
    port = assignment_.port;
    options = serverOptions_;
}

} // namespace tessel::rpc
