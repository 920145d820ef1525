/// \file
/// Internal to core/codegen: the TIR -> LLVM IR emitter, one class split over
/// files by concern (as Halide splits its simplifier):
///
/// | file                         | what                                              |
/// |------------------------------|---------------------------------------------------|
/// | CodeGenLLVM.cpp              | module, functions, debug info, variable bindings  |
/// | CodeGenLLVM_Types.cpp        | TIR types -> LLVM types, constants, casts         |
/// | CodeGenLLVM_Expr.cpp         | expressions, facts about integers (sign, 2^k)     |
/// | CodeGenLLVM_Intrinsics.cpp   | TIR intrinsics (math, prefetch, extern calls)     |
/// | CodeGenLLVM_Memory.cpp       | loads, stores, i64 indices, access alignment      |
/// | CodeGenLLVM_Loops.cpp        | statements, serial loops and their metadata, if   |
/// | CodeGenLLVM_Alloc.cpp        | Allocate: binding, stack allocas                  |
/// | CodeGenLLVM_Parallel.cpp     | free variables, outlining a body into a function  |
/// | CodeGenHooks_CPU.cpp         | the CPU target: ABI wrapper, parallel launch,     |
/// |                              | workspace, attributes, libm (CodeGenHooks.h)      |
///
/// One CodeGenLLVM per module: it walks each PrimFunc's statements with an
/// IRBuilder and sets a debug location per TIR statement (the TIR printer's
/// line, so LineMap can link the IR and assembly back). Target-specific
/// decisions go through `CodeGenHooks`. Building, optimising and JIT-ing the
/// module live in LLVMBuild.cpp.
#pragma once

#include "codegen/CodeGenHooks.h"
#include "codegen/LLVMTarget.h"
#include "ir/LineTable.h"
#include "tir/IR.h"
#include "tir/arith/ConstIntBound.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tessel::codegen::detail {

/// Throws CompileError("codegen: <msg>").
[[noreturn]] void fail(const std::string& msg);

/// Alignment of buffer parameters (runtime tensors) and of allocations, in bytes.
constexpr unsigned kBufferAlign = 64;

class CodeGenLLVM {
public:
    CodeGenLLVM(llvm::LLVMContext& ctx, llvm::TargetMachine& tm,
                std::unique_ptr<CodeGenHooks> hooks, bool debugInfo, const TirSource& source);

    /// Emits function `index` of the TirSource (its text gives the debug lines).
    void addFunction(const tir::PrimFunc& f, size_t index);
    /// Finalises debug info and verifies the module.
    std::unique_ptr<llvm::Module> finish();

    /// What the emitter knows inside the function being emitted.
    struct FunctionState {
        llvm::Function* fn = nullptr;
        llvm::DISubprogram* sp = nullptr;
        /// Values of variables in scope (scalars, and buffer data pointers).
        std::unordered_map<const tir::VarNode*, llvm::Value*> vars;
        /// Known alignment (bytes) of buffer data pointers.
        std::unordered_map<const tir::VarNode*, unsigned> ptrAlign;
        /// Integer variables known to be >= 0 (loop variables from a non-negative min).
        std::unordered_set<const tir::VarNode*> nonNegative;
        /// Integer variables known to be multiples of 2^k: k.
        std::unordered_map<const tir::VarNode*, int> pow2Factor;
        /// The TIR line of the statement being emitted.
        int line = 0;
    };

    /// Binds a variable for the guard's lifetime, with what is known about it;
    /// the previous binding (if any) comes back afterwards.
    class Binding {
    public:
        Binding(CodeGenLLVM& cg, const tir::VarNode* v, llvm::Value* value, bool nonNeg, int pow2);
        ~Binding();
        Binding(const Binding&) = delete;
        Binding& operator=(const Binding&) = delete;

    private:
        CodeGenLLVM& cg_;
        const tir::VarNode* var_;
        llvm::Value* oldValue_ = nullptr;
        bool hadOld_ = false, oldNonNeg_ = false;
        int oldPow2_ = -1;
    };

    // -- what hooks use: the builder, the module, the current function ---------

    llvm::LLVMContext& context() { return ctx_; }
    llvm::Module& module() { return *module_; }
    llvm::IRBuilder<>& builder() { return builder_; }
    FunctionState& state() { return fs_; }
    /// The name of the PrimFunc being emitted.
    const std::string& functionName() const { return funcName_; }
    /// A fresh index for names of functions outlined from it (0, 1, ...).
    int nextOutlinedIndex() { return outlinedCount_++; }

