// Reductions, softmax and the normalisations.
#include "topi/Reduce.h"

#include "ir/Diagnostic.h"
#include "topi/Tags.h"
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

int64_t reduceLanes(int64_t extent);
Tensor reduceRow(const std::vector<int64_t>& outShape, int64_t n, Reducer reducer,
                 const std::function<Expr(const std::vector<Expr>&, Expr)>& element, const std::string& name,
                 int64_t lanes = 0, const char* finalTag = tag::kReduce);

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
    // The innermost axis alone (a row): vectorised partial results.
    const size_t last = shape.size() - 1;
    if (!shape.empty() && reduced[last] && std::count(reduced.begin(), reduced.end(), true) == 1 &&
        reducer != te::prod && reduceLanes(shape[last]) > 0)
        return reduceRow(outShape, shape[last], reducer,
                         [&](const std::vector<Expr>& outer, Expr k) {
                             std::vector<Expr> at(outer.begin(), outer.begin() + long(last));
                             at.push_back(std::move(k));
                             return source(x(at));
                         },
                         name);
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

/// Partial results a row reduction keeps (kReduceLanes): two AVX2 vectors or
/// one AVX-512 vector of float32, so that the adds of neighbouring elements
/// do not wait on each other; 0 where the row is too short or not a multiple.
int64_t reduceLanes(int64_t extent) {
    for (int64_t lanes : {16, 8})
        if (extent % lanes == 0 && extent >= 2 * lanes) return lanes;
    return 0;
}

/// A reduction over the innermost axis (extent `n`) of `element(outer
/// indices, position)`, as `lanes` partial results (kReduceLanes; default
/// reduceLanes(n), which must be > 0) and their reduction (`finalTag`): float
/// addition and max in any order, as any vectorised reduction does. When
/// `lanes` does not divide `n`, the last round skips the positions past it.
/// The `lanes` partial results of reduceRow (kReduceLanes, outShape + [lanes]).
Tensor rowPartials(const std::vector<int64_t>& outShape, int64_t n, Reducer reducer,
                   const std::function<Expr(const std::vector<Expr>&, Expr)>& element, const std::string& name,
                   int64_t lanes) {
    std::vector<int64_t> partialShape = outShape;
    partialShape.push_back(lanes);
    return te::compute(
        toExprs(partialShape),
        [&](const std::vector<Var>& i) {
            IterVar ro = te::reduceAxis(Range(intImm(0), intImm((n + lanes - 1) / lanes)), "ro");
            std::vector<Expr> outer(i.begin(), i.end() - 1);
            Expr k = ro->var * intImm(lanes) + i.back();
            return reducer(element(outer, k), {ro}, n % lanes == 0 ? Expr() : Expr(k < intImm(n)));
        },
        name + "_lanes", tag::kReduceLanes);
}

Tensor reduceRow(const std::vector<int64_t>& outShape, int64_t n, Reducer reducer,
                 const std::function<Expr(const std::vector<Expr>&, Expr)>& element, const std::string& name,
                 int64_t lanes, const char* finalTag) {
    if (lanes == 0) lanes = reduceLanes(n);
    Tensor partial = rowPartials(outShape, n, reducer, element, name, lanes);
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            IterVar rl = te::reduceAxis(Range(intImm(0), intImm(lanes)), "rl");
            std::vector<Expr> at(i.begin(), i.end());
            at.push_back(rl->var);
            return reducer(partial(at), {rl}, Expr());
        },
        name, finalTag);
}

} // namespace

Tensor reduceRowTree(const std::vector<int64_t>& outShape, int64_t n, int64_t lanes, ReduceOp op,
                     const std::function<Expr(const std::vector<Expr>&, Expr)>& element, const std::string& name) {
    if (op != ReduceOp::Sum && op != ReduceOp::Max) throw CompileError("a reduction tree is a sum or a maximum");
    if (lanes < 2 || (lanes & (lanes - 1)) != 0 || n < 1)
        throw CompileError("a reduction tree needs a row and a power of two of at least 2 lanes");
    const bool sum = op == ReduceOp::Sum;
    Tensor level = rowPartials(outShape, n, sum ? Reducer(te::sum) : Reducer(te::max), element, name, lanes);
    // Each level combines lane t with lane t + half of the one before; the
    // last keeps one lane, so that a GPU schedule can give it to one thread.
    for (int64_t half = lanes / 2; half >= 1; half /= 2) {
        std::vector<int64_t> shape = outShape;
        shape.push_back(half);
        const Tensor prev = level;
        level = te::compute(
            toExprs(shape),
            [&](const std::vector<Var>& i) {
                std::vector<Expr> a = exprs(i), b = exprs(i);
                b.back() = b.back() + intImm(half);
                return sum ? prev(a) + prev(b) : tir::max(prev(a), prev(b));
            },
            name + "_tree" + std::to_string(half), tag::kReduceTree);
    }
    const Tensor root = level;
    // Axes of extent 1 read at 0, not at their variable: a schedule may then
    // split such an axis of the output over threads and guard it to one
    // writer without widening what it reads of the tree (LaneReduceGpu).
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            std::vector<Expr> at = exprs(i);
            for (size_t d = 0; d < outShape.size(); ++d)
                if (outShape[d] == 1) at[d] = intImm(0);
            at.push_back(intImm(0));
            return root(at);
        },
        name, tag::kInjective);
}

