// Inline float32 exp, erf, sigmoid and tanh: a polynomial in LLVM IR that vectorises, where
// the libm call it replaces runs once per lane (LLVM scalarises llvm.exp on
// vectors when no vector math library is configured, and erff has no
// intrinsic at all). Softmax, GELU and Sigmoid spend most of their time
// there. Backends whose math library is already vectorised (libdevice) keep
// the call: CodeGenHooks::inlineMath says which.
//
// exp: Cody-Waite range reduction x = n ln2 + r, |r| <= ln2/2, then Cephes's
// degree-7 polynomial for e^r (about 1.4 ulp on the normal range), scaled by
// 2^n built from exponent bits in two halves so that results down in the
// subnormal range and up to FLT_MAX stay exact in their exponent.
// erf: the rational approximation x P(x^2) / Q(x^2) on [-4, 4] (Eigen's
// float erf coefficients; |erf(x)| rounds to 1 beyond), absolute error
// below 5e-7. NaN is passed through by both.
// sigmoid: 1 / (1 + e^-x) with the argument clamped to [-87, 87] first, where
// the result is within 2e-38 of 0 or 1, so that e^-x needs neither the
// subnormal scaling nor the overflow selects: about a third fewer
// instructions than through exp (SiLU runs one per element of every
// EfficientNet activation, often in a convolution's epilogue).
// tanh: the odd rational x P(x^2) / Q(x^2) of degrees 13 and 6 on
// [-7.905, 7.905] (Eigen's float tanh coefficients; beyond, tanh rounds to
// within 4 ulp of +-1, and the quotient stays below 1), x itself below 4e-4
// where x^3/3 is under half an ulp: about 6 ulp in all, relative, near 0
// too (the form through e^-2|x| loses that to cancellation). libm's tanhf
// is a call per lane; LSTM and GRU cells run three per hidden unit and step.
#include "codegen/CodeGenLLVM_Internal.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <initializer_list>
#include <limits>

namespace tessel::codegen::detail {

namespace {

/// Horner's rule: ((c0 x + c1) x + c2) ... with contraction allowed (FMA).
llvm::Value* horner(llvm::IRBuilder<>& b, llvm::Value* x, std::initializer_list<double> coefficients) {
    llvm::Type* ty = x->getType();
    llvm::Value* p = nullptr;
    for (double c : coefficients) {
        llvm::Value* k = llvm::ConstantFP::get(ty, c);
        p = p ? b.CreateFAdd(b.CreateFMul(p, x), k) : k;
    }
    return p;
}

/// x clamped to [lo, hi] (a NaN comes out as one of the bounds; callers
/// select the NaN back at the end).
llvm::Value* clamp(llvm::IRBuilder<>& b, llvm::Value* x, double lo, double hi) {
    llvm::Type* ty = x->getType();
    llvm::Value* v = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, llvm::ConstantFP::get(ty, lo));
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, v, llvm::ConstantFP::get(ty, hi));
}

llvm::Value* keepNaN(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* result) {
    return b.CreateSelect(b.CreateFCmpUNO(x, x), x, result);
}

/// e^r for x = n ln2 + r (Cody-Waite, |r| <= ln2/2): returns e^r and sets `n`
/// (a float holding an integer); the caller scales by 2^n.
llvm::Value* expOfRemainder(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value*& n) {
    llvm::Type* ty = x->getType();
    auto c = [&](double v) { return llvm::ConstantFP::get(ty, v); };
    n = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b.CreateFAdd(b.CreateFMul(x, c(1.44269504088896341)), c(0.5)));
    // ln2 in two parts: n * 0.693359375 is exact for |n| <= 2^15.
    llvm::Value* r = b.CreateFSub(x, b.CreateFMul(n, c(0.693359375)));
    r = b.CreateFSub(r, b.CreateFMul(n, c(-2.12194440e-4)));
    llvm::Value* p = horner(b, r, {1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
                                   1.6666665459e-1, 5.0000001201e-1});
    return b.CreateFAdd(b.CreateFAdd(b.CreateFMul(p, b.CreateFMul(r, r)), r), c(1.0));
}

} // namespace

