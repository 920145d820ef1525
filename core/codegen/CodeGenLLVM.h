/// \file
/// TIR -> LLVM 16 -> machine code: JIT modules for this machine, assembly and
/// ELF objects for any target, with the line links the IDE shows.
///
/// Input is a lowered, flattened PrimFunc: buffer parameters, one flat index
/// per access (a stride-1 Ramp is a contiguous vector access, any other vector
/// index a gather/scatter), 1-d Allocates. Every function gets the kernel ABI
/// of runtime/Module.h: an exported `int32_t <name>(void* const* args)` that
/// unpacks one pointer per buffer parameter and calls an internal function
/// whose pointers are `noalias`, `nocapture` and `align 64` (so callers pass
/// distinct, 64-byte aligned buffers, as runtime tensors are). Parallel loops
/// are outlined and run through the runtime's TesselParallelLaunch
/// (runtime/ParallelABI.h). Every instruction carries a debug location whose
/// line is the TIR printer's line of the statement it came from, so the
/// optimised IR and the assembly link back to the TIR text (see LineMap).
///
/// No LLVM type appears here; Qt code may include this header.
#pragma once

#include "codegen/LineMap.h"
#include "codegen/Target.h"
#include "runtime/Module.h"
#include "tir/IR.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::codegen {

/// The optimised LLVM module of a build() made without assembly, with its
/// target machine (BuildOptions::keepOptimized), so that assemblyOf() emits
/// the assembly later without parsing the printed IR back or making a second
/// target machine. Used once: the first assemblyOf() takes it and frees it
/// (it holds the module's whole context). Opaque and thread-safe.
struct OptimizedModule;

/// What a compile is for, which decides how much LLVM time it may take.
enum class CompileMode {
    /// Whole models, exported libraries, batch runs: LLVM's O3 pipeline as it is
    /// (loop unrolling up to a cost of 300), the fastest kernels.
    Batch,
    /// Re-lowering while a person waits (the schedule editor): O3 with O2's
    /// unroll thresholds (150), about half the LLVM time of a convolution or
    /// GEMM kernel for a few percent of kernel speed (docs/compiler-spine.md,
    /// "Unrolling"). The same as Batch below optLevel 3.
    Interactive,
};

struct BuildOptions {
    /// LLVM optimisation level, 0..3 (3 = the O3 module pipeline).
    int optLevel = 3;
    /// How far LLVM may unroll at optLevel 3 (per compile: nothing is set process-wide).
    CompileMode mode = CompileMode::Batch;
    /// Emit debug locations (and hence the line maps).
    bool debugInfo = true;
    /// Fill BuildResult::assembly (and its line map).
    bool emitAssembly = true;
    /// Compile into a JIT module (only for a host target).
    bool jit = true;
    /// Without emitAssembly and a JIT: keep the optimised module in
    /// BuildResult::optimized for assemblyOf(). A cache of results should not
    /// hold it (it is the size of the module, and used once).
    bool keepOptimized = false;
    /// Drop the `.debug_*` sections from the assembly text: they are many lines
    /// of tables a reader does not need; the `.loc` lines stay.
    bool stripDebugSections = true;
};

struct BuildResult {
    /// The compiled functions, callable here (a CPU module: function(name)
    /// is the kernel in the CPU kernel ABI); null unless options.jit and the
    /// target is the host.
    runtime::CpuModulePtr module;
    /// The TIR text the line numbers refer to: printPrimFunc() of each function,
    /// in order, joined by one empty line (for one function, exactly its text).
    std::string tir;
    /// tirFirstLine[i]: the line of `tir` (1-based) where function i starts.
    std::vector<int> tirFirstLine;
    /// LLVM IR as generated (before optimisation) and after the pipeline.
    std::string llvmIR, llvmIROptimized;
    /// Assembly for the target (empty unless options.emitAssembly).
    std::string assembly;
    /// Per line of each text: the line of `tir` it came from, and the reverse.
    LineMap llvmIRLines, llvmIROptimizedLines, assemblyLines;
    /// The optimised module for assemblyOf(); null unless made with
    /// BuildOptions::keepOptimized (and after assemblyOf() took it, empty).
    std::shared_ptr<OptimizedModule> optimized;
};

/// Compiles `funcs` into one LLVM module for `target`. Throws CompileError when
/// the input is not a flattened PrimFunc codegen can handle (with the reason),
/// or when LLVM rejects the target.
BuildResult build(const std::vector<tir::PrimFunc>& funcs, const Target& target,
                  const BuildOptions& options = {});

/// Assembly for `target` from `optimizedIR`, the optimised module build()
/// printed (BuildResult::llvmIROptimized, made with the same target and
/// optLevel): the text and line map build() gives with emitAssembly, made
/// later. The schedule editor shows the IR first and the assembly when this
/// is done (instruction selection and printing are half of LLVM's time).
/// Throws CompileError when LLVM cannot read the IR or emit for the target.
struct AssemblyText {
    std::string assembly;
    LineMap lines;
};
AssemblyText assemblyOfIR(const std::string& optimizedIR, const Target& target, const BuildOptions& options = {});

/// The assembly of `r`, a build() without assembly for `target`: from its
/// kept module (BuildResult::optimized) while it holds one, which this takes,
/// else from its printed optimised IR (assemblyOfIR). The same text either
/// way; the kept module saves reading the IR back and a target machine.
AssemblyText assemblyOf(const BuildResult& r, const Target& target, const BuildOptions& options = {});

/// An ELF relocatable object of `funcs` for `target` (any triple LLVM knows,
/// e.g. "aarch64-linux-gnu"), optimised as `options` says (O3 by default;
/// texts, assembly and JIT options do not apply). Calls into the thread pool
/// stay undefined symbols that the runtime resolves when it loads the code.
std::vector<char> emitObject(const std::vector<tir::PrimFunc>& funcs, const Target& target,
                             const BuildOptions& options = {});

} // namespace tessel::codegen