    // -- functions and debug info (CodeGenLLVM.cpp) ------------------------------

    /// `nounwind` and the hooks' attributes.
    void setFunctionAttributes(llvm::Function* fn);
    /// noalias, nocapture, alignment and dereferenceable bytes of pointer parameter i.
    void addPointerAttributes(llvm::Function* fn, unsigned i, unsigned align,
                              std::optional<int64_t> bytes);
    /// The debug-info subprogram of `fn` (null without debug info).
    llvm::DISubprogram* makeSubprogram(llvm::Function* fn, const std::string& name, int line,
                                       bool local);
    /// Makes `line` the current statement's line (and debug location).
    void setLine(int line);
    /// The line of `node` in the joined TIR text; 0 when it has none.
    int lineOf(const Object* node) const;
    /// Makes `state.fn` the function being emitted (with `state`'s bindings),
    /// runs `emit` in a fresh entry block at debug line `line`, then returns to
    /// the previous function, insertion point and debug location.
    void emitInto(FunctionState state, int line, llvm::function_ref<void()> emit);

    // -- types, constants, casts (CodeGenLLVM_Types.cpp) -------------------------

    llvm::Type* i32();
    llvm::PointerType* ptrType();
    llvm::Type* scalarType(DataType t);
    llvm::Type* llvmType(DataType t);
    /// How an element of a buffer is stored: bools take a byte.
    llvm::Type* memType(DataType elem);
    static unsigned elemBytes(DataType elem);
    /// Size in bytes of a buffer with a constant shape.
    static std::optional<int64_t> constantBytes(const tir::Buffer& b);
    llvm::Value* constInt(DataType t, int64_t v);
    llvm::Value* castValue(llvm::Value* v, DataType from, DataType to);
    llvm::Value* splatIfNeeded(llvm::Value* v, int lanes);

    // -- variables and expressions (CodeGenLLVM_Expr.cpp) ------------------------

    llvm::Value* lookup(const tir::VarNode* v);
    llvm::Value* bufferPointer(const tir::Buffer& b);
    /// Whether an integer expression is provably >= 0.
    bool nonNegative(const tir::Expr& e);
    /// The largest k (<= 30) such that 2^k provably divides an integer expression.
    int pow2Factor(const tir::Expr& e);
    llvm::Value* emitExpr(const tir::Expr& e);

    // -- statements and loops (CodeGenLLVM_Loops.cpp) ----------------------------

    void emitStmt(const tir::Stmt& s);
    /// Emits `for (v = begin; v < end; ++v) body()` where begin/end are values of
    /// the loop variable's type; `unrollFull`/`unrollCount` as in loopMetadata.
    void emitLoop(const tir::VarNode* var, DataType vt, llvm::Value* begin, llvm::Value* end,
                  bool nonNeg, bool unrollFull, llvm::function_ref<void()> body,
                  int64_t unrollCount = -1);

    // -- allocation (CodeGenLLVM_Alloc.cpp) --------------------------------------

    /// An alloca of `count` elements of `type` in the entry block of the
    /// current function, aligned to kBufferAlign.
    llvm::Value* allocaInEntry(llvm::Type* type, int64_t count, const std::string& name);

    // -- outlining (CodeGenLLVM_Parallel.cpp) ------------------------------------

    /// The variables `body` uses but does not define, in order of first use,
    /// without `exclude`: what a function outlined from it has to capture.
    static std::vector<const tir::VarNode*> capturesOf(const tir::Stmt& body,
                                                       const tir::VarNode* exclude);
    /// Creates the internal function `name(captures..., extra...) -> returnType`
    /// and emits its body with `emit(extraArgs)` at debug line `line`. The
    /// captures are bound to its first parameters with what is known about them
    /// here (sign, power-of-two factors, pointer alignment, which become
    /// parameter attributes); `captureTypes` are their values' types.
    llvm::Function* outline(const std::string& name,
                            const std::vector<const tir::VarNode*>& captures,
                            const std::vector<llvm::Type*>& captureTypes,
                            const std::vector<llvm::Type*>& extraParams, llvm::Type* returnType,
                            int line,
                            llvm::function_ref<void(const std::vector<llvm::Value*>&)> emit);

private:
    // CodeGenLLVM_Expr.cpp
    template <class Node> std::pair<llvm::Value*, llvm::Value*> operands(const Node* op);
    template <class Node>
    llvm::Value* emitCompare(const Node* op, llvm::CmpInst::Predicate f, llvm::CmpInst::Predicate s,
                             llvm::CmpInst::Predicate u);
    llvm::Value* emitMinMax(const tir::Expr& e, DataType t);
    llvm::Value* emitRamp(const tir::RampNode* op, DataType t);
    llvm::Value* emitDiv(const tir::DivNode* op, DataType t);
    llvm::Value* emitMod(const tir::ModNode* op, DataType t);
    llvm::Value* emitFloorDiv(const tir::FloorDivNode* op, DataType t);
    llvm::Value* emitFloorMod(const tir::FloorModNode* op, DataType t);

