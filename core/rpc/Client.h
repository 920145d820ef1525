/// \file
/// A client's session on one RPC server (docs/rpc.md, "Session requests"):
/// upload, load, allocate, copy, run the time evaluator, fetch, each step with
/// a time limit and an RpcError that names the step and the reason. Modules,
/// models and tensors are on a device of the server (its CPU unless a
/// request names another); the client remembers each tensor's.
#pragma once

#include "rpc/Connection.h"
#include "runtime/DeviceInfo.h"
#include "runtime/NDArray.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessel::rpc {

struct ClientOptions {
    /// The server's token; empty when it wants none.
    std::string token;
    /// This client's name in the server's log.
    std::string name = "tessel";
    int connectTimeoutMs = 5000;
    /// Every step but a run (which adds its own time limit) and an upload
    /// (which adds a second per MiB).
    int stepTimeoutMs = 30000;
};

/// Timings of a Run or RunModel request.
struct Timing {
    /// Every repeat's mean ms per call (one figure for an untimed run).
    std::vector<double> repeatsMs;
    /// Threads the device's pool had.
    int threads = 0;
};

class Client {
public:
    Client() = default;
    /// Connects and shakes hands; throws RpcError (step "connect ..." or "handshake").
    static Client connect(const std::string& host, uint16_t port, const ClientOptions& options);

    bool isOpen() const { return c_.isOpen(); }
    /// "host:port".
    const std::string& address() const { return address_; }
    /// What the server said when it welcomed us ("tessel-rpc server 0.1.0").
    const std::string& welcome() const { return welcome_; }

    /// The server's facts (and its devices, "devices": ["cpu:0", ...]), as JSON and parsed.
    std::string deviceJson();
    runtime::DeviceInfo device();
    /// Writes `size` bytes as file `name` of the session's folder.
    void upload(const std::string& name, const void* data, size_t size);
    void uploadFile(const std::string& name, const std::string& path);
    /// Loads an uploaded module for `device` (replacing the session's
    /// module) and checks that it has `functions` (RpcError NotFound names
    /// the missing).
    void loadModule(const std::string& name, const std::vector<std::string>& functions,
                    runtime::Device device = runtime::Device::cpu());
    /// A zero-filled tensor on `device`.
    uint64_t alloc(DataType dtype, const std::vector<int64_t>& shape, runtime::Device device = runtime::Device::cpu());
    void free(uint64_t tensor);
    /// Copies `value` (from any device of this process) into the tensor.
    void copyTo(uint64_t tensor, const runtime::NDArray& value);
    /// The tensor's bytes as a host array of `shape` and `dtype`.
    runtime::NDArray copyFrom(uint64_t tensor, const std::vector<int64_t>& shape, DataType dtype);
    /// Runs `function` of the loaded module on `tensors` (on spec.device, as
    /// the module and the tensors must be); `written` marks those it writes
    /// (their contents come back into the session; the others keep theirs:
    /// a kernel that writes one crashes). Empty: all are written.
    Timing run(const std::string& function, const std::vector<uint64_t>& tensors, const RunSpec& spec,
               const std::vector<bool>& written = {});
    /// Loads the exported model uploaded into the session folder
    /// (model.so, plan.json, weights.bin) for `device`; its inputs and
    /// outputs as JSON. Its tensors (runModel) are allocated on that device.
    std::string loadModel(runtime::Device device = runtime::Device::cpu());
    Timing runModel(const std::vector<uint64_t>& inputs, const std::vector<uint64_t>& outputs, const RunSpec& spec);
    /// Times every step of the loaded model on its own (the median over
    /// spec.repeat whole runs): one figure per plan step in repeatsMs.
    Timing profileModel(const std::vector<uint64_t>& inputs, const RunSpec& spec);
    /// Ends the session politely.
    void bye();
    void close() { c_.close(); }

private:
    std::vector<char> call(Code code, const std::vector<char>& payload, const std::string& step, int64_t extraMs = 0,
                           const void* tail = nullptr, size_t tailBytes = 0, uint64_t maxReply = kMaxTrackerFrame);
    runtime::Device deviceOf(uint64_t tensor) const;

    Connection c_;
    ClientOptions o_;
    std::string address_;
    std::string welcome_;
    std::map<uint64_t, runtime::Device> devices_;
};

} // namespace tessel::rpc