namespace {

/// An element-wise stage over `shape`.
Tensor elemwise(const std::vector<int64_t>& shape, const te::ComputeFunction& f,
                const std::string& name) {
    return te::compute(toExprs(shape), f, name, tag::kElemWise);
}

/// `e` cast to `type` unless it has that type already.
Expr as(DataType type, Expr e) {
    return e.type() == type ? e : tir::cast(type, std::move(e));
}

/// log(sum(exp(x - m))) + m over the axes marked in `reduced`, m the
/// maximum: no overflow for large x.
Tensor logSumExp(const Tensor& x, const std::vector<bool>& reduced, bool keepDims, const std::string& name) {
    const auto shape = staticShape(x);
    Tensor mx = reduceStage(x, reduced, true, te::max, [](Expr v) { return v; }, name + "_max");
    std::vector<int64_t> keptShape = shape;
    for (size_t d = 0; d < shape.size(); ++d)
        if (reduced[d]) keptShape[d] = 1;
    Tensor sum = te::compute(
        toExprs(keptShape),
        [&](const std::vector<Var>& i) {
            std::vector<IterVar> rv;
            std::vector<Expr> at(i.begin(), i.end());
            for (size_t d = 0; d < shape.size(); ++d)
                if (reduced[d]) {
                    rv.push_back(reduceVar(d, shape[d]));
                    at[d] = rv.back()->var;
                }
            return te::sum(tir::exp(x(at) - mx(exprs(i))), rv);
        },
        name + "_sum", tag::kReduce);
    std::vector<int64_t> outShape;
    for (size_t d = 0; d < shape.size(); ++d)
        if (!reduced[d] || keepDims) outShape.push_back(keptShape[d]);
    return elemwise(
        outShape,
        [&](const std::vector<Var>& i) {
            std::vector<Expr> at;
            size_t o = 0;
            for (size_t d = 0; d < shape.size(); ++d)
                at.push_back(reduced[d] ? (keepDims ? Expr(i[o++]) : intImm(0)) : Expr(i[o++]));
            return call(Intrinsic::Log, {sum(at)}) + mx(at);
        },
        name);
}

} // namespace

// --- reductions --------------------------------------------------------------------------

Tensor reduce(const Tensor& x, ReduceOp op, const ReduceParams& params, const std::string& name) {
    const int64_t rank = x.ndim();
    const auto& axes = params.axes;
    std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty());
    for (int64_t a : axes)
        reduced[static_cast<size_t>(normalizeAxis(a, rank))] = true;
    const auto shape = staticShape(x);
    const bool none = std::find(reduced.begin(), reduced.end(), true) == reduced.end();
    if ((axes.empty() && params.noopWithEmptyAxes) || none)
        return elemwise(
            shape, [&](const std::vector<Var>& i) { return x(exprs(i)); }, name);
    if (op == ReduceOp::LogSumExp) return logSumExp(x, reduced, params.keepDims, name);
    Reducer reducer = op == ReduceOp::Max ? te::max : op == ReduceOp::Min ? te::min : op == ReduceOp::Prod ? te::prod : te::sum;
    // What is summed, and what is done with the sum after.
    std::function<Expr(Expr)> source = [](Expr v) { return v; };
    if (op == ReduceOp::L1) source = [](Expr v) { return v.type().isUInt() ? v : call(Intrinsic::Abs, {v}); };
    if (op == ReduceOp::L2 || op == ReduceOp::SumSquare) source = [](Expr v) { return v * v; };
    const bool post = op == ReduceOp::Mean || op == ReduceOp::L2 || op == ReduceOp::LogSum;
    Tensor r = reduceStage(x, reduced, params.keepDims, reducer, source, post ? name + "_sum" : name);
    if (!post) return r;
    int64_t n = 1;
    for (size_t d = 0; d < reduced.size(); ++d)
        if (reduced[d]) n *= shape[d];
    return elemwise(
        staticShape(r),
        [&](const std::vector<Var>& i) {
            Expr s = r(exprs(i));
            const DataType t = s.type();
            if (op == ReduceOp::L2 || op == ReduceOp::LogSum) {
                // Integers through double (ONNX's reference computes in the input's type and casts back).
                Expr f = t.isFloat() ? s : tir::cast(DataType::float64(), s);
                f = call(op == ReduceOp::L2 ? Intrinsic::Sqrt : Intrinsic::Log, {f});
                return t.isFloat() ? f : tir::cast(t, f);
            }
            Expr count = t.isFloat() ? makeConst(t, double(n)) : makeConst(t, n);
            return t.isFloat() ? s / count : truncdiv(s, count);
        },
        name);
}

