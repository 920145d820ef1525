// Loads and stores: scalar, contiguous vector (a stride-1 Ramp index),
// strided vector (a load of the span and a shuffle, where the hooks ask for
// it) or gather/scatter; indices in i64; alignment from what is known about
// the buffer pointer and the index.
#include "codegen/CodeGenLLVM_Internal.h"

#include "tir/IROperators.h"
#include "tir/IRVisitor.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace tessel::codegen::detail {

using namespace tessel::tir;

namespace {

const Expr& singleIndex(const Buffer& b, const std::vector<Expr>& indices) {
    if (indices.size() != 1)
        fail("access to buffer '" + b->name + "' has " + std::to_string(indices.size()) +
             " indices: flatten storage before codegen");
    return indices[0];
}

const RampNode* contiguous(const Expr& index) {
    auto* r = index.as<RampNode>();
    return r && isOne(r->stride) ? r : nullptr;
}

/// The constant stride (2 to 4) of a Ramp index, else 0.
int smallStride(const Expr& index) {
    auto* r = index.as<RampNode>();
    auto* c = r ? r->stride.as<IntImmNode>() : nullptr;
    return c && c->value >= 2 && c->value <= 4 ? int(c->value) : 0;
}

int64_t constantElements(const Buffer& b);
arith::ConstIntBound indexBound(const Expr& index, const arith::VarBoundMap& vars);

} // namespace

unsigned CodeGenLLVM::accessAlign(const Buffer& b, const Expr& index) {
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

/// A scalar element index as i64, with the int32 arithmetic redone in i64
/// (no-signed-wrap, as TIR indices never wrap). Without it every address is
/// an i32 sum sign-extended per access, which keeps LLVM from folding
/// loop-invariant parts into the addressing of the inner loop.
llvm::Value* CodeGenLLVM::emitIndex(const Expr& e) {
    llvm::Type* i64 = builder_.getInt64Ty();
    if (e.type() != DataType::int32()) return emitExpr(e);
    if (auto* c = e.as<IntImmNode>()) return llvm::ConstantInt::get(i64, c->value, true);
    if (auto* op = e.as<AddNode>())
        return builder_.CreateAdd(emitIndex(op->a), emitIndex(op->b), "", false, true);
    if (auto* op = e.as<SubNode>())
        return builder_.CreateSub(emitIndex(op->a), emitIndex(op->b), "", false, true);
    if (auto* op = e.as<MulNode>())
        return builder_.CreateMul(emitIndex(op->a), emitIndex(op->b), "", false, true);
    return builder_.CreateSExt(emitExpr(e), i64);
}

llvm::Value* CodeGenLLVM::emitLoad(const BufferLoadNode* op) {
    const Expr& index = singleIndex(op->buffer, op->indices);
    DataType elem = op->buffer->dtype.element();
    llvm::Type* et = memType(elem);
    llvm::Value* base = bufferPointer(op->buffer);
    int lanes = index.type().lanes();
    llvm::Value* v;
    // Inside an arm of a lane-wise select only the lanes it is taken for are
    // read; the others are zero. A scalar read there (the same address for
    // every lane) happens when any lane is taken.
    llvm::Value* mask = loadMask_;
    if (mask && lanes == 1) {
        llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(index));
        auto* one = llvm::FixedVectorType::get(et, 1);
        llvm::Value* any = builder_.CreateVectorSplat(1, builder_.CreateOrReduce(mask));
        v = builder_.CreateMaskedLoad(one, p, llvm::Align(accessAlign(op->buffer, index)), any,
                                      llvm::Constant::getNullValue(one));
        v = builder_.CreateExtractElement(v, uint64_t(0));
    } else if (lanes == 1) {
        llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(index));
        v = builder_.CreateAlignedLoad(et, p, llvm::Align(accessAlign(op->buffer, index)));
    } else if (auto* r = contiguous(index)) {
        llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(r->base));
        auto* vt = llvm::FixedVectorType::get(et, lanes);
        const llvm::Align align(accessAlign(op->buffer, r->base));
        if (mask) v = builder_.CreateMaskedLoad(vt, p, align, mask, llvm::Constant::getNullValue(vt));
        else v = builder_.CreateAlignedLoad(vt, p, align);
    } else if (const int stride = mask ? 0 : smallStride(index); stride && hooks_->stridedLoadsAsShuffles()) {
        // The span from the first to the last element read, widened to
        // lanes * stride (a whole number of registers) where that stays
        // inside the buffer; then every stride-th element.
        auto* r = index.as<RampNode>();
        int64_t span = int64_t(lanes - 1) * stride + 1;
        const int64_t size = constantElements(op->buffer);
        if (size >= 0 && indexBound(index, loopBounds_).max + stride - 1 < size) span = int64_t(lanes) * stride;
        llvm::Value* p = builder_.CreateInBoundsGEP(et, base, emitIndex(r->base));
        auto* vt = llvm::FixedVectorType::get(et, unsigned(span));
        llvm::Value* wide = builder_.CreateAlignedLoad(vt, p, llvm::Align(accessAlign(op->buffer, r->base)));
        std::vector<int> pick(lanes);
        for (int i = 0; i < lanes; ++i) pick[i] = i * stride;
        v = builder_.CreateShuffleVector(wide, pick);
    } else {
        llvm::Value* ptrs = builder_.CreateInBoundsGEP(et, base, emitExpr(index));
        v = builder_.CreateMaskedGather(llvm::FixedVectorType::get(et, lanes), ptrs,
                                        llvm::Align(elemBytes(elem)), mask);
    }
    if (elem.isBool()) v = builder_.CreateTrunc(v, llvmType(op->type));
    return v;
}

