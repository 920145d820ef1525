// TIR -> LLVM IR. One CodeGenLLVM per module: it walks each PrimFunc's
// statements with an IRBuilder, sets a debug location per TIR statement, and
// outlines parallel loops into thread-pool tasks. Building, optimising and
// JIT-ing the result live in LLVMBuild.cpp.
#include "codegen/CodeGenLLVM.h"

#include "codegen/LLVMTarget.h"
#include "ir/Diagnostic.h"
#include "ir/LineTable.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace tessel::codegen::detail {

namespace {

using namespace tessel::tir;

/// Allocations at most this large (bytes, constant size, "local" scope) live on the stack.
constexpr int64_t kMaxStackBytes = 64 * 1024;
/// Alignment of buffer parameters (runtime tensors) and of allocations.
constexpr unsigned kBufferAlign = 64;

[[noreturn]] void fail(const std::string& msg) {
    throw CompileError("codegen: " + msg);
}

/// Collects the variables a statement uses but does not define, in order of
/// first use: what an outlined parallel body has to capture.
class FreeVars : public IRVisitor {
public:
    std::vector<const VarNode*> order;

    void use(const VarNode* v) {
        if (defined_.count(v) || seen_.count(v)) return;
        seen_.insert(v);
        order.push_back(v);
    }

protected:
    using IRVisitor::visit;
    void visit(const VarNode* op) override { use(op); }
    void visit(const BufferLoadNode* op) override {
        use(op->buffer->data.get());
        IRVisitor::visit(op);
    }
    void visit(const BufferStoreNode* op) override {
        use(op->buffer->data.get());
        IRVisitor::visit(op);
    }
    void visit(const LetNode* op) override {
        visitExpr(op->value);
        defined_.insert(op->var.get());
        visitExpr(op->body);
    }
    void visit(const LetStmtNode* op) override {
        visitExpr(op->value);
        defined_.insert(op->var.get());
        visitStmt(op->body);
    }
    void visit(const ForNode* op) override {
        visitExpr(op->min);
        visitExpr(op->extent);
        defined_.insert(op->loopVar.get());
        visitStmt(op->body);
    }
    void visit(const AllocateNode* op) override {
        for (auto& e : op->buffer->shape)
            visitExpr(e);
        defined_.insert(op->buffer->data.get());
        visitStmt(op->body);
    }
    void visit(const AttrStmtNode* op) override { visitStmt(op->body); }

private:
    std::unordered_set<const VarNode*> defined_, seen_;
};

class CodeGenLLVM {
public:
    CodeGenLLVM(llvm::LLVMContext& ctx, const Target& target, llvm::TargetMachine& tm,
                bool debugInfo, const TirSource& source)
        : ctx_(ctx), target_(target), builder_(ctx), debugInfo_(debugInfo), source_(source) {
        module_ = std::make_unique<llvm::Module>(source.fileName, ctx);
        module_->setTargetTriple(tm.getTargetTriple().str());
        module_->setDataLayout(tm.createDataLayout());
        llvm::FastMathFlags fmf;
        fmf.setAllowContract(true); // mul + add may fuse into FMA; nothing else
        builder_.setFastMathFlags(fmf);
        avx512_ = target.vectorBits >= 512 && llvm::Triple(target.triple).isX86();
        if (debugInfo_) {
            di_ = std::make_unique<llvm::DIBuilder>(*module_);
            diFile_ = di_->createFile(source.fileName, ".");
            di_->createCompileUnit(llvm::dwarf::DW_LANG_C99, diFile_, "Tessel",
                                   /*isOptimized=*/true, "", 0);
            module_->addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                                   llvm::DEBUG_METADATA_VERSION);
            module_->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 5);
        }
    }

    void addFunction(const PrimFunc& f, size_t index) {
        text_ = source_.texts[index];
        lineOffset_ = source_.lineOffset[index];
        funcName_ = f->name;
        parallelCount_ = 0;
        if (f->name.empty()) fail("a function has no name");
        if (module_->getFunction(f->name)) fail("two functions are called '" + f->name + "'");
        int defLine = text_->lineOf(f.get());
        defLine = defLine > 0 ? defLine + 1 + lineOffset_ : 0; // the "def" line after the decorator

        // The internal function: one noalias pointer per buffer parameter.
        std::vector<llvm::Type*> paramTypes(f->params.size(), ptrType());
        auto* implType = llvm::FunctionType::get(i32(), paramTypes, false);
        auto* impl = llvm::Function::Create(implType, llvm::Function::InternalLinkage,
                                            f->name + "_compute", module_.get());
        setFunctionAttributes(impl);
        for (size_t i = 0; i < f->params.size(); ++i) {
            const Buffer& b = f->params[i];
            if (!b.defined())
                fail("parameter " + std::to_string(i) + " of '" + f->name + "' is undefined");
            impl->getArg(i)->setName(b->name);
            addPointerAttributes(impl, i, kBufferAlign, constantBytes(b));
        }

        FunctionState state;
        state.fn = impl;
        state.sp = makeSubprogram(impl, f->name + "_compute", defLine, true);
        state.line = defLine;
        for (size_t i = 0; i < f->params.size(); ++i) {
            const VarNode* data = f->params[i]->data.get();
            state.vars[data] = impl->getArg(i);
            state.ptrAlign[data] = kBufferAlign;
        }
        std::swap(fs_, state);
        auto* entry = llvm::BasicBlock::Create(ctx_, "entry", impl);
        builder_.SetInsertPoint(entry);
        setLine(defLine);
        emitStmt(f->body);
        builder_.CreateRet(llvm::ConstantInt::get(i32(), 0));
        std::swap(fs_, state);

        // The exported wrapper: int32_t name(void* const* args).
        auto* wrapType = llvm::FunctionType::get(i32(), {ptrType()}, false);
        auto* wrap = llvm::Function::Create(wrapType, llvm::Function::ExternalLinkage, f->name,
                                            module_.get());
        setFunctionAttributes(wrap);
        wrap->getArg(0)->setName("args");
        wrap->addParamAttr(0, llvm::Attribute::NoCapture);
        wrap->addParamAttr(0, llvm::Attribute::ReadOnly);
        FunctionState wstate;
        wstate.fn = wrap;
        wstate.sp = makeSubprogram(wrap, f->name, defLine, false);
        std::swap(fs_, wstate);
        builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", wrap));
        setLine(defLine);
        std::vector<llvm::Value*> args;
        for (size_t i = 0; i < f->params.size(); ++i) {
            llvm::Value* slot = builder_.CreateConstInBoundsGEP1_64(ptrType(), wrap->getArg(0), i);
            auto* p =
                builder_.CreateAlignedLoad(ptrType(), slot, llvm::Align(8), f->params[i]->name);
            args.push_back(p);
        }
        llvm::Value* rc = builder_.CreateCall(impl, args);
        builder_.CreateRet(rc);
        std::swap(fs_, wstate);
    }

    std::unique_ptr<llvm::Module> finish() {
        if (di_) di_->finalize();
        std::string err;
        llvm::raw_string_ostream os(err);
        if (llvm::verifyModule(*module_, &os))
            throw CompileError("internal error: codegen produced invalid LLVM IR: " + os.str());
        return std::move(module_);
    }

