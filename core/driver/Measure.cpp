#include "driver/Measure.h"

#include "driver/KernelBundleExport.h"
#include "ir/Diagnostic.h"
#include "runtime/DeviceAPI.h"
#include "runtime/InProcessRunner.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tune/Reference.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>

#include <unistd.h>

namespace tessel::driver {

runtime::KernelSignature signatureOf(const LoweredFunction& f) {
    runtime::KernelSignature sig;
    sig.name = f.name;
    for (auto& a : f.args) {
        runtime::ArgSpec s;
        s.name = a.name();
        s.dtype = a->dtype;
        for (auto& d : a->shape) {
            auto c = tir::asConstInt(d);
            if (!c) throw CompileError("argument '" + a.name() + "' has a symbolic shape; bind it to run");
            s.shape.push_back(*c);
        }
        s.output = a->op->opKind() != te::OpKind::Placeholder;
        sig.args.push_back(std::move(s));
    }
    return sig;
}

std::string workloadOf(const LoweredFunction& f) { return "tir:" + tir::toString(lowerReference(f).lowered); }

codegen::BuildJob buildJobOf(const LoweredFunction& f, std::string workload) {
    codegen::BuildJob job;
    job.func = f.lowered;
    job.signature = signatureOf(f);
    job.flops = flopCount(f);
    job.workload = std::move(workload);
    return job;
}

namespace {

/// The builder and runner of a measurement: the caller's, or local ones.
struct Tools {
    std::unique_ptr<codegen::LocalBuilder> ownBuilder;
    runtime::InProcessRunner ownRunner;
    codegen::Builder* builder;
    runtime::Runner* runner;
    codegen::Builder* referenceBuilder;
    runtime::Runner* referenceRunner;