    // CodeGenLLVM_Intrinsics.cpp
    llvm::Value* emitCall(const tir::CallNode* op);
    llvm::Value* emitPrefetch(const tir::CallNode* op);
    llvm::Value* emitExtern(const tir::CallNode* op);
    llvm::Value* emitMath(const tir::CallNode* op);
    /// pair_dot_i16: the hooks' instruction where the target has one, else
    /// the generic form (sign-extended halves multiplied, pairs added).
    llvm::Value* emitPairDotI16(const tir::CallNode* op);
    /// Calls the hooks' math function `base`, lane by lane for vectors; half
    /// precision goes through float.
    llvm::Value* callMath(std::string_view base, const std::vector<llvm::Value*>& args, DataType t);

    // CodeGenLLVM_FastMath.cpp: float32 (scalar or vector) e^x, erf(x),
    // sigmoid(x) and tanh(x) inline.
    llvm::Value* emitInlineExp(llvm::Value* x);
    llvm::Value* emitInlineErf(llvm::Value* x);
    llvm::Value* emitInlineSigmoid(llvm::Value* x);
    llvm::Value* emitInlineTanh(llvm::Value* x);

    // CodeGenLLVM_Memory.cpp
    /// Alignment (bytes) of an access to `b` starting at element `index` (scalar).
    unsigned accessAlign(const tir::Buffer& b, const tir::Expr& index);
    llvm::Value* emitIndex(const tir::Expr& e);
    llvm::Value* emitLoad(const tir::BufferLoadNode* op);
    void emitStore(const tir::BufferStoreNode* op);
    /// TVM's if_then_else: an arm that reads memory (or divides) is evaluated
    /// only where its condition holds, so a padded read never touches memory
    /// outside its buffer; arms without such reads stay an LLVM select.
    llvm::Value* emitSelect(const tir::SelectNode* op);
    /// Whether evaluating `e` where its select does not take it could fault:
    /// it reads memory not provably inside its buffer (under loopBounds_), or
    /// divides integers by something that is not a constant.
    bool mayFault(const tir::Expr& e) const;
    /// Whether `e` costs more than a branch on a scalar condition: a
    /// transcendental call (a sigmoid, an exp) or a sizeable tree (a concatenation's nested selects
    /// over many inputs, each of which a select would evaluate).
    static bool worthABranch(const tir::Expr& e);

    // CodeGenLLVM_Loops.cpp
    llvm::MDNode* loopMetadata(bool unrollFull, int64_t unrollCount = -1);
    void emitSerialFor(const tir::ForNode* op);
    void emitIf(const tir::IfThenElseNode* op);

    // CodeGenLLVM_Alloc.cpp
    void emitAllocate(const tir::AllocateNode* op);

    llvm::LLVMContext& ctx_;
    std::unique_ptr<CodeGenHooks> hooks_;
    std::unique_ptr<llvm::Module> module_;
    llvm::IRBuilder<> builder_;
    bool debugInfo_;
    const TirSource& source_;
    std::unique_ptr<llvm::DIBuilder> di_;
    llvm::DIFile* diFile_ = nullptr;
    const AnnotatedText* text_ = nullptr;
    int lineOffset_ = 0;
    std::string funcName_;
    int outlinedCount_ = 0;
    FunctionState fs_;
    /// While an arm of a lane-wise select is emitted: the lanes it is taken
    /// for (a vector of i1); loads under it read only those lanes.
    llvm::Value* loadMask_ = nullptr;
    /// The interval of every loop and let variable of the function being
    /// emitted (outlined bodies included), for mayFault.
    tir::arith::VarBoundMap loopBounds_;
};

} // namespace tessel::codegen::detail
