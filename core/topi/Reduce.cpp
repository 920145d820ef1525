// Reductions, softmax and the normalisations.
#include "topi/TopiUtil.h"

#include <algorithm>
#include <optional>

namespace tessel::topi {

using namespace tir;

namespace {

using Reducer = Expr (*)(Expr, std::vector<IterVar>, Expr);

/// A reduction variable over axis `d` of extent `n`, named after the axis.
IterVar reduceVar(size_t d, int64_t n) {
    std::string name = "r";
    name += std::to_string(d);
    return te::reduceAxis(Range(intImm(0), intImm(n)), name);
}

/// A stage reducing `x` over the axes marked in `reduced` with `reducer`
/// applied to `source(x[...])`. Reduced axes are dropped from the result, or
/// kept with extent 1 when `keepDims`.
Tensor reduceStage(const Tensor& x, const std::vector<bool>& reduced, bool keepDims,
                   Reducer reducer, const std::function<Expr(Expr)>& source,
                   const std::string& name) {
    const auto shape = staticShape(x);
    std::vector<int64_t> outShape;
    for (size_t d = 0; d < shape.size(); ++d)
        if (!reduced[d] || keepDims) outShape.push_back(reduced[d] ? 1 : shape[d]);
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            std::vector<IterVar> rv;
            std::vector<Expr> at;
            size_t o = 0;
            for (size_t d = 0; d < shape.size(); ++d) {
                if (reduced[d]) {
                    rv.push_back(reduceVar(d, shape[d]));
                    at.push_back(rv.back()->var);
                    o += keepDims ? 1 : 0;
                } else {
                    at.push_back(i[o++]);
                }
            }
            return reducer(source(x(at)), rv, Expr());
        },
        name, tag::kReduce);
}

/// An element-wise stage over `shape`.
Tensor elemwise(const std::vector<int64_t>& shape, const te::ComputeFunction& f,
                const std::string& name) {
    return te::compute(toExprs(shape), f, name, tag::kElemWise);
}

/// `e` cast to `type` unless it has that type already.
Expr as(DataType type, Expr e) {
    return e.type() == type ? e : cast(type, std::move(e));
}

// --- ReduceSum, ReduceMean, ReduceMax ... --------------------------------------------

std::vector<Tensor> reduce(const OpContext& ctx, Reducer reducer, bool mean) {
    const Tensor& x = ctx.input(0);
    const int64_t rank = x.ndim();
    // Axes are an input from opset 13 (ReduceSum) or 18 (the others), an attribute before.
    std::vector<int64_t> axes =
        ctx.hasInput(1) ? ctx.constInts(1) : ctx.attrs().getInts("axes", {});
    const bool keepDims = ctx.attrs().getInt("keepdims", 1) != 0;
    std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty());
    for (int64_t a : axes)
        reduced[static_cast<size_t>(normalizedAxis(ctx, a, rank))] = true;
    const auto outShape = ctx.outputType().shape;
    const bool none = std::find(reduced.begin(), reduced.end(), true) == reduced.end();
    if ((axes.empty() && ctx.attrs().getInt("noop_with_empty_axes", 0) != 0) || none)
        return {elemwise(
            outShape,
            [&](const std::vector<Var>& i) { return x(std::vector<Expr>(i.begin(), i.end())); },
            ctx.name())};
    Tensor r = reduceStage(
        x, reduced, keepDims, reducer, [](Expr v) { return v; },
        mean ? ctx.name() + "_sum" : ctx.name());
    if (!mean) return {r};
    int64_t n = 1;
    for (size_t d = 0; d < reduced.size(); ++d)
        if (reduced[d]) n *= staticShape(x)[d];
    return {elemwise(
        outShape,
        [&](const std::vector<Var>& i) {
            Expr s = r(std::vector<Expr>(i.begin(), i.end()));
            Expr count =
                s.type().isFloat() ? makeConst(s.type(), double(n)) : makeConst(s.type(), n);
            return s.type().isFloat() ? s / count : truncdiv(s, count);
        },
        ctx.name())};
}

