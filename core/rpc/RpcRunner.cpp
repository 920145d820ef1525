#include "rpc/RpcRunner.h"

#include "runtime/ExportedModel.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <utility>

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

RpcRunner::RpcRunner(std::shared_ptr<Endpoint> endpoint, runtime::Device device)
    : endpoint_(std::move(endpoint)), target_(device) {}

RpcRunner::RpcRunner(std::string host, uint16_t port, ClientOptions options)
    : RpcRunner(std::make_shared<AddressEndpoint>(std::move(host), port, std::move(options))) {}

Client& RpcRunner::session() const {
    if (!client_.isOpen()) {
        client_ = endpoint_->open();
        ++sessions_;
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

RunSpec specOf(const runtime::RunRequest& request, const runtime::TimeEvaluator& ev, bool untimed,
               runtime::Device device) {
    RunSpec s;
    s.device = device;
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
        endpoint_->failed();
        r = runOnce(artifact, request);
    }
    return r;
}

runtime::RunResult RpcRunner::runOnce(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request) {
    using runtime::MeasureError;
    const auto& sig = artifact.signature;
    std::vector<uint64_t> ids, outputs; // outputs: allocated for this run, freed after it
    try {
        Client& c = session();
        if (inputsSession_ != sessions_) { // a new session holds none of them
            inputs_.clear();
            inputsSession_ = sessions_;
        }
        const std::string file = "kernel-" + std::to_string(++uploads_) + ".so";
        c.upload(file, artifact.library.data(), artifact.library.size());
        c.loadModule(file, {sig.name}, target_);
        // Inputs stay on the device between runs: a candidate of the same
        // workload gets the same seeded values (read-only to its kernel) and
        // does not send them again. Outputs are fresh (zero-filled) every run.
        uint64_t seed = request.seed;
        size_t input = 0;
        std::vector<bool> written;
        for (const auto& a : sig.args) {
            written.push_back(a.output);
            if (a.output) {
                ids.push_back(c.alloc(a.dtype, a.shape, target_));
                outputs.push_back(ids.back());
                continue;
            }
            if (input == inputs_.size()) inputs_.emplace_back();
            CachedInput& in = inputs_[input++];
            const uint64_t s = seed++;
            if (in.id == 0 || in.dtype != a.dtype || in.shape != a.shape || in.seed != s) {
                if (in.id != 0) c.free(std::exchange(in.id, 0));
                const uint64_t id = c.alloc(a.dtype, a.shape, target_);
                runtime::NDArray value(a.shape, a.dtype);
                value.fillRandom(s, 0.0, 1.0);
                c.copyTo(id, value);
                in = CachedInput{a.dtype, a.shape, s, id};
            }
            ids.push_back(in.id);
        }
        auto freeOutputs = [&] {
            for (uint64_t id : outputs) c.free(id);
            outputs.clear();
        };
        if (request.cancelled && request.cancelled()) {
            freeOutputs();
            return failed(MeasureError::Cancelled, "cancelled");
        }
        runtime::RunResult r;
        const Timing first = c.run(sig.name, ids, specOf(request, request.evaluator, true, target_), written);
        r.threads = first.threads;
        const double firstMs = first.repeatsMs.empty() ? 0 : first.repeatsMs[0];
        if (request.fetchOutputs)
            for (size_t i : sig.outputIndices()) r.outputs.push_back(c.copyFrom(ids[i], sig.args[i].shape, sig.args[i].dtype));
        if (request.untimed) {
            r.repeatsMs = {firstMs};
            r.latencyMs = firstMs;
        } else {
            if (request.cancelled && request.cancelled()) {
                freeOutputs();
                return failed(MeasureError::Cancelled, "cancelled");
            }
            runtime::TimeEvaluator ev = request.evaluator;
            if (firstMs > request.slowCallSeconds * 1e3) { // the naive baseline: a few single calls
                ev.warmup = 0;
                ev.minRepeatMs = 0;
                ev.number = 1;
                ev.repeat = std::min(ev.repeat, 3);
            }
            const Timing t = c.run(sig.name, ids, specOf(request, ev, false, target_), written);
            r.repeatsMs = t.repeatsMs;
            r.latencyMs = runtime::median(r.repeatsMs);
            r.threads = t.threads;
        }
        freeOutputs();
        r.ok = true;
        return r;
    } catch (const RpcError& e) {
        // The session survives a kernel's own failure; free what this run
        // allocated (its inputs stay for the next).
        if (client_.isOpen())
            try {
                for (uint64_t id : outputs) client_.free(id);
            } catch (const RpcError&) {
            }
        return failed(measureErrorOf(e), name() + ": " + e.what());
    }
}

LocalRunner::LocalRunner(std::string serverBinary)
    : RpcRunner(std::make_shared<LocalEndpoint>(std::make_shared<LocalServer>(std::move(serverBinary)))) {}

LocalRunner::LocalRunner(std::shared_ptr<LocalServer> server)
    : RpcRunner(std::make_shared<LocalEndpoint>(std::move(server))) {}

LocalServer& LocalRunner::server() const { return static_cast<LocalEndpoint&>(*endpoint()).server(); }

TrackerRunner::TrackerRunner(std::string trackerHost, uint16_t trackerPort, std::string key, ClientOptions serverOptions,
                             std::string trackerToken, int priority, int waitMs)
    : RpcRunner(std::make_shared<TrackerEndpoint>(std::move(trackerHost), trackerPort, std::move(key),
                                                  std::move(serverOptions), std::move(trackerToken), priority, waitMs)) {}

Assignment TrackerRunner::assignment() const { return static_cast<TrackerEndpoint&>(*endpoint()).assignment(); }

// ---------------------------------------------------------------- models

RpcModelRunner::RpcModelRunner(std::shared_ptr<Endpoint> endpoint, runtime::Device device)
    : endpoint_(std::move(endpoint)), device_(device) {}

RpcModelRunner::~RpcModelRunner() {
    try { // the session may be gone: nothing to free then
        freeTensors();
        client_.bye();
    } catch (const std::exception&) {
    }
}

Client& RpcModelRunner::session() {
    if (!client_.isOpen()) {
        plan_.reset(); // a new session has nothing loaded
        in_.clear();
        out_.clear();
        client_ = endpoint_->open();
    }
    return client_;
}

void RpcModelRunner::freeTensors() {
    if (client_.isOpen()) {
        for (uint64_t id : in_) client_.free(id);
        for (uint64_t id : out_) client_.free(id);
    }
    in_.clear();
    out_.clear();
}

namespace {

/// A temporary folder removed with everything in it.
struct TempFolder {
    std::string path;
    TempFolder() {
        path = (std::filesystem::temp_directory_path() / "tessel-export-XXXXXX").string();
        if (!::mkdtemp(path.data())) throw std::runtime_error("cannot create a folder for the export");
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

} // namespace

void RpcModelRunner::load(const runtime::ModelPackage& model) {
    if (!model.writeExport) throw std::runtime_error("this model cannot be exported to run on a device");
    Client& c = session();
    freeTensors();
    plan_.reset();
    const TempFolder dir;
    model.writeExport(dir.path);
    for (const char* file : {runtime::kExportLibrary, runtime::kExportPlan, runtime::kExportWeights})
        if (std::filesystem::exists(dir.path + "/" + file)) c.uploadFile(file, dir.path + "/" + file);
    c.loadModel(device_);
    plan_ = model.plan;
    for (int i : plan_->inputs) {
        const auto& t = plan_->tensors[size_t(i)];
        in_.push_back(c.alloc(t.dtype, t.shape, device_));
    }
    for (int o : plan_->outputs) {
        const auto& t = plan_->tensors[size_t(o)];
        out_.push_back(c.alloc(t.dtype, t.shape, device_));
    }
}

void RpcModelRunner::setInputs(const std::vector<runtime::NDArray>& inputs) {
    if (!plan_ || !client_.isOpen()) throw std::runtime_error("no model is loaded");
    if (inputs.size() != in_.size())
        throw std::runtime_error("the model takes " + std::to_string(in_.size()) + " inputs, not " +
                                 std::to_string(inputs.size()));
    for (size_t i = 0; i < inputs.size(); ++i) client_.copyTo(in_[i], inputs[i]);
}

RunSpec RpcModelRunner::specOf(const runtime::ModelRunSpec& spec) const {
    RunSpec s;
    s.device = device_;
    s.threads = uint32_t(std::max(0, spec.threads));
    s.timeoutMs = uint32_t(std::clamp(spec.timeoutSeconds * 1e3, 1.0, 3.6e6));
    s.number = 1;
    s.repeat = uint32_t(std::max(0, spec.repeat));
    s.minRepeatMs = 0;
    s.warmup = uint32_t(std::max(0, spec.warmup));
    return s;
}

runtime::ModelTiming RpcModelRunner::run(const runtime::ModelRunSpec& spec) {
    if (!plan_ || !client_.isOpen()) throw std::runtime_error("no model is loaded");
    RunSpec s = specOf(spec);
    runtime::ModelTiming t;
    if (s.repeat == 0 && s.warmup > 0) { // warm-up runs, then the one run alone
        RunSpec warm = s;
        warm.repeat = s.warmup;
        warm.warmup = 0;
        client_.runModel(in_, out_, warm);
        s.warmup = 0;
    }
    const Timing got = client_.runModel(in_, out_, s);
    t.ms = got.repeatsMs;
    t.threads = got.threads;
    return t;
}

std::vector<runtime::NDArray> RpcModelRunner::outputs() {
    if (!plan_ || !client_.isOpen()) throw std::runtime_error("no model is loaded");
    std::vector<runtime::NDArray> out;
    for (size_t o = 0; o < out_.size(); ++o) {
        const auto& t = plan_->tensors[size_t(plan_->outputs[o])];
        out.push_back(client_.copyFrom(out_[o], t.shape, t.dtype));
    }
    return out;
}

runtime::ModelTiming RpcModelRunner::profile(const runtime::ModelRunSpec& spec) {
    if (!plan_ || !client_.isOpen()) throw std::runtime_error("no model is loaded");
    RunSpec s = specOf(spec);
    s.repeat = uint32_t(std::max(1, spec.repeat));
    const Timing got = client_.profileModel(in_, s);
    if (got.repeatsMs.size() != plan_->steps.size())
        throw std::runtime_error("the device profiled " + std::to_string(got.repeatsMs.size()) + " steps of " +
                                 std::to_string(plan_->steps.size()));
    runtime::ModelTiming t;
    t.ms = got.repeatsMs;
    t.threads = got.threads;
    return t;
}

bool RpcModelRunner::onThisMachine() const {
    return dynamic_cast<const LocalEndpoint*>(endpoint_.get()) != nullptr;
}

} // namespace tessel::rpc
