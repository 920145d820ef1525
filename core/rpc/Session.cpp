#include "rpc/Session.h"

#include "rpc/Handshake.h"
#include "rpc/Isolated.h"
#include "runtime/DeviceInfo.h"
#include "runtime/ExportedModel.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

namespace tessel::rpc {

bool isSessionFileName(const std::string& name) {
    if (name.empty() || name.size() > 64 || name[0] == '.') return false;
    for (char ch : name)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-')) return false;
    return true;
}

namespace {

/// A request the session refuses: becomes an Error frame, the session goes on.
struct Refusal {
    ErrorCode code;
    std::string message;
};

/// A tensor in a private anonymous mapping (huge pages for large ones, as
/// the runtime's own arrays: shared memory would get none, and GEMM-sized
/// kernels run twice as slow on 4 KiB pages). A kernel run in a forked
/// child writes its copy; the child sends the written tensors back.
struct Tensor {
    DataType dtype;
    std::vector<int64_t> shape;
    void* data = nullptr;
    size_t bytes = 0;
    size_t mapped = 0;
    Tensor() = default;
    Tensor(const Tensor&) = delete;
    ~Tensor() {
        if (data) ::munmap(data, mapped);
    }
    runtime::NDArray view() const { return runtime::NDArray::view(data, shape, dtype); }
};

class Session {
public:
    Session(Connection c, const ServerOptions& options) : c_(std::move(c)), o_(options) {}
    ~Session() {
        tensors_.clear();
        model_.reset();
        module_.reset();
        if (!dir_.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(dir_, ec);
        }
    }
    void serve();

private:
    void log(const std::string& line) const {
        if (o_.log) o_.log("session " + std::to_string(::getpid()) + " " + peer_ + ": " + line);
    }
    /// Handles one request; false ends the session (Bye).
    bool handle(const Frame& f);
    std::vector<char> getDevice(Reader& r);
    std::vector<char> upload(Reader& r);
    std::vector<char> loadModule(Reader& r);
    std::vector<char> alloc(Reader& r);
    std::vector<char> copyTo(Reader& r);
    std::vector<char> run(Reader& r);
    std::vector<char> loadModel(Reader& r);
    std::vector<char> runModel(Reader& r);
    std::vector<char> profileModel(Reader& r);
    Tensor& tensor(uint64_t id);
    const std::string& folder();
    std::vector<char> runSandboxed(const std::function<std::vector<double>()>& work, const RunSpec& spec,
                                   const std::string& what, const std::vector<Tensor*>& written);

    Connection c_;
    const ServerOptions& o_;
    std::string peer_;
    std::string dir_;
    std::map<uint64_t, std::unique_ptr<Tensor>> tensors_;
    uint64_t nextTensor_ = 1;
    uint64_t heldBytes_ = 0;
    runtime::ModulePtr module_;
    std::optional<runtime::ExportedModel> model_;
};

const std::string& Session::folder() {
    if (dir_.empty()) {
        std::string tmpl = (std::filesystem::temp_directory_path() / "tessel-rpc-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw Refusal{ErrorCode::Internal, std::string("cannot create the session folder: ") + std::strerror(errno)};
        dir_ = tmpl;
    }
    return dir_;
}

Tensor& Session::tensor(uint64_t id) {
    auto it = tensors_.find(id);
    if (it == tensors_.end()) throw Refusal{ErrorCode::NotFound, "no tensor " + std::to_string(id) + " in this session"};
    return *it->second;
}

std::vector<char> Session::getDevice(Reader& r) {
    r.finish();
    Writer w;
    w.str(runtime::DeviceInfo::local().toJson(o_.version));
    return w.take();
}

std::vector<char> Session::upload(Reader& r) {
    const std::string name = r.str(256);
    const std::string_view data = r.bytes(o_.maxUploadBytes);
    r.finish();
    if (!isSessionFileName(name))
        throw Refusal{ErrorCode::Protocol, "'" + name + "' is not a plain file name (1-64 of A-Z a-z 0-9 . _ -)"};
    // Written beside and renamed over: a loaded module maps the old file,
    // and truncating a mapped file would crash this session (SIGBUS).
    const std::string path = folder() + "/" + name;
    const std::string part = folder() + "/.upload.part";
    const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) throw Refusal{ErrorCode::Internal, "cannot write '" + name + "': " + std::strerror(errno)};
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            ::unlink(part.c_str());
            throw Refusal{ErrorCode::Internal, "cannot write '" + name + "': " + std::strerror(errno)};
        }
        done += static_cast<size_t>(n);
    }
    ::close(fd);
    if (::rename(part.c_str(), path.c_str()) != 0)
        throw Refusal{ErrorCode::Internal, "cannot write '" + name + "': " + std::strerror(errno)};
    log("uploaded " + name + " (" + std::to_string(data.size()) + " bytes)");
    return {};
}

