// Expressions: variables, arithmetic (with floor division for any sign),
// comparisons, selects, ramps and broadcasts, lets; and the facts about
// integer expressions (sign, powers of two) that pick unsigned division and
// aligned accesses.
#include "codegen/CodeGenLLVM_Internal.h"

#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>

namespace tessel::codegen::detail {

using namespace tessel::tir;

namespace {

/// The divisor as a positive constant, if it is one.
std::optional<int64_t> positiveConst(const Expr& b) {
    auto c = asConstInt(b);
    if (c && *c > 0) return c;
    return std::nullopt;
}

int log2Exact(int64_t v) {
    if (v <= 0 || (v & (v - 1))) return -1;
    int k = 0;
    while ((int64_t(1) << k) != v)
        ++k;
    return k;
}

} // namespace

// -- variables --------------------------------------------------------------

llvm::Value* CodeGenLLVM::lookup(const VarNode* v) {
    auto it = fs_.vars.find(v);
    if (it == fs_.vars.end()) fail("variable '" + v->name + "' is used outside its scope");
    return it->second;
}

llvm::Value* CodeGenLLVM::bufferPointer(const Buffer& b) {
    auto it = fs_.vars.find(b->data.get());
    if (it == fs_.vars.end())
        fail("buffer '" + b->name + "' is neither a parameter nor allocated here");
    return it->second;
}

// -- facts about integer expressions -----------------------------------------

bool CodeGenLLVM::nonNegative(const Expr& e) {
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

int CodeGenLLVM::pow2Factor(const Expr& e) {
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

template <class Node> std::pair<llvm::Value*, llvm::Value*> CodeGenLLVM::operands(const Node* op) {
    llvm::Value* a = emitExpr(op->a);
    llvm::Value* b = emitExpr(op->b);
    return {a, b};
}

llvm::Value* CodeGenLLVM::emitExpr(const Expr& e) {
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
    case NodeKind::Max:
        return emitMinMax(e, t);
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
    case NodeKind::Select:
        return emitSelect(e.as<SelectNode>());
    case NodeKind::Ramp:
        return emitRamp(e.as<RampNode>(), t);
    case NodeKind::Broadcast: {
        auto* op = e.as<BroadcastNode>();
        return builder_.CreateVectorSplat(op->lanes, emitExpr(op->value));
    }
    case NodeKind::Let: {
        auto* op = e.as<LetNode>();
        llvm::Value* v = emitExpr(op->value);
        v->setName(op->var->name);
        Binding bind(*this, op->var.get(), v, nonNegative(op->value), pow2Factor(op->value));
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

llvm::Value* CodeGenLLVM::emitMinMax(const Expr& e, DataType t) {
    bool isMin = e.kind() == NodeKind::Min;
    auto [a, b] = isMin ? operands(e.as<MinNode>()) : operands(e.as<MaxNode>());
    if (t.isFloat()) {
        // C's `a < b ? a : b`, so results compare bit for bit with a plain loop.
        llvm::Value* c = isMin ? builder_.CreateFCmpOLT(a, b) : builder_.CreateFCmpOGT(a, b);
        return builder_.CreateSelect(c, a, b);
    }
    if (t.isBool()) return isMin ? builder_.CreateAnd(a, b) : builder_.CreateOr(a, b);
    llvm::Intrinsic::ID id = t.isInt() ? (isMin ? llvm::Intrinsic::smin : llvm::Intrinsic::smax)
                                       : (isMin ? llvm::Intrinsic::umin : llvm::Intrinsic::umax);
    return builder_.CreateBinaryIntrinsic(id, a, b);
}

llvm::Value* CodeGenLLVM::emitRamp(const RampNode* op, DataType t) {
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
    return builder_.CreateAdd(vb, builder_.CreateMul(vs, idx, "", false, t.isInt()), "", false,
                              t.isInt());
}

template <class Node>
llvm::Value* CodeGenLLVM::emitCompare(const Node* op, llvm::CmpInst::Predicate f,
                                      llvm::CmpInst::Predicate s, llvm::CmpInst::Predicate u) {
    auto [a, b] = operands(op);
    DataType t = op->a.type();
    if (t.isFloat()) return builder_.CreateFCmp(f, a, b);
    if (t.isHandle()) return builder_.CreateICmp(u, a, b);
    return builder_.CreateICmp(t.isInt() ? s : u, a, b);
}

llvm::Value* CodeGenLLVM::emitDiv(const DivNode* op, DataType t) {
    auto [a, b] = operands(op);
    if (t.isFloat()) return builder_.CreateFDiv(a, b);
    if (!t.isInt() || (positiveConst(op->b) && nonNegative(op->a)))
        return builder_.CreateUDiv(a, b);
    return builder_.CreateSDiv(a, b);
}

llvm::Value* CodeGenLLVM::emitMod(const ModNode* op, DataType t) {
    auto [a, b] = operands(op);
    if (t.isFloat()) return builder_.CreateFRem(a, b);
    if (!t.isInt() || (positiveConst(op->b) && nonNegative(op->a)))
        return builder_.CreateURem(a, b);
    return builder_.CreateSRem(a, b);
}

llvm::Value* CodeGenLLVM::emitFloorDiv(const FloorDivNode* op, DataType t) {
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
        llvm::Value* neg = builder_.CreateICmpSLT(r, llvm::Constant::getNullValue(r->getType()));
        return builder_.CreateSub(q, builder_.CreateZExt(neg, q->getType()));
    }
    // q - ((r != 0) && ((r < 0) != (b < 0)))
    llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
    llvm::Value* q = builder_.CreateSDiv(a, b);
    llvm::Value* r = builder_.CreateSRem(a, b);
    llvm::Value* fix = builder_.CreateAnd(
        builder_.CreateICmpNE(r, zero),
        builder_.CreateICmpNE(builder_.CreateICmpSLT(r, zero), builder_.CreateICmpSLT(b, zero)));
    return builder_.CreateSub(q, builder_.CreateZExt(fix, q->getType()));
}

llvm::Value* CodeGenLLVM::emitFloorMod(const FloorModNode* op, DataType t) {
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
        return builder_.CreateAdd(r,
                                  builder_.CreateSelect(builder_.CreateICmpSLT(r, zero), b, zero));
    }
    llvm::Value* r = builder_.CreateSRem(a, b);
    llvm::Value* fix = builder_.CreateAnd(
        builder_.CreateICmpNE(r, zero),
        builder_.CreateICmpNE(builder_.CreateICmpSLT(r, zero), builder_.CreateICmpSLT(b, zero)));
    return builder_.CreateAdd(r, builder_.CreateSelect(fix, b, zero));
}

} // namespace tessel::codegen::detail
