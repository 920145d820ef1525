#include "driver/Measure.h"

#include "ir/Diagnostic.h"
#include "runtime/InProcessRunner.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

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

/// The reference outputs of `f`'s computation: given, stored, or computed
/// (the default schedule built and run once, untimed, then stored).
std::optional<std::vector<runtime::NDArray>> referenceOutputs(const LoweredFunction& f, const std::string& key,
                                                              const RunOptions& o, Tools& tools, RunReport& failed) {
    if (!o.referenceOutputs.empty()) return o.referenceOutputs;
    if (o.references)
        if (auto found = o.references->find(key, o.seed)) return found;
    runtime::BuildArtifact ref;
    try {
        ref = tools.referenceBuilder->build(buildJobOf(lowerReference(f), key));
    } catch (const CompileError& e) {
        failed = failure(runtime::MeasureError::Build, std::string("the reference schedule failed to build: ") + e.what());
        return std::nullopt;
    }
    runtime::RunRequest once = requestOf(o);
    once.untimed = true;
    runtime::RunResult r = tools.referenceRunner->run(ref, once);
    if (!r.ok) {
        failed = failure(r.error, r.error == runtime::MeasureError::Cancelled ? r.message
                                                                              : "the reference schedule failed: " + r.message,
                         r.threads);
        return std::nullopt;
    }
    if (o.references) o.references->store(key, o.seed, r.outputs);
    return r.outputs;
}

void compareOutputs(const std::vector<runtime::NDArray>& got, const std::vector<runtime::NDArray>& want, double rtol,
                    RunReport& rep) {
    if (got.size() != want.size()) {
        rep.ok = false;
        rep.errorKind = runtime::MeasureError::WrongResult;
        rep.error = "the function has " + std::to_string(got.size()) + " outputs, the reference " +
                    std::to_string(want.size());
        return;
    }
    for (size_t i = 0; i < want.size(); ++i) {
        auto c = runtime::compare(got[i], want[i], rtol, 1e-6);
        rep.maxAbsErr = std::max(rep.maxAbsErr, c.maxAbsError);
        rep.maxRelErr = std::max(rep.maxRelErr, c.maxRelError);
        if (!c.shapesMatch || !(c.maxRelError <= rtol)) {
            rep.ok = false;
            rep.errorKind = runtime::MeasureError::WrongResult;
            rep.error = "output differs from the reference schedule: " + c.str();
        }
    }
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
        RunReport failed;
        reference = referenceOutputs(f, key, options, tools, failed);
        if (!reference) return failed;
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
    if (reference) compareOutputs(rep.outputs, *reference, options.rtol, rep);
    return rep;
}

} // namespace tessel::driver