TopiOp reduceOp(std::string name, Reducer reducer, bool mean = false) {
    return {std::move(name),
            [reducer, mean](const OpContext& ctx) { return reduce(ctx, reducer, mean); }};
}

// --- softmax ------------------------------------------------------------------------------

/// Softmax or LogSoftmax over one axis (the importer rewrites the flattening
/// semantics of opsets before 13 into this form): max, sum of exp(x - max),
/// then the element-wise output. Subtracting the max keeps exp from overflowing.
std::vector<Tensor> softmax(const OpContext& ctx, bool log) {
    const Tensor& x = ctx.input(0);
    const auto shape = staticShape(x);
    const auto axis =
        static_cast<size_t>(normalizedAxis(ctx, ctx.attrs().getInt("axis", -1), x.ndim()));
    std::vector<bool> reduced(shape.size(), false);
    reduced[axis] = true;
    Tensor mx = reduceStage(
        x, reduced, false, te::max, [](Expr v) { return v; }, ctx.name() + "_max");
    auto dropAxis = [&](const std::vector<Var>& i) {
        std::vector<Expr> r(i.begin(), i.end());
        r.erase(r.begin() + long(axis));
        return r;
    };
    // The sum stage reads x at the reduction variable, and max at the other axes.
    Tensor sum = te::compute(
        mx->shape,
        [&](const std::vector<Var>& i) {
            IterVar rv = reduceVar(axis, shape[axis]);
            std::vector<Expr> at(i.begin(), i.end());
            at.insert(at.begin() + long(axis), rv->var);
            return te::sum(exp(x(at) - mx(std::vector<Expr>(i.begin(), i.end()))), {rv});
        },
        ctx.name() + "_sum", tag::kReduce);
    return {elemwise(
        shape,
        [&](const std::vector<Var>& i) {
            Expr v = x(std::vector<Expr>(i.begin(), i.end())) - mx(dropAxis(i));
            if (log) return v - call(Intrinsic::Log, {sum(dropAxis(i))});
            return exp(v) / sum(dropAxis(i));
        },
        ctx.name())};
}

// --- normalisations -------------------------------------------------------------------

/// Mean and 1 / sqrt(variance + epsilon) of `x` over the axes from `first`
/// on, in `type`, each with those axes kept as extent 1.
struct Moments {
    Tensor mean;
    Tensor invStdDev;
};

Moments moments(const Tensor& x, size_t first, double epsilon, DataType type,
                const std::string& name) {
    const auto shape = staticShape(x);
    std::vector<bool> reduced(shape.size(), false);
    int64_t n = 1;
    for (size_t d = first; d < shape.size(); ++d) {
        reduced[d] = true;
        n *= shape[d];
    }
    std::vector<int64_t> statShape = shape;
    for (size_t d = first; d < shape.size(); ++d)
        statShape[d] = 1;
    const Expr count = makeConst(type, double(n));
    Tensor sum = reduceStage(
        x, reduced, true, te::sum, [&](Expr v) { return as(type, v); }, name + "_sum");
    Tensor mean = elemwise(
        statShape,
        [&](const std::vector<Var>& i) {
            return sum(std::vector<Expr>(i.begin(), i.end())) / count;
        },
        name + "_mean");
    // Two passes (the squares of x - mean) rather than E[x^2] - E[x]^2, which cancels badly.
    Tensor sq = te::compute(
        toExprs(statShape),
        [&](const std::vector<Var>& i) {
            std::vector<IterVar> rv;
            std::vector<Expr> at(i.begin(), i.end());
            for (size_t d = first; d < shape.size(); ++d) {
                rv.push_back(reduceVar(d, shape[d]));
                at[d] = rv.back()->var;
            }
            Expr diff = as(type, x(at)) - mean(std::vector<Expr>(i.begin(), i.end()));
            return te::sum(diff * diff, rv);
        },
        name + "_sqsum", tag::kReduce);
    Tensor inv = elemwise(
        statShape,
        [&](const std::vector<Var>& i) {
            Expr var = sq(std::vector<Expr>(i.begin(), i.end())) / count;
            return makeConst(type, 1.0) / sqrt(var + makeConst(type, epsilon));
        },
        name + "_inv_std");
    return {mean, inv};
}

