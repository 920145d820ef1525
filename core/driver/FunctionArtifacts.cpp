/// \file
/// The texts of one function for the IDE's code view (FunctionArtifacts.h):
/// the script run once, the chosen function lowered alone, one LLVM run
/// without a JIT, and an optional cache of the code-generation texts.
#include "driver/FunctionArtifacts.h"

#include "codegen/CodeGenC.h"
#include "ir/Diagnostic.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"

#include <chrono>

namespace tessel::driver {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// The cache key of `f`'s code-generation texts: everything they depend on
/// (the TIR text names the function too).
std::string cacheKey(const LoweredFunction& f, const ArtifactOptions& options, bool assembly) {
    return tir::toString(f.lowered) + '\0' + options.request.target.str() + '\0' +
           std::to_string(options.request.optLevel) + (options.request.mode == CompileMode::Batch ? "b" : "i") +
           (options.emitC ? "c" : "") + (assembly ? "s" : "");
}

/// `b` without its kept module: a cache holds texts, and the module is used once.
codegen::BuildResult textsOnly(codegen::BuildResult b) {
    b.optimized.reset();
    return b;
}

/// An error without a place gets `loc` (the build call that asked for the work).
CompileError locatedAt(const CompileError& e, SourceLoc loc) {
    Diagnostic d = e.diagnostic();
    if (!d.loc.known()) d.loc = loc;
    return CompileError(d);
}

} // namespace

size_t ArtifactCache::size() const {
    std::lock_guard lock(mutex_);
    return items_.size();
}

size_t ArtifactCache::hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
}

size_t ArtifactCache::misses() const {
    std::lock_guard lock(mutex_);
    return misses_;
}

void ArtifactCache::clear() {
    std::lock_guard lock(mutex_);
    items_.clear();
    index_.clear();
}

bool ArtifactCache::find(const std::string& key, Entry& out) {
    std::lock_guard lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end()) {
        ++misses_;
        return false;
    }
    ++hits_;
    items_.splice(items_.begin(), items_, it->second);
    out = it->second->second;
    return true;
}

void ArtifactCache::insert(const std::string& key, Entry entry) {
    std::lock_guard lock(mutex_);
    if (capacity_ == 0 || index_.count(key)) return;
    items_.emplace_front(key, std::move(entry));
    index_[key] = items_.begin();
    while (items_.size() > capacity_) {
        index_.erase(items_.back().first);
        items_.pop_back();
    }
}

FunctionArtifacts artifactsOf(const LoweredFunction& f, const std::string& script,
                              const ArtifactOptions& options) {
    FunctionArtifacts a;
    a.name = f.name;
    a.target = options.request.target;
    a.script = script;
    a.lowered = f;
    auto t0 = Clock::now();
    std::string key;
    if (options.cache) {
        ArtifactCache::Entry hit;
        // Without assembly: texts made with it (shown before, undo) do as well.
        if (!options.emitAssembly && options.cache->find(cacheKey(f, options, true), hit)) {
            a.build = std::move(hit.build);
            a.c = std::move(hit.c);
            a.cLines = std::move(hit.cLines);
            a.codegenMs = msSince(t0);
            return a;
        }
        key = cacheKey(f, options, options.emitAssembly);
        if (options.cache->find(key, hit)) {
            a.build = std::move(hit.build);
            a.c = std::move(hit.c);
            a.cLines = std::move(hit.cLines);
            a.hasAssembly = options.emitAssembly;
            a.codegenMs = msSince(t0);
            return a;
        }
    }
    codegen::BuildOptions bo = options.request.buildOptions();
    bo.debugInfo = true; // the line maps
    bo.emitAssembly = options.emitAssembly;
    bo.jit = false; // texts only: a JIT would compile the module a second time
    // The assembly later from the module in memory (withAssembly), not the printed IR.
    bo.keepOptimized = !options.emitAssembly;
    const bool gpu = options.request.target.isGPU();
    // For a GPU the kernels are what is compiled: the TIR text is theirs (the
    // PTX's .loc lines refer to it), the assembly PTX, the C CUDA C.
    a.build = buildFunctions({f}, options.request.target, bo);
    if (!options.emitC) {
        a.c = "/* C backend: not requested */\n";
    } else if (gpu) {
        try {
            std::vector<tir::PrimFunc> kernels;
            for (auto& split : splitForDevice({f}))
                for (auto& k : split.kernels) kernels.push_back(k.kernel);
            codegen::CSource c = codegen::emitCudaC(kernels);
            a.c = std::move(c.text);
            // The table's lines are each kernel's own TIR: the TIR text's
            // lines only when it holds one kernel.
            if (kernels.size() == 1) a.cLines = std::move(c.lines);
        } catch (const CompileError& e) {
            a.c = "/* CUDA C: " + e.diagnostic().message + " */\n";
        }
    } else {
        try {
            codegen::CSource c = codegen::emitC(f.lowered);
            a.c = std::move(c.text);
            a.cLines = std::move(c.lines);
        } catch (const CompileError& e) {
            // The C view says why instead of failing the whole function.
            a.c = "/* C backend: " + e.diagnostic().message + " */\n";
        }
    }
    a.hasAssembly = options.emitAssembly;
    if (options.cache) options.cache->insert(key, {textsOnly(a.build), a.c, a.cLines});
    a.codegenMs = msSince(t0);
    return a;
}

