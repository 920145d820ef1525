// TIR types -> LLVM types, constants and casts.
#include "codegen/CodeGenLLVM_Internal.h"

#include "tir/IROperators.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>

#include <algorithm>

namespace tessel::codegen::detail {

using namespace tessel::tir;

llvm::Type* CodeGenLLVM::i32() {
    return llvm::Type::getInt32Ty(ctx_);
}

llvm::PointerType* CodeGenLLVM::ptrType() {
    return llvm::PointerType::getUnqual(ctx_);
}

llvm::Type* CodeGenLLVM::scalarType(DataType t) {
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

llvm::Type* CodeGenLLVM::llvmType(DataType t) {
    llvm::Type* e = scalarType(t.element());
    return t.lanes() > 1 ? llvm::FixedVectorType::get(e, t.lanes()) : e;
}

llvm::Type* CodeGenLLVM::memType(DataType elem) {
    return elem.isBool() ? llvm::Type::getInt8Ty(ctx_) : scalarType(elem.element());
}

unsigned CodeGenLLVM::elemBytes(DataType elem) {
    return elem.isBool() ? 1 : std::max(1, elem.bytes());
}

std::optional<int64_t> CodeGenLLVM::constantBytes(const Buffer& b) {
    int64_t n = 1;
    for (auto& s : b->shape) {
        auto c = asConstInt(s);
        if (!c || *c < 0) return std::nullopt;
        n *= *c;
    }
    return n * std::max(1, b->dtype.isBool() ? 1 : b->dtype.bytes());
}

llvm::Value* CodeGenLLVM::constInt(DataType t, int64_t v) {
    return llvm::ConstantInt::get(llvmType(t), v, t.isInt());
}

llvm::Value* CodeGenLLVM::castValue(llvm::Value* v, DataType from, DataType to) {
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

llvm::Value* CodeGenLLVM::splatIfNeeded(llvm::Value* v, int lanes) {
    if (lanes > 1 && !v->getType()->isVectorTy()) return builder_.CreateVectorSplat(lanes, v);
    return v;
}

} // namespace tessel::codegen::detail
