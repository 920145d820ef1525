/// \file
/// The reductions ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
/// ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp and ReduceSumSquare
/// (axes an input from opset 13/18, an attribute before); ArgMax, ArgMin,
/// Hardmax and CumSum. Sum, Max, Min, Prod, ArgMax, ArgMin and CumSum
/// evaluate on constants.
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

#include <algorithm>
#include <limits>

namespace tessel::graph::ops {

namespace {

Types inferReduce(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const bool keepDims = ctx.attrs().getInt("keepdims", 1) != 0;
    if (auto n = runtimeAxesCount(ctx)) {
        const bool noop = ctx.attrs().getInt("noop_with_empty_axes", 0) != 0;
        if (*n > x.rank())
            ctx.fail("the axes input " + ctx.input(1).str() + " has too many axes for " + x.str());
        if (*n == 0 && noop) return {x};
        const int64_t rank = keepDims ? x.rank() : (*n == 0 ? 0 : x.rank() - *n);
        return {TensorType(x.dtype, Shape(static_cast<size_t>(rank), -1))};
    }
    auto axes = axesOf(ctx);
    std::vector<bool> reduced(static_cast<size_t>(x.rank()), false);
    if (!axes || axes->empty()) {
        if (ctx.attrs().getInt("noop_with_empty_axes", 0) != 0) return {x};
        std::fill(reduced.begin(), reduced.end(), true);
    } else {
        for (int64_t a : *axes) {
            auto n = normalizeAxis(a, x.rank());
            if (!n) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
            reduced[static_cast<size_t>(*n)] = true;
        }
    }
    Shape out;
    for (size_t i = 0; i < reduced.size(); ++i) {
        if (!reduced[i])
            out.push_back(x.shape[i]);
        else if (keepDims)
            out.push_back(1);
    }
    return {TensorType(x.dtype, out)};
}

Types inferArgReduce(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t a = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(a, x.rank());
    if (!axis) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
    Shape out = x.shape;
    if (ctx.attrs().getInt("keepdims", 1) != 0)
        out[static_cast<size_t>(*axis)] = 1;
    else
        out.erase(out.begin() + *axis);
    return {TensorType(DataType::int64(), out)};
}

Types inferAlongAxis(const InferContext& ctx, int64_t def) {
    const TensorType& x = ctx.input(0);
    const int64_t a = ctx.attrs().getInt("axis", def);
    if (!normalizeAxis(a, x.rank())) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
    return {x};
}

Types inferCumSum(const InferContext& ctx) {
    if (ctx.input(1).numElements() != 1) ctx.fail("axis " + ctx.input(1).str() + " must be a scalar");
    if (!ctx.input(1).dtype.isInt()) ctx.fail("axis " + ctx.input(1).str() + " must be int32 or int64");
    return {ctx.input(0)};
}

enum class Reduction { Sum, Prod, Min, Max };

/// Reduces input 0 over the axes in its element type (integers wrap; a NaN wins Min and Max).
EvalResult evalReduce(const EvalContext& e, Reduction op) {
    const Constant& x = e.input(0);
    const int64_t r = static_cast<int64_t>(x.shape.size());
    std::optional<Shape> axes;
    if (e.hasInput(1))
        axes = e.input(1).toInts();
    else if (e.attrs().has("axes"))
        axes = e.attrs().getInts("axes", {});
    std::vector<bool> reduced(static_cast<size_t>(r), false);
    if (!axes || axes->empty()) {
        if (e.attrs().getInt("noop_with_empty_axes", 0) != 0) return sameBytes(e);
        std::fill(reduced.begin(), reduced.end(), true);
    } else {
        for (int64_t a : *axes)
            reduced[static_cast<size_t>(*normalizeAxis(a, r))] = true;
    }
    // Each input element adds to the output element at its index with the
    // reduced dims set to 0.
    Shape kept = x.shape;
    for (size_t d = 0; d < kept.size(); ++d)
        if (reduced[d]) kept[d] = 1;
    Shape step = stridesOf(kept);
    for (size_t d = 0; d < kept.size(); ++d)
        if (reduced[d]) step[d] = 0;
    const std::vector<int64_t> target =
        stridedIndex(x.shape, Shape(x.shape.size(), 0), Shape(x.shape.size(), 1), step);
    const DataType t = e.output().dtype;
    EvalResult result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        using L = std::numeric_limits<T>;
        const auto v = load<T>(x);
        T init = T(0);
        if (op == Reduction::Prod) init = T(1);
        if (op == Reduction::Min) init = L::has_infinity ? L::infinity() : L::max();
        if (op == Reduction::Max) init = L::has_infinity ? -L::infinity() : L::lowest();
        std::vector<T> acc(static_cast<size_t>(product(kept)), init);
        for (size_t k = 0; k < v.size(); ++k) {
            T& a = acc[static_cast<size_t>(target[k])];
            const T b = v[k];
            if (op == Reduction::Sum)
                a = wrapAdd(a, b);
            else if (op == Reduction::Prod)
                a = wrapMul(a, b);
            else if (isNan(a) || isNan(b))
                a = isNan(a) ? a : b;
            else
                a = op == Reduction::Min ? std::min(a, b) : std::max(a, b);
        }
        result = one(store(t, e.output().shape, acc));
    });
    return result;
}

/// Outer, axis and inner extents of a shape around `axis`.
struct Lines {
    int64_t outer = 1, n = 1, inner = 1;
};
Lines linesOf(const Shape& s, int64_t axis) {
    Lines l;
    for (int64_t d = 0; d < int64_t(s.size()); ++d)
        (d < axis ? l.outer : d == axis ? l.n : l.inner) *= s[size_t(d)];
    return l;
}

