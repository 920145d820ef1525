/// \file
/// The element-wise unary operators: activations, rounding, Cast, Clip,
/// Identity and Dropout. Constant evaluation covers Identity, Cast, and Neg,
/// Abs, Relu, Sign, Sqrt, Reciprocal, Floor, Ceil and Round.
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace tessel::graph::ops {

namespace {

Types inferClip(const InferContext& ctx) {
    for (int i = 1; i < 3; ++i)
        if (ctx.hasInput(i)) {
            if (ctx.input(i).numElements() > 1)
                ctx.fail(std::string(i == 1 ? "min " : "max ") + ctx.input(i).str() +
                         " must be a scalar");
            requireSameDtype(ctx, 0, i);
        }
    return {ctx.input(0)};
}

Types inferDropout(const InferContext& ctx) {
    Types out{ctx.input(0)};
    if (ctx.numOutputs() == 2) out.emplace_back(DataType::boolean(), ctx.input(0).shape);
    return out;
}

Types inferIsClass(const InferContext& ctx) {
    requireFloat(ctx, 0);
    return {TensorType(DataType::boolean(), ctx.input(0).shape)};
}

Types inferCastLike(const InferContext& ctx) {
    return {TensorType(ctx.input(1).dtype, ctx.input(0).shape)};
}

Types inferCast(const InferContext& ctx) {
    if (!ctx.attrs().has("to")) ctx.fail("attribute 'to' is required");
    const int64_t to = ctx.attrs().getInt("to", 0);
    auto dtype = dataTypeFromOnnx(to);
    if (!dtype) ctx.fail("unsupported target type code " + std::to_string(to));
    return {TensorType(*dtype, ctx.input(0).shape)};
}

EvalResult evalCast(const EvalContext& e) {
    const Constant& x = e.input(0);
    const DataType to = e.output().dtype;
    EvalResult result;
    dispatch(x.dtype, true, [&](auto from) {
        using S = decltype(from);
        const auto v = load<S>(x);
        dispatch(to, true, [&](auto target) {
            using D = decltype(target);
            std::vector<D> out(v.size());
            for (size_t i = 0; i < v.size(); ++i) {
                if (to.isBool()) {
                    out[i] = static_cast<D>(v[i] != S(0));
                } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
                    // Out of range (or NaN) is undefined in ONNX: leave it to run time.
                    const double t = std::trunc(static_cast<double>(v[i]));
                    if (!(t >= static_cast<double>(std::numeric_limits<D>::lowest()) &&
                          t < static_cast<double>(std::numeric_limits<D>::max()) + 1.0))
                        return;
                    out[i] = static_cast<D>(t);
                } else {
                    out[i] = static_cast<D>(v[i]);
                }
            }
            result = one(store(to, e.output().shape, out));
        });
    });
    return result;
}

/// Applies `f` to every element in the output's type (bools excluded);
/// with FloatOnly, integer tensors are left to run time.
template <bool FloatOnly, class F> EvalFn unaryEval(F f) {
    return [f](const EvalContext& e) -> EvalResult {
        const DataType t = e.output().dtype;
        EvalResult result;
        dispatch(t, false, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (!FloatOnly || std::is_floating_point_v<T>) {
                std::vector<T> v = load<T>(e.input(0));
                for (auto& x : v)
                    x = static_cast<T>(f(x));
                result = one(store(t, e.output().shape, v));
            }
        });
        return result;
    };
}

template <class F> EvalFn anyUnary(F f) {
    return unaryEval<false>(f);
}
template <class F> EvalFn floatUnary(F f) {
    return unaryEval<true>(f);
}

} // namespace

