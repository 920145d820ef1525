/// \file
/// A client's session on one RPC server (docs/rpc.md, "Session requests"):
/// upload, load, allocate, copy, run the time evaluator, fetch, each step with
/// a time limit and an RpcError that names the step and the reason.
#pragma once

#include "rpc/Connection.h"
#include "runtime/DeviceInfo.h"
#include "runtime/NDArray.h"

#include <cstdint>
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

    /// The device's facts, as JSON and parsed.
    std::string deviceJson();
    runtime::DeviceInfo device();
    /// Writes `size` bytes as file `name` of the session's folder.
    void upload(const std::string& name, const void* data, size_t size);
    void uploadFile(const std::string& name, const std::string& path);
    /// Loads an uploaded shared object (replacing the session's module) and
    /// checks that it has `functions` (RpcError NotFound names the missing).
    void loadModule(const std::string& name, const std::vector<std::string>& functions);
    uint64_t alloc(DataType dtype, const std::vector<int64_t>& shape);
    void free(uint64_t tensor);
    void copyTo(uint64_t tensor, const runtime::NDArray& value);
    /// The tensor's bytes as an array of `shape` and `dtype`.
    runtime::NDArray copyFrom(uint64_t tensor, const std::vector<int64_t>& shape, DataType dtype);
    /// Runs `function` of the loaded module on `tensors`; `written` marks
    /// those it writes (their contents come back into the session; the
    /// others keep theirs whatever the kernel did). Empty: all are written.
    Timing run(const std::string& function, const std::vector<uint64_t>& tensors, const RunSpec& spec,
               const std::vector<bool>& written = {});
    /// Loads the exported model uploaded into the session folder
    /// (model.so, plan.json, weights.bin); its inputs and outputs as JSON.
    std::string loadModel();
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
    Connection c_;
    ClientOptions o_;
    std::string address_;
    std::string welcome_;
};

} // namespace tessel::rpc
