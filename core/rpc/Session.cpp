#include "rpc/Session.h"

#include "rpc/Handshake.h"
#include "rpc/RunnerProcess.h"
#include "rpc/TensorArena.h"
#include "runtime/DeviceAPI.h"
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

/// The longest a module or a model may take to load in the runner.
constexpr int64_t kLoadTimeoutMs = 10 * 60 * 1000;

/// A session's tensor: a block of the arena (the session's copy, which
/// outlives any runner) with its type, shape and device. `version` counts
/// the changes to the block, so the runner knows when its own copy is stale.
struct Tensor {
    DataType dtype;
    std::vector<int64_t> shape;
    runtime::Device device;
    uint64_t offset = 0;
    uint64_t bytes = 0;
    uint64_t version = 0;
};

/// What the session asks its runner process.
enum class RunnerOp : uint8_t { LoadModule = 1, Run = 2, LoadModel = 3, RunModel = 4, ProfileModel = 5 };

/// The runner's own copy of a tensor, where kernels run on it: device memory
/// through the device's API, or on the CPU a private anonymous mapping of its
/// own (2 MiB aligned with huge pages for large ones: the arena is shared
/// memory, which gets none, and GEMM-sized kernels run twice as slow on
/// 4 KiB pages). The CPU copy of an argument a run does not write is
/// read-only during that run, so a kernel cannot change what the session
/// holds behind its back (it crashes instead).
class DeviceCopy {
public:
    DeviceCopy(runtime::Device device, uint64_t bytes) : device_(device), bytes_(bytes) {
        if (!device.isCpu()) {
            data_ = runtime::deviceAPI(device).alloc(device, static_cast<size_t>(bytes), 64);
            return;
        }
        constexpr size_t kHuge = size_t(2) << 20;
        const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
        size_ = std::max<size_t>((static_cast<size_t>(bytes) + page - 1) / page * page, page);
        const bool huge = size_ >= kHuge;
        const size_t reserve = huge ? size_ + kHuge : size_;
        void* p = ::mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::runtime_error(std::string("cannot allocate: ") + std::strerror(errno));
        char* base = static_cast<char*>(p);
        if (huge) { // keep the 2 MiB-aligned part
            char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(base) + kHuge - 1) & ~(kHuge - 1));
            if (aligned > base) ::munmap(base, static_cast<size_t>(aligned - base));
            const size_t tail = reserve - static_cast<size_t>(aligned - base) - size_;
            if (tail) ::munmap(aligned + size_, tail);
            base = aligned;
#ifdef MADV_HUGEPAGE
            ::madvise(base, size_, MADV_HUGEPAGE); // a hint
#endif
        }
        data_ = base;
    }
    ~DeviceCopy() {
        if (device_.isCpu()) ::munmap(data_, size_);
        else runtime::deviceAPI(device_).free(device_, data_);
    }
    DeviceCopy(const DeviceCopy&) = delete;
    DeviceCopy& operator=(const DeviceCopy&) = delete;

    void* data() const { return data_; }
    uint64_t bytes() const { return bytes_; }
    runtime::Device device() const { return device_; }
    void setWritable(bool writable) {
        if (!device_.isCpu() || writable == writable_) return;
        ::mprotect(data_, size_, writable ? PROT_READ | PROT_WRITE : PROT_READ);
        writable_ = writable;
    }
    /// From the session's block (host memory).
    void fill(const char* from) {
        setWritable(true);
        if (device_.isCpu()) std::memcpy(data_, from, static_cast<size_t>(bytes_));
        else runtime::deviceAPI(device_).copyToDevice(device_, data_, from, static_cast<size_t>(bytes_));
    }
    /// Into the session's block.
    void store(char* to) const {
        if (device_.isCpu()) std::memcpy(to, data_, static_cast<size_t>(bytes_));
        else runtime::deviceAPI(device_).copyFromDevice(device_, to, data_, static_cast<size_t>(bytes_));
    }
    uint64_t version = 0;