Tensor argReduce(const Tensor& x, const ArgReduceParams& p, const std::string& name) {
    const auto shape = staticShape(x);
    const auto axis = static_cast<size_t>(normalizeAxis(p.axis, x.ndim()));
    const int64_t n = shape[axis];
    std::vector<bool> reduced(shape.size(), false);
    reduced[axis] = true;
    // The extreme value (axis kept), then the first (or last) index holding it.
    Tensor best = reduceStage(x, reduced, true, p.isMax ? te::max : te::min, [](Expr v) { return v; },
                              name + (p.isMax ? "_max" : "_min"));
    std::vector<int64_t> outShape = shape;
    if (p.keepDims)
        outShape[axis] = 1;
    else
        outShape.erase(outShape.begin() + long(axis));
    const DataType i64 = DataType::int64();
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            IterVar rk = reduceVar(axis, n);
            std::vector<Expr> at(i.begin(), i.end()), bestAt;
            if (p.keepDims)
                at[axis] = rk->var;
            else
                at.insert(at.begin() + long(axis), rk->var);
            bestAt = at;
            bestAt[axis] = intImm(0);
            Expr k = tir::cast(i64, Expr(rk->var));
            Expr hit = x(at) == best(bestAt);
            if (p.selectLastIndex) return te::max(select(hit, k, makeConst(i64, int64_t(-1))), {rk});
            return te::min(select(hit, k, makeConst(i64, n)), {rk});
        },
        name, tag::kReduce);
}

Tensor hardmax(const Tensor& x, int64_t axisIn, const std::string& name) {
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, x.ndim()));
    ArgReduceParams p;
    p.axis = int64_t(axis);
    Tensor at = argReduce(x, p, name + "_argmax");
    return elemwise(
        staticShape(x),
        [&](const std::vector<Var>& i) {
            std::vector<Expr> a(i.begin(), i.end());
            a[axis] = intImm(0);
            Expr hit = tir::cast(DataType::int64(), Expr(i[axis])) == at(a);
            return select(hit, constant(x->dtype, 1), constant(x->dtype, 0));
        },
        name);
}

Tensor cumsum(const Tensor& x, int64_t axisIn, bool exclusive, bool reverse, const std::string& name) {
    const auto shape = staticShape(x);
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, x.ndim()));
    const int64_t n = shape[axis];
    // Each output sums the elements before (after, when reversed) it: a
    // reduction over the axis with a condition, parallel over every other
    // axis and over the outputs along it (n^2 / 2 additions per line, no
    // serial chain between outputs).
    return te::compute(
        toExprs(shape),
        [&](const std::vector<Var>& i) {
            IterVar rk = reduceVar(axis, n);
            std::vector<Expr> at(i.begin(), i.end());
            at[axis] = rk->var;
            Expr k = rk->var, o = i[axis];
            Expr cond = reverse ? (exclusive ? k > o : k >= o) : (exclusive ? k < o : k <= o);
            return te::sum(select(cond, x(at), makeZero(x->dtype)), {rk});
        },
        name, tag::kReduce);
}