std::vector<char> Session::loadModule(Reader& r) {
    const std::string name = r.str(256);
    const uint32_t n = r.count(kMaxArgs, 8);
    std::vector<std::string> wanted;
    for (uint32_t i = 0; i < n; ++i) wanted.push_back(r.str(1024));
    r.finish();
    if (!isSessionFileName(name)) throw Refusal{ErrorCode::Protocol, "'" + name + "' is not a plain file name"};
    const std::string path = folder() + "/" + name;
    if (!std::filesystem::exists(path)) throw Refusal{ErrorCode::NotFound, "no file '" + name + "' was uploaded"};
    module_.reset();
    try {
        module_ = runtime::loadSharedLibrary(path);
    } catch (const std::exception& e) {
        throw Refusal{ErrorCode::Load, e.what()};
    }
    // A loaded library cannot list its symbols portably: the client names the
    // functions it will call and each is looked up now.
    std::string missing;
    for (const auto& f : wanted)
        if (!module_->function(f)) missing += (missing.empty() ? "'" : ", '") + f + "'";
    if (!missing.empty()) throw Refusal{ErrorCode::NotFound, "the library '" + name + "' has no function " + missing};
    Writer w;
    w.u32(static_cast<uint32_t>(wanted.size()));
    for (const auto& f : wanted) w.str(f);
    return w.take();
}