namespace {

/// The elements of `b`, or -1 when its shape is not constant.
int64_t constantElements(const Buffer& b) {
    int64_t n = 1;
    for (const auto& d : b->shape) {
        auto* c = d.as<IntImmNode>();
        if (!c) return -1;
        n *= c->value;
    }
    return n;
}

/// The interval of the elements a (scalar or contiguous/strided vector)
/// index reaches; everything for other vector indices.
arith::ConstIntBound indexBound(const Expr& index, const arith::VarBoundMap& vars) {
    if (auto* r = index.as<RampNode>()) {
        const auto base = arith::constIntBound(r->base, vars), stride = arith::constIntBound(r->stride, vars);
        if (base.isEverything() || stride.min == arith::ConstIntBound::kNegInf ||
            stride.max == arith::ConstIntBound::kPosInf || base.min == arith::ConstIntBound::kNegInf ||
            base.max == arith::ConstIntBound::kPosInf)
            return arith::ConstIntBound::everything();
        const int64_t last = r->lanes - 1;
        return {base.min + std::min<int64_t>(0, stride.min * last), base.max + std::max<int64_t>(0, stride.max * last)};
    }
    if (auto* b = index.as<BroadcastNode>()) return arith::constIntBound(b->value, vars);
    if (index.type().lanes() > 1) return arith::ConstIntBound::everything();
    return arith::constIntBound(index, vars);
}

} // namespace

bool CodeGenLLVM::mayFault(const Expr& e) const {
    bool found = false;
    postOrderVisit(e, [&](const Object* o) {
        if (found) return;
        auto* n = static_cast<const BaseExprNode*>(o);
        switch (n->kind) {
        case NodeKind::BufferLoad: {
            // A read whose index stays inside its buffer may run whatever the
            // condition (topi's padded reads clamp their index): an LLVM select.
            auto* load = static_cast<const BufferLoadNode*>(n);
            const int64_t size = constantElements(load->buffer);
            if (size < 0 || load->indices.size() != 1) {
                found = true;
                break;
            }
            const auto range = indexBound(load->indices[0], loopBounds_);
            found = !(range.min >= 0 && range.max < size);
            break;
        }
        case NodeKind::Div:
        case NodeKind::Mod:
        case NodeKind::FloorDiv:
        case NodeKind::FloorMod: {
            const Expr& b = n->kind == NodeKind::Div        ? static_cast<const DivNode*>(n)->b
                            : n->kind == NodeKind::Mod      ? static_cast<const ModNode*>(n)->b
                            : n->kind == NodeKind::FloorDiv ? static_cast<const FloorDivNode*>(n)->b
                                                            : static_cast<const FloorModNode*>(n)->b;
            found = !b.type().isFloat() && !b.as<IntImmNode>();
            break;
        }
        default:
            break;
        }
    });
    return found;
}