namespace nn {

namespace {

/// Softmax or LogSoftmax over one axis: max, sum of exp(x - max), then the
/// element-wise output.
Tensor softmaxOf(const Tensor& x, int64_t axisIn, bool log, const std::string& name, int64_t treeLanes) {
    const auto shape = staticShape(x);
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, x.ndim()));
    if (treeLanes > 0 && axis + 1 != shape.size())
        throw CompileError("softmax: a reduction tree needs the innermost axis");
    std::vector<bool> reduced(shape.size(), false);
    reduced[axis] = true;
    auto dropAxis = [&](const std::vector<Var>& i) {
        std::vector<Expr> r(i.begin(), i.end());
        r.erase(r.begin() + long(axis));
        return r;
    };
    // Over the innermost axis (attention's rows): partial maxima and sums
    // that the schedule vectorises, instead of one serial chain per row.
    Tensor mx, sum;
    if (treeLanes > 0 || (axis + 1 == shape.size() && reduceLanes(shape[axis]) > 0)) {
        std::vector<int64_t> rowShape(shape.begin(), shape.end() - 1);
        auto at = [&](const std::vector<Expr>& outer, Expr k) {
            std::vector<Expr> idx = outer;
            idx.push_back(std::move(k));
            return x(idx);
        };
        auto row = [&](ReduceOp op, const std::function<Expr(const std::vector<Expr>&, Expr)>& element,
                       const std::string& stage) {
            if (treeLanes > 0) return reduceRowTree(rowShape, shape[axis], treeLanes, op, element, stage);
            return reduceRow(rowShape, shape[axis], op == ReduceOp::Max ? Reducer(te::max) : Reducer(te::sum),
                             element, stage);
        };
        mx = row(ReduceOp::Max, at, name + "_max");
        sum = row(
            ReduceOp::Sum,
            [&](const std::vector<Expr>& outer, Expr k) { return tir::exp(at(outer, std::move(k)) - mx(outer)); },
            name + "_sum");
    } else {
        mx = reduceStage(
            x, reduced, false, te::max, [](Expr v) { return v; }, name + "_max");
        // The sum stage reads x at the reduction variable, and max at the other axes.
        sum = te::compute(
            mx->shape,
            [&](const std::vector<Var>& i) {
                IterVar rv = reduceVar(axis, shape[axis]);
                std::vector<Expr> at(i.begin(), i.end());
                at.insert(at.begin() + long(axis), rv->var);
                return te::sum(tir::exp(x(at) - mx(std::vector<Expr>(i.begin(), i.end()))), {rv});
            },
            name + "_sum", tag::kReduce);
    }
    return elemwise(
        shape,
        [&](const std::vector<Var>& i) {
            Expr v = x(std::vector<Expr>(i.begin(), i.end())) - mx(dropAxis(i));
            if (log) return v - call(Intrinsic::Log, {sum(dropAxis(i))});
            return tir::exp(v) / sum(dropAxis(i));
        },
        name);
}

/// Mean and 1 / sqrt(variance + epsilon) of `x` over the axes from `first`
/// on, in `type`, each with those axes kept as extent 1.
struct Moments {
    Tensor mean;
    Tensor invStdDev;
};

