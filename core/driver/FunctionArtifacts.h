/// \file
/// Everything the IDE's code view shows for one function, as plain values: the
/// TE script it came from, the TIR straight from the schedule and after every
/// pass, LLVM IR before and after optimisation, assembly, the line maps that
/// link them to the TIR, and the C the C backend prints.
///
/// This is the hot path of the schedule editor ("edit a schedule -> see the new
/// TIR, LLVM IR and assembly"), so one call does the least work that gives all
/// the texts: the script is run once, only the chosen function is lowered, and
/// one LLVM run (no JIT) prints the IR and emits the assembly. The function is
/// built alone, so every text is only its own. An ArtifactCache skips LLVM for
/// a function whose TIR it has seen (showing a function again, undo, an edit
/// that does not change the TIR).
///
/// Nearly all the time is LLVM's. On the shared 2-core development machine a
/// GEMM ladder step takes 20-105 ms (median), ResNet-18's 56x56x64 convolution
/// + Add + Relu 210-255 ms: lowering with snapshots about 6 ms, the O3 module
/// pipeline about 140 ms and instruction selection with the assembly printer
/// about 100 ms (O2: 170 ms in all, O1: 120 ms; emitAssembly off: 140 ms).
/// tests/driver/tst_functionartifacts prints these timings.
///
/// For a GPU target (CompileRequest::target.isGPU()) the function is lowered
/// through the GPU pipeline and verifier (their errors at the schedule line),
/// and the texts are its kernels' (tir::splitHostDevice): the kernels' TIR, their
/// LLVM IR, PTX as the assembly (with .loc line links) and CUDA C as the C.
#pragma once

#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "driver/CompileRequest.h"
#include "driver/TeDriver.h"

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tessel::driver {

class ArtifactCache;

/// A request for this machine in CompileMode::Interactive.
inline CompileRequest interactiveRequest() {
    CompileRequest r;
    r.mode = CompileMode::Interactive;
    return r;
}

struct ArtifactOptions {
    /// The target, the optimisation level and the registries. Interactive by
    /// default: these are the texts a user waits for while editing.
    CompileRequest request = interactiveRequest();
    /// Record the TIR after every TIR pass (LoweredFunction::snapshots).
    bool snapshots = true;
    /// Print the function with the C backend too.
    bool emitC = true;
    /// Emit the assembly (and its line map). Code generation is about a third
    /// of the time: a view whose assembly is not on screen can leave it out.
    bool emitAssembly = true;
    /// Where to look up and keep the LLVM and C texts; null: no caching.
    std::shared_ptr<ArtifactCache> cache;
};

struct FunctionArtifacts {
    std::string name;
    /// What the texts were made for (a GPU target: kernels, PTX, CUDA C).
    Target target;
    /// The TE script the function came from (may be empty).
    std::string script;
    /// The schedule, the TIR from it and after the pipeline, and with
    /// ArtifactOptions::snapshots the TIR after every pass.
    LoweredFunction lowered;
    /// tir, llvmIR, llvmIROptimized, assembly and their line maps (no module:
    /// nothing is JIT-compiled). Without assembly, build.optimized keeps the
    /// optimised LLVM module for withAssembly().
    codegen::BuildResult build;
    /// codegen::emitC of the lowered function, or "/* C backend: <reason> */"
    /// when the C backend cannot print it (or ArtifactOptions::emitC is off).
    std::string c;
    /// The C backend's line table: C line -> line of build.tir (empty without C).
    codegen::LineMap cLines;
    /// Wall time of lowering (script included) and of code generation (LLVM and C).
    double lowerMs = 0, codegenMs = 0;
    /// False when made without assembly (ArtifactOptions::emitAssembly off):
    /// build.assembly is empty because it was not made, not because the
    /// function has none; withAssembly() adds it.
    bool hasAssembly = true;
};

/// The code-generation texts (codegen::BuildResult without a module, and the C)
/// of recently built functions, keyed by their lowered TIR text, the target,
/// the optimisation level and whether C and assembly were asked for: all they depend
/// on. The least recently used entry goes first. Thread-safe, so the IDE can
/// share one between its workers.
class ArtifactCache {
public:
    explicit ArtifactCache(size_t capacity = 32) : capacity_(capacity) {}

    size_t size() const;
    size_t hits() const;
    size_t misses() const;
    void clear();

private:
    friend FunctionArtifacts artifactsOf(const LoweredFunction&, const std::string&,
                                         const ArtifactOptions&);
    friend FunctionArtifacts withAssembly(FunctionArtifacts, const ArtifactOptions&);
    struct Entry {
        codegen::BuildResult build;
        std::string c;
        codegen::LineMap cLines;
    };
    /// Copies the entry for `key` into `out` (and makes it the most recent).
    bool find(const std::string& key, Entry& out);
    void insert(const std::string& key, Entry entry);

    using Item = std::pair<std::string, Entry>;
    mutable std::mutex mutex_;
    size_t capacity_;
    std::list<Item> items_; ///< most recently used first
    std::unordered_map<std::string, std::list<Item>::iterator> index_;
    size_t hits_ = 0, misses_ = 0;
};

/// Builds the texts of one lowered function alone (so they are only its own).
/// Throws CompileError when codegen cannot handle the function or the target.
FunctionArtifacts artifactsOf(const LoweredFunction& f, const std::string& script,
                              const ArtifactOptions& options = {});

/// `a`, made without assembly (ArtifactOptions::emitAssembly off, a CPU
/// target), with its assembly and line map, from its optimised module
/// (codegen::assemblyOf: instruction selection and printing, what is left of
/// LLVM's work, on the module artifactsOf kept in a.build.optimized, or on
/// its printed IR read back when that was used or came from the cache);
/// codegenMs grows by their time. The same texts one call
/// with emitAssembly makes. With options.cache, kept under that call's key.
/// `options` must be the ones `a` was made with.
FunctionArtifacts withAssembly(FunctionArtifacts a, const ArtifactOptions& options);

/// Runs a TE script, lowers its function `functionName` (or, when empty, the
/// only or first one it builds) and builds that function's texts. Throws
/// CompileError with a located diagnostic on any error: the script's own
/// place for errors in it, the build call's for errors in lowering or codegen;
/// te::script::formatDiagnostic(e.diagnostic(), fileName) prints it as
/// "file.te:3:5: error: ...".
FunctionArtifacts compileScriptArtifacts(std::string_view script, const std::string& fileName,
                                         const std::string& functionName = {},
                                         const ArtifactOptions& options = {});

} // namespace tessel::driver
