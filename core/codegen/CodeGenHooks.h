/// \file
/// Internal to core/codegen: what the TIR -> LLVM emitter asks its target.
///
/// `CodeGenLLVM` (CodeGenLLVM_Internal.h) emits everything that means the same
/// on every LLVM target: types, expressions, loads and stores, serial loops and
/// their metadata, debug locations. Where a target decides, it calls the
/// hooks here. `makeHooks()` is the one place that reads the target's
/// properties (triple, CPU, features, vector width); the emitter itself never
/// looks at the Target.
///
/// The CPU hooks (CodeGenHooks_CPU.cpp) are the only implementation today:
/// - kernel ABI: an exported `int32_t name(void* const* args)` that unpacks the
///   buffer pointers and calls the `noalias` compute function (runtime/Module.h);
/// - parallel loops: outlined into a body and a task function, launched through
///   the runtime's `TesselParallelLaunch` (runtime/ParallelABI.h), one task per
///   iteration up to 256, each running its chunk of the range;
/// - allocation: small constant "local" buffers on the stack, the rest from
///   `TesselWorkspaceAlloc` (a null result returns -1 from the kernel);
/// - function attributes: target-cpu/features, and on x86 with AVX-512
///   `prefer-vector-width=512` (LLVM otherwise splits 16-lane floats in halves);
/// - math functions without an LLVM intrinsic (tanh, erf) call libm;
/// - pair_dot_i16 on x86 vectors is pmaddwd (SSE2, AVX2, AVX-512BW).
///
/// The NVPTX hooks (CodeGenHooks_NVPTX.cpp) make each function one kernel:
/// a `void` entry marked in `nvvm.annotations` calling the compute function;
/// loops bound to blocks/threads read `%ctaid`/`%tid` instead of looping;
/// "shared" buffers are module globals in address space 3; barriers are
/// `bar.sync 0`. The host side (grid/block sizes, launches) is not LLVM's:
/// tir/passes/SplitHostDevice.h describes it for the runtime.
#pragma once

#include "codegen/Target.h"
#include "tir/IR.h"

#include <memory>
#include <string>
#include <string_view>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace tessel::codegen::detail {

class CodeGenLLVM;

/// Memory an Allocate statement got from `CodeGenHooks::allocate`.
struct Allocation {
    /// The buffer's data pointer, valid in the Allocate's body.
    llvm::Value* ptr = nullptr;
    /// Alignment of `ptr` in bytes (what loads and stores may assume).
    unsigned align = 1;
    /// Whether `CodeGenHooks::release` must run after the body (heap memory).
    bool release = false;
};

/// Target-specific decisions of the LLVM emitter. One object per module; the
/// emitter passes itself in, so a hook emits with the same builder, debug
/// lines and variable bindings as the generic code around it.
class CodeGenHooks {
public:
    virtual ~CodeGenHooks() = default;

    /// The widest vector registers the emitter should use, in bits (0: none).
    virtual int preferredVectorBits() const = 0;

    /// Attributes every generated function gets beyond `nounwind` (target CPU,
    /// features, vector width preferences).
    virtual void addFunctionAttributes(llvm::Function& fn) const = 0;

    /// Emits the entry point of `f`, whose body is already in `compute` (an
    /// internal function taking one noalias pointer per buffer parameter and
    /// returning an i32 status). `line` is the TIR line of the `def`.
    virtual void emitEntry(CodeGenLLVM& cg, const tir::PrimFunc& f, llvm::Function& compute,
                           int line) = 0;

    /// Emits a `ForKind::Parallel` loop at the current insertion point.
    virtual void emitParallelFor(CodeGenLLVM& cg, const tir::ForNode& op) = 0;

    /// Memory for the buffer of `op`, allocated at the current insertion point.
    virtual Allocation allocate(CodeGenLLVM& cg, const tir::AllocateNode& op) = 0;
    /// Frees what `allocate` returned with `release` set, after the body.
    virtual void release(CodeGenLLVM& cg, const Allocation& a) = 0;

    /// The external function computing `base` ("tanh", "erf") on scalars of
    /// `elem` (a float type of 32 or 64 bits).
    virtual std::string mathFunction(std::string_view base, DataType elem) const = 0;

