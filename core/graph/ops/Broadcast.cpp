/// \file
/// The broadcasting operators: arithmetic (Add, Sub, Mul, Div, Pow, Mod,
/// BitShift), the variadic Min, Max, Sum and Mean, PRelu and Where. All but Pow and PRelu
/// evaluate on constants, in the output's element type (integers wrap,
/// integer division truncates toward zero and fails on zero).
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace tessel::graph::ops {

namespace {

Types inferBroadcastSame(const InferContext& ctx) {
    return inferBroadcast(ctx, true);
}

Types inferFloatBroadcast(const InferContext& ctx) {
    requireFloat(ctx, 0);
    return inferBroadcast(ctx, true);
}

Types inferPRelu(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& slope = ctx.input(1);
    requireSameDtype(ctx, 0, 1);
    // The slope broadcasts to X one way: the output has X's shape.
    auto bc = broadcastShapes(x.shape, slope.shape);
    bool ok = bc && bc->size() == x.shape.size();
    for (size_t i = 0; ok && i < x.shape.size(); ++i)
        ok = x.shape[i] < 0 || (*bc)[i] == x.shape[i];
    if (!ok) ctx.fail("slope " + slope.str() + " does not broadcast to X " + x.str());
    return {x};
}

Types inferWhere(const InferContext& ctx) {
    if (!ctx.input(0).dtype.isBool())
        ctx.fail("condition " + ctx.input(0).str() + " must be a bool tensor");
    requireSameDtype(ctx, 1, 2);
    return {TensorType(ctx.input(1).dtype, broadcastInputs(ctx))};
}

/// Folds f(e, a, b) left to right over the broadcast inputs, in the
/// output's element type (bools are left to run time).
template <class F> EvalFn foldEval(F f) {
    return [f](const EvalContext& e) -> EvalResult {
        const DataType t = e.output().dtype;
        const Shape& shape = e.output().shape;
        EvalResult result;
        dispatch(t, false, [&](auto tag) {
            using T = decltype(tag);
            const std::vector<T> v = foldInputs<T>(e, shape, [&](T a, T b) { return f(e, a, b); });
            result = one(store(t, shape, v));
        });
        return result;
    };
}

const auto add = [](const EvalContext&, auto a, auto b) { return wrapAdd(a, b); };

EvalResult evalMean(const EvalContext& e) {
    const DataType t = e.output().dtype;
    const Shape& shape = e.output().shape;
    EvalResult result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> v = foldInputs<T>(e, shape, [](T a, T b) { return wrapAdd(a, b); });
        for (auto& x : v)
            x = static_cast<T>(x / static_cast<T>(e.numInputs()));
        result = one(store(t, shape, v));
    });
    return result;
}

const auto divide = [](const EvalContext& e, auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_integral_v<T>) {
        if (b == 0) e.fail("integer division by zero");
        if constexpr (std::is_signed_v<T>)
            if (b == T(-1)) return wrapNeg(a); // INT_MIN / -1 wraps
    }
    return static_cast<T>(a / b); // integers truncate toward zero
};

/// Min (isMax false) or Max; a NaN wins.
EvalFn minMaxEval(bool isMax) {
    return foldEval([isMax](const EvalContext&, auto a, auto b) {
        if (isNan(a) || isNan(b)) return isNan(a) ? a : b;
        return isMax ? std::max(a, b) : std::min(a, b);
    });
}

Types inferMod(const InferContext& ctx) {
    if (ctx.input(0).dtype.isFloat() && ctx.attrs().getInt("fmod", 0) == 0)
        ctx.fail("fmod must be 1 for floating-point inputs");
    return inferBroadcast(ctx, true);
}

Types inferBitShift(const InferContext& ctx) {
    if (!ctx.input(0).dtype.isUInt()) ctx.fail("X " + ctx.input(0).str() + " must be an unsigned integer tensor");
    const std::string d = ctx.attrs().getString("direction", "");
    if (d != "LEFT" && d != "RIGHT") ctx.fail("direction must be LEFT or RIGHT, not '" + d + "'");
    return inferBroadcast(ctx, true);
}

