// Loads and stores: scalar, contiguous vector (a stride-1 Ramp index) or
// gather/scatter; indices in i64; alignment from what is known about the
// buffer pointer and the index.
#include "codegen/CodeGenLLVM_Internal.h"

#include "tir/IROperators.h"

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
