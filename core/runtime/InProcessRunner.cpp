#include "runtime/InProcessRunner.h"

#include "runtime/ExportedModel.h"
#include "runtime/ThreadPool.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tessel::runtime {

const char* measureErrorName(MeasureError error) {
    switch (error) {
    case MeasureError::None: return "none";
    case MeasureError::Build: return "build";
    case MeasureError::Load: return "load";
    case MeasureError::Runtime: return "runtime";
    case MeasureError::Crash: return "crash";
    case MeasureError::Timeout: return "timeout";
    case MeasureError::WrongResult: return "wrong-result";
    case MeasureError::Cancelled: return "cancelled";
    case MeasureError::Device: return "device";
    }
    return "none";
}

namespace {

/// The shared object written to a private temporary file and loaded. The
/// file is removed once loaded: the mapping stays as long as the module.
ModulePtr loadBytes(const std::vector<char>& library) {
    std::string path = (std::filesystem::temp_directory_path() / "tessel-kernel-XXXXXX.so").string();
    int fd = mkstemps(path.data(), 3);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for the kernel");
    size_t done = 0;
    while (done < library.size()) {
        ssize_t n = ::write(fd, library.data() + done, library.size() - done);
        if (n <= 0) {
            ::close(fd);
            ::unlink(path.c_str());
            throw std::runtime_error("cannot write the kernel to '" + path + "'");
        }
        done += static_cast<size_t>(n);
    }
    ::close(fd);
    try {
        ModulePtr m = loadSharedLibrary(path);
        ::unlink(path.c_str());
        return m;
    } catch (...) {
        ::unlink(path.c_str());
        throw;
    }
}

struct Cancelled {};

RunResult failed(MeasureError error, std::string message, int threads) {
    RunResult r;
    r.error = error;
    r.message = std::move(message);
    r.threads = threads;
    return r;
}

} // namespace

RunResult InProcessRunner::run(const BuildArtifact& artifact, const RunRequest& request) {
    if (request.threads > 0) ThreadPool::global().setNumThreads(request.threads);
    const int threads = ThreadPool::global().numThreads();
    const KernelSignature& sig = artifact.signature;
    ModulePtr module;
    Kernel fn;
    try {
        module = loadBytes(artifact.library);
        fn = module->kernel(sig.name);
    } catch (const std::exception& e) {
        return failed(MeasureError::Load, e.what(), threads);
    }
    if (!fn) return failed(MeasureError::Load, "the library has no kernel '" + sig.name + "'", threads);

    std::vector<NDArray> arrays;
    std::vector<void*> ptrs;
    try {
        uint64_t seed = request.seed;
        for (auto& a : sig.args) {
            NDArray arr(a.shape, a.dtype);
            if (a.output) arr.fillZero();
            else arr.fillRandom(seed++, 0.0, 1.0);
            arrays.push_back(std::move(arr));
        }
    } catch (const std::exception& e) {
        return failed(MeasureError::Runtime, std::string("cannot allocate the arguments: ") + e.what(), threads);
    }
    for (auto& a : arrays) ptrs.push_back(a.rawData());

    int32_t rc = 0;
    auto call = [&] {
        if (request.cancelled && request.cancelled()) throw Cancelled{};
        rc |= fn.launch(ptrs.data(), static_cast<int32_t>(ptrs.size()));
    };
    RunResult r;
    r.threads = threads;
    try {
        auto t0 = std::chrono::steady_clock::now();
        call();
        const double firstSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) return failed(MeasureError::Runtime, "the kernel returned error code " + std::to_string(rc), threads);
        if (request.fetchOutputs)
            for (size_t i : sig.outputIndices()) r.outputs.push_back(arrays[i].copy());
        if (!request.untimed) {
            TimeEvaluator ev = request.evaluator;
            if (firstSeconds > request.slowCallSeconds) { // the naive baseline: a few single calls
                ev.warmup = 0;
                ev.minRepeatMs = 0;
                ev.number = 1;
                ev.repeat = std::min(ev.repeat, 3);
            }
            for (double s : ev.measure(call)) r.repeatsMs.push_back(s * 1e3);
            if (rc != 0) return failed(MeasureError::Runtime, "the kernel returned error code " + std::to_string(rc), threads);
            r.latencyMs = median(r.repeatsMs);
        } else {
            r.repeatsMs = {firstSeconds * 1e3};
            r.latencyMs = firstSeconds * 1e3;
        }
    } catch (const Cancelled&) {
        return failed(MeasureError::Cancelled, "cancelled", threads);
    }
    r.ok = true;
    return r;
}

} // namespace tessel::runtime