bool CodeGenLLVM::worthABranch(const Expr& e) {
    int cost = 0;
    postOrderVisit(e, [&](const Object* o) {
        auto* n = static_cast<const BaseExprNode*>(o);
        if (n->kind != NodeKind::Call) {
            ++cost;
            return;
        }
        switch (static_cast<const CallNode*>(n)->op) {
        case Intrinsic::Exp: case Intrinsic::Log: case Intrinsic::Tanh: case Intrinsic::Sigmoid:
        case Intrinsic::Pow: case Intrinsic::Erf: case Intrinsic::Sin: case Intrinsic::Cos:
        case Intrinsic::Extern:
            cost += 32; // a polynomial or a library call
            break;
        default:
            cost += 2;
        }
    });
    return cost > 24;
}

llvm::Value* CodeGenLLVM::emitSelect(const SelectNode* op) {
    bool lazyTrue = mayFault(op->trueValue), lazyFalse = mayFault(op->falseValue);
    // On one condition for all lanes an arm that costs more than a branch is
    // evaluated only where it is taken (a select computes both arms).
    if (op->condition.type().lanes() == 1) {
        lazyTrue = lazyTrue || worthABranch(op->trueValue);
        lazyFalse = lazyFalse || worthABranch(op->falseValue);
    }
    llvm::Value* c = emitExpr(op->condition);
    if (!lazyTrue && !lazyFalse) {
        llvm::Value* x = emitExpr(op->trueValue);
        return builder_.CreateSelect(c, x, emitExpr(op->falseValue));
    }
    if (!c->getType()->isVectorTy()) {
        // One condition for all lanes: a branch, each arm in its own block.
        llvm::Function* fn = builder_.GetInsertBlock()->getParent();
        auto* thenBB = llvm::BasicBlock::Create(ctx_, "if_then", fn);
        auto* elseBB = llvm::BasicBlock::Create(ctx_, "if_else", fn);
        auto* endBB = llvm::BasicBlock::Create(ctx_, "if_end", fn);
        builder_.CreateCondBr(c, thenBB, elseBB);
        builder_.SetInsertPoint(thenBB);
        llvm::Value* x = emitExpr(op->trueValue);
        llvm::BasicBlock* thenEnd = builder_.GetInsertBlock();
        builder_.CreateBr(endBB);
        builder_.SetInsertPoint(elseBB);
        llvm::Value* y = emitExpr(op->falseValue);
        llvm::BasicBlock* elseEnd = builder_.GetInsertBlock();
        builder_.CreateBr(endBB);
        builder_.SetInsertPoint(endBB);
        llvm::PHINode* phi = builder_.CreatePHI(x->getType(), 2);
        phi->addIncoming(x, thenEnd);
        phi->addIncoming(y, elseEnd);
        return phi;
    }
    // Lane by lane: each arm's reads are masked to the lanes that take it.
    llvm::Value* outer = loadMask_;
    auto arm = [&](const Expr& e, bool lazy, llvm::Value* lanes) {
        if (!lazy) return emitExpr(e);
        loadMask_ = outer ? builder_.CreateAnd(outer, lanes) : lanes;
        llvm::Value* v = emitExpr(e);
        loadMask_ = outer;
        return v;
    };
    llvm::Value* x = arm(op->trueValue, lazyTrue, c);
    llvm::Value* y = arm(op->falseValue, lazyFalse, lazyFalse ? builder_.CreateNot(c) : nullptr);
    return builder_.CreateSelect(c, x, y);
}

void CodeGenLLVM::emitStore(const BufferStoreNode* op) {
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

} // namespace tessel::codegen::detail