/// Mod: the sign of the divisor (integers, fmod = 0) or of the dividend (fmod = 1).
EvalResult evalMod(const EvalContext& e) {
    const bool fmod = e.attrs().getInt("fmod", 0) != 0;
    return foldEval([fmod](const EvalContext& c, auto a, auto b) {
        using T = decltype(a);
        if constexpr (std::is_floating_point_v<T>) {
            return std::fmod(a, b);
        } else {
            if (b == 0) c.fail("integer modulo by zero");
            if constexpr (std::is_signed_v<T>) {
                if (b == T(-1)) return T(0);
                T m = static_cast<T>(a % b);
                if (!fmod && m != 0 && ((m < 0) != (b < 0))) m = static_cast<T>(m + b);
                return m;
            } else {
                return static_cast<T>(a % b);
            }
        }
    })(e);
}

EvalResult evalWhere(const EvalContext& e) {
    const Shape& out = e.output().shape;
    const auto cond = load<uint8_t>(e.input(0));
    const auto ic = broadcastIndex(e.input(0).shape, out);
    const auto ix = broadcastIndex(e.input(1).shape, out);
    const auto iy = broadcastIndex(e.input(2).shape, out);
    const size_t size = static_cast<size_t>(e.output().dtype.bytes());
    std::vector<uint8_t> bytes(ic.size() * size);
    for (size_t k = 0; k < ic.size(); ++k) {
        const bool c = cond[static_cast<size_t>(ic[k])] != 0;
        const Constant& src = c ? e.input(1) : e.input(2);
        std::memcpy(bytes.data() + k * size,
                    src.bytes.data() + static_cast<size_t>(c ? ix[k] : iy[k]) * size, size);
    }
    return one(Constant::make(e.output().dtype, out, std::move(bytes)));
}

} // namespace

void registerBroadcastOps(OpRegistry& r) {
    using P = OpPattern;
    r.add(
        withEval(op("Add", "A + B with numpy broadcasting", P::Broadcast, 2, 2, inferBroadcastSame),
                 foldEval(add)));
    r.add(
        withEval(op("Sub", "A - B with numpy broadcasting", P::Broadcast, 2, 2, inferBroadcastSame),
                 foldEval([](const EvalContext&, auto a, auto b) { return wrapSub(a, b); })));
    r.add(
        withEval(op("Mul", "A * B with numpy broadcasting", P::Broadcast, 2, 2, inferBroadcastSame),
                 foldEval([](const EvalContext&, auto a, auto b) { return wrapMul(a, b); })));
    r.add(
        withEval(op("Div", "A / B with numpy broadcasting", P::Broadcast, 2, 2, inferBroadcastSame),
                 foldEval(divide)));
    r.add(op("Pow", "X ^ Y with numpy broadcasting (output type of X)", P::Broadcast, 2, 2,
             [](const InferContext& c) { return inferBroadcast(c, false); }));
    r.add(withEval(op("Min", "element-wise minimum of all inputs, broadcast", P::Broadcast, 1, -1,
                      inferBroadcastSame),
                   minMaxEval(false)));
    r.add(withEval(op("Max", "element-wise maximum of all inputs, broadcast", P::Broadcast, 1, -1,
                      inferBroadcastSame),
                   minMaxEval(true)));
    r.add(withEval(op("Sum", "element-wise sum of all inputs, broadcast", P::Broadcast, 1, -1,
                      inferFloatBroadcast),
                   foldEval(add)));
    r.add(withEval(op("Mean", "element-wise mean of all inputs, broadcast", P::Broadcast, 1, -1,
                      inferFloatBroadcast),
                   evalMean));
    r.add(op("PRelu", "x if x >= 0 else slope * x; slope broadcasts to x", P::Broadcast, 2, 2,
             inferPRelu));
    r.add(withEval(op("Where", "X where the condition holds, else Y; all three broadcast",
                      P::Broadcast, 3, 3, inferWhere),
                   evalWhere));
    r.add(withEval(op("Mod", "remainder with the divisor's sign (fmod = 0) or the dividend's (fmod = 1), broadcast",
                      P::Broadcast, 2, 2, inferMod, {attrInt("fmod", 0, "1: C's fmod (required for floats)")}),
                   evalMod));
    r.add(op("BitShift", "X shifted LEFT or RIGHT by Y bits (unsigned), broadcast", P::Broadcast, 2, 2, inferBitShift,
             {attrString("direction", "", "LEFT or RIGHT")}));
}

} // namespace tessel::graph::ops