    /// Called before the body of `f` is emitted (a GPU backend reads the
    /// launch's thread extents here).
    virtual void beginFunction(const tir::PrimFunc& f) { (void)f; }

    /// Emits a `ForKind::ThreadBinding` loop and returns true, or returns
    /// false to have it emitted as a serial loop (a CPU runs one block's
    /// threads one after another).
    virtual bool emitThreadFor(CodeGenLLVM& cg, const tir::ForNode& op) {
        (void)cg, (void)op;
        return false;
    }

    /// `T.tvm_storage_sync("shared")`: a block-wide barrier on a GPU; on a
    /// CPU (one thread runs the block) nothing. Returns the call's i32 value.
    virtual llvm::Value* emitStorageSync(CodeGenLLVM& cg);

    /// Whether LLVM's intrinsic for `base` ("log", "sin", "pow", "sqrt") on
    /// `elem` has code on this target (NVPTX has none for log, sin, cos, pow:
    /// those come from libdevice). An error names the function otherwise.
    virtual bool hasLLVMMath(std::string_view base, DataType elem) const {
        (void)base, (void)elem;
        return true;
    }

    /// Whether `base` ("exp", "erf") on `elem` is emitted inline as a
    /// polynomial (CodeGenLLVM_FastMath.cpp) rather than through
    /// `mathFunction` or an LLVM intrinsic: where the math library has no
    /// vector form, the inline one vectorises.
    virtual bool inlineMath(std::string_view base, DataType elem) const = 0;

    /// `base` ("exp", "log") of `x` (a scalar or vector of `elem`) from the
    /// target's own approximate instructions, asked before everything above;
    /// null where the target has none for it. The NVPTX hooks answer float32
    /// exp and log with PTX's ex2.approx and lg2.approx (CUDA's __expf and
    /// __logf), which need no libdevice.
    virtual llvm::Value* emitApproxMath(CodeGenLLVM& cg, std::string_view base, DataType elem, llvm::Value* x) {
        (void)cg, (void)base, (void)elem, (void)x;
        return nullptr;
    }

    /// pair_dot_i16 of two <L x i32> vectors (tir::Intrinsic::PairDotI16)
    /// with the target's own instruction (x86's pmaddwd), or null where the
    /// target has none for L lanes: the emitter then writes the generic form.
    virtual llvm::Value* emitPairDotI16(CodeGenLLVM& cg, llvm::Value* a, llvm::Value* b) {
        (void)cg, (void)a, (void)b;
        return nullptr;
    }

    /// Whether a vector load of a Ramp with a small constant stride (2 to 4)
    /// reads the contiguous span and keeps every stride-th element (a load
    /// and a shuffle) instead of gathering: on a CPU without fast gathers
    /// (x86 before AVX-512 has none for bytes) that is the cheaper form.
    virtual bool stridedLoadsAsShuffles() const { return false; }
};

/// What the CPU hooks need to know about the target.
struct CpuTargetInfo {
    std::string cpu, features;
    /// Width of the widest SIMD registers (Target::vectorBits).
    int vectorBits = 0;
    bool x86 = false;
    /// The widest x86 pmaddwd the CPU and features give, in bits: 512 with
    /// AVX-512BW, 256 with AVX2, 128 with SSE2, else 0 (read from LLVM's
    /// subtarget, so `-mcpu=znver3` alone counts as AVX2).
    int pmaddwdBits = 0;
};

/// The CPU hooks (CodeGenHooks_CPU.cpp).
std::unique_ptr<CodeGenHooks> makeCpuHooks(const CpuTargetInfo& info);

/// What the NVPTX hooks need to know about the target.
struct NvptxTargetInfo {
    /// "sm_80", "sm_90" ...; "+ptx78".
    std::string cpu, features;
};

/// The NVPTX hooks (CodeGenHooks_NVPTX.cpp): each function is one kernel.
std::unique_ptr<CodeGenHooks> makeNvptxHooks(const NvptxTargetInfo& info);

/// The hooks for `target`: reads its properties once (CodeGenHooks.cpp).
std::unique_ptr<CodeGenHooks> makeHooks(const Target& target);

} // namespace tessel::codegen::detail