/// ArgMax (isMax) or ArgMin: the first (or last) index of the extreme value.
EvalResult evalArgReduce(const EvalContext& e, bool isMax) {
    const Constant& x = e.input(0);
    if (x.numElements() == 0) return std::nullopt; // no element to pick: left to the kernel's checks
    const int64_t axis = *normalizeAxis(e.attrs().getInt("axis", 0), int64_t(x.shape.size()));
    const bool last = e.attrs().getInt("select_last_index", 0) != 0;
    const Lines l = linesOf(x.shape, axis);
    EvalResult result;
    dispatch(x.dtype, false, [&](auto tag) {
        using T = decltype(tag);
        const auto v = load<T>(x);
        std::vector<int64_t> out;
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t q = 0; q < l.inner; ++q) {
                int64_t best = 0;
                for (int64_t k = 1; k < l.n; ++k) {
                    const T a = v[size_t((o * l.n + k) * l.inner + q)], b = v[size_t((o * l.n + best) * l.inner + q)];
                    if (isMax ? a > b : a < b) best = k;
                    else if (last && a == b) best = k;
                }
                out.push_back(best);
            }
        result = one(Constant::fromInts(e.output().shape, out));
    });
    return result;
}

EvalResult evalCumSum(const EvalContext& e) {
    const Constant& x = e.input(0);
    if (x.numElements() == 0) return std::nullopt; // an empty tensor stays the kernels' (which refuse it)
    const int64_t axis = *normalizeAxis(e.input(1).toInts().at(0), int64_t(x.shape.size()));
    const bool exclusive = e.attrs().getInt("exclusive", 0) != 0, reverse = e.attrs().getInt("reverse", 0) != 0;
    const Lines l = linesOf(x.shape, axis);
    EvalResult result;
    dispatch(x.dtype, false, [&](auto tag) {
        using T = decltype(tag);
        const auto v = load<T>(x);
        std::vector<T> out(v.size());
        for (int64_t o = 0; o < l.outer; ++o)
            for (int64_t q = 0; q < l.inner; ++q) {
                T acc = T(0);
                for (int64_t j = 0; j < l.n; ++j) {
                    const int64_t k = reverse ? l.n - 1 - j : j;
                    const size_t at = size_t((o * l.n + k) * l.inner + q);
                    if (!exclusive) acc = wrapAdd(acc, v[at]);
                    out[at] = acc;
                    if (exclusive) acc = wrapAdd(acc, v[at]);
                }
            }
        result = one(store(x.dtype, x.shape, out));
    });
    return result;
}

/// The evaluator of one reduction.
EvalFn reduceEval(Reduction op) {
    return [op](const EvalContext& e) { return evalReduce(e, op); };
}

} // namespace

void registerReduceOps(OpRegistry& r) {
    using P = OpPattern;
    const std::vector<AttrSchema> reduceAttrs{
        attrInts("axes", "axes to reduce (before the axes input of opset 13/18); all when empty"),
        attrInt("keepdims", 1, "keep reduced axes as size 1"),
        attrInt("noop_with_empty_axes", 0, "with no axes: 1 = identity, 0 = reduce all"),
    };
    r.add(op("ReduceMean", "mean over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs));
    r.add(withEval(op("ReduceSum", "sum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
                   reduceEval(Reduction::Sum)));
    r.add(withEval(
        op("ReduceMax", "maximum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        reduceEval(Reduction::Max)));
    r.add(withEval(
        op("ReduceMin", "minimum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        reduceEval(Reduction::Min)));
    r.add(withEval(
        op("ReduceProd", "product over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        reduceEval(Reduction::Prod)));
    r.add(op("ReduceL1", "sum of |x| over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs));
    r.add(op("ReduceL2", "sqrt of the sum of x^2 over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs));
    r.add(op("ReduceLogSum", "log of the sum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs));
    r.add(op("ReduceLogSumExp", "log of the sum of exp(x) over axes (with the maximum taken out)", P::CommReduce,
             1, 2, inferReduce, reduceAttrs));
    r.add(op("ReduceSumSquare", "sum of x^2 over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs));
    const std::vector<AttrSchema> argAttrs{
        attrInt("axis", 0, "the axis to search"),
        attrInt("keepdims", 1, "keep the axis with extent 1"),
        attrInt("select_last_index", 0, "on ties: 0 the first index, 1 the last"),
    };
    r.add(withEval(op("ArgMax", "index of the largest element along axis (int64)", P::CommReduce, 1, 1,
                      inferArgReduce, argAttrs),
                   [](const EvalContext& e) { return evalArgReduce(e, true); }));
    r.add(withEval(op("ArgMin", "index of the smallest element along axis (int64)", P::CommReduce, 1, 1,
                      inferArgReduce, argAttrs),
                   [](const EvalContext& e) { return evalArgReduce(e, false); }));
    r.add(op("Hardmax", "1 at the first largest element along axis, 0 elsewhere", P::Opaque, 1, 1,
             [](const InferContext& c) { return inferAlongAxis(c, -1); },
             {attrInt("axis", -1, "the axis (opset 13; the importer rewrites older forms)")}));
    r.add(withEval(op("CumSum", "running sums along the axis given as input 1", P::Opaque, 2, 2, inferCumSum,
                      {attrInt("exclusive", 0, "1: each sum leaves out its own element"),
                       attrInt("reverse", 0, "1: sums run from the end")}),
                   evalCumSum));
}

} // namespace tessel::graph::ops