    explicit Tools(const RunOptions& o) {
        if (!o.builder) ownBuilder = std::make_unique<codegen::LocalBuilder>(o.request.target, o.request.buildOptions());
        builder = o.builder ? o.builder : ownBuilder.get();
        runner = o.runner ? o.runner : &ownRunner;
        referenceBuilder = o.referenceBuilder ? o.referenceBuilder : builder;
        referenceRunner = o.referenceRunner ? o.referenceRunner : runner;
    }
};

RunReport failure(runtime::MeasureError kind, std::string message, int threads = 0) {
    RunReport r;
    r.errorKind = kind;
    r.error = std::move(message);
    r.threads = threads;
    return r;
}

runtime::RunRequest requestOf(const RunOptions& o) {
    runtime::RunRequest r;
    r.evaluator = o.evaluator;
    r.threads = o.threads;
    r.seed = o.seed;
    r.cancelled = o.cancelled;
    r.timeoutSeconds = o.timeoutSeconds;
    return r;
}

/// A function lowered for a GPU, on this machine's first CUDA device: as a
/// kernel bundle (its expected outputs from the default schedule on this
/// CPU), launched and timed by CUDA events. Without a GPU or driver the
/// report says why, before anything is built.
RunReport runOnCuda(const LoweredFunction& f, const RunOptions& options) {
    const std::string why = whyCannotRun(options.request.target);
    if (!why.empty()) return failure(runtime::MeasureError::Load, why);
    static std::atomic<int> serial{0};
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("tessel-measure-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    RunReport r;
    try {
        BundleOptions bo;
        bo.expected = options.check;
        runtime::KernelBundle bundle = exportKernelBundle(f, dir.string(), options.request.target, bo);
        const int repeat = std::max(1, options.evaluator.repeat * std::max(1, options.evaluator.number));
        runtime::BundleRun run = runtime::runBundle(bundle, runtime::Device::cuda(0), repeat);
        std::filesystem::remove_all(dir);
        r.ok = run.ok;
        r.latencyMs = run.medianMs;
        r.repeatsMs = run.ms;
        r.gflops = run.medianMs > 0 ? bundle.flops / (run.medianMs * 1e6) : 0;
        r.maxAbsErr = run.maxAbsErr;
        r.outputs = std::move(run.outputs);
        if (!run.ok) {
            r.errorKind = runtime::MeasureError::WrongResult;
            r.error = run.message;
        }
    } catch (const CompileError& e) {
        std::filesystem::remove_all(dir);
        return failure(runtime::MeasureError::Build, e.what());
    } catch (const std::exception& e) {
        std::filesystem::remove_all(dir);
        return failure(runtime::MeasureError::Runtime, e.what());
    }
    return r;
}

} // namespace

std::string whyCannotRun(const Target& target) {
    if (!target.isGPU()) return {};
    try {
        runtime::deviceAPI(runtime::Device::cuda(0));
    } catch (const std::exception& e) {
        return e.what(); // "no NVIDIA driver on this machine (…)", or no GPU
    }
    return {};
}

RunReport runAndCheck(const LoweredFunction& f, const RunOptions& options) {
    // This machine's GPU (a GPU behind tessel-rpc is not measured yet).
    if (options.request.target.isGPU()) return runOnCuda(f, options);
    if (!options.runner && !codegen::isHostTarget(options.request.target))
        return failure(runtime::MeasureError::Load,
                       "kernels for " + options.request.target.str() +
                           " cannot run on this machine; measure them on a device of that kind");
    Tools tools(options);
    std::string key;
    std::optional<std::vector<runtime::NDArray>> reference;
    bool isReference = false;
    try {
        if (options.check) {
            const tir::PrimFunc ref = lowerReference(f).lowered;
            const std::string refText = tir::toString(ref);
            key = options.referenceKey.empty() ? "tir:" + refText : options.referenceKey;
            // The default schedule itself (named as the reference is): its own
            // outputs are the reference.
            isReference = options.referenceOutputs.empty() &&
                          refText == tir::toString(tir::PrimFunc::make(ref->name, f.lowered->params, f.lowered->body)) &&
                          !(options.references && options.references->find(key, options.seed));
        }
    } catch (const CompileError& e) {
        return failure(runtime::MeasureError::Build, e.what());
    }
    if (options.check && !isReference) {
        if (!options.referenceOutputs.empty()) {
            reference = options.referenceOutputs;
        } else {
            tune::ReferenceOutputs ref = tune::referenceOutputs(
                options.references, key, requestOf(options), [&] { return buildJobOf(lowerReference(f), key); },
                *tools.referenceBuilder, *tools.referenceRunner);
            if (!ref.ok()) return failure(ref.error, ref.message);
            reference = std::move(ref.outputs);
        }
    }

    runtime::BuildArtifact artifact;
    try {
        artifact = tools.builder->build(buildJobOf(f, key));
    } catch (const CompileError& e) {
        return failure(runtime::MeasureError::Build, e.what());
    }
    runtime::RunResult r = tools.runner->run(artifact, requestOf(options));
    RunReport rep;
    rep.threads = r.threads;
    rep.buildMs = artifact.buildSeconds * 1e3;
    if (!r.ok) {
        rep.errorKind = r.error;
        rep.error = r.message;
        return rep;
    }
    rep.ok = true;
    rep.repeatsMs = r.repeatsMs;
    rep.latencyMs = r.latencyMs;
    rep.gflops = rep.latencyMs > 0 ? artifact.flops / (rep.latencyMs * 1e-3) / 1e9 : 0;
    rep.outputs = std::move(r.outputs);
    if (isReference && options.references) options.references->store(key, options.seed, rep.outputs);
    if (reference) {
        const runtime::OutputCheck c = runtime::checkOutputs(rep.outputs, *reference, options.tolerance);
        rep.maxAbsErr = c.maxAbsErr;
        rep.maxRelErr = c.maxRelErr;
        if (!c.ok) {
            rep.ok = false;
            rep.errorKind = runtime::MeasureError::WrongResult;
            rep.error = c.message;
        }
    }
    return rep;
}

} // namespace tessel::driver
