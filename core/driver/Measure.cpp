#include "driver/Measure.h"

#include "ir/Diagnostic.h"
#include "runtime/InProcessRunner.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tune/Reference.h"

#include <memory>
#include <optional>

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

} // namespace

RunReport runAndCheck(const LoweredFunction& f, const RunOptions& options) {
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
