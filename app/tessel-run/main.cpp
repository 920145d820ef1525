// tessel-run: runs a model exported by `tesselc compile` with the runtime
// alone (no LLVM, no ONNX, no Qt), as a board would. Inputs are seeded random
// values (input i: seed i + 1, uniform in [0, 1), the same on every machine);
// it prints every output's type and the median latency, and with
// --save-outputs writes every output's raw elements, so that a run on a board
// (or under qemu) can be compared with the host's.
#include "runtime/DeviceInfo.h"
#include "runtime/CudaDeviceAPI.h"
#include "runtime/ExportedModel.h"
#include "runtime/KernelBundle.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"
#include "runtime/TrialBatch.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

using namespace tessel;

namespace {

const char* kUsage = "usage: tessel-run DIR [--threads N] [--repeat R] [--save-outputs OUTDIR]\n"
                     "  DIR: a model (tesselc compile), a GPU kernel bundle (tesselc compile F.te --target cuda)\n"
                     "       or a batch of offline trials (tesselc tune F.te --target cuda --export-trials DIR):\n"
                     "       every trial measured, DIR/results.json written for tesselc tune --import-trials\n"
                     "       tessel-run --device\n"
                     "  --repeat 0: one run, not timed\n"
                     "  --save-outputs: OUTDIR/output<i>.bin, output i's elements (row-major, little-endian)\n"
                     "  --device: what the runtime detects of this machine\n";

void printDevice() {
    const auto& d = runtime::DeviceInfo::local();
    std::printf("triple %s\ncpu %s\nisa %s\ncores %d, threads %d\nmemory %.1f GiB\nfeatures", d.triple.c_str(),
                d.cpuName.c_str(), d.isa.c_str(), d.cores, d.threads, double(d.memoryBytes) / (1 << 30));
    for (auto& f : d.features) std::printf(" %s", f.c_str());
    std::printf("\ntarget %s\n", d.target().str().c_str());
    if (!d.emulatedOn.empty()) std::printf("emulated on %s\n", d.emulatedOn.c_str());
}

void saveOutputs(const runtime::GraphExecutor& exec, const std::string& dir) {
    std::filesystem::create_directories(dir);
    for (int o = 0; o < exec.numOutputs(); ++o) {
        auto out = exec.output(o).copyTo(runtime::Device::cpu());
        const std::string path = dir + "/output" + std::to_string(o) + ".bin";
        std::ofstream f(path, std::ios::binary);
        f.write(static_cast<const char*>(out.rawData()), static_cast<std::streamsize>(out.numBytes()));
        if (!f) throw std::runtime_error("cannot write '" + path + "'");
    }
}

/// A kernel bundle (`tesselc compile F.te --target cuda -o DIR`) on cuda:0.
int runBundle(const std::string& dir, int repeat, const std::string& saveDir) {
    const runtime::Device gpu = runtime::Device::cuda(0);
    auto& api = static_cast<runtime::CudaDeviceAPI&>(runtime::deviceAPI(gpu));
    auto bundle = runtime::KernelBundle::load(dir);
    auto r = runtime::runBundle(bundle, gpu, repeat);
    if (!saveDir.empty()) {
        std::filesystem::create_directories(saveDir);
        for (size_t o = 0; o < r.outputs.size(); ++o) {
            const std::string path = saveDir + "/output" + std::to_string(o) + ".bin";
            std::ofstream f(path, std::ios::binary);
            f.write(static_cast<const char*>(r.outputs[o].rawData()), static_cast<std::streamsize>(r.outputs[o].numBytes()));
            if (!f) throw std::runtime_error("cannot write '" + path + "'");
        }
    }
    double gflops = r.medianMs > 0 ? bundle.flops / (r.medianMs * 1e6) : 0;
    std::printf("%s on %s: %zu kernel%s\n", bundle.signature.str().c_str(), api.describe(0).c_str(),
                bundle.launches.size(), bundle.launches.size() == 1 ? "" : "s");
    if (!r.ms.empty())
        std::printf("latency %.4f ms (median of %zu, CUDA events), %.1f GFLOP/s\n", r.medianMs, r.ms.size(), gflops);
    if (r.checked)
        std::printf("%s: max abs err %.3g against the compiling machine's CPU%s%s\n", r.ok ? "ok" : "FAILED",
                    r.maxAbsErr, r.ok ? "" : ": ", r.message.c_str());
    else
        std::printf("not checked (the bundle has no expected outputs)\n");
    return r.ok ? 0 : 1;
}

/// A batch of offline trials (`tesselc tune --export-trials DIR`): every
/// bundle measured on cuda:0, DIR/results.json for `tesselc tune --import-trials`.
int runTrials(const std::string& dir, int repeat) {
    const runtime::Device gpu = runtime::Device::cuda(0);
    auto& api = static_cast<runtime::CudaDeviceAPI&>(runtime::deviceAPI(gpu));
    std::printf("trials in %s on %s\n", dir.c_str(), api.describe(0).c_str());
    std::fflush(stdout);
    auto results = runtime::runTrialBatch(dir, gpu, std::max(1, repeat), std::cout);
    int failed = 0;
    for (auto& r : results) failed += r.error != "none";
    std::printf("%zu trials, %d failed -> %s/%s\n", results.size(), failed, dir.c_str(), runtime::kTrialResults);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::string dir, saveDir;
    int threads = 0, repeat = 10;
    bool device = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "--threads" || a == "--repeat") && i + 1 < argc) {
            (a == "--threads" ? threads : repeat) = std::atoi(argv[++i]);
        } else if (a == "--save-outputs" && i + 1 < argc) {
            saveDir = argv[++i];
        } else if (a == "--device") {
            device = true;
        } else if (!a.starts_with("--") && dir.empty()) {
            dir = a;
        } else {
            std::fputs(kUsage, stderr);
            return 2;
        }
    }
    if (device) {
        printDevice();
        if (dir.empty()) return 0;
    }
    if (dir.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    try {
        if (runtime::isTrialBatch(dir)) return runTrials(dir, repeat);
        if (runtime::KernelBundle::isBundle(dir)) return runBundle(dir, repeat, saveDir);
        if (threads > 0) runtime::ThreadPool::global().setNumThreads(threads);
        auto model = runtime::loadExportedModel(dir);
        auto exec = model.makeExecutor();
        // Filled on the host and copied to the executor's device (a GPU export runs on cuda:0).
        for (int i = 0; i < exec->numInputs(); ++i) {
            runtime::NDArray in = exec->input(i).copyTo(runtime::Device::cpu());
            in.fillRandom(1 + static_cast<uint64_t>(i), 0.0, 1.0);
            exec->setInput(i, in);
        }
        exec->run();
        if (!saveDir.empty()) saveOutputs(*exec, saveDir);
        std::vector<double> secs;
        if (repeat > 0) {
            runtime::TimeEvaluator ev{1, repeat, 0, 0};
            secs = ev.measure([&] { exec->run(); });
        }
        for (int o = 0; o < exec->numOutputs(); ++o) {
            auto out = exec->output(o).copyTo(runtime::Device::cpu());
            std::printf("output '%s' %s: first %g\n", exec->outputInfo(o).name.c_str(), out.str().c_str(),
                        out.numElements() ? out.at(0) : 0.0);
        }
        const int n = runtime::ThreadPool::global().numThreads();
        if (!secs.empty() && !exec->device().isCpu())
            std::printf("latency %.3f ms (median of %zu) on %s\n", runtime::median(secs) * 1e3, secs.size(),
                        static_cast<runtime::CudaDeviceAPI&>(runtime::deviceAPI(exec->device()))
                            .describe(exec->device().id)
                            .c_str());
        else if (!secs.empty())
            std::printf("latency %.3f ms (median of %zu), %d thread%s\n", runtime::median(secs) * 1e3, secs.size(), n,
                        n == 1 ? "" : "s");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tessel-run: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