private:
    struct FunctionState {
        llvm::Function* fn = nullptr;
        llvm::DISubprogram* sp = nullptr;
        /// Values of variables in scope (scalars, and buffer data pointers).
        std::unordered_map<const VarNode*, llvm::Value*> vars;
        /// Known alignment (bytes) of buffer data pointers.
        std::unordered_map<const VarNode*, unsigned> ptrAlign;
        /// Integer variables known to be >= 0 (loop variables from a non-negative min).
        std::unordered_set<const VarNode*> nonNegative;
        /// Integer variables known to be multiples of 2^k: k.
        std::unordered_map<const VarNode*, int> pow2Factor;
        int line = 0;
    };

    // -- types ---------------------------------------------------------------

    llvm::Type* i32() { return llvm::Type::getInt32Ty(ctx_); }
    llvm::PointerType* ptrType() { return llvm::PointerType::getUnqual(ctx_); }

    llvm::Type* scalarType(DataType t) {
        switch (t.code()) {
        case DataType::Code::Int:
        case DataType::Code::UInt:
            return llvm::IntegerType::get(ctx_, t.bits());
        case DataType::Code::Float:
            if (t.bits() == 16) return llvm::Type::getHalfTy(ctx_);
            if (t.bits() == 32) return llvm::Type::getFloatTy(ctx_);
            if (t.bits() == 64) return llvm::Type::getDoubleTy(ctx_);
            fail("unsupported float width " + t.str());
        case DataType::Code::Handle:
            return ptrType();
        case DataType::Code::Void:
            return llvm::Type::getVoidTy(ctx_);
        }
        fail("unknown type " + t.str());
    }

    llvm::Type* llvmType(DataType t) {
        llvm::Type* e = scalarType(t.element());
        return t.lanes() > 1 ? llvm::FixedVectorType::get(e, t.lanes()) : e;
    }

    /// How an element of a buffer is stored: bools take a byte.
    llvm::Type* memType(DataType elem) {
        return elem.isBool() ? llvm::Type::getInt8Ty(ctx_) : scalarType(elem.element());
    }

    unsigned elemBytes(DataType elem) { return elem.isBool() ? 1 : std::max(1, elem.bytes()); }

    static std::optional<int64_t> constantBytes(const Buffer& b) {
        int64_t n = 1;
        for (auto& s : b->shape) {
            auto c = asConstInt(s);
            if (!c || *c < 0) return std::nullopt;
            n *= *c;
        }
        return n * std::max(1, b->dtype.isBool() ? 1 : b->dtype.bytes());
    }

    // -- functions and debug info ---------------------------------------------

    void setFunctionAttributes(llvm::Function* fn) {
        fn->addFnAttr(llvm::Attribute::NoUnwind);
        if (!target_.cpu.empty()) fn->addFnAttr("target-cpu", target_.cpu);
        if (!target_.features.empty()) fn->addFnAttr("target-features", target_.features);
        if (avx512_) {
            // Without these LLVM splits 16-lane float vectors into two 256-bit halves.
            fn->addFnAttr("prefer-vector-width", "512");
            fn->addFnAttr("min-legal-vector-width", "512");
        }
    }

    void addPointerAttributes(llvm::Function* fn, unsigned i, unsigned align,
                              std::optional<int64_t> bytes) {
        fn->addParamAttr(i, llvm::Attribute::NoAlias);
        fn->addParamAttr(i, llvm::Attribute::NoCapture);
        if (align > 1)
            fn->addParamAttr(i, llvm::Attribute::getWithAlignment(ctx_, llvm::Align(align)));
        if (bytes && *bytes > 0)
            fn->addParamAttr(i, llvm::Attribute::getWithDereferenceableBytes(
                                    ctx_, static_cast<uint64_t>(*bytes)));
    }

    llvm::DISubprogram* makeSubprogram(llvm::Function* fn, const std::string& name, int line,
                                       bool local) {
        if (!di_) return nullptr;
        auto* type = di_->createSubroutineType(di_->getOrCreateTypeArray({}));
        auto flags = llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized;
        if (local) flags |= llvm::DISubprogram::SPFlagLocalToUnit;
        auto* sp = di_->createFunction(diFile_, name, fn->getName(), diFile_, line, type, line,
                                       llvm::DINode::FlagPrototyped, flags);
        fn->setSubprogram(sp);
        return sp;
    }

    void setLine(int line) {
        fs_.line = line;
        if (fs_.sp) builder_.SetCurrentDebugLocation(llvm::DILocation::get(ctx_, line, 0, fs_.sp));
    }

    int lineOf(const Object* node) {
        int l = text_->lineOf(node);
        return l > 0 ? l + lineOffset_ : 0;
    }

    // -- variables --------------------------------------------------------------

    llvm::Value* lookup(const VarNode* v) {
        auto it = fs_.vars.find(v);
        if (it == fs_.vars.end()) fail("variable '" + v->name + "' is used outside its scope");
        return it->second;
    }

    llvm::Value* bufferPointer(const Buffer& b) {
        auto it = fs_.vars.find(b->data.get());
        if (it == fs_.vars.end())
            fail("buffer '" + b->name + "' is neither a parameter nor allocated here");
        return it->second;
    }

    /// Binds `v` for the duration of the returned guard's life.
    struct Binding {
        CodeGenLLVM* cg;
        const VarNode* var;
        llvm::Value* oldValue = nullptr;
        bool hadOld = false, oldNonNeg = false;
        int oldPow2 = -1;
        Binding(CodeGenLLVM* c, const VarNode* v, llvm::Value* value, bool nonNeg, int pow2)
            : cg(c), var(v) {
            auto& fs = cg->fs_;
            if (auto it = fs.vars.find(v); it != fs.vars.end())
                hadOld = true, oldValue = it->second;
            oldNonNeg = fs.nonNegative.count(v) > 0;
            if (auto it = fs.pow2Factor.find(v); it != fs.pow2Factor.end()) oldPow2 = it->second;
            fs.vars[v] = value;
            if (nonNeg)
                fs.nonNegative.insert(v);
            else
                fs.nonNegative.erase(v);
            if (pow2 > 0)
                fs.pow2Factor[v] = pow2;
            else
                fs.pow2Factor.erase(v);
        }
        ~Binding() {
            auto& fs = cg->fs_;
            if (hadOld)
                fs.vars[var] = oldValue;
            else
                fs.vars.erase(var);
            if (oldNonNeg)
                fs.nonNegative.insert(var);
            else
                fs.nonNegative.erase(var);
            if (oldPow2 > 0)
                fs.pow2Factor[var] = oldPow2;
            else
                fs.pow2Factor.erase(var);
        }
    };

    // -- facts about integer expressions -----------------------------------------

    /// Whether an integer expression is provably >= 0.
    bool nonNegative(const Expr& e) {
        DataType t = e.type();
        if (!t.isIntOrUInt()) return false;
        if (t.code() == DataType::Code::UInt) return true;
        if (auto c = asConstInt(e)) return *c >= 0;
        switch (e.kind()) {
        case NodeKind::Var:
            return fs_.nonNegative.count(e.as<VarNode>()) > 0;
        case NodeKind::Add:
            return nonNegative(e.as<AddNode>()->a) && nonNegative(e.as<AddNode>()->b);
        case NodeKind::Mul:
            return nonNegative(e.as<MulNode>()->a) && nonNegative(e.as<MulNode>()->b);
        case NodeKind::Div:
            return nonNegative(e.as<DivNode>()->a) && nonNegative(e.as<DivNode>()->b);
        case NodeKind::Mod:
            return nonNegative(e.as<ModNode>()->a);
        case NodeKind::FloorDiv:
            return nonNegative(e.as<FloorDivNode>()->a) && nonNegative(e.as<FloorDivNode>()->b);
        case NodeKind::FloorMod:
            return nonNegative(e.as<FloorModNode>()->b);
        case NodeKind::Min:
            return nonNegative(e.as<MinNode>()->a) && nonNegative(e.as<MinNode>()->b);
        case NodeKind::Max:
            return nonNegative(e.as<MaxNode>()->a) || nonNegative(e.as<MaxNode>()->b);
        case NodeKind::Select:
            return nonNegative(e.as<SelectNode>()->trueValue) &&
                   nonNegative(e.as<SelectNode>()->falseValue);
        case NodeKind::Cast: {
            auto* c = e.as<CastNode>();
            return c->value.type().isIntOrUInt() && c->value.type().bits() <= t.bits() &&
                   nonNegative(c->value);
        }
        case NodeKind::Ramp: {
            auto* r = e.as<RampNode>();
            return nonNegative(r->base) && nonNegative(r->stride);
        }
        case NodeKind::Broadcast:
            return nonNegative(e.as<BroadcastNode>()->value);
        default:
            return false;
        }
    }

    /// The largest k (<= 30) such that 2^k provably divides an integer expression.
    int pow2Factor(const Expr& e) {
        constexpr int kMax = 30;
        if (!e.type().isIntOrUInt()) return 0;
        if (auto c = asConstInt(e)) {
            if (*c == 0) return kMax;
            int k = 0;
            for (int64_t v = *c; (v & 1) == 0 && k < kMax; v >>= 1)
                ++k;
            return k;
        }
        switch (e.kind()) {
        case NodeKind::Var: {
            auto it = fs_.pow2Factor.find(e.as<VarNode>());
            return it == fs_.pow2Factor.end() ? 0 : it->second;
        }
        case NodeKind::Add:
            return std::min(pow2Factor(e.as<AddNode>()->a), pow2Factor(e.as<AddNode>()->b));
        case NodeKind::Sub:
            return std::min(pow2Factor(e.as<SubNode>()->a), pow2Factor(e.as<SubNode>()->b));
        case NodeKind::Mul:
            return std::min(kMax, pow2Factor(e.as<MulNode>()->a) + pow2Factor(e.as<MulNode>()->b));
        case NodeKind::Cast:
            return pow2Factor(e.as<CastNode>()->value);
        default:
            return 0;
        }
    }

    /// Alignment (bytes) of an access to `b` starting at element `index` (scalar).
    unsigned accessAlign(const Buffer& b, const Expr& index) {
        unsigned elem = elemBytes(b->dtype);
        unsigned base = elem;
        if (auto it = fs_.ptrAlign.find(b->data.get()); it != fs_.ptrAlign.end()) base = it->second;
        int k = pow2Factor(index);
        uint64_t a = uint64_t(elem) << std::min(k, 20);
        // elem may not be a power of two for odd types; fall back to its natural alignment.
        if (elem & (elem - 1)) return 1;
        a = std::min<uint64_t>(a, base);
        return static_cast<unsigned>(std::max<uint64_t>(a, std::min<unsigned>(elem, base)));
    }

    // -- expressions -------------------------------------------------------------

    llvm::Value* constInt(DataType t, int64_t v) {
        return llvm::ConstantInt::get(llvmType(t), v, t.isInt());
    }

    llvm::Value* castValue(llvm::Value* v, DataType from, DataType to) {
        if (from == to) return v;
        llvm::Type* type = llvmType(to);
        if (to.isBool()) {
            if (from.isFloat())
                return builder_.CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
            return builder_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
        }
        if (from.isHandle() && to.isIntOrUInt()) return builder_.CreatePtrToInt(v, type);
        if (from.isIntOrUInt() && to.isHandle()) return builder_.CreateIntToPtr(v, type);
        if (from.isHandle() && to.isHandle()) return v;
        bool fromSigned = from.isInt();
        if (from.isIntOrUInt() && to.isIntOrUInt())
            return builder_.CreateIntCast(v, type, fromSigned && !from.isBool());
        if (from.isIntOrUInt() && to.isFloat())
            return fromSigned ? builder_.CreateSIToFP(v, type) : builder_.CreateUIToFP(v, type);
        if (from.isFloat() && to.isIntOrUInt())
            return to.isInt() ? builder_.CreateFPToSI(v, type) : builder_.CreateFPToUI(v, type);
        if (from.isFloat() && to.isFloat()) return builder_.CreateFPCast(v, type);
        fail("cannot cast " + from.str() + " to " + to.str());
    }

    llvm::Value* splatIfNeeded(llvm::Value* v, int lanes) {
        if (lanes > 1 && !v->getType()->isVectorTy()) return builder_.CreateVectorSplat(lanes, v);
        return v;
    }

    template <class Node> std::pair<llvm::Value*, llvm::Value*> operands(const Node* op) {
        llvm::Value* a = emitExpr(op->a);
        llvm::Value* b = emitExpr(op->b);
        return {a, b};
    }

    llvm::Value* emitExpr(const Expr& e) {
        if (!e.defined()) fail("undefined expression");
        DataType t = e.type();
        switch (e.kind()) {
        case NodeKind::IntImm:
            return constInt(t, e.as<IntImmNode>()->value);
        case NodeKind::FloatImm:
            return llvm::ConstantFP::get(llvmType(t), e.as<FloatImmNode>()->value);
        case NodeKind::StringImm:
            return builder_.CreateGlobalStringPtr(e.as<StringImmNode>()->value);
        case NodeKind::Var:
            return lookup(e.as<VarNode>());
        case NodeKind::Cast: {
            auto* op = e.as<CastNode>();
            return castValue(emitExpr(op->value), op->value.type(), t);
        }
        case NodeKind::Add: {
            auto [a, b] = operands(e.as<AddNode>());
            if (t.isFloat()) return builder_.CreateFAdd(a, b);
            return builder_.CreateAdd(a, b, "", false, t.isInt());
        }
        case NodeKind::Sub: {
            auto [a, b] = operands(e.as<SubNode>());
            if (t.isFloat()) return builder_.CreateFSub(a, b);
            return builder_.CreateSub(a, b, "", false, t.isInt());
        }
        case NodeKind::Mul: {
            auto [a, b] = operands(e.as<MulNode>());
            if (t.isFloat()) return builder_.CreateFMul(a, b);
            return builder_.CreateMul(a, b, "", false, t.isInt());
        }
        case NodeKind::Div:
            return emitDiv(e.as<DivNode>(), t);
        case NodeKind::Mod:
            return emitMod(e.as<ModNode>(), t);
        case NodeKind::FloorDiv:
            return emitFloorDiv(e.as<FloorDivNode>(), t);
        case NodeKind::FloorMod:
            return emitFloorMod(e.as<FloorModNode>(), t);
        case NodeKind::Min:
        case NodeKind::Max: {
            bool isMin = e.kind() == NodeKind::Min;
            auto [a, b] = isMin ? operands(e.as<MinNode>()) : operands(e.as<MaxNode>());
            if (t.isFloat()) {
                // C's `a < b ? a : b`, so results compare bit for bit with a plain loop.
                llvm::Value* c =
                    isMin ? builder_.CreateFCmpOLT(a, b) : builder_.CreateFCmpOGT(a, b);
                return builder_.CreateSelect(c, a, b);
            }
            if (t.isBool()) return isMin ? builder_.CreateAnd(a, b) : builder_.CreateOr(a, b);
            llvm::Intrinsic::ID id = t.isInt()
                                         ? (isMin ? llvm::Intrinsic::smin : llvm::Intrinsic::smax)
                                         : (isMin ? llvm::Intrinsic::umin : llvm::Intrinsic::umax);
            return builder_.CreateBinaryIntrinsic(id, a, b);
        }
        case NodeKind::EQ:
            return emitCompare(e.as<EQNode>(), llvm::CmpInst::FCMP_OEQ, llvm::CmpInst::ICMP_EQ,
                               llvm::CmpInst::ICMP_EQ);
        case NodeKind::NE:
            return emitCompare(e.as<NENode>(), llvm::CmpInst::FCMP_UNE, llvm::CmpInst::ICMP_NE,
                               llvm::CmpInst::ICMP_NE);
        case NodeKind::LT:
            return emitCompare(e.as<LTNode>(), llvm::CmpInst::FCMP_OLT, llvm::CmpInst::ICMP_SLT,
                               llvm::CmpInst::ICMP_ULT);
        case NodeKind::LE:
            return emitCompare(e.as<LENode>(), llvm::CmpInst::FCMP_OLE, llvm::CmpInst::ICMP_SLE,
                               llvm::CmpInst::ICMP_ULE);
        case NodeKind::GT:
            return emitCompare(e.as<GTNode>(), llvm::CmpInst::FCMP_OGT, llvm::CmpInst::ICMP_SGT,
                               llvm::CmpInst::ICMP_UGT);
        case NodeKind::GE:
            return emitCompare(e.as<GENode>(), llvm::CmpInst::FCMP_OGE, llvm::CmpInst::ICMP_SGE,
                               llvm::CmpInst::ICMP_UGE);
        case NodeKind::And: {
            auto [a, b] = operands(e.as<AndNode>());
            return builder_.CreateAnd(a, b);
        }
        case NodeKind::Or: {
            auto [a, b] = operands(e.as<OrNode>());
            return builder_.CreateOr(a, b);
        }
        case NodeKind::Not:
            return builder_.CreateNot(emitExpr(e.as<NotNode>()->a));
        case NodeKind::Select: {
            auto* op = e.as<SelectNode>();
            llvm::Value* c = emitExpr(op->condition);
            llvm::Value* x = emitExpr(op->trueValue);
            llvm::Value* y = emitExpr(op->falseValue);
            return builder_.CreateSelect(c, x, y);
        }
        case NodeKind::Ramp: {
            auto* op = e.as<RampNode>();
            llvm::Value* base = emitExpr(op->base);
            llvm::Value* stride = emitExpr(op->stride);
            std::vector<llvm::Constant*> steps;
            llvm::Type* et = base->getType();
            for (int i = 0; i < op->lanes; ++i)
                steps.push_back(t.isFloat() ? llvm::ConstantFP::get(et, double(i))
                                            : llvm::ConstantInt::get(et, i, t.isInt()));
            llvm::Value* idx = llvm::ConstantVector::get(steps);
            llvm::Value* vb = builder_.CreateVectorSplat(op->lanes, base);
            llvm::Value* vs = builder_.CreateVectorSplat(op->lanes, stride);
            if (t.isFloat()) return builder_.CreateFAdd(vb, builder_.CreateFMul(vs, idx));
            return builder_.CreateAdd(vb, builder_.CreateMul(vs, idx, "", false, t.isInt()), "",
                                      false, t.isInt());
        }
        case NodeKind::Broadcast: {
            auto* op = e.as<BroadcastNode>();
            return builder_.CreateVectorSplat(op->lanes, emitExpr(op->value));
        }
        case NodeKind::Let: {
            auto* op = e.as<LetNode>();
            llvm::Value* v = emitExpr(op->value);
            v->setName(op->var->name);
            Binding bind(this, op->var.get(), v, nonNegative(op->value), pow2Factor(op->value));
            return emitExpr(op->body);
        }
        case NodeKind::Call:
            return emitCall(e.as<CallNode>());
        case NodeKind::BufferLoad:
            return emitLoad(e.as<BufferLoadNode>());
        case NodeKind::ProducerLoad:
            fail("a tensor read (" + toString(e) + ") is left: lower the schedule before codegen");
        case NodeKind::Reduce:
            fail("a reduction is left: lower the schedule before codegen");
        default:
            fail(std::string("unsupported expression ") + nodeKindName(e.kind()));
        }
    }

    template <class Node>
    llvm::Value* emitCompare(const Node* op, llvm::CmpInst::Predicate f, llvm::CmpInst::Predicate s,
                             llvm::CmpInst::Predicate u) {
        auto [a, b] = operands(op);
        DataType t = op->a.type();
        if (t.isFloat()) return builder_.CreateFCmp(f, a, b);
        if (t.isHandle()) return builder_.CreateICmp(u, a, b);
        return builder_.CreateICmp(t.isInt() ? s : u, a, b);
    }

    /// The divisor as a positive constant, if it is one.
    static std::optional<int64_t> positiveConst(const Expr& b) {
        auto c = asConstInt(b);
        if (c && *c > 0) return c;
        return std::nullopt;
    }
    static int log2Exact(int64_t v) {
        if (v <= 0 || (v & (v - 1))) return -1;
        int k = 0;
        while ((int64_t(1) << k) != v)
            ++k;
        return k;
    }

    llvm::Value* emitDiv(const DivNode* op, DataType t) {
        auto [a, b] = operands(op);
        if (t.isFloat()) return builder_.CreateFDiv(a, b);
        if (!t.isInt() || (positiveConst(op->b) && nonNegative(op->a)))
            return builder_.CreateUDiv(a, b);
        return builder_.CreateSDiv(a, b);
    }

    llvm::Value* emitMod(const ModNode* op, DataType t) {
        auto [a, b] = operands(op);
        if (t.isFloat()) return builder_.CreateFRem(a, b);
        if (!t.isInt() || (positiveConst(op->b) && nonNegative(op->a)))
            return builder_.CreateURem(a, b);
        return builder_.CreateSRem(a, b);
    }

    llvm::Value* emitFloorDiv(const FloorDivNode* op, DataType t) {
        auto [a, b] = operands(op);
        if (t.isFloat()) {
            llvm::Value* q = builder_.CreateFDiv(a, b);
            return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q);
        }
        if (!t.isInt()) return builder_.CreateUDiv(a, b);
        if (auto c = positiveConst(op->b)) {
            if (int k = log2Exact(*c); k >= 0)
                return builder_.CreateAShr(a, constInt(t, k)); // floor for any sign
            if (nonNegative(op->a)) return builder_.CreateUDiv(a, b);
            llvm::Value* q = builder_.CreateSDiv(a, b);
            llvm::Value* r = builder_.CreateSRem(a, b);
            llvm::Value* neg =
                builder_.CreateICmpSLT(r, llvm::Constant::getNullValue(r->getType()));
            return builder_.CreateSub(q, builder_.CreateZExt(neg, q->getType()));
        }
        // q - ((r != 0) && ((r < 0) != (b < 0)))
        llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
        llvm::Value* q = builder_.CreateSDiv(a, b);
        llvm::Value* r = builder_.CreateSRem(a, b);
        llvm::Value* fix = builder_.CreateAnd(
            builder_.CreateICmpNE(r, zero), builder_.CreateICmpNE(builder_.CreateICmpSLT(r, zero),
                                                                  builder_.CreateICmpSLT(b, zero)));
        return builder_.CreateSub(q, builder_.CreateZExt(fix, q->getType()));
    }

    llvm::Value* emitFloorMod(const FloorModNode* op, DataType t) {
        auto [a, b] = operands(op);
        if (t.isFloat()) {
            llvm::Value* q =
                builder_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, builder_.CreateFDiv(a, b));
            return builder_.CreateFSub(a, builder_.CreateFMul(q, b));
        }
        if (!t.isInt()) return builder_.CreateURem(a, b);
        llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
        if (auto c = positiveConst(op->b)) {
            if (int k = log2Exact(*c); k >= 0) return builder_.CreateAnd(a, constInt(t, *c - 1));
            if (nonNegative(op->a)) return builder_.CreateURem(a, b);
            llvm::Value* r = builder_.CreateSRem(a, b);
            return builder_.CreateAdd(
                r, builder_.CreateSelect(builder_.CreateICmpSLT(r, zero), b, zero));
        }
        llvm::Value* r = builder_.CreateSRem(a, b);
        llvm::Value* fix = builder_.CreateAnd(
            builder_.CreateICmpNE(r, zero), builder_.CreateICmpNE(builder_.CreateICmpSLT(r, zero),
                                                                  builder_.CreateICmpSLT(b, zero)));
        return builder_.CreateAdd(r, builder_.CreateSelect(fix, b, zero));
    }

    // -- calls -------------------------------------------------------------------

    llvm::Value* unaryIntrinsic(llvm::Intrinsic::ID id, llvm::Value* x) {
        return builder_.CreateUnaryIntrinsic(id, x);
    }

    /// Calls a libm function (`tanhf` / `tanh`), lane by lane for vectors; half
    /// precision goes through float.
    llvm::Value* callLibm(const char* name32, const char* name64,
                          const std::vector<llvm::Value*>& args, DataType t) {
        DataType e = t.element();
        bool viaFloat = e.bits() == 16;
        llvm::Type* st = viaFloat ? llvm::Type::getFloatTy(ctx_) : scalarType(e);
        const char* name = (e.bits() == 64) ? name64 : name32;
        std::vector<llvm::Type*> argTypes(args.size(), st);
        auto* fty = llvm::FunctionType::get(st, argTypes, false);
        llvm::FunctionCallee fn = module_->getOrInsertFunction(name, fty);
        if (auto* f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) {
            f->addFnAttr(llvm::Attribute::NoUnwind);
            f->addFnAttr(llvm::Attribute::WillReturn);
        }
        auto scalarCall = [&](const std::vector<llvm::Value*>& xs) {
            std::vector<llvm::Value*> in;
            for (auto* x : xs)
                in.push_back(viaFloat ? builder_.CreateFPExt(x, st) : x);
            llvm::Value* r = builder_.CreateCall(fn, in);
            return viaFloat ? builder_.CreateFPTrunc(r, scalarType(e)) : r;
        };
        if (t.lanes() == 1) return scalarCall(args);
        llvm::Value* out = llvm::PoisonValue::get(llvmType(t));
        for (int i = 0; i < t.lanes(); ++i) {
            std::vector<llvm::Value*> lane;
            for (auto* a : args)
                lane.push_back(builder_.CreateExtractElement(a, uint64_t(i)));
            out = builder_.CreateInsertElement(out, scalarCall(lane), uint64_t(i));
        }
        return out;
    }

    llvm::Value* emitCall(const CallNode* op) {
        DataType t = op->type;
        auto need = [&](size_t n) {
            if (op->args.size() != n)
                fail(std::string(intrinsicName(op->op)) + " takes " + std::to_string(n) +
                     " argument(s), got " + std::to_string(op->args.size()));
        };
        auto floatOnly = [&] {
            if (!t.isFloat())
                fail(std::string(intrinsicName(op->op)) + " needs a float type, got " + t.str());
        };
        switch (op->op) {
        case Intrinsic::Prefetch: {
            if (!op->args.empty()) {
                if (auto* load = op->args[0].as<BufferLoadNode>();
                    load && load->indices.size() == 1) {
                    llvm::Value* base = bufferPointer(load->buffer);
                    Expr idx = load->indices[0];
                    if (auto* r = idx.as<RampNode>()) idx = r->base;
                    if (idx.type().isScalar()) {
                        llvm::Value* p = builder_.CreateInBoundsGEP(memType(load->buffer->dtype),
                                                                    base, emitExpr(idx));
                        builder_.CreateIntrinsic(
                            llvm::Intrinsic::prefetch, {ptrType()},
                            {p, builder_.getInt32(0), builder_.getInt32(3), builder_.getInt32(1)});
                    }
                }
            }
            return llvm::ConstantInt::get(llvmType(t.isVoid() ? DataType::int32() : t), 0);
        }
        case Intrinsic::Extern: {
            std::vector<llvm::Value*> args;
            std::vector<llvm::Type*> types;
            for (auto& a : op->args) {
                args.push_back(emitExpr(a));
                types.push_back(args.back()->getType());
            }
            auto* fty = llvm::FunctionType::get(llvmType(t), types, false);
            llvm::Function* existing = module_->getFunction(op->name);
            if (existing && existing->getFunctionType() != fty)
                fail("extern function '" + op->name + "' is called with two different signatures");
            llvm::FunctionCallee fn = module_->getOrInsertFunction(op->name, fty);
            return builder_.CreateCall(fn, args);
        }
        case Intrinsic::Likely: {
            need(1);
            llvm::Value* v = emitExpr(op->args[0]);
            if (v->getType()->isIntegerTy(1))
                return builder_.CreateIntrinsic(llvm::Intrinsic::expect, {v->getType()},
                                                {v, builder_.getTrue()});
            return v;
        }
        default:
            break;
        }
        std::vector<llvm::Value*> args;
        for (auto& a : op->args)
            args.push_back(emitExpr(a));
        switch (op->op) {
        case Intrinsic::Exp:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::exp, args[0]);
        case Intrinsic::Log:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::log, args[0]);
        case Intrinsic::Sqrt:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::sqrt, args[0]);
        case Intrinsic::Rsqrt: {
            need(1);
            floatOnly();
            llvm::Value* s = unaryIntrinsic(llvm::Intrinsic::sqrt, args[0]);
            return builder_.CreateFDiv(llvm::ConstantFP::get(s->getType(), 1.0), s);
        }
        case Intrinsic::Fma: {
            need(3);
            floatOnly();
            return builder_.CreateIntrinsic(llvm::Intrinsic::fma, {args[0]->getType()}, args);
        }
        case Intrinsic::Tanh:
            need(1);
            floatOnly();
            return callLibm("tanhf", "tanh", args, t);
        case Intrinsic::Erf:
            need(1);
            floatOnly();
            return callLibm("erff", "erf", args, t);
        case Intrinsic::Sigmoid: {
            need(1);
            floatOnly();
            llvm::Value* one = llvm::ConstantFP::get(args[0]->getType(), 1.0);
            llvm::Value* e = unaryIntrinsic(llvm::Intrinsic::exp, builder_.CreateFNeg(args[0]));
            return builder_.CreateFDiv(one, builder_.CreateFAdd(one, e));
        }
        case Intrinsic::Pow: {
            need(2);
            floatOnly();
            return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, args[0], args[1]);
        }
        case Intrinsic::Abs: {
            need(1);
            if (t.isFloat()) return unaryIntrinsic(llvm::Intrinsic::fabs, args[0]);
            if (t.isInt())
                return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, args[0],
                                                      builder_.getFalse());
            return args[0];
        }
        case Intrinsic::Floor:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::floor, args[0]);
        case Intrinsic::Ceil:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::ceil, args[0]);
        case Intrinsic::Round:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::round, args[0]);
        case Intrinsic::Trunc:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::trunc, args[0]);
        case Intrinsic::Sin:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::sin, args[0]);
        case Intrinsic::Cos:
            need(1);
            floatOnly();
            return unaryIntrinsic(llvm::Intrinsic::cos, args[0]);
        default:
            fail(std::string("unsupported intrinsic ") + intrinsicName(op->op));
        }
    }

    // -- memory ------------------------------------------------------------------

    static const Expr& singleIndex(const Buffer& b, const std::vector<Expr>& indices) {
        if (indices.size() != 1)
            fail("access to buffer '" + b->name + "' has " + std::to_string(indices.size()) +
                 " indices: flatten storage before codegen");
        return indices[0];
    }

    static const RampNode* contiguous(const Expr& index) {
        auto* r = index.as<RampNode>();
        return r && isOne(r->stride) ? r : nullptr;
    }

    /// A scalar element index as i64, with the int32 arithmetic redone in i64
    /// (no-signed-wrap, as TIR indices never wrap). Without it every address is
    /// an i32 sum sign-extended per access, which keeps LLVM from folding
    /// loop-invariant parts into the addressing of the inner loop.
    llvm::Value* emitIndex(const Expr& e) {
        llvm::Type* i64 = builder_.getInt64Ty();
        if (e.type() != DataType::int32()) return emitExpr(e);
        if (auto* c = e.as<IntImmNode>()) return llvm::ConstantInt::get(i64, c->value, true);
        if (auto* op = e.as<AddNode>()) return builder_.CreateAdd(emitIndex(op->a), emitIndex(op->b), "", false, true);
        if (auto* op = e.as<SubNode>()) return builder_.CreateSub(emitIndex(op->a), emitIndex(op->b), "", false, true);
        if (auto* op = e.as<MulNode>()) return builder_.CreateMul(emitIndex(op->a), emitIndex(op->b), "", false, true);
        return builder_.CreateSExt(emitExpr(e), i64);
    }

    llvm::Value* emitLoad(const BufferLoadNode* op) {
        const Expr& index = singleIndex(op->buffer, op->indices);
        DataType elem = op->buffer->dtype.element();
        llvm::Type* et = memType(elem);
        llvm::Value* base = bufferPointer(op->buffer);
        int lanes = index.type().lanes();
        llvm::Value* v;
        if (lanes == 1) {
            llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(index));
            v = builder_.CreateAlignedLoad(et, p, llvm::Align(accessAlign(op->buffer, index)));
        } else if (auto* r = contiguous(index)) {
            llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(r->base));
            v = builder_.CreateAlignedLoad(llvm::FixedVectorType::get(et, lanes), p,
                                           llvm::Align(accessAlign(op->buffer, r->base)));
        } else {
            llvm::Value* ptrs = builder_.CreateInBoundsGEP(et, base, emitExpr(index));
            v = builder_.CreateMaskedGather(llvm::FixedVectorType::get(et, lanes), ptrs,
                                            llvm::Align(elemBytes(elem)));
        }
        if (elem.isBool()) v = builder_.CreateTrunc(v, llvmType(op->type));
        return v;
    }

    void emitStore(const BufferStoreNode* op) {
        const Expr& index = singleIndex(op->buffer, op->indices);
        DataType elem = op->buffer->dtype.element();
        llvm::Type* et = memType(elem);
        llvm::Value* base = bufferPointer(op->buffer);
        int lanes = index.type().lanes();
        if (op->value.type().lanes() != lanes && op->value.type().lanes() != 1)
            fail("store of " + op->value.type().str() + " to " + std::to_string(lanes) +
                 " lane(s) of '" + op->buffer->name + "'");
        llvm::Value* v = splatIfNeeded(emitExpr(op->value), lanes);
        if (elem.isBool())
            v = builder_.CreateZExt(v, lanes > 1 ? llvm::FixedVectorType::get(et, lanes) : et);
        if (lanes == 1) {
            llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(index));
            builder_.CreateAlignedStore(v, p, llvm::Align(accessAlign(op->buffer, index)));
        } else if (auto* r = contiguous(index)) {
            llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(r->base));
            builder_.CreateAlignedStore(v, p, llvm::Align(accessAlign(op->buffer, r->base)));
        } else {
            llvm::Value* ptrs = builder_.CreateInBoundsGEP(et, base, emitExpr(index));
            builder_.CreateMaskedScatter(v, ptrs, llvm::Align(elemBytes(elem)));
        }
    }

    // -- statements -----------------------------------------------------------------

    void emitStmt(const Stmt& s) {
        if (!s.defined()) return;
        int savedLine = fs_.line;
        if (int l = lineOf(s.get())) setLine(l);
        switch (s.kind()) {
        case NodeKind::LetStmt: {
            auto* op = s.as<LetStmtNode>();
            llvm::Value* v = emitExpr(op->value);
            if (!v->hasName() && !llvm::isa<llvm::Constant>(v)) v->setName(op->var->name);
            Binding bind(this, op->var.get(), v, nonNegative(op->value), pow2Factor(op->value));
            emitStmt(op->body);
            break;
        }
        case NodeKind::AttrStmt:
            emitStmt(s.as<AttrStmtNode>()->body);
            break;
        case NodeKind::For: {
            auto* op = s.as<ForNode>();
            if (op->forKind == ForKind::Parallel)
                emitParallelFor(op);
            else
                emitSerialFor(op);
            break;
        }
        case NodeKind::BufferStore:
            emitStore(s.as<BufferStoreNode>());
            break;
        case NodeKind::Allocate:
            emitAllocate(s.as<AllocateNode>());
            break;
        case NodeKind::IfThenElse:
            emitIf(s.as<IfThenElseNode>());
            break;
        case NodeKind::SeqStmt:
            for (auto& c : s.as<SeqStmtNode>()->seq)
                emitStmt(c);
            break;
        case NodeKind::Evaluate: {
            auto* op = s.as<EvaluateNode>();
            if (!op->value.as<IntImmNode>() && !op->value.as<FloatImmNode>()) emitExpr(op->value);
            break;
        }
        case NodeKind::BufferRealize:
            fail("buffer '" + s.as<BufferRealizeNode>()->buffer->name +
                 "' is still realized: flatten storage before codegen");
        default:
            fail(std::string("unsupported statement ") + nodeKindName(s.kind()));
        }
        setLine(savedLine);
    }

    /// `unrollCount`: -1 leaves unrolling to LLVM, 0 or 1 forbids it, N > 1 asks for N
    /// (the schedule's `pragma(axis, "llvm_unroll", N)`).
    llvm::MDNode* loopMetadata(bool unrollFull, int64_t unrollCount = -1) {
        std::vector<llvm::Metadata*> ops{nullptr};
        ops.push_back(
            llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.mustprogress")}));
        if (unrollFull)
            ops.push_back(
                llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.full")}));
        else if (unrollCount == 0 || unrollCount == 1)
            ops.push_back(
                llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")}));
        else if (unrollCount > 1)
            ops.push_back(llvm::MDNode::get(
                ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.count"),
                       llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                           llvm::Type::getInt32Ty(ctx_), static_cast<uint64_t>(unrollCount)))}));
        llvm::MDNode* id = llvm::MDNode::getDistinct(ctx_, ops);
        id->replaceOperandWith(0, id);
        return id;
    }

    /// Emits `for (v = begin; v < end; ++v) body()` where begin/end are values
    /// of the loop variable's type.
    template <class Body>
    void emitLoop(const VarNode* var, DataType vt, llvm::Value* begin, llvm::Value* end,
                  bool nonNeg, bool unroll, Body&& body, int64_t unrollCount = -1) {
        llvm::Function* fn = fs_.fn;
        llvm::BasicBlock* pre = builder_.GetInsertBlock();
        auto* header = llvm::BasicBlock::Create(ctx_, "for_begin_" + var->name, fn);
        auto* bodyBB = llvm::BasicBlock::Create(ctx_, "for_body_" + var->name, fn);
        auto* exit = llvm::BasicBlock::Create(ctx_, "for_end_" + var->name, fn);
        builder_.CreateBr(header);
        builder_.SetInsertPoint(header);
        llvm::PHINode* phi = builder_.CreatePHI(begin->getType(), 2, var->name);
        phi->addIncoming(begin, pre);
        llvm::Value* cond =
            vt.isInt() ? builder_.CreateICmpSLT(phi, end) : builder_.CreateICmpULT(phi, end);
        builder_.CreateCondBr(cond, bodyBB, exit);
        builder_.SetInsertPoint(bodyBB);
        {
            Binding bind(this, var, phi, nonNeg, 0);
            body();
        }
        llvm::Value* next = builder_.CreateAdd(phi, llvm::ConstantInt::get(phi->getType(), 1),
                                               var->name + ".next", false, vt.isInt());
        auto* latch = builder_.CreateBr(header);
        latch->setMetadata(llvm::LLVMContext::MD_loop, loopMetadata(unroll, unrollCount));
        phi->addIncoming(next, builder_.GetInsertBlock());
        builder_.SetInsertPoint(exit);
    }

    void emitSerialFor(const ForNode* op) {
        DataType vt = op->loopVar.type();
        if (!vt.isIntOrUInt() || vt.isVector())
            fail("loop variable '" + op->loopVar->name + "' is not a scalar integer");
        llvm::Value* mn = castValue(emitExpr(op->min), op->min.type(), vt);
        llvm::Value* ext = castValue(emitExpr(op->extent), op->extent.type(), vt);
        llvm::Value* end = builder_.CreateAdd(mn, ext, "", false, vt.isInt());
        int64_t unrollCount = -1;
        for (auto& [key, value] : op->annotations)
            if (key == "pragma_llvm_unroll")
                if (auto* n = value.as<IntImmNode>()) unrollCount = n->value;
        emitLoop(op->loopVar.get(), vt, mn, end, nonNegative(op->min),
                 op->forKind == ForKind::Unrolled, [&] { emitStmt(op->body); }, unrollCount);
    }

    void emitIf(const IfThenElseNode* op) {
        if (!op->condition.type().isScalar()) fail("if condition must be a scalar bool");
        llvm::Value* c = emitExpr(op->condition);
        llvm::Function* fn = fs_.fn;
        auto* thenBB = llvm::BasicBlock::Create(ctx_, "if_then", fn);
        auto* endBB = llvm::BasicBlock::Create(ctx_, "if_end", fn);
        auto* elseBB =
            op->elseCase.defined() ? llvm::BasicBlock::Create(ctx_, "if_else", fn) : endBB;
        builder_.CreateCondBr(c, thenBB, elseBB);
        builder_.SetInsertPoint(thenBB);
        emitStmt(op->thenCase);
        builder_.CreateBr(endBB);
        if (op->elseCase.defined()) {
            builder_.SetInsertPoint(elseBB);
            emitStmt(op->elseCase);
            builder_.CreateBr(endBB);
        }
        builder_.SetInsertPoint(endBB);
    }

    /// Returns `rc` from the current function when it is not zero.
    void returnIfNonZero(llvm::Value* rc) {
        auto* failBB = llvm::BasicBlock::Create(ctx_, "launch_fail", fs_.fn);
        auto* ok = llvm::BasicBlock::Create(ctx_, "launch_ok", fs_.fn);
        builder_.CreateCondBr(builder_.CreateICmpNE(rc, llvm::ConstantInt::get(rc->getType(), 0)),
                              failBB, ok);
        builder_.SetInsertPoint(failBB);
        builder_.CreateRet(builder_.CreateSExtOrTrunc(rc, i32()));
        builder_.SetInsertPoint(ok);
    }

    void emitAllocate(const AllocateNode* op) {
        const Buffer& b = op->buffer;
        DataType elem = b->dtype.element();
        llvm::Type* et = memType(elem);
        std::optional<int64_t> bytes = constantBytes(b);
        bool stack = bytes && *bytes <= kMaxStackBytes && b->scope == "local";
        llvm::Value* ptr;
        llvm::Value* heap = nullptr;
        if (stack) {
            int64_t count = std::max<int64_t>(1, *bytes / elemBytes(elem));
            llvm::BasicBlock& entry = fs_.fn->getEntryBlock();
            llvm::IRBuilder<> eb(&entry, entry.getFirstInsertionPt());
            auto* a = eb.CreateAlloca(et, eb.getInt64(count), b->name);
            a->setAlignment(llvm::Align(kBufferAlign));
            ptr = a;
        } else {
            // size = product of the shape, in bytes, rounded up to the alignment.
            llvm::Type* i64 = builder_.getInt64Ty();
            llvm::Value* n = llvm::ConstantInt::get(i64, elemBytes(elem));
            for (auto& s : b->shape) {
                if (!s.type().isIntOrUInt())
                    fail("allocation '" + b->name + "' has a non-integer extent");
                n = builder_.CreateMul(n, castValue(emitExpr(s), s.type(), DataType::int64()));
            }
            n = builder_.CreateAnd(builder_.CreateAdd(n, builder_.getInt64(kBufferAlign - 1)),
                                   builder_.getInt64(~uint64_t(kBufferAlign - 1)));
            n = builder_.CreateSelect(builder_.CreateICmpEQ(n, builder_.getInt64(0)),
                                      builder_.getInt64(kBufferAlign), n);
            // The runtime's workspace cache: no fresh pages (and faults) per call.
            auto alloc = module_->getOrInsertFunction(
                "TesselWorkspaceAlloc", llvm::FunctionType::get(ptrType(), {i64}, false));
            if (auto* f = llvm::dyn_cast<llvm::Function>(alloc.getCallee()))
                f->addRetAttr(llvm::Attribute::NoAlias);
            heap = builder_.CreateCall(alloc, {n}, b->name);
            auto* failBB = llvm::BasicBlock::Create(ctx_, "alloc_fail", fs_.fn);
            auto* ok = llvm::BasicBlock::Create(ctx_, "alloc_ok", fs_.fn);
            builder_.CreateCondBr(builder_.CreateIsNull(heap), failBB, ok);
            builder_.SetInsertPoint(failBB);
            builder_.CreateRet(llvm::ConstantInt::get(i32(), -1));
            builder_.SetInsertPoint(ok);
            ptr = heap;
        }
        const VarNode* data = b->data.get();
        auto oldAlign = fs_.ptrAlign.find(data) == fs_.ptrAlign.end() ? 0u : fs_.ptrAlign[data];
        fs_.ptrAlign[data] = kBufferAlign;
        {
            Binding bind(this, data, ptr, false, 0);
            emitStmt(op->body);
        }
        if (oldAlign)
            fs_.ptrAlign[data] = oldAlign;
        else
            fs_.ptrAlign.erase(data);
        if (heap) {
            auto freeFn = module_->getOrInsertFunction(
                "TesselWorkspaceFree", llvm::FunctionType::get(builder_.getVoidTy(), {ptrType()}, false));
            builder_.CreateCall(freeFn, {heap});
        }
    }

    // -- parallel loops -------------------------------------------------------------

    /// for (v in parallel range(min, min+extent)) body  ==>
    ///   closure = {captures..., min, extent}; TesselParallelLaunch(task, &closure, 0)
    /// where task(taskId, numTasks, closure) loads the captures and calls
    /// body(noalias captures..., taskId, numTasks, min, extent), which runs its
    /// chunk [begin, end) of the range.
    void emitParallelFor(const ForNode* op) {
        DataType vt = op->loopVar.type();
        if (!vt.isIntOrUInt() || vt.isVector())
            fail("loop variable '" + op->loopVar->name + "' is not a scalar integer");
        FreeVars fv;
        fv.visitStmt(op->body);
        std::vector<const VarNode*> captures;
        for (auto* v : fv.order)
            if (v != op->loopVar.get()) captures.push_back(v);
        std::vector<llvm::Value*> captureValues;
        std::vector<llvm::Type*> fieldTypes;
        for (auto* v : captures) {
            captureValues.push_back(lookup(v));
            fieldTypes.push_back(captureValues.back()->getType());
        }
        llvm::Value* mn = castValue(emitExpr(op->min), op->min.type(), vt);
        llvm::Value* ext = castValue(emitExpr(op->extent), op->extent.type(), vt);
        llvm::Type* lt = llvmType(vt);
        fieldTypes.push_back(lt);
        fieldTypes.push_back(lt);
        auto* closureType = llvm::StructType::create(ctx_, fieldTypes, funcName_ + "_closure");
        std::string base = funcName_ + "_parallel" + std::to_string(parallelCount_++);
        int forLine = fs_.line;
        bool minNonNeg = nonNegative(op->min);

        // body(captures..., taskId, numTasks, min, extent)
        std::vector<llvm::Type*> bodyParams(fieldTypes.begin(), fieldTypes.end() - 2);
        bodyParams.push_back(i32());
        bodyParams.push_back(i32());
        bodyParams.push_back(lt);
        bodyParams.push_back(lt);
        auto* bodyFn =
            llvm::Function::Create(llvm::FunctionType::get(i32(), bodyParams, false),
                                   llvm::Function::InternalLinkage, base + "_body", module_.get());
        setFunctionAttributes(bodyFn);
        FunctionState bodyState;
        bodyState.fn = bodyFn;
        bodyState.sp = makeSubprogram(bodyFn, base + "_body", forLine, true);
        for (size_t i = 0; i < captures.size(); ++i) {
            const VarNode* v = captures[i];
            llvm::Argument* arg = bodyFn->getArg(i);
            arg->setName(v->name);
            bodyState.vars[v] = arg;
            if (fs_.nonNegative.count(v)) bodyState.nonNegative.insert(v);
            if (auto it = fs_.pow2Factor.find(v); it != fs_.pow2Factor.end())
                bodyState.pow2Factor[v] = it->second;
            if (auto it = fs_.ptrAlign.find(v); it != fs_.ptrAlign.end()) {
                bodyState.ptrAlign[v] = it->second;
                addPointerAttributes(bodyFn, i, it->second, std::nullopt);
            }
        }
        {
            llvm::IRBuilderBase::InsertPointGuard guard(builder_);
            llvm::DebugLoc savedLoc = builder_.getCurrentDebugLocation();
            std::swap(fs_, bodyState);
            builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", bodyFn));
            setLine(forLine);
            size_t k = captures.size();
            llvm::Value* taskId = bodyFn->getArg(k);
            llvm::Value* numTasks = bodyFn->getArg(k + 1);
            llvm::Value* lo = bodyFn->getArg(k + 2);
            llvm::Value* extent = bodyFn->getArg(k + 3);
            taskId->setName("task_id");
            numTasks->setName("num_tasks");
            lo->setName("min");
            extent->setName("extent");
            // chunk = ceil(extent / numTasks); [begin, end) = [task*chunk, min((task+1)*chunk,
            // extent))
            llvm::Value* n = builder_.CreateIntCast(numTasks, lt, true);
            llvm::Value* t = builder_.CreateIntCast(taskId, lt, true);
            llvm::Value* one = llvm::ConstantInt::get(lt, 1);
            llvm::Value* chunk = builder_.CreateSDiv(
                builder_.CreateSub(builder_.CreateAdd(extent, n), one), n, "chunk");
            llvm::Value* begin = builder_.CreateMul(t, chunk);
            llvm::Value* end = builder_.CreateBinaryIntrinsic(
                vt.isInt() ? llvm::Intrinsic::smin : llvm::Intrinsic::umin,
                builder_.CreateAdd(begin, chunk), extent);
            begin = builder_.CreateAdd(begin, lo, "begin");
            end = builder_.CreateAdd(end, lo, "end");
            emitLoop(op->loopVar.get(), vt, begin, end, minNonNeg, false,
                     [&] { emitStmt(op->body); });
            builder_.CreateRet(llvm::ConstantInt::get(i32(), 0));
            std::swap(fs_, bodyState);
            builder_.SetCurrentDebugLocation(savedLoc);
        }

        // task(taskId, numTasks, closure): unpack and call the body.
        auto* taskType = llvm::FunctionType::get(i32(), {i32(), i32(), ptrType()}, false);
        auto* taskFn =
            llvm::Function::Create(taskType, llvm::Function::InternalLinkage, base, module_.get());
        setFunctionAttributes(taskFn);
        taskFn->addParamAttr(2, llvm::Attribute::NoCapture);
        taskFn->addParamAttr(2, llvm::Attribute::ReadOnly);
        {
            llvm::IRBuilderBase::InsertPointGuard guard(builder_);
            llvm::DebugLoc savedLoc = builder_.getCurrentDebugLocation();
            FunctionState taskState;
            taskState.fn = taskFn;
            taskState.sp = makeSubprogram(taskFn, base, forLine, true);
            std::swap(fs_, taskState);
            builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", taskFn));
            setLine(forLine);
            llvm::Value* closure = taskFn->getArg(2);
            std::vector<llvm::Value*> args;
            for (unsigned i = 0; i < fieldTypes.size(); ++i) {
                if (i == captures.size()) {
                    args.push_back(taskFn->getArg(0));
                    args.push_back(taskFn->getArg(1));
                }
                llvm::Value* field = builder_.CreateStructGEP(closureType, closure, i);
                args.push_back(builder_.CreateLoad(fieldTypes[i], field));
            }
            builder_.CreateRet(builder_.CreateCall(bodyFn, args));
            std::swap(fs_, taskState);
            builder_.SetCurrentDebugLocation(savedLoc);
        }

        // In the caller: fill the closure and launch.
        llvm::BasicBlock& entry = fs_.fn->getEntryBlock();
        llvm::IRBuilder<> eb(&entry, entry.getFirstInsertionPt());
        llvm::AllocaInst* closure = eb.CreateAlloca(closureType, nullptr, base + "_closure");
        closure->setAlignment(llvm::Align(8));
        for (size_t i = 0; i < captureValues.size(); ++i)
            builder_.CreateStore(captureValues[i],
                                 builder_.CreateStructGEP(closureType, closure, i));
        builder_.CreateStore(mn, builder_.CreateStructGEP(closureType, closure, captures.size()));
        builder_.CreateStore(ext,
                             builder_.CreateStructGEP(closureType, closure, captures.size() + 1));
        auto launch = module_->getOrInsertFunction(
            "TesselParallelLaunch",
            llvm::FunctionType::get(i32(), {ptrType(), ptrType(), i32()}, false));
        if (auto* f = llvm::dyn_cast<llvm::Function>(launch.getCallee()))
            f->addFnAttr(llvm::Attribute::NoUnwind);
        // One task per iteration up to 256 tasks (chunks beyond that): the pool
        // hands tasks out dynamically, which balances load when a core is slowed.
        llvm::Value* ext32 = builder_.CreateIntCast(ext, i32(), true);
        llvm::Value* tasks = builder_.CreateSelect(
            builder_.CreateICmpSLT(ext32, builder_.getInt32(256)), ext32, builder_.getInt32(256));
        tasks = builder_.CreateSelect(builder_.CreateICmpSLT(tasks, builder_.getInt32(1)),
                                      builder_.getInt32(1), tasks);
        llvm::Value* rc = builder_.CreateCall(launch, {taskFn, closure, tasks}, "rc");
        returnIfNonZero(rc);
    }

    llvm::LLVMContext& ctx_;
    Target target_;
    std::unique_ptr<llvm::Module> module_;
    llvm::IRBuilder<> builder_;
    bool debugInfo_;
    bool avx512_ = false;
    const TirSource& source_;
    std::unique_ptr<llvm::DIBuilder> di_;
    llvm::DIFile* diFile_ = nullptr;
    const AnnotatedText* text_ = nullptr;
    int lineOffset_ = 0;
    std::string funcName_;
    int parallelCount_ = 0;
    FunctionState fs_;
};

} // namespace

std::unique_ptr<llvm::Module> emitLLVMModule(llvm::LLVMContext& ctx,
                                             const std::vector<tir::PrimFunc>& funcs,
                                             const Target& target, llvm::TargetMachine& tm,
                                             bool debugInfo, const TirSource& source) {
    CodeGenLLVM cg(ctx, target, tm, debugInfo, source);
    for (size_t i = 0; i < funcs.size(); ++i) {
        if (!funcs[i].defined())
            throw CompileError("codegen: function " + std::to_string(i) + " is undefined");
        cg.addFunction(funcs[i], i);
    }
    return cg.finish();
}

} // namespace tessel::codegen::detail