llvm::Value* CodeGenLLVM::emitInlineExp(llvm::Value* x) {
    auto& b = builder_;
    llvm::Type* ty = x->getType();
    llvm::Type* ity = ty->getWithNewType(b.getInt32Ty());
    auto c = [&](double v) { return llvm::ConstantFP::get(ty, v); };
    auto ci = [&](int v) { return llvm::ConstantInt::get(ity, v); };
    // Beyond these e^x is +inf or rounds to 0 in float.
    constexpr double kHi = 88.72283, kLo = -103.972;
    llvm::Value* n = nullptr;
    llvm::Value* y = expOfRemainder(b, clamp(b, x, kLo, kHi), n);
    // 2^n = 2^(n/2) * 2^(n - n/2): n in [-150, 128] puts both halves in the normal range.
    llvm::Value* ni = b.CreateFPToSI(n, ity);
    llvm::Value* n1 = b.CreateAShr(ni, ci(1));
    llvm::Value* n2 = b.CreateSub(ni, n1);
    auto pow2 = [&](llvm::Value* e) { return b.CreateBitCast(b.CreateShl(b.CreateAdd(e, ci(127)), ci(23)), ty); };
    llvm::Value* result = b.CreateFMul(b.CreateFMul(y, pow2(n1)), pow2(n2));
    result = b.CreateSelect(b.CreateFCmpOGT(x, c(kHi)), c(std::numeric_limits<double>::infinity()), result);
    result = b.CreateSelect(b.CreateFCmpOLT(x, c(kLo)), c(0.0), result);
    return keepNaN(b, x, result);
}

llvm::Value* CodeGenLLVM::emitInlineSigmoid(llvm::Value* x) {
    auto& b = builder_;
    llvm::Type* ty = x->getType();
    llvm::Type* ity = ty->getWithNewType(b.getInt32Ty());
    auto c = [&](double v) { return llvm::ConstantFP::get(ty, v); };
    // t = -x in [-87, 87]: n below is in [-126, 126], so 2^n is one normal float.
    llvm::Value* n = nullptr;
    llvm::Value* y = expOfRemainder(b, clamp(b, b.CreateFNeg(x), -87.0, 87.0), n);
    llvm::Value* scale = b.CreateBitCast(
        b.CreateShl(b.CreateAdd(b.CreateFPToSI(n, ity), llvm::ConstantInt::get(ity, 127)),
                    llvm::ConstantInt::get(ity, 23)),
        ty);
    llvm::Value* e = b.CreateFMul(y, scale);
    return keepNaN(b, x, b.CreateFDiv(c(1.0), b.CreateFAdd(c(1.0), e)));
}

llvm::Value* CodeGenLLVM::emitInlineTanh(llvm::Value* x) {
    auto& b = builder_;
    llvm::Type* ty = x->getType();
    // The largest argument whose quotient is still below 1 in float.
    llvm::Value* xc = clamp(b, x, -7.90531110763549805, 7.90531110763549805);
    llvm::Value* x2 = b.CreateFMul(xc, xc);
    llvm::Value* p = horner(b, x2, {-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
                                    5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
                                    4.89352455891786e-03});
    llvm::Value* q = horner(b, x2, {1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
                                    4.89352518554385e-03});
    llvm::Value* r = b.CreateFDiv(b.CreateFMul(xc, p), q);
    llvm::Value* tiny = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), llvm::ConstantFP::get(ty, 4e-4));
    return keepNaN(b, x, b.CreateSelect(tiny, x, r));
}

llvm::Value* CodeGenLLVM::emitInlineErf(llvm::Value* x) {
    auto& b = builder_;
    llvm::Value* xc = clamp(b, x, -4.0, 4.0);
    llvm::Value* x2 = b.CreateFMul(xc, xc);
    llvm::Value* p = horner(b, x2, {-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
                                    -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
                                    -1.60960333262415e-02});
    llvm::Value* q = horner(b, x2, {-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
                                    -7.37332916720468e-03, -1.42647390514189e-02});
    return keepNaN(b, x, b.CreateFDiv(b.CreateFMul(xc, p), q));
}

} // namespace tessel::codegen::detail