Moments moments(const Tensor& x, size_t first, double epsilon, DataType type,
                const std::string& name, int64_t treeLanes) {
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
    // With a tree: both sums over the innermost axis (statShape ends in 1).
    auto rowAt = [&](const std::vector<Expr>& outer, Expr k) {
        std::vector<Expr> at(outer.begin(), outer.end() - 1);
        at.push_back(std::move(k));
        return as(type, x(at));
    };
    if (treeLanes > 0 && first + 1 != shape.size())
        throw CompileError("layer norm: a reduction tree needs the innermost axis alone");
    Tensor sum = treeLanes > 0 ? reduceRowTree(statShape, n, treeLanes, ReduceOp::Sum, rowAt, name + "_sum")
                               : reduceStage(
                                     x, reduced, true, te::sum, [&](Expr v) { return as(type, v); }, name + "_sum");
    Tensor mean = elemwise(
        statShape,
        [&](const std::vector<Var>& i) {
            return sum(std::vector<Expr>(i.begin(), i.end())) / count;
        },
        name + "_mean");
    // Two passes (the squares of x - mean) rather than E[x^2] - E[x]^2, which cancels badly.
    Tensor sq;
    if (treeLanes > 0) {
        sq = reduceRowTree(
            statShape, n, treeLanes, ReduceOp::Sum,
            [&](const std::vector<Expr>& outer, Expr k) {
                Expr diff = rowAt(outer, std::move(k)) - mean(outer);
                return diff * diff;
            },
            name + "_sqsum");
    } else {
        sq = te::compute(
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
    }
    Tensor inv = elemwise(
        statShape,
        [&](const std::vector<Var>& i) {
            Expr var = sq(std::vector<Expr>(i.begin(), i.end())) / count;
            return makeConst(type, 1.0) / tir::sqrt(var + makeConst(type, epsilon));
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

} // namespace

Tensor softmax(const Tensor& x, int64_t axis, const std::string& name, int64_t treeLanes) {
    return softmaxOf(x, axis, false, name, treeLanes);
}

Tensor logSoftmax(const Tensor& x, int64_t axis, const std::string& name, int64_t treeLanes) {
    return softmaxOf(x, axis, true, name, treeLanes);
}

LayerNormResult layerNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const LayerNormParams& params,
                          const std::string& name) {
    const auto first = static_cast<size_t>(normalizeAxis(params.axis, x.ndim()));
    const DataType stash = params.stashType;
    if (!stash.isFloat()) throw CompileError("stash_type must be a floating-point type");
    Moments m = moments(x, first, params.epsilon, stash, name, params.treeLanes);
    const DataType t = x->dtype;
    Tensor out = elemwise(
        staticShape(x),
        [&](const std::vector<Var>& i) {
            Expr v = (as(stash, x(std::vector<Expr>(i.begin(), i.end()))) - statRead(m.mean, i, first)) *
                     statRead(m.invStdDev, i, first);
            Expr y = as(t, v) * broadcastRead(scale, i);
            return bias.defined() ? y + broadcastRead(bias, i) : y;
        },
        name);
    return {out, m.mean, m.invStdDev};
}

Tensor lrn(const Tensor& x, int64_t size, double alpha, double beta, double bias, const std::string& name) {
    if (x.ndim() < 3 || size < 1) throw CompileError("lrn: the input must be [N, C, ...] and size at least 1");
    const auto shape = staticShape(x);
    const int64_t channels = shape[1], before = (size - 1) / 2;
    const DataType t = x->dtype;
    Tensor sq = te::compute(
        toExprs(shape),
        [&](const std::vector<Var>& i) {
            IterVar rc = te::reduceAxis(Range(intImm(0), intImm(size)), "rc");
            Expr c = Expr(i[1]) - intImm(before) + Expr(rc->var);
            std::vector<Expr> at = exprs(i);
            at[1] = c;
            Expr v = paddedRead(x, at, makeZero(t));
            return te::sum(v * v, {rc});
        },
        name + "_sqsum", tag::kReduce);
    (void)channels;
    return elemwise(
        shape,
        [&](const std::vector<Var>& i) {
            Expr base = makeConst(t, bias) + makeConst(t, alpha / double(size)) * sq(exprs(i));
            return x(exprs(i)) / call(Intrinsic::Pow, {base, makeConst(t, beta)});
        },
        name);
}

Tensor meanVarianceNormalization(const Tensor& x, const std::vector<int64_t>& axes, const std::string& name) {
    const auto shape = staticShape(x);
    std::vector<bool> reduced(shape.size(), false);
    int64_t n = 1;
    for (int64_t a : axes) {
        const auto d = static_cast<size_t>(normalizeAxis(a, x.ndim()));
        if (!reduced[d]) n *= shape[d];
        reduced[d] = true;
    }
    const DataType t = x->dtype;
    const Expr count = makeConst(t, double(n));
    auto statAt = [&](const std::vector<Var>& i) {
        std::vector<Expr> at = exprs(i);
        for (size_t d = 0; d < at.size(); ++d)
            if (reduced[d]) at[d] = intImm(0);
        return at;
    };
    Tensor sum = reduceStage(x, reduced, true, te::sum, [](Expr v) { return v; }, name + "_sum");
    std::vector<int64_t> statShape = staticShape(sum);
    Tensor mean = elemwise(statShape, [&](const std::vector<Var>& i) { return sum(exprs(i)) / count; }, name + "_mean");
    Tensor sq = te::compute(
        toExprs(statShape),
        [&](const std::vector<Var>& i) {
            std::vector<IterVar> rv;
            std::vector<Expr> at = exprs(i);
            for (size_t d = 0; d < shape.size(); ++d)
                if (reduced[d]) {
                    rv.push_back(reduceVar(d, shape[d]));
                    at[d] = rv.back()->var;
                }
            Expr diff = x(at) - mean(exprs(i));
            return te::sum(diff * diff, rv);
        },
        name + "_sqsum", tag::kReduce);
    return elemwise(
        shape,
        [&](const std::vector<Var>& i) {
            Expr sd = tir::sqrt(sq(statAt(i)) / count);
            return (x(exprs(i)) - mean(statAt(i))) / (sd + makeConst(t, 1e-9));
        },
        name);
}

Tensor instanceNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, double epsilon,
                    const std::string& name) {
    if (x.ndim() < 3) throw CompileError("the input must have at least one spatial axis (N, C, D1, ...)");
    const DataType t = x->dtype;
    Moments m = moments(x, 2, epsilon, t, name, 0);
    return elemwise(
        staticShape(x),
        [&](const std::vector<Var>& i) {
            Expr v = (x(std::vector<Expr>(i.begin(), i.end())) - statRead(m.mean, i, 2)) * statRead(m.invStdDev, i, 2);
            return v * scale({i[1]}) + bias({i[1]});
        },
        name);
}

} // namespace nn

} // namespace tessel::topi
