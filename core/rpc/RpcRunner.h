/// \file
/// Runners that measure on an RPC server (runtime/Runner.h for kernels,
/// runtime/ModelRunner.h for whole models), each in a session it opens on an
/// Endpoint: a server by address (RpcRunner), this machine's tessel-rpc
/// server child that it starts, keeps warm and restarts when it died
/// (LocalRunner, TVM's "local runner"), or a server of a key from a tracker
/// (TrackerRunner). A kernel that crashes or hangs is a failed measurement,
/// never a crashed caller.
///
/// A kernel run uploads the artifact's shared object, allocates its
/// arguments on the device, fills the inputs with the same seeded values the
/// in-process runner uses (so references are shared), makes one untimed call
/// (its outputs are fetched), then times it with the request's evaluator.
/// Inputs stay on the device for the next run of the same shapes and seeds
/// (a tuner's candidates of one workload); outputs are fresh every run.
#pragma once

#include "rpc/Client.h"
#include "rpc/Endpoint.h"
#include "runtime/ModelRunner.h"
#include "runtime/Runner.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::rpc {

class RpcRunner : public runtime::Runner {
public:
    /// Sessions on `endpoint` (shared with other runners of it).
    explicit RpcRunner(std::shared_ptr<Endpoint> endpoint, runtime::Device device = runtime::Device::cpu());
    /// A server at `host`:`port`.
    RpcRunner(std::string host, uint16_t port, ClientOptions options = {});
    std::string name() const override { return endpoint_->name(); }
    /// The device's facts (asked once, on the first call). Throws RpcError
    /// when the server cannot be reached.
    runtime::DeviceInfo device() const override;
    runtime::RunResult run(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request) override;

    /// The open session, connecting when there is none; throws RpcError.
    Client& session() const;
    const std::shared_ptr<Endpoint>& endpoint() const { return endpoint_; }

private:
    /// An input tensor kept on the device: its type, shape, seed and id.
    struct CachedInput {
        DataType dtype;
        std::vector<int64_t> shape;
        uint64_t seed = 0;
        uint64_t id = 0;
    };
    runtime::RunResult runOnce(const runtime::BuildArtifact& artifact, const runtime::RunRequest& request);
    std::shared_ptr<Endpoint> endpoint_;
    runtime::Device target_;
    mutable Client client_;
    mutable uint64_t sessions_ = 0; ///< sessions opened so far
    mutable std::optional<runtime::DeviceInfo> device_;
    uint64_t uploads_ = 0;
    std::vector<CachedInput> inputs_; ///< by position among the kernel's inputs
    uint64_t inputsSession_ = 0;      ///< the session inputs_ live in
};

/// Measures in a `tessel-rpc server` child on loopback with a fresh token.
class LocalRunner : public RpcRunner {
public:
    /// `serverBinary` empty: LocalServer::findBinary().
    explicit LocalRunner(std::string serverBinary = {});
    /// On a server shared with other runners (LocalServer::shared()).
    explicit LocalRunner(std::shared_ptr<LocalServer> server);
    LocalServer& server() const;
};

/// Measures on a server of `key` that a tracker hands out (TrackerEndpoint).
class TrackerRunner : public RpcRunner {
public:
    /// `serverOptions.token` is the servers' token; `trackerToken` the tracker's.
    TrackerRunner(std::string trackerHost, uint16_t trackerPort, std::string key, ClientOptions serverOptions,
                  std::string trackerToken, int priority = 0, int waitMs = 10 * 60 * 1000);
    /// The server it holds now (empty host before the first run).
    Assignment assignment() const;
};

/// Runs whole models in a session of its own on `endpoint`'s server: the
/// package's export is written to a temporary folder, uploaded and loaded
/// (a model with nothing to compute has no library to upload), its inputs
/// and outputs allocated on the device once per load.
class RpcModelRunner : public runtime::ModelRunner {
public:
    explicit RpcModelRunner(std::shared_ptr<Endpoint> endpoint, runtime::Device device = runtime::Device::cpu());
    ~RpcModelRunner() override;
    std::string name() const override { return endpoint_->name(); }
    void load(const runtime::ModelPackage& model) override;
    void setInputs(const std::vector<runtime::NDArray>& inputs) override;
    runtime::ModelTiming run(const runtime::ModelRunSpec& spec) override;
    std::vector<runtime::NDArray> outputs() override;
    runtime::ModelTiming profile(const runtime::ModelRunSpec& spec) override;
    /// This machine's own server (a LocalEndpoint).
    bool onThisMachine() const override;

private:
    Client& session();
    RunSpec specOf(const runtime::ModelRunSpec& spec) const;
    void freeTensors();
    std::shared_ptr<Endpoint> endpoint_;
    runtime::Device device_;
    Client client_;
    std::optional<runtime::ExecutorPlan> plan_;
    std::vector<uint64_t> in_, out_;
};

/// runtime::MeasureError for an RPC step's failure.
runtime::MeasureError measureErrorOf(const RpcError& e);

} // namespace tessel::rpc
