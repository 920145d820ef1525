#include "rpc/Client.h"

#include "rpc/Handshake.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace tessel::rpc {

Client Client::connect(const std::string& host, uint16_t port, const ClientOptions& options) {
    Client cl;
    cl.o_ = options;
    cl.address_ = host + ":" + std::to_string(port);
    cl.c_ = Connection::connect(host, port, deadlineIn(options.connectTimeoutMs));
    cl.welcome_ = clientHandshake(cl.c_, Role::Client, options.name, options.token, deadlineIn(options.connectTimeoutMs));
    return cl;
}

std::vector<char> Client::call(Code code, const std::vector<char>& payload, const std::string& step, int64_t extraMs,
                               const void* tail, size_t tailBytes, uint64_t maxReply) {
    try {
        return c_.call(code, payload, maxReply, deadlineIn(o_.stepTimeoutMs + extraMs), step, tail, tailBytes);
    } catch (const RpcError& e) {
        // A broken connection cannot carry the next step: close it so
        // isOpen() tells the caller to reconnect.
        if (e.failure() != Failure::Remote) c_.close();
        throw;
    }
}

namespace {

/// Reads an Ok payload; a malformed one is the server's protocol error.
template <class F> auto parse(const std::vector<char>& payload, const std::string& step, F&& f) {
    try {
        Reader r(payload);
        auto v = f(r);
        r.finish();
        return v;
    } catch (const ProtocolError& e) {
        throw RpcError(step, Failure::Protocol, std::string("malformed reply: ") + e.what());
    }
}

Timing readTiming(const std::vector<char>& payload, const std::string& step) {
    return parse(payload, step, [](Reader& r) {
        Timing t;
        const uint32_t n = r.count(100000, 8);
        for (uint32_t i = 0; i < n; ++i) t.repeatsMs.push_back(r.f64());
        t.threads = static_cast<int>(r.u32());
        return t;
    });
}

} // namespace

std::string Client::deviceJson() {
    const auto p = call(Code::GetDevice, {}, "device facts");
    return parse(p, "device facts", [](Reader& r) { return r.str(); });
}

runtime::DeviceInfo Client::device() {
    const std::string json = deviceJson();
    try {
        return runtime::DeviceInfo::fromJson(json);
    } catch (const std::exception& e) {
        throw RpcError("device facts", Failure::Protocol, e.what());
    }
}

void Client::upload(const std::string& name, const void* data, size_t size) {
    Writer w;
    w.str(name).u64(size);
    // The block's length prefix is in the payload, its bytes follow as the tail.
    call(Code::Upload, w.take(), "upload " + name, static_cast<int64_t>(size >> 20) * 1000, data, size);
}

void Client::uploadFile(const std::string& name, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RpcError("upload " + name, Failure::Protocol, "cannot read '" + path + "'");
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    upload(name, bytes.data(), bytes.size());
}

void Client::loadModule(const std::string& name, const std::vector<std::string>& functions, runtime::Device device) {
    const std::string step = "load module " + name;
    Writer w;
    w.str(name);
    writeDevice(w, device);
    w.u32(static_cast<uint32_t>(functions.size()));
    for (const auto& f : functions) w.str(f);
    call(Code::LoadModule, w.take(), step);
}

uint64_t Client::alloc(DataType dtype, const std::vector<int64_t>& shape, runtime::Device device) {
    Writer w;
    writeDevice(w, device);
    w.str(dtype.str()).u32(static_cast<uint32_t>(shape.size()));
    for (int64_t d : shape) w.i64(d);
    const auto p = call(Code::Alloc, w.take(), "allocate " + dtype.str() + " on " + device.str());
    const uint64_t id = parse(p, "allocate", [](Reader& r) { return r.u64(); });
    devices_[id] = device;
    return id;
}

void Client::free(uint64_t tensor) {
    call(Code::Free, Writer().u64(tensor).take(), "free");
    devices_.erase(tensor);
}

runtime::Device Client::deviceOf(uint64_t tensor) const {
    auto it = devices_.find(tensor);
    return it == devices_.end() ? runtime::Device::cpu() : it->second; // the server names an unknown id
}

void Client::copyTo(uint64_t tensor, const runtime::NDArray& value) {
    if (!value.isHost()) {
        copyTo(tensor, value.copyTo(runtime::Device::cpu()));
        return;
    }
    Writer w;
    w.u64(tensor);
    writeDevice(w, deviceOf(tensor));
    w.u64(value.numBytes());
    call(Code::CopyTo, w.take(), "copy to the device", static_cast<int64_t>(value.numBytes() >> 20) * 1000,
         value.rawData(), value.numBytes());
}

runtime::NDArray Client::copyFrom(uint64_t tensor, const std::vector<int64_t>& shape, DataType dtype) {
    runtime::NDArray out(shape, dtype);
    Writer w;
    w.u64(tensor);
    writeDevice(w, deviceOf(tensor));
    const auto p = call(Code::CopyFrom, w.take(), "copy from the device",
                        static_cast<int64_t>(out.numBytes() >> 20) * 1000, nullptr, 0, out.numBytes() + 64);
    const std::string_view bytes = parse(p, "copy from the device", [](Reader& r) { return r.bytes(uint64_t(-1)); });
    if (bytes.size() != out.numBytes())
        throw RpcError("copy from the device", Failure::Protocol,
                       "got " + std::to_string(bytes.size()) + " bytes for a tensor of " + std::to_string(out.numBytes()));
    std::memcpy(out.rawData(), bytes.data(), bytes.size());
    return out;
}

Timing Client::run(const std::string& function, const std::vector<uint64_t>& tensors, const RunSpec& spec,
                   const std::vector<bool>& written) {
    Writer w;
    w.str(function).u32(static_cast<uint32_t>(tensors.size()));
    for (size_t i = 0; i < tensors.size(); ++i) w.u64(tensors[i]).u8(written.empty() || written[i] ? 1 : 0);
    spec.write(w);
    const std::string step = "run " + function;
    return readTiming(call(Code::Run, w.take(), step, spec.timeoutMs), step);
}

Timing Client::profileModel(const std::vector<uint64_t>& inputs, const RunSpec& spec) {
    Writer w;
    w.u32(static_cast<uint32_t>(inputs.size()));
    for (uint64_t id : inputs) w.u64(id);
    spec.write(w);
    return readTiming(call(Code::ProfileModel, w.take(), "profile model", spec.timeoutMs), "profile model");
}

std::string Client::loadModel(runtime::Device device) {
    Writer w;
    writeDevice(w, device);
    const auto p = call(Code::LoadModel, w.take(), "load model", 60000);
    return parse(p, "load model", [](Reader& r) { return r.str(); });
}

Timing Client::runModel(const std::vector<uint64_t>& inputs, const std::vector<uint64_t>& outputs, const RunSpec& spec) {
    Writer w;
    w.u32(static_cast<uint32_t>(inputs.size()));
    for (uint64_t t : inputs) w.u64(t);
    w.u32(static_cast<uint32_t>(outputs.size()));
    for (uint64_t t : outputs) w.u64(t);
    spec.write(w);
    return readTiming(call(Code::RunModel, w.take(), "run model", spec.timeoutMs), "run model");
}

void Client::bye() {
    if (!c_.isOpen()) return;
    try {
        call(Code::Bye, {}, "bye");
    } catch (const RpcError&) {
    }
    c_.close();
}

} // namespace tessel::rpc