private:
    runtime::Device device_;
    uint64_t bytes_;
    void* data_ = nullptr;
    size_t size_ = 0;
    bool writable_ = true;
};

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

/// A run's reply: every repeat's ms per call, the pool's threads.
std::vector<char> timingReply(const std::vector<double>& ms) {
    Writer w;
    w.u32(static_cast<uint32_t>(ms.size()));
    for (double m : ms) w.f64(m);
    w.u32(static_cast<uint32_t>(runtime::ThreadPool::global().numThreads()));
    return w.take();
}

class Session {
public:
    Session(Connection c, const ServerOptions& options)
        : c_(std::move(c)), o_(options),
          runner_([this] { restore(); }, [this](Reader& r) { return serve(r); }) {}
    ~Session() {
        runner_.stop();
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
    void free(Reader& r);
    std::vector<char> copyTo(Reader& r);
    std::vector<char> run(Reader& r);
    std::vector<char> loadModel(Reader& r);
    /// run-model, or profile-model (each step timed on its own; no outputs).
    std::vector<char> runModel(Reader& r, bool profile);
    Tensor& tensor(uint64_t id);
    /// The tensor `id`, which the request says is on `device`.
    Tensor& tensorOn(uint64_t id, runtime::Device device);
    TensorArena& arena();
    const std::string& folder();
    /// The model's tensors `ids` (its inputs or outputs by `planIndices`), checked.
    std::vector<Tensor*> modelTensors(const std::vector<uint64_t>& ids, const std::vector<int>& planIndices,
                                      runtime::Device device);
    /// Sends `request` to the runner and turns a crash, a hang or an
    /// exception there into a Refusal naming `what`.
    std::vector<char> ask(const std::vector<char>& request, int64_t timeoutMs, const std::string& what,
                          ErrorCode failed);
    void checkRunLimit(const RunSpec& spec) const;

    // In the runner process (a fork of this session).
    void restore();
    std::vector<char> serve(Reader& r);
    std::vector<char> serveLoadModule(Reader& r);
    std::vector<char> serveRun(Reader& r);
    std::vector<char> serveLoadModel(Reader& r);
    std::vector<char> serveRunModel(Reader& r, bool profile);
    DeviceCopy& copyOf(uint64_t id, uint64_t offset, uint64_t bytes, uint64_t version, runtime::Device device);

    Connection c_;
    const ServerOptions& o_;
    std::string peer_;
    std::string dir_;

    // The session's state, which a runner forked from it takes over.
    std::unique_ptr<TensorArena> arena_;
    std::map<uint64_t, Tensor> tensors_;
    uint64_t nextTensor_ = 1;
    uint64_t heldBytes_ = 0;
    /// Freed since the last run (the runner drops its copies of them then).
    std::vector<uint64_t> freed_;
    std::string modulePath_;
    runtime::Device moduleDevice_;
    std::optional<runtime::ExecutorPlan> modelPlan_;
    runtime::Device modelDevice_;
    RunnerProcess runner_;

    // The runner's own, only ever set in the runner process.
    runtime::ModulePtr module_;
    std::optional<runtime::ExportedModel> model_;
    std::unique_ptr<runtime::GraphExecutor> exec_;
    std::map<uint64_t, std::unique_ptr<DeviceCopy>> copies_;
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

TensorArena& Session::arena() {
    if (!arena_) {
        // Address space only: pages are taken as tensors are written. Twice
        // the byte limit leaves room for rounding to pages and fragmentation.
        try {
            arena_ = std::make_unique<TensorArena>(2 * o_.maxSessionBytes + (uint64_t(256) << 20));
        } catch (const std::exception& e) {
            throw Refusal{ErrorCode::Internal, e.what()};
        }
    }
    return *arena_;
}

Tensor& Session::tensor(uint64_t id) {
    auto it = tensors_.find(id);
    if (it == tensors_.end()) throw Refusal{ErrorCode::NotFound, "no tensor " + std::to_string(id) + " in this session"};
    return it->second;
}

Tensor& Session::tensorOn(uint64_t id, runtime::Device device) {
    Tensor& t = tensor(id);
    if (t.device != device)
        throw Refusal{ErrorCode::Protocol,
                      "tensor " + std::to_string(id) + " is on " + t.device.str() + ", not on " + device.str()};
    return t;
}

std::vector<char> Session::getDevice(Reader& r) {
    r.finish();
    nlohmann::json j = nlohmann::json::parse(runtime::DeviceInfo::local().toJson(o_.version));
    j["devices"] = nlohmann::json::array();
    for (const runtime::Device& d : runtime::DeviceAPIs::global().devices()) j["devices"].push_back(d.str());
    Writer w;
    w.str(j.dump());
    return w.take();
}

std::vector<char> Session::upload(Reader& r) {
    const std::string name = r.str(256);
    const std::string_view data = r.bytes(o_.maxUploadBytes);
    r.finish();
    if (!isSessionFileName(name))
        throw Refusal{ErrorCode::Protocol, "'" + name + "' is not a plain file name (1-64 of A-Z a-z 0-9 . _ -)"};
    // Written beside and renamed over: a loaded module maps the old file,
    // and truncating a mapped file would crash the runner (SIGBUS).
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

std::vector<char> Session::ask(const std::vector<char>& request, int64_t timeoutMs, const std::string& what,
                               ErrorCode failed) {
    arena(); // before the runner is forked: it must share the arena's mapping
    RunnerReply res;
    const int forks = runner_.forks();
    try {
        res = runner_.call(request, timeoutMs);
    } catch (const std::exception& e) {
        throw Refusal{ErrorCode::Internal, e.what()};
    }
    if (runner_.forks() != forks) log("runner process " + std::to_string(runner_.forks()) + " started");
    switch (res.status) {
    case RunnerReply::Status::Ok: return std::move(res.bytes);
    case RunnerReply::Status::Failed: throw Refusal{failed, what + ": " + res.message};
    case RunnerReply::Status::Crashed:
        log(what + " " + res.message);
        throw Refusal{ErrorCode::Crash, what + " " + res.message};
    case RunnerReply::Status::TimedOut:
        log(what + " " + res.message);
        throw Refusal{ErrorCode::Timeout, what + " " + res.message};
    }
    throw Refusal{ErrorCode::Internal, what + ": no reply"};
}

void Session::checkRunLimit(const RunSpec& spec) const {
    if (spec.timeoutMs == 0 || spec.timeoutMs > o_.maxRunMs)
        throw Refusal{ErrorCode::Limit, "a run's time limit must be 1.." + std::to_string(o_.maxRunMs) + " ms"};
}

std::vector<char> Session::loadModule(Reader& r) {
    const std::string name = r.str(256);
    const runtime::Device device = readDevice(r);
    const uint32_t n = r.count(kMaxArgs, 8);
    std::vector<std::string> wanted;
    for (uint32_t i = 0; i < n; ++i) wanted.push_back(r.str(1024));
    r.finish();
    if (!isSessionFileName(name)) throw Refusal{ErrorCode::Protocol, "'" + name + "' is not a plain file name"};
    const std::string path = folder() + "/" + name;
    if (!std::filesystem::exists(path)) throw Refusal{ErrorCode::NotFound, "no file '" + name + "' was uploaded"};
    try {
        runtime::DeviceAPIs::global().get(device);
    } catch (const std::exception& e) {
        throw Refusal{ErrorCode::NotFound, e.what()};
    }
    // Loaded in the runner (a library's constructors run there, not here).
    // A loaded library cannot list its symbols portably: the client names the
    // functions it will call and each is looked up now.
    modulePath_.clear();
    Writer q;
    q.u8(static_cast<uint8_t>(RunnerOp::LoadModule)).str(path);
    writeDevice(q, device);
    q.u32(n);
    for (const auto& f : wanted) q.str(f);
    const std::vector<char> reply = ask(q.take(), kLoadTimeoutMs, "loading '" + name + "'", ErrorCode::Load);
    Reader a(reply);
    std::string missing;
    for (uint32_t i = 0, m = a.count(kMaxArgs, 8); i < m; ++i) missing += (missing.empty() ? "'" : ", '") + a.str(1024) + "'";
    if (!missing.empty()) throw Refusal{ErrorCode::NotFound, "the library '" + name + "' has no function " + missing};
    modulePath_ = path;
    moduleDevice_ = device;
    Writer w;
    w.u32(static_cast<uint32_t>(wanted.size()));
    for (const auto& f : wanted) w.str(f);
    return w.take();
}

std::vector<char> Session::alloc(Reader& r) {
    const runtime::Device device = readDevice(r);
    const std::string dtypeText = r.str(32);
    const uint32_t ndim = r.count(kMaxDims, 8);
    std::vector<int64_t> shape(ndim);
    for (auto& d : shape) d = r.i64();
    r.finish();
    const auto dtype = DataType::parse(dtypeText);
    if (!dtype || dtype->bytes() == 0) throw Refusal{ErrorCode::Protocol, "unknown data type '" + dtypeText + "'"};
    try {
        runtime::DeviceAPIs::global().get(device);
    } catch (const std::exception& e) {
        throw Refusal{ErrorCode::NotFound, e.what()};
    }
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
    const std::optional<uint64_t> offset = arena().allocate(bytes);
    if (!offset) throw Refusal{ErrorCode::Limit, "the session's tensor space is full"};
    Tensor t;
    t.dtype = *dtype;
    t.shape = std::move(shape);
    t.device = device;
    t.offset = *offset;
    t.bytes = bytes; // zero-filled: fresh pages of the arena
    heldBytes_ += bytes;
    const uint64_t id = nextTensor_++;
    tensors_[id] = std::move(t);
    Writer w;
    w.u64(id);
    return w.take();
}

void Session::free(Reader& r) {
    const uint64_t id = r.u64();
    r.finish();
    const Tensor& t = tensor(id);
    arena().release(t.offset, t.bytes);
    heldBytes_ -= t.bytes;
    tensors_.erase(id);
    freed_.push_back(id);
}

std::vector<char> Session::copyTo(Reader& r) {
    const uint64_t id = r.u64();
    const runtime::Device device = readDevice(r);
    const std::string_view data = r.bytes(o_.maxUploadBytes);
    r.finish();
    Tensor& t = tensorOn(id, device);
    if (data.size() != t.bytes)
        throw Refusal{ErrorCode::Protocol, "tensor " + std::to_string(id) + " holds " + std::to_string(t.bytes) +
                                               " bytes, not " + std::to_string(data.size())};
    std::memcpy(arena().at(t.offset), data.data(), data.size());
    ++t.version;
    return {};
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
    checkRunLimit(spec);
    if (modulePath_.empty()) throw Refusal{ErrorCode::NotFound, "no module is loaded in this session"};
    if (moduleDevice_ != spec.device)
        throw Refusal{ErrorCode::Protocol, "the module is loaded for " + moduleDevice_.str() + ", not for " + spec.device.str()};
    // An argument passed twice is written when either says so.
    std::map<uint64_t, bool> written;
    for (uint32_t i = 0; i < n; ++i) written[ids[i]] = written[ids[i]] || writes[i];
    Writer q;
    q.u8(static_cast<uint8_t>(RunnerOp::Run));
    spec.write(q);
    q.str(name);
    q.u32(static_cast<uint32_t>(freed_.size()));
    for (uint64_t id : freed_) q.u64(id);
    q.u32(n);
    for (uint32_t i = 0; i < n; ++i) {
        const Tensor& t = tensorOn(ids[i], spec.device);
        q.u64(ids[i]).u64(t.offset).u64(t.bytes).u64(t.version).u8(written[ids[i]] ? 1 : 0);
    }
    freed_.clear();
    std::vector<char> reply = ask(q.take(), spec.timeoutMs, "the kernel '" + name + "'", ErrorCode::Runtime);
    if (reply.empty() || reply[0] == 0)
        throw Refusal{ErrorCode::NotFound, "the module has no function '" + name + "'"};
    for (const auto& [id, w] : written)
        if (w) ++tensor(id).version; // the runner wrote them back
    reply.erase(reply.begin());
    return reply;
}

std::vector<char> Session::loadModel(Reader& r) {
    const runtime::Device device = readDevice(r);
    r.finish();
    try {
        runtime::DeviceAPIs::global().get(device);
    } catch (const std::exception& e) {
        throw Refusal{ErrorCode::NotFound, e.what()};
    }
    modelPlan_.reset();
    Writer q;
    q.u8(static_cast<uint8_t>(RunnerOp::LoadModel)).str(folder());
    writeDevice(q, device);
    const std::vector<char> reply = ask(q.take(), kLoadTimeoutMs, "loading the model", ErrorCode::Load);
    Reader a(reply);
    modelPlan_ = runtime::ExecutorPlan::fromJson(a.str(kMaxTrackerFrame * 64));
    modelDevice_ = device;
    auto describe = [](const runtime::PlanTensor& t) {
        return nlohmann::json{{"name", t.name}, {"dtype", t.dtype.str()}, {"shape", t.shape}};
    };
    nlohmann::json j = {{"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    for (int i : modelPlan_->inputs) j["inputs"].push_back(describe(modelPlan_->tensors[static_cast<size_t>(i)]));
    for (int i : modelPlan_->outputs) j["outputs"].push_back(describe(modelPlan_->tensors[static_cast<size_t>(i)]));
    Writer w;
    w.str(j.dump());
    return w.take();
}

std::vector<Tensor*> Session::modelTensors(const std::vector<uint64_t>& ids, const std::vector<int>& planIndices,
                                           runtime::Device device) {
    std::vector<Tensor*> out;
    for (size_t i = 0; i < ids.size(); ++i) {
        // The session holds their bytes; the runner copies them into the
        // executor's storages on the model's device and its outputs back.
        Tensor& t = tensorOn(ids[i], device);
        const auto& p = modelPlan_->tensors[static_cast<size_t>(planIndices[i])];
        if (t.dtype != p.dtype || t.shape != p.shape)
            throw Refusal{ErrorCode::Protocol, "tensor " + std::to_string(ids[i]) + " does not match the model's '" + p.name + "'"};
        out.push_back(&t);
    }
    return out;
}

std::vector<char> Session::runModel(Reader& r, bool profile) {
    const uint32_t ni = r.count(kMaxArgs, 8);
    std::vector<uint64_t> in(ni);
    for (auto& id : in) id = r.u64();
    std::vector<uint64_t> out;
    if (!profile) { // a profile writes no outputs back
        out.resize(r.count(kMaxArgs, 8));
        for (auto& id : out) id = r.u64();
    }
    const RunSpec spec = RunSpec::read(r);
    r.finish();
    checkRunLimit(spec);
    if (!modelPlan_) throw Refusal{ErrorCode::NotFound, "no model is loaded in this session"};
    const auto& plan = *modelPlan_;
    if (spec.device != modelDevice_)
        throw Refusal{ErrorCode::Protocol, "the model is loaded for " + modelDevice_.str() + ", not for " + spec.device.str()};
    if (in.size() != plan.inputs.size() || (!profile && out.size() != plan.outputs.size()))
        throw Refusal{ErrorCode::Protocol, "the model takes " + std::to_string(plan.inputs.size()) + " inputs" +
                                               (profile ? "" : " and gives " + std::to_string(plan.outputs.size()) +
                                                                   " outputs")};
    const std::vector<Tensor*> inputs = modelTensors(in, plan.inputs, spec.device);
    const std::vector<Tensor*> outputs = modelTensors(out, plan.outputs, spec.device);
    Writer q;
    q.u8(static_cast<uint8_t>(profile ? RunnerOp::ProfileModel : RunnerOp::RunModel));
    spec.write(q);
    q.u32(static_cast<uint32_t>(inputs.size()));
    for (const Tensor* t : inputs) q.u64(t->offset);
    q.u32(static_cast<uint32_t>(outputs.size()));
    for (const Tensor* t : outputs) q.u64(t->offset);
    std::vector<char> reply = ask(q.take(), spec.timeoutMs, "the model", ErrorCode::Runtime);
    for (Tensor* t : outputs) ++t->version;
    return reply;
}

// ---------------------------------------------------------------- in the runner

void Session::restore() {
    // The runner answers the session, never the client.
    ::close(c_.fd());
    if (!modulePath_.empty()) module_ = runtime::deviceAPI(moduleDevice_).loadModule(moduleDevice_, modulePath_);
    if (modelPlan_) model_ = runtime::loadExportedModel(folder(), modelDevice_);
}

std::vector<char> Session::serve(Reader& r) {
    switch (static_cast<RunnerOp>(r.u8())) {
    case RunnerOp::LoadModule: return serveLoadModule(r);
    case RunnerOp::Run: return serveRun(r);
    case RunnerOp::LoadModel: return serveLoadModel(r);
    case RunnerOp::RunModel: return serveRunModel(r, false);
    case RunnerOp::ProfileModel: return serveRunModel(r, true);
    }
    throw std::runtime_error("unknown request to the runner");
}

std::vector<char> Session::serveLoadModule(Reader& r) {
    const std::string path = r.str();
    const runtime::Device device = readDevice(r);
    module_.reset();
    module_ = runtime::deviceAPI(device).loadModule(device, path);
    std::vector<std::string> missing;
    for (uint32_t i = 0, n = r.u32(); i < n; ++i) {
        std::string f = r.str();
        if (!module_->kernel(f)) missing.push_back(std::move(f));
    }
    if (!missing.empty()) module_.reset();
    Writer w;
    w.u32(static_cast<uint32_t>(missing.size()));
    for (const auto& f : missing) w.str(f);
    return w.take();
}

DeviceCopy& Session::copyOf(uint64_t id, uint64_t offset, uint64_t bytes, uint64_t version, runtime::Device device) {
    auto& c = copies_[id];
    if (c && (c->bytes() != bytes || c->device() != device)) c.reset();
    if (!c) {
        c = std::make_unique<DeviceCopy>(device, bytes);
        c->version = version + 1; // stale
    }
    if (c->version != version) {
        c->fill(arena_->at(offset));
        c->version = version;
    }
    return *c;
}

std::vector<char> Session::serveRun(Reader& r) {
    const RunSpec spec = RunSpec::read(r);
    const std::string name = r.str();
    for (uint32_t i = 0, n = r.u32(); i < n; ++i) copies_.erase(r.u64());
    if (!module_) throw std::runtime_error("no module is loaded in the runner");
    const runtime::Kernel kernel = module_->kernel(name);
    if (!kernel) return Writer().u8(0).take(); // not found: the session says so
    struct Arg {
        DeviceCopy* copy;
        uint64_t offset, version;
        bool written;
    };
    std::vector<Arg> args;
    std::vector<void*> ptrs;
    for (uint32_t i = 0, n = r.u32(); i < n; ++i) {
        const uint64_t id = r.u64(), offset = r.u64(), bytes = r.u64(), version = r.u64();
        const bool written = r.u8() != 0;
        DeviceCopy& c = copyOf(id, offset, bytes, version, spec.device);
        args.push_back({&c, offset, version, written});
        ptrs.push_back(c.data());
    }
    for (Arg& a : args) a.copy->setWritable(a.written);
    if (spec.threads > 0) runtime::ThreadPool::global().setNumThreads(static_cast<int>(spec.threads));
    const bool cpu = spec.device.isCpu();
    runtime::DeviceAPI* api = cpu ? nullptr : &runtime::deviceAPI(spec.device);
    const std::vector<double> ms = timeCalls(spec, [&] {
        const int32_t rc = kernel.launch(ptrs.data(), static_cast<int32_t>(ptrs.size()));
        if (rc != 0) throw std::runtime_error("the kernel returned error code " + std::to_string(rc));
        if (api) api->synchronize(spec.device);
    });
    // What it wrote goes back to the session, which counts it as a change.
    for (Arg& a : args)
        if (a.written && a.copy->version == a.version) {
            a.copy->store(arena_->at(a.offset));
            a.copy->version = a.version + 1;
        }
    std::vector<char> reply = timingReply(ms);
    reply.insert(reply.begin(), char(1)); // found
    return reply;
}

std::vector<char> Session::serveLoadModel(Reader& r) {
    const std::string dir = r.str();
    const runtime::Device device = readDevice(r);
    exec_.reset();
    model_.reset();
    model_ = runtime::loadExportedModel(dir, device);
    Writer w;
    w.str(model_->plan.toJson());
    return w.take();
}

std::vector<char> Session::serveRunModel(Reader& r, bool profile) {
    const RunSpec spec = RunSpec::read(r);
    if (!model_) throw std::runtime_error("no model is loaded in the runner");
    const auto& plan = model_->plan;
    // The executor stays between runs (its storages, its weights on the device).
    if (!exec_) exec_ = model_->makeExecutor();
    auto view = [&](uint64_t offset, int planIndex) {
        const auto& t = plan.tensors[static_cast<size_t>(planIndex)];
        return runtime::NDArray::view(arena_->at(offset), t.shape, t.dtype);
    };
    const uint32_t ni = r.u32();
    for (uint32_t i = 0; i < ni; ++i) exec_->setInput(static_cast<int>(i), view(r.u64(), plan.inputs[i]));
    std::vector<uint64_t> out(r.u32());
    for (auto& o : out) o = r.u64();
    if (spec.threads > 0) runtime::ThreadPool::global().setNumThreads(static_cast<int>(spec.threads));
    std::vector<double> ms;
    if (profile) {
        exec_->run(); // warm
        for (double s : exec_->profile(static_cast<int>(std::max<uint32_t>(spec.repeat, 1)))) ms.push_back(s * 1e3);
    } else {
        ms = timeCalls(spec, [&] { exec_->run(); });
        for (size_t o = 0; o < out.size(); ++o) view(out[o], plan.outputs[o]).copyFrom(exec_->output(static_cast<int>(o)));
    }
    return timingReply(ms);
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
        case Code::Free: free(r); break;
        case Code::CopyTo: reply = copyTo(r); break;
        case Code::CopyFrom: {
            const uint64_t id = r.u64();
            const runtime::Device device = readDevice(r);
            r.finish();
            const Tensor& t = tensorOn(id, device);
            Writer w;
            w.u64(t.bytes);
            reply = w.take();
            tail = arena().at(t.offset);
            tailBytes = static_cast<size_t>(t.bytes);
            break;
        }
        case Code::Run: reply = run(r); break;
        case Code::LoadModel: reply = loadModel(r); break;
        case Code::RunModel: reply = runModel(r, false); break;
        case Code::ProfileModel: reply = runModel(r, true); break;
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
        log("opened by " + std::string(roleName(hello.role)) + " '" + hello.name + "' (protocol " +
            std::to_string(negotiatedVersion(hello)) + ")");
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