/// The stats tensor `t` (axes from `first` of extent 1) read for element `i` of x.
Expr statRead(const Tensor& t, const std::vector<Var>& i, size_t first) {
    std::vector<Expr> at(i.begin(), i.end());
    for (size_t d = first; d < at.size(); ++d)
        at[d] = intImm(0);
    return t(at);
}

/// `t` as node output `k`: the same tensor when its type matches, else a cast.
Tensor asOutput(const OpContext& ctx, const Tensor& t, int k, const std::string& suffix) {
    DataType want = ctx.outputType(k).dtype;
    if (t->dtype == want) return t;
    return elemwise(
        ctx.outputType(k).shape,
        [&](const std::vector<Var>& i) {
            return cast(want, t(std::vector<Expr>(i.begin(), i.end())));
        },
        ctx.name() + suffix);
}

std::vector<Tensor> layerNorm(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const auto first =
        static_cast<size_t>(normalizedAxis(ctx, ctx.attrs().getInt("axis", -1), x.ndim()));
    const double eps = ctx.attrs().getFloat("epsilon", 1e-5);
    // stash_type: the precision of the statistics (float32 by default).
    auto stash = graph::dataTypeFromOnnx(ctx.attrs().getInt("stash_type", 1));
    if (!stash || !stash->isFloat()) ctx.fail("stash_type must be a floating-point type");
    Moments m = moments(x, first, eps, *stash, ctx.name());
    std::optional<Tensor> bias;
    if (ctx.hasInput(2)) bias = ctx.input(2);
    const DataType t = x->dtype;
    std::vector<Tensor> out{elemwise(
        staticShape(x),
        [&](const std::vector<Var>& i) {
            Expr v = (as(*stash, x(std::vector<Expr>(i.begin(), i.end()))) -
                      statRead(m.mean, i, first)) *
                     statRead(m.invStdDev, i, first);
            Expr y = as(t, v) * broadcastRead(scale, i);
            return bias ? y + broadcastRead(*bias, i) : y;
        },
        ctx.name())};
    if (ctx.node().numOutputs() > 1) out.push_back(asOutput(ctx, m.mean, 1, "_mean_out"));
    if (ctx.node().numOutputs() > 2) out.push_back(asOutput(ctx, m.invStdDev, 2, "_inv_std_out"));
    return out;
}

std::vector<Tensor> instanceNorm(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& scale = ctx.input(1);
    const Tensor& bias = ctx.input(2);
    if (x.ndim() < 3) ctx.fail("the input must have at least one spatial axis (N, C, D1, ...)");
    const double eps = ctx.attrs().getFloat("epsilon", 1e-5);
    const DataType t = x->dtype;
    Moments m = moments(x, 2, eps, t, ctx.name());
    return {elemwise(
        staticShape(x),
        [&](const std::vector<Var>& i) {
            Expr v = (x(std::vector<Expr>(i.begin(), i.end())) - statRead(m.mean, i, 2)) *
                     statRead(m.invStdDev, i, 2);
            return v * scale({i[1]}) + bias({i[1]});
        },
        ctx.name())};
}

} // namespace

void addReduceOps(std::vector<TopiOp>& ops) {
    ops.push_back(reduceOp("ReduceSum", te::sum));
    ops.push_back(reduceOp("ReduceMean", te::sum, true));
    ops.push_back(reduceOp("ReduceMax", te::max));
    ops.push_back(reduceOp("ReduceMin", te::min));
    ops.push_back(reduceOp("ReduceProd", te::prod));
    ops.push_back({"Softmax", [](const OpContext& c) { return softmax(c, false); }});
    ops.push_back({"LogSoftmax", [](const OpContext& c) { return softmax(c, true); }});
    ops.push_back({"LayerNormalization", layerNorm});
    ops.push_back({"InstanceNormalization", instanceNorm});
}

} // namespace tessel::topi
