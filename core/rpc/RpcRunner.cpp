#include "rpc/RpcRunner.h"

#include <algorithm>
#include <cmath>

namespace tessel::rpc {

runtime::MeasureError measureErrorOf(const RpcError& e) {
    using runtime::MeasureError;
    if (e.failure() != Failure::Remote) return MeasureError::Device;
    switch (e.remote()) {
    case ErrorCode::Crash: return MeasureError::Crash;
    case ErrorCode::Timeout: return MeasureError::Timeout;
    case ErrorCode::Load:
    case ErrorCode::NotFound: return MeasureError::Load;
    case ErrorCode::Runtime:
    case ErrorCode::Limit: return MeasureError::Runtime;
    default: return MeasureError::Device;
    }
}

RpcRunner::RpcRunner(std::string host, uint16_t port, ClientOptions options)
    : host_(std::move(host)), port_(port), options_(std::move(options)) {}

std::string RpcRunner::name() const { return "rpc " + host_ + ":" + std::to_string(port_); }

void RpcRunner::endpoint(std::string& host, uint16_t& port) const {
    host = host_;
    port = port_;
}

Client& RpcRunner::session() const {
    if (!client_.isOpen()) {
        std::string host;
        uint16_t port = 0;
        endpoint(host, port);
        try {
            client_ = Client::connect(host, port, options_);
        } catch (const RpcError&) {
            connectionFailed();
            throw;
        }
    }
    return client_;
}

runtime::DeviceInfo RpcRunner::device() const {
    if (!device_) device_ = session().device();
    return *device_;
}

namespace {

runtime::RunResult failed(runtime::MeasureError error, std::string message) {
    runtime::RunResult r;
    r.error = error;
    r.message = std::move(message);
    return r;
}

RunSpec specOf(const runtime::RunRequest& request, const runtime::TimeEvaluator& ev, bool untimed) {
    RunSpec s;
    s.threads = static_cast<uint32_t>(std::max(0, request.threads));
    s.timeoutMs = static_cast<uint32_t>(std::clamp(request.timeoutSeconds * 1e3, 1.0, 3.6e6));
    if (untimed) {
        s.repeat = 0;
    } else {
        s.number = static_cast<uint32_t>(std::max(1, ev.number));
        s.repeat = static_cast<uint32_t>(std::max(1, ev.repeat));
        s.minRepeatMs = static_cast<uint32_t>(std::max(0.0, ev.minRepeatMs));
        s.warmup = static_cast<uint32_t>(std::max(0, ev.warmup));
    }
    return s;
}

} // namespace

runtime::RunResult RpcRunner::run(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request) {
    // A connection that broke since the last run (a restarted server) gets
    // one fresh try; a kernel's own failure does not.
    runtime::RunResult r = runOnce(artifact, request);
    if (r.error == runtime::MeasureError::Device && !client_.isOpen()) {
        connectionFailed();
        r = runOnce(artifact, request);
    }
    return r;
}

runtime::RunResult RpcRunner::runOnce(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request) {
    using runtime::MeasureError;
    const auto& sig = artifact.signature;
    std::vector<uint64_t> ids;
    try {
        Client& c = session();
        const std::string file = "kernel-" + std::to_string(++uploads_) + ".so";
        c.upload(file, artifact.library.data(), artifact.library.size());
        c.loadModule(file, {sig.name});
        uint64_t seed = request.seed;
        std::vector<bool> written;
        for (const auto& a : sig.args) written.push_back(a.output);
        for (const auto& a : sig.args) {
            ids.push_back(c.alloc(a.dtype, a.shape));
            if (!a.output) {
                runtime::NDArray value(a.shape, a.dtype);
                value.fillRandom(seed++, 0.0, 1.0);
                c.copyTo(ids.back(), value);
            }
        }
        auto freeAll = [&] {
            for (uint64_t id : ids) c.free(id);
            ids.clear();
        };
        if (request.cancelled && request.cancelled()) {
            freeAll();
            return failed(MeasureError::Cancelled, "cancelled");
        }
        runtime::RunResult r;
        const Timing first = c.run(sig.name, ids, specOf(request, request.evaluator, true), written);
        r.threads = first.threads;
        const double firstMs = first.repeatsMs.empty() ? 0 : first.repeatsMs[0];
        if (request.fetchOutputs)
            for (size_t i : sig.outputIndices()) r.outputs.push_back(c.copyFrom(ids[i], sig.args[i].shape, sig.args[i].dtype));
        if (request.untimed) {
            r.repeatsMs = {firstMs};
            r.latencyMs = firstMs;
        } else {
            if (request.cancelled && request.cancelled()) {
                freeAll();
                return failed(MeasureError::Cancelled, "cancelled");
            }
            runtime::TimeEvaluator ev = request.evaluator;
            if (firstMs > request.slowCallSeconds * 1e3) { // the naive baseline: a few single calls
                ev.warmup = 0;
                ev.minRepeatMs = 0;
                ev.number = 1;
                ev.repeat = std::min(ev.repeat, 3);
            }
            const Timing t = c.run(sig.name, ids, specOf(request, ev, false), written);
            r.repeatsMs = t.repeatsMs;
            r.latencyMs = runtime::median(r.repeatsMs);
            r.threads = t.threads;
        }
        freeAll();
        r.ok = true;
        return r;
    } catch (const RpcError& e) {
        // The session survives a kernel's own failure; free what it holds.
        if (client_.isOpen())
            try {
                for (uint64_t id : ids) client_.free(id);
            } catch (const RpcError&) {
            }
        return failed(measureErrorOf(e), name() + ": " + e.what());
    }
}

LocalRunner::LocalRunner(std::string serverBinary)
    : RpcRunner("127.0.0.1", 0), server_(std::make_shared<LocalServer>(std::move(serverBinary))) {}

LocalRunner::LocalRunner(std::shared_ptr<LocalServer> server) : RpcRunner("127.0.0.1", 0), server_(std::move(server)) {}

LocalRunner::~LocalRunner() = default;

void LocalRunner::endpoint(std::string& host, uint16_t& port) const {
    try {
        server_->ensureRunning();
    } catch (const std::exception& e) {
        throw RpcError("start the local server", Failure::Connect, e.what());
    }
    host = "127.0.0.1";
    port = server_->port();
    options_.token = server_->token();
    port_ = port;
}

void LocalRunner::connectionFailed() const {
    // ensureRunning() starts it again on the next try when it died.
}

} // namespace tessel::rpc