std::vector<char> Session::alloc(Reader& r) {
    const std::string dtypeText = r.str(32);
    const uint32_t ndim = r.count(kMaxDims, 8);
    std::vector<int64_t> shape(ndim);
    for (auto& d : shape) d = r.i64();
    r.finish();
    const auto dtype = DataType::parse(dtypeText);
    if (!dtype || dtype->bytes() == 0) throw Refusal{ErrorCode::Protocol, "unknown data type '" + dtypeText + "'"};
    uint64_t bytes = static_cast<uint64_t>(dtype->bytes());
    for (int64_t d : shape) {
        if (d < 0) throw Refusal{ErrorCode::Protocol, "negative dimension " + std::to_string(d)};
        if (d > 0 && bytes > kMaxTensorBytes / static_cast<uint64_t>(d))
            throw Refusal{ErrorCode::Limit, "tensor larger than the limit of " + std::to_string(kMaxTensorBytes) + " bytes"};
        bytes *= static_cast<uint64_t>(d);
    }
    if (bytes > kMaxTensorBytes || heldBytes_ + bytes > o_.maxSessionBytes)
        throw Refusal{ErrorCode::Limit, "the session would hold more than " + std::to_string(o_.maxSessionBytes) +
                                            " bytes of tensors"};
    auto t = std::make_unique<Tensor>();
    t->dtype = *dtype;
    t->shape = std::move(shape);
    t->bytes = static_cast<size_t>(bytes);
    t->mapped = std::max<size_t>(t->bytes, 1);
    void* p = ::mmap(nullptr, t->mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw Refusal{ErrorCode::Limit, std::string("cannot allocate: ") + std::strerror(errno)};
#ifdef MADV_HUGEPAGE
    if (t->mapped >= (size_t(2) << 20)) ::madvise(p, t->mapped, MADV_HUGEPAGE); // a hint
#endif
    t->data = p; // zero-filled by the kernel
    heldBytes_ += bytes;
    const uint64_t id = nextTensor_++;
    tensors_[id] = std::move(t);
    Writer w;
    w.u64(id);
    return w.take();
}

std::vector<char> Session::copyTo(Reader& r) {
    const uint64_t id = r.u64();
    const std::string_view data = r.bytes(o_.maxUploadBytes);
    r.finish();
    Tensor& t = tensor(id);
    if (data.size() != t.bytes)
        throw Refusal{ErrorCode::Protocol, "tensor " + std::to_string(id) + " holds " + std::to_string(t.bytes) +
                                               " bytes, not " + std::to_string(data.size())};
    std::memcpy(t.data, data.data(), data.size());
    return {};
}

/// Runs `work` (which returns the repeats' mean ms per call) isolated, and
/// turns its ending into the reply or a Refusal.
std::vector<char> Session::runSandboxed(const std::function<std::vector<double>()>& work, const RunSpec& spec,
                                        const std::string& what, const std::vector<Tensor*>& written) {
    if (spec.timeoutMs == 0 || spec.timeoutMs > o_.maxRunMs)
        throw Refusal{ErrorCode::Limit, "a run's time limit must be 1.." + std::to_string(o_.maxRunMs) + " ms"};
    IsolatedResult res = runIsolated(
        [&] {
            if (spec.threads > 0) runtime::ThreadPool::global().setNumThreads(static_cast<int>(spec.threads));
            const std::vector<double> ms = work();
            Writer w;
            w.u32(static_cast<uint32_t>(ms.size()));
            for (double m : ms) w.f64(m);
            w.u32(static_cast<uint32_t>(runtime::ThreadPool::global().numThreads()));
            for (const Tensor* t : written) w.raw(t->data, t->bytes); // this child's copies
            return w.take();
        },
        spec.timeoutMs);
    switch (res.status) {
    case IsolatedResult::Status::Ok: break;
    case IsolatedResult::Status::Failed: throw Refusal{ErrorCode::Runtime, what + ": " + res.message};
    case IsolatedResult::Status::Crashed:
        log(what + " " + res.message);
        throw Refusal{ErrorCode::Crash, what + " " + res.message};
    case IsolatedResult::Status::TimedOut:
        log(what + " " + res.message);
        throw Refusal{ErrorCode::Timeout, what + " " + res.message};
    }
    // The timing goes to the client; the written tensors into this session's.
    size_t timingBytes = 4 + 8 * static_cast<size_t>(Reader(res.bytes).u32()) + 4;
    size_t at = timingBytes;
    for (Tensor* t : written) {
        if (at + t->bytes > res.bytes.size()) throw Refusal{ErrorCode::Internal, "the run's results were cut short"};
        std::memcpy(t->data, res.bytes.data() + at, t->bytes);
        at += t->bytes;
    }
    res.bytes.resize(timingBytes);
    return std::move(res.bytes);
}

/// The time evaluator over `call`, or one timed call when repeat == 0.
std::vector<double> timeCalls(const RunSpec& spec, const std::function<void()>& call) {
    if (spec.repeat == 0) {
        const auto t0 = Clock::now();
        call();
        return {std::chrono::duration<double, std::milli>(Clock::now() - t0).count()};
    }
    runtime::TimeEvaluator ev{static_cast<int>(std::max(1u, spec.number)), static_cast<int>(spec.repeat),
                              static_cast<double>(spec.minRepeatMs), static_cast<int>(spec.warmup)};
    std::vector<double> ms;
    for (double s : ev.measure(call)) ms.push_back(s * 1e3);
    return ms;
}

std::vector<char> Session::run(Reader& r) {
    const std::string name = r.str(1024);
    const uint32_t n = r.count(kMaxArgs, 9);
    std::vector<uint64_t> ids(n);
    std::vector<bool> writes(n);
    for (uint32_t i = 0; i < n; ++i) {
        ids[i] = r.u64();
        writes[i] = r.u8() != 0;
    }
    const RunSpec spec = RunSpec::read(r);
    r.finish();
    if (!module_) throw Refusal{ErrorCode::NotFound, "no module is loaded in this session"};
    runtime::KernelFunction fn = module_->function(name);
    if (!fn) throw Refusal{ErrorCode::NotFound, "the module has no function '" + name + "'"};
    std::vector<void*> args;
    std::vector<Tensor*> written;
    for (uint32_t i = 0; i < n; ++i) {
        args.push_back(tensor(ids[i]).data);
        if (writes[i]) written.push_back(&tensor(ids[i]));
    }
    return runSandboxed(
        [&] {
            return timeCalls(spec, [&] {
                const int32_t rc = fn(args.data());
                if (rc != 0) throw std::runtime_error("the kernel returned error code " + std::to_string(rc));
            });
        },
        spec, "the kernel '" + name + "'", written);
}

std::vector<char> Session::loadModel(Reader& r) {
    r.finish();
    model_.reset();
    try {
        model_ = runtime::loadExportedModel(folder());
    } catch (const std::exception& e) {
        throw Refusal{ErrorCode::Load, e.what()};
    }
    auto describe = [](const runtime::PlanTensor& t) {
        return nlohmann::json{{"name", t.name}, {"dtype", t.dtype.str()}, {"shape", t.shape}};
    };
    nlohmann::json j = {{"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    const auto& plan = model_->plan;
    for (int i : plan.inputs) j["inputs"].push_back(describe(plan.tensors[static_cast<size_t>(i)]));
    for (int i : plan.outputs) j["outputs"].push_back(describe(plan.tensors[static_cast<size_t>(i)]));
    Writer w;
    w.str(j.dump());
    return w.take();
}

std::vector<char> Session::runModel(Reader& r) {
    const uint32_t ni = r.count(kMaxArgs, 8);
    std::vector<uint64_t> in(ni);
    for (auto& id : in) id = r.u64();
    const uint32_t no = r.count(kMaxArgs, 8);
    std::vector<uint64_t> out(no);
    for (auto& id : out) id = r.u64();
    const RunSpec spec = RunSpec::read(r);
    r.finish();
    if (!model_) throw Refusal{ErrorCode::NotFound, "no model is loaded in this session"};
    const auto& plan = model_->plan;
    if (in.size() != plan.inputs.size() || out.size() != plan.outputs.size())
        throw Refusal{ErrorCode::Protocol, "the model takes " + std::to_string(plan.inputs.size()) + " inputs and gives " +
                                               std::to_string(plan.outputs.size()) + " outputs"};
    auto check = [&](uint64_t id, int planIndex) -> Tensor& {
        Tensor& t = tensor(id);
        const auto& p = plan.tensors[static_cast<size_t>(planIndex)];
        if (t.dtype != p.dtype || t.shape != p.shape)
            throw Refusal{ErrorCode::Protocol, "tensor " + std::to_string(id) + " does not match the model's '" + p.name + "'"};
        return t;
    };
    std::vector<Tensor*> inputs, outputs;
    for (size_t i = 0; i < in.size(); ++i) inputs.push_back(&check(in[i], plan.inputs[i]));
    for (size_t i = 0; i < out.size(); ++i) outputs.push_back(&check(out[i], plan.outputs[i]));
    return runSandboxed(
        [&] {
            auto exec = model_->makeExecutor();
            for (size_t i = 0; i < inputs.size(); ++i) exec->setInput(static_cast<int>(i), inputs[i]->view());
            auto ms = timeCalls(spec, [&] { exec->run(); });
            for (size_t i = 0; i < outputs.size(); ++i) {
                runtime::NDArray dst = outputs[i]->view();
                dst.copyFrom(exec->output(static_cast<int>(i)));
            }
            return ms;
        },
        spec, "the model", outputs);
}

std::vector<char> Session::profileModel(Reader& r) {
    const uint32_t ni = r.count(kMaxArgs, 8);
    std::vector<uint64_t> in(ni);
    for (auto& id : in) id = r.u64();
    const RunSpec spec = RunSpec::read(r);
    r.finish();
    if (!model_) throw Refusal{ErrorCode::NotFound, "no model is loaded in this session"};
    const auto& plan = model_->plan;
    if (in.size() != plan.inputs.size())
        throw Refusal{ErrorCode::Protocol, "the model takes " + std::to_string(plan.inputs.size()) + " inputs"};
    std::vector<Tensor*> inputs;
    for (size_t i = 0; i < in.size(); ++i) {
        Tensor& t = tensor(in[i]);
        const auto& p = plan.tensors[static_cast<size_t>(plan.inputs[i])];
        if (t.dtype != p.dtype || t.shape != p.shape)
            throw Refusal{ErrorCode::Protocol, "tensor " + std::to_string(in[i]) + " does not match the model's '" + p.name + "'"};
        inputs.push_back(&t);
    }
    return runSandboxed(
        [&] {
            auto exec = model_->makeExecutor();
            for (size_t i = 0; i < inputs.size(); ++i) exec->setInput(static_cast<int>(i), inputs[i]->view());
            exec->run(); // warm
            std::vector<double> ms;
            for (double s : exec->profile(static_cast<int>(std::max<uint32_t>(spec.repeat, 1)))) ms.push_back(s * 1e3);
            return ms;
        },
        spec, "the model", {});
}

bool Session::handle(const Frame& f) {
    Reader r(f.payload);
    std::vector<char> reply;
    const void* tail = nullptr;
    size_t tailBytes = 0;
    try {
        switch (static_cast<Code>(f.code)) {
        case Code::GetDevice: reply = getDevice(r); break;
        case Code::Upload: reply = upload(r); break;
        case Code::LoadModule: reply = loadModule(r); break;
        case Code::Alloc: reply = alloc(r); break;
        case Code::Free: {
            const uint64_t id = r.u64();
            r.finish();
            heldBytes_ -= tensor(id).bytes;
            tensors_.erase(id);
            break;
        }
        case Code::CopyTo: reply = copyTo(r); break;
        case Code::CopyFrom: {
            const uint64_t id = r.u64();
            r.finish();
            const Tensor& t = tensor(id);
            Writer w;
            w.u64(t.bytes);
            reply = w.take();
            tail = t.data;
            tailBytes = t.bytes;
            break;
        }
        case Code::Run: reply = run(r); break;
        case Code::LoadModel: reply = loadModel(r); break;
        case Code::RunModel: reply = runModel(r); break;
        case Code::ProfileModel: reply = profileModel(r); break;
        case Code::Bye:
            r.finish();
            c_.send(Code::Ok, {}, deadlineIn(5000), "bye");
            return false;
        default: throw ProtocolError("unexpected " + codeName(f.code) + " request in a session");
        }
    } catch (const Refusal& e) {
        c_.send(Code::Error, errorPayload(e.code, e.message), deadlineIn(30000), codeName(f.code));
        return true;
    }
    c_.send(static_cast<uint16_t>(Code::Ok), reply, deadlineIn(10 * 60 * 1000), codeName(f.code), tail, tailBytes);
    return true;
}

void Session::serve() {
    peer_ = c_.peer();
    try {
        const Hello hello = serverHandshake(c_, o_.token, "tessel-rpc server " + o_.version, deadlineIn(10000));
        log("opened by " + std::string(roleName(hello.role)) + " '" + hello.name + "'");
    } catch (const std::exception& e) {
        log(std::string("refused: ") + e.what());
        return;
    }
    const uint64_t maxFrame = o_.maxUploadBytes + (uint64_t(1) << 20);
    for (;;) {
        Frame f;
        try {
            f = c_.receive(maxFrame, deadlineIn(o_.sessionIdleMs), "request");
        } catch (const RpcError& e) {
            if (e.failure() == Failure::Closed) log("closed by the client");
            else if (e.failure() == Failure::Timeout) log("closed after " + std::to_string(o_.sessionIdleMs / 1000) + " s idle");
            else log("closed: " + std::string(e.what()));
            return;
        }
        try {
            if (!handle(f)) {
                log("ended (bye)");
                return;
            }
        } catch (const ProtocolError& e) {
            log(std::string("closed: malformed ") + codeName(f.code) + " request: " + e.what());
            try {
                c_.send(Code::Error, errorPayload(ErrorCode::Protocol, e.what()), deadlineIn(1000), "error");
            } catch (const RpcError&) {
            }
            return;
        } catch (const std::exception& e) {
            log(std::string("closed: ") + e.what());
            return;
        }
    }
}

} // namespace

void serveSession(Connection c, const ServerOptions& options) {
    Session s(std::move(c), options);
    s.serve();
}

} // namespace tessel::rpc