FunctionArtifacts withAssembly(FunctionArtifacts a, const ArtifactOptions& options) {
    if (a.hasAssembly) return a;
    if (options.request.target.isGPU())
        throw CompileError("the assembly of a GPU function (its PTX) is made with its IR, not after");
    const auto t0 = Clock::now();
    codegen::BuildOptions bo = options.request.buildOptions();
    bo.debugInfo = true; // the line map
    codegen::AssemblyText text = codegen::assemblyOf(a.build, options.request.target, bo);
    a.build.assembly = std::move(text.assembly);
    a.build.assemblyLines = std::move(text.lines);
    a.build.optimized.reset();
    a.hasAssembly = true;
    a.codegenMs += msSince(t0);
    if (options.cache) options.cache->insert(cacheKey(a.lowered, options, true), {a.build, a.c, a.cLines});
    return a;
}

FunctionArtifacts compileScriptArtifacts(std::string_view script, const std::string& fileName,
                                         const std::string& functionName,
                                         const ArtifactOptions& options) {
    auto t0 = Clock::now();
    te::script::ScriptOptions so;
    so.fileName = fileName;
    te::script::ScriptResult r = runScript(script, so, options.request.target);
    if (r.builds.empty())
        throw CompileError(
            "the script builds no function: it creates no schedule and calls no tvm.build");
    const te::script::BuildRequest* b = &r.builds.front();
    if (!functionName.empty()) {
        b = nullptr;
        std::string known;
        for (auto& req : r.builds) {
            if (req.name == functionName) b = &req;
            known += (known.empty() ? "" : ", ") + req.name;
        }
        if (!b)
            throw CompileError("the script builds no function '" + functionName + "' (it builds " +
                               known + ")");
    }
    // Only the chosen function is lowered: the others are not shown.
    LowerOptions lo;
    lo.snapshots = options.snapshots;
    lo.passes = &options.request.registries().tirPasses;
    if (const Target& t = options.request.target; t.isGPU()) {
        // The GPU pipeline, and the verifier's errors at the schedule line.
        lo.gpu = tir::GpuLimits{};
        if (t.maxThreads > 0) lo.gpu->maxThreadsPerBlock = t.maxThreads;
    }
    LoweredFunction f;
    try {
        f = lowerSchedule(b->schedule, b->args, b->name, lo);
    } catch (const CompileError& e) {
        throw locatedAt(e, b->loc);
    }
    double lowerMs = msSince(t0);
    try {
        FunctionArtifacts a = artifactsOf(f, std::string(script), options);
        a.lowerMs = lowerMs;
        return a;
    } catch (const CompileError& e) {
        throw locatedAt(e, b->loc);
    }
}

} // namespace tessel::driver