namespace tessel::rpc {

TrackerRunner::TrackerRunner(std::string trackerHost, uint16_t trackerPort, std::string key, ClientOptions serverOptions,
                             std::string trackerToken, int priority, int waitMs)
    : RpcRunner("", 0, std::move(serverOptions)), trackerHost_(std::move(trackerHost)), trackerPort_(trackerPort),
      key_(std::move(key)), trackerToken_(std::move(trackerToken)), priority_(priority), waitMs_(waitMs) {}

TrackerRunner::~TrackerRunner() {
    if (tracker_) tracker_->release();
}

std::string TrackerRunner::name() const {
    std::string n = "rpc key '" + key_ + "' at " + trackerHost_ + ":" + std::to_string(trackerPort_);
    if (!assignment_.host.empty()) n += " (" + assignment_.host + ":" + std::to_string(assignment_.port) + ")";
    return n;
}

void TrackerRunner::endpoint(std::string& host, uint16_t& port) const {
    if (!tracker_) tracker_ = std::make_unique<TrackerClient>(trackerHost_, trackerPort_, trackerToken_);
    if (assignment_.host.empty()) {
        assignment_ = tracker_->request(key_, priority_, deadlineIn(waitMs_));
    } else if (failed_) {
        assignment_ = tracker_->reassign(deadlineIn(waitMs_));
    }
    failed_ = false;
    host = assignment_.host;
    port = assignment_.port;
}

void TrackerRunner::connectionFailed() const {
    if (!assignment_.host.empty()) failed_ = true;
}

} // namespace tessel::rpc
