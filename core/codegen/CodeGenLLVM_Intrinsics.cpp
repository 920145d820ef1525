// TIR intrinsics: the target's approximate instructions where the hooks have
// them (float exp and log on NVPTX), math as LLVM intrinsics where LLVM has
// them (it vectorises and constant-folds those), inline polynomials where the
// hooks ask for them (float exp, erf and tanh on the CPU), the hooks' math
// library for the rest (double tanh and erf), prefetch, `likely`, and calls to extern functions.
#include "codegen/CodeGenLLVM_Internal.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <optional>

namespace tessel::codegen::detail {

using namespace tessel::tir;

namespace {

/// The LLVM intrinsic of a float function of one argument, if there is one.
std::optional<llvm::Intrinsic::ID> unaryFloatIntrinsic(Intrinsic op) {
    switch (op) {
    case Intrinsic::Exp:
        return llvm::Intrinsic::exp;
    case Intrinsic::Log:
        return llvm::Intrinsic::log;
    case Intrinsic::Sqrt:
        return llvm::Intrinsic::sqrt;
    case Intrinsic::Floor:
        return llvm::Intrinsic::floor;
    case Intrinsic::Ceil:
        return llvm::Intrinsic::ceil;
    case Intrinsic::Round:
        return llvm::Intrinsic::round;
    case Intrinsic::Trunc:
        return llvm::Intrinsic::trunc;
    case Intrinsic::RoundEven:
        return llvm::Intrinsic::roundeven;
    case Intrinsic::Sin:
        return llvm::Intrinsic::sin;
    case Intrinsic::Cos:
        return llvm::Intrinsic::cos;
    default:
        return std::nullopt;
    }
}

} // namespace

llvm::Value* CodeGenLLVM::emitCall(const CallNode* op) {
    switch (op->op) {
    case Intrinsic::Prefetch:
        return emitPrefetch(op);
    case Intrinsic::Extern:
        return emitExtern(op);
    case Intrinsic::StorageSync:
        return hooks_->emitStorageSync(*this);
    case Intrinsic::PairDotI16:
        return emitPairDotI16(op);
    case Intrinsic::Likely: {
        if (op->args.size() != 1)
            fail(std::string(intrinsicName(op->op)) + " takes 1 argument(s), got " +
                 std::to_string(op->args.size()));
        llvm::Value* v = emitExpr(op->args[0]);
        if (v->getType()->isIntegerTy(1))
            return builder_.CreateIntrinsic(llvm::Intrinsic::expect, {v->getType()},
                                            {v, builder_.getTrue()});
        return v;
    }
    default:
        return emitMath(op);
    }
}

llvm::Value* CodeGenLLVM::emitPrefetch(const CallNode* op) {
    DataType t = op->type;
    if (!op->args.empty()) {
        if (auto* load = op->args[0].as<BufferLoadNode>(); load && load->indices.size() == 1) {
            llvm::Value* base = bufferPointer(load->buffer);
            Expr idx = load->indices[0];
            if (auto* r = idx.as<RampNode>()) idx = r->base;
            if (idx.type().isScalar()) {
                llvm::Value* p =
                    builder_.CreateInBoundsGEP(memType(load->buffer->dtype), base, emitExpr(idx));
                builder_.CreateIntrinsic(
                    llvm::Intrinsic::prefetch, {ptrType()},
                    {p, builder_.getInt32(0), builder_.getInt32(3), builder_.getInt32(1)});
            }
        }
    }
    return llvm::ConstantInt::get(llvmType(t.isVoid() ? DataType::int32() : t), 0);
}

llvm::Value* CodeGenLLVM::emitPairDotI16(const CallNode* op) {
    if (op->args.size() != 2)
        fail(std::string(intrinsicName(op->op)) + " takes 2 argument(s), got " + std::to_string(op->args.size()));
    const DataType t = op->type;
    if (t.element() != DataType::int32())
        fail(std::string(intrinsicName(op->op)) + " needs int32 lanes, got " + t.str());
    llvm::Value* a = emitExpr(op->args[0]);
    llvm::Value* b = emitExpr(op->args[1]);
    const int lanes = t.lanes();
    // A scalar operand of a vector call: the same pair in every lane.
    auto widen = [&](llvm::Value* v) {
        return lanes > 1 && !v->getType()->isVectorTy() ? builder_.CreateVectorSplat(unsigned(lanes), v) : v;
    };
    a = widen(a);
    b = widen(b);
    if (lanes > 1)
        if (llvm::Value* v = hooks_->emitPairDotI16(*this, a, b)) return v;
    // Generic: the int32 lanes as twice as many int16 ones, sign-extended,
    // multiplied, and each lane's two products added. Which half comes first
    // in memory order does not matter: both operands are split alike.
    auto* halves = llvm::FixedVectorType::get(builder_.getInt16Ty(), unsigned(2 * lanes));
    auto* wide = llvm::FixedVectorType::get(i32(), unsigned(2 * lanes));
    llvm::Value* p = builder_.CreateMul(builder_.CreateSExt(builder_.CreateBitCast(a, halves), wide),
                                        builder_.CreateSExt(builder_.CreateBitCast(b, halves), wide));
    if (lanes == 1)
        return builder_.CreateAdd(builder_.CreateExtractElement(p, uint64_t(0)),
                                  builder_.CreateExtractElement(p, uint64_t(1)));
    std::vector<int> even, odd;
    for (int i = 0; i < lanes; ++i) {
        even.push_back(2 * i);
        odd.push_back(2 * i + 1);
    }
    return builder_.CreateAdd(builder_.CreateShuffleVector(p, even), builder_.CreateShuffleVector(p, odd));
}

llvm::Value* CodeGenLLVM::emitExtern(const CallNode* op) {
    std::vector<llvm::Value*> args;
    std::vector<llvm::Type*> types;
    for (auto& a : op->args) {
        args.push_back(emitExpr(a));
        types.push_back(args.back()->getType());
    }
    auto* fty = llvm::FunctionType::get(llvmType(op->type), types, false);
    llvm::Function* existing = module_->getFunction(op->name);
    if (existing && existing->getFunctionType() != fty)
        fail("extern function '" + op->name + "' is called with two different signatures");
    llvm::FunctionCallee fn = module_->getOrInsertFunction(op->name, fty);
    return builder_.CreateCall(fn, args);
}

llvm::Value* CodeGenLLVM::emitMath(const CallNode* op) {
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
    // The arguments first: an error inside them is reported before the call's own.
    std::vector<llvm::Value*> args;
    for (auto& a : op->args)
        args.push_back(emitExpr(a));
    const DataType elem = t.element();
    if ((op->op == Intrinsic::Exp || op->op == Intrinsic::Log) && t.isFloat()) {
        need(1);
        if (llvm::Value* v = hooks_->emitApproxMath(*this, intrinsicName(op->op), elem, args[0])) return v;
    }
    if (op->op == Intrinsic::Exp && hooks_->inlineMath("exp", elem)) {
        need(1);
        return emitInlineExp(args[0]);
    }
    if (op->op == Intrinsic::Erf && hooks_->inlineMath("erf", elem)) {
        need(1);
        return emitInlineErf(args[0]);
    }
    if (op->op == Intrinsic::Tanh && hooks_->inlineMath("tanh", elem)) {
        need(1);
        return emitInlineTanh(args[0]);
    }
    if (auto id = unaryFloatIntrinsic(op->op)) {
        need(1);
        floatOnly();
        if (!hooks_->hasLLVMMath(intrinsicName(op->op), elem))
            fail(std::string("the target has no '") + intrinsicName(op->op) + "' for " + elem.str() +
                 " yet (on a GPU: libdevice is not linked)");
        return builder_.CreateUnaryIntrinsic(*id, args[0]);
    }
    switch (op->op) {
    case Intrinsic::Rsqrt: {
        need(1);
        floatOnly();
        llvm::Value* s = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, args[0]);
        return builder_.CreateFDiv(llvm::ConstantFP::get(s->getType(), 1.0), s);
    }
    case Intrinsic::Fma:
        need(3);
        floatOnly();
        return builder_.CreateIntrinsic(llvm::Intrinsic::fma, {args[0]->getType()}, args);
    case Intrinsic::Tanh:
        need(1);
        floatOnly();
        return callMath("tanh", args, t);
    case Intrinsic::Erf:
        need(1);
        floatOnly();
        return callMath("erf", args, t);
    case Intrinsic::Sigmoid: {
        need(1);
        floatOnly();
        if (hooks_->inlineMath("exp", elem)) return emitInlineSigmoid(args[0]);
        llvm::Value* one = llvm::ConstantFP::get(args[0]->getType(), 1.0);
        llvm::Value* e = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::exp, builder_.CreateFNeg(args[0]));
        return builder_.CreateFDiv(one, builder_.CreateFAdd(one, e));
    }
    case Intrinsic::Pow:
        need(2);
        floatOnly();
        if (!hooks_->hasLLVMMath("pow", elem))
            fail("the target has no 'pow' for " + elem.str() + " yet (on a GPU: libdevice is not linked)");
        return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, args[0], args[1]);
    case Intrinsic::Abs:
        need(1);
        if (t.isFloat()) return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, args[0]);
        if (t.isInt())
            return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, args[0],
                                                  builder_.getFalse());
        return args[0];
    default:
        fail(std::string("unsupported intrinsic ") + intrinsicName(op->op));
    }
}

llvm::Value* CodeGenLLVM::callMath(std::string_view base, const std::vector<llvm::Value*>& args,
                                   DataType t) {
    DataType e = t.element();
    bool viaFloat = e.bits() == 16;
    llvm::Type* st = viaFloat ? llvm::Type::getFloatTy(ctx_) : scalarType(e);
    std::string name = hooks_->mathFunction(base, viaFloat ? DataType::float32() : e);
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

} // namespace tessel::codegen::detail