void registerElementwiseOps(OpRegistry& r) {
    using P = OpPattern;
    r.add(withEval(op("Relu", "max(x, 0)", P::ElementWise, 1, 1, inferUnary),
                   anyUnary([](auto x) { return x < decltype(x)(0) ? decltype(x)(0) : x; })));
    r.add(op("Sigmoid", "1 / (1 + exp(-x))", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Tanh", "hyperbolic tangent", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Exp", "e^x", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Log", "natural logarithm", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(withEval(op("Sqrt", "square root", P::ElementWise, 1, 1, inferFloatUnary),
                   floatUnary([](auto x) { return std::sqrt(x); })));
    r.add(withEval(op("Neg", "-x", P::ElementWise, 1, 1, inferUnary),
                   anyUnary([](auto x) { return wrapNeg(x); })));
    r.add(withEval(op("Abs", "|x|", P::ElementWise, 1, 1, inferUnary),
                   anyUnary([](auto x) { return x < decltype(x)(0) ? wrapNeg(x) : x; })));
    r.add(op("Erf", "the Gauss error function", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("LeakyRelu", "x if x >= 0 else alpha * x", P::ElementWise, 1, 1, inferFloatUnary,
             {attrFloat("alpha", 0.01, "slope for negative x")}));
    r.add(op("Clip", "min(max(x, min), max); bounds are inputs from opset 11, attributes before",
             P::ElementWise, 1, 3, inferClip,
             {attrFloat("min", -3.4028234663852886e38, "lower bound (opset < 11)"),
              attrFloat("max", 3.4028234663852886e38, "upper bound (opset < 11)")}));
    r.add(op("HardSigmoid", "max(0, min(1, alpha * x + beta))", P::ElementWise, 1, 1,
             inferFloatUnary,
             {attrFloat("alpha", 0.2, "slope"), attrFloat("beta", 0.5, "offset")}));
    r.add(op("HardSwish", "x * max(0, min(1, x / 6 + 1 / 2))", P::ElementWise, 1, 1,
             inferFloatUnary));
    r.add(withEval(op("Identity", "y = x", P::ElementWise, 1, 1, inferUnary), sameBytes));
    r.add(op("Dropout", "identity at inference (the optional mask is all true)", P::ElementWise, 1,
             3, inferDropout,
             {attrFloat("ratio", 0.5, "drop probability (opset < 12)"),
              attrInt("seed", 0, "random seed")},
             1, 2));
    r.add(withEval(op("Cast", "converts elements to the type `to` (an ONNX type code)",
                      P::ElementWise, 1, 1, inferCast,
                      {attrInt("to", std::nullopt, "target TensorProto element type")}),
                   evalCast));
    r.add(withEval(op("Reciprocal", "1 / x", P::ElementWise, 1, 1, inferFloatUnary),
                   floatUnary([](auto x) { return decltype(x)(1) / x; })));
    r.add(withEval(op("Floor", "largest integer <= x", P::ElementWise, 1, 1, inferFloatUnary),
                   floatUnary([](auto x) { return std::floor(x); })));
    r.add(withEval(op("Ceil", "smallest integer >= x", P::ElementWise, 1, 1, inferFloatUnary),
                   floatUnary([](auto x) { return std::ceil(x); })));
    // std::nearbyint in the default rounding mode takes halves to even.
    r.add(withEval(
        op("Round", "nearest integer, halves to even", P::ElementWise, 1, 1, inferFloatUnary),
        floatUnary([](auto x) { return std::nearbyint(x); })));
    r.add(withEval(op("Sign", "-1, 0 or 1 by the sign of x", P::ElementWise, 1, 1, inferUnary),
                   anyUnary([](auto x) {
                       using T = decltype(x);
                       return isNan(x) ? x : T(T(0) < x) - T(x < T(0));
                   })));
    r.add(op("Sin", "sine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Cos", "cosine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Softplus", "log(exp(x) + 1)", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Elu", "x if x > 0 else alpha * (exp(x) - 1)", P::ElementWise, 1, 1, inferFloatUnary,
             {attrFloat("alpha", 1.0, "scale for negative x")}));
    r.add(op("Selu", "gamma * (x if x > 0 else alpha * (exp(x) - 1))", P::ElementWise, 1, 1,
             inferFloatUnary,
             {attrFloat("alpha", 1.67326319217681884765625, "scale of the negative part"),
              attrFloat("gamma", 1.05070102214813232421875, "scale of the whole")}));
    r.add(op("Celu", "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))", P::ElementWise, 1, 1, inferFloatUnary,
             {attrFloat("alpha", 1.0, "scale")}));
    r.add(op("ThresholdedRelu", "x if x > alpha else 0", P::ElementWise, 1, 1, inferFloatUnary,
             {attrFloat("alpha", 1.0, "threshold")}));
    r.add(op("Shrink", "x - bias if x > lambd, x + bias if x < -lambd, else 0", P::ElementWise, 1, 1, inferUnary,
             {attrFloat("bias", 0.0, "shift"), attrFloat("lambd", 0.5, "threshold")}));
    r.add(op("Softsign", "x / (1 + |x|)", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Tan", "tangent", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Asin", "arcsine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Acos", "arccosine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Atan", "arctangent", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Sinh", "hyperbolic sine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Cosh", "hyperbolic cosine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Asinh", "inverse hyperbolic sine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Acosh", "inverse hyperbolic cosine", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("Atanh", "inverse hyperbolic tangent", P::ElementWise, 1, 1, inferFloatUnary));
    r.add(op("IsNaN", "true where x is NaN", P::ElementWise, 1, 1, inferIsClass));
    r.add(op("IsInf", "true where x is infinite (of the signs asked for)", P::ElementWise, 1, 1, inferIsClass,
             {attrInt("detect_negative", 1, "1: -inf counts"), attrInt("detect_positive", 1, "1: +inf counts")}));
    r.add(withEval(op("CastLike", "converts elements to the type of input 1", P::ElementWise, 2, 2, inferCastLike),
                   evalCast));
}

} // namespace tessel::graph::ops
