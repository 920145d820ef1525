// Gathers, scatters, one-hot, TopK and the triangle and diagonal masks.
#include "topi/Index.h"

#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {

using tir::IterVar;
using tir::Range;

Tensor injective(const std::vector<int64_t>& shape, const te::ComputeFunction& f, const std::string& name) {
    return te::compute(toExprs(shape), f, name, tag::kInjective);
}

/// An index read from a tensor made an int32 position on an axis of extent
/// `dim`: negative values count from the end, and the result is clamped.
Expr axisIndex(Expr k, int64_t dim) {
    if (k.type().isFloat()) k = tir::cast(DataType::int64(), k);
    k = select(k < makeZero(k.type()), k + makeConst(k.type(), dim), k);
    return tir::cast(DataType::int32(), clampIndex(k, 0, dim - 1));
}

/// The same index unclamped (int64), for comparing with a position: an
/// index out of range then matches nothing.
Expr axisIndexRaw(Expr k, int64_t dim) {
    k = tir::cast(DataType::int64(), k);
    return select(k < makeZero(k.type()), k + makeConst(k.type(), dim), k);
}

Expr asInt64(Expr e) {
    return e.type() == DataType::int64() ? e : tir::cast(DataType::int64(), e);
}

IterVar reduceVar(const std::string& name, int64_t n) {
    return te::reduceAxis(Range(intImm(0), intImm(n)), name);
}

} // namespace

Tensor gatherElements(const Tensor& data, const Tensor& indices, int64_t axisIn, const std::string& name) {
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, data.ndim()));
    const auto ds = staticShape(data), is = staticShape(indices);
    if (is.size() != ds.size()) throw CompileError("indices must have the rank of data");
    for (size_t d = 0; d < ds.size(); ++d)
        if (d != axis && is[d] > ds[d]) throw CompileError("indices are larger than data on axis " + std::to_string(d));
    return injective(is, [&](const std::vector<Var>& i) {
        std::vector<Expr> at = exprs(i);
        at[axis] = axisIndex(indices(exprs(i)), ds[axis]);
        return data(at);
    }, name);
}

Tensor gatherND(const Tensor& data, const Tensor& indices, int64_t batchDims, const std::string& name) {
    const auto ds = staticShape(data), is = staticShape(indices);
    const auto b = static_cast<size_t>(batchDims);
    if (is.empty() || b >= is.size()) throw CompileError("gather_nd: batch_dims does not fit the indices");
    const auto k = static_cast<size_t>(is.back());
    if (b + k > ds.size()) throw CompileError("gather_nd: the indices address more axes than data has");
    std::vector<int64_t> shape(is.begin(), is.end() - 1);
    shape.insert(shape.end(), ds.begin() + long(b + k), ds.end());
    const size_t q = is.size() - 1;
    return injective(shape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at(i.begin(), i.begin() + long(b));
        std::vector<Expr> row(i.begin(), i.begin() + long(q));
        row.push_back(Expr());
        for (size_t j = 0; j < k; ++j) {
            row.back() = intImm(int64_t(j));
            at.push_back(axisIndex(indices(row), ds[b + j]));
        }
        at.insert(at.end(), i.begin() + long(q), i.end());
        return data(at);
    }, name);
}

Tensor scatterElements(const Tensor& data, const Tensor& indices, const Tensor& updates, int64_t axisIn,
                       ScatterReduction reduction, const std::string& name) {
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, data.ndim()));
    const auto ds = staticShape(data), is = staticShape(indices);
    if (is.size() != ds.size() || staticShape(updates) != is)
        throw CompileError("indices and updates must have one shape, of the rank of data");
    for (size_t d = 0; d < ds.size(); ++d)
        if (d != axis && is[d] > ds[d]) throw CompileError("indices are larger than data on axis " + std::to_string(d));
    const DataType t = data->dtype;
    // Which update lands on each element: a reduction along the indexed axis
    // of the updates at the element's other coordinates.
    Tensor landed = te::compute(
        toExprs(ds),
        [&](const std::vector<Var>& i) {
            IterVar rk = reduceVar("rk", is[axis]);
            std::vector<Expr> at;
            Expr inside = makeConst(DataType::boolean(), int64_t(1));
            for (size_t d = 0; d < ds.size(); ++d) {
                if (d == axis) {
                    at.push_back(rk->var);
                    continue;
                }
                at.push_back(is[d] < ds[d] ? clampIndex(i[d], 0, is[d] - 1) : Expr(i[d]));
                if (is[d] < ds[d]) inside = inside && Expr(i[d]) < intImm(is[d]);
            }
            Expr hit = inside && axisIndexRaw(indices(at), ds[axis]) == asInt64(i[axis]);
            switch (reduction) {
            case ScatterReduction::Add:
                return te::sum(select(hit, updates(at), makeZero(t)), {rk});
            case ScatterReduction::Mul:
                return te::prod(select(hit, updates(at), constant(t, 1)), {rk});
            default:
                return te::max(select(hit, Expr(rk->var), intImm(-1)), {rk});
            }
        },
        name + "_landed", tag::kReduce);
    return injective(ds, [&](const std::vector<Var>& i) {
        std::vector<Expr> here = exprs(i);
        if (reduction == ScatterReduction::Add) return data(here) + landed(here);
        if (reduction == ScatterReduction::Mul) return data(here) * landed(here);
        Expr last = landed(here);
        std::vector<Expr> at;
        for (size_t d = 0; d < ds.size(); ++d)
            at.push_back(d == axis ? clampIndex(last, 0, is[d] - 1) : clampIndex(here[d], 0, is[d] - 1));
        return select(last >= intImm(0), updates(at), data(here));
    }, name);
}

Tensor scatterND(const Tensor& data, const Tensor& indices, const Tensor& updates, ScatterReduction reduction,
                 const std::string& name) {
    const auto ds = staticShape(data), is = staticShape(indices), us = staticShape(updates);
    if (is.empty()) throw CompileError("scatter_nd: indices must have at least one axis");
    const auto k = static_cast<size_t>(is.back());
    const size_t q = is.size() - 1;
    if (k > ds.size() || us.size() != q + ds.size() - k)
        throw CompileError("scatter_nd: updates must have the shape indices[:-1] + data[k:]");
    const DataType t = data->dtype;
    // Flat positions of the index rows (a single row when indices is 1-D).
    std::vector<int64_t> rows(is.begin(), is.end() - 1);
    if (rows.empty()) rows.push_back(1);
    std::vector<int64_t> stride(rows.size(), 1);
    for (size_t j = rows.size() - 1; j > 0; --j)
        stride[j - 1] = stride[j] * rows[j];
    Tensor landed = te::compute(
        toExprs(ds),
        [&](const std::vector<Var>& i) {
            std::vector<IterVar> rv;
            std::vector<Expr> row, at;
            Expr flat = intImm(0);
            for (size_t j = 0; j < rows.size(); ++j) {
                rv.push_back(reduceVar("rb" + std::to_string(j), rows[j]));
                flat = flat + Expr(rv.back()->var) * intImm(stride[j]);
            }
            for (size_t j = 0; j < q; ++j)
                row.push_back(rv[j]->var);
            at = row;
            row.push_back(Expr());
            Expr hit = makeConst(DataType::boolean(), int64_t(1));
            for (size_t j = 0; j < k; ++j) {
                row.back() = intImm(int64_t(j));
                hit = hit && axisIndexRaw(indices(row), ds[j]) == asInt64(i[j]);
            }
            at.insert(at.end(), i.begin() + long(k), i.end());
            switch (reduction) {
            case ScatterReduction::Add:
                return te::sum(select(hit, updates(at), makeZero(t)), rv);
            case ScatterReduction::Mul:
                return te::prod(select(hit, updates(at), constant(t, 1)), rv);
            default:
                return te::max(select(hit, flat, intImm(-1)), rv);
            }
        },
        name + "_landed", tag::kReduce);
    return injective(ds, [&](const std::vector<Var>& i) {
        std::vector<Expr> here = exprs(i);
        if (reduction == ScatterReduction::Add) return data(here) + landed(here);
        if (reduction == ScatterReduction::Mul) return data(here) * landed(here);
        Expr last = landed(here);
        Expr pos = tir::max(last, intImm(0));
        std::vector<Expr> at;
        for (size_t j = 0; j < q; ++j)
            at.push_back(floormod(floordiv(pos, intImm(stride[j])), intImm(rows[j])));
        at.insert(at.end(), here.begin() + long(k), here.end());
        return select(last >= intImm(0), updates(at), data(here));
    }, name);
}

Tensor oneHot(const Tensor& indices, int64_t depth, const Tensor& values, int64_t axisIn, const std::string& name) {
    if (depth < 1) throw CompileError("one_hot: depth must be at least 1");
    const auto is = staticShape(indices);
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, indices.ndim() + 1));
    std::vector<int64_t> shape = is;
    shape.insert(shape.begin() + long(axis), depth);
    return injective(shape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at = exprs(i);
        at.erase(at.begin() + long(axis));
        Expr hit = axisIndexRaw(indices(at), depth) == asInt64(i[axis]);
        return select(hit, values({intImm(1)}), values({intImm(0)}));
    }, name);
}

Tensor trilu(const Tensor& x, const Tensor& k, bool upper, const std::string& name) {
    const auto shape = staticShape(x);
    if (shape.size() < 2) throw CompileError("trilu: the input needs at least two axes");
    const DataType i64 = DataType::int64();
    Expr diag = k.defined() ? scalarOf(k, i64) : makeConst(i64, int64_t(0));
    return injective(shape, [&](const std::vector<Var>& i) {
        Expr d = asInt64(i.back()) - asInt64(i[i.size() - 2]);
        Expr keep = upper ? d >= diag : d <= diag;
        return select(keep, x(exprs(i)), makeZero(x->dtype));
    }, name);
}

Tensor reverseSequence(const Tensor& x, const Tensor& lens, int64_t batchAxis, int64_t timeAxis,
                       const std::string& name) {
    const auto shape = staticShape(x);
    const auto b = static_cast<size_t>(normalizeAxis(batchAxis, x.ndim()));
    const auto t = static_cast<size_t>(normalizeAxis(timeAxis, x.ndim()));
    const int64_t steps = shape[t];
    return injective(shape, [&](const std::vector<Var>& i) {
        Expr n = tir::cast(DataType::int32(), clampIndex(lens({Expr(i[b])}), 0, steps));
        std::vector<Expr> at = exprs(i);
        at[t] = select(Expr(i[t]) < n, n - intImm(1) - Expr(i[t]), Expr(i[t]));
        return x(at);
    }, name);
}

Tensor eyeLike(const std::vector<int64_t>& shape, DataType dtype, int64_t k, const std::string& name) {
    if (shape.size() != 2) throw CompileError("eye_like: the shape must be 2-D");
    return injective(shape, [&](const std::vector<Var>& i) {
        return select(Expr(i[1]) - Expr(i[0]) == intImm(k), constant(dtype, 1), constant(dtype, 0));
    }, name);
}

std::vector<Tensor> topK(const Tensor& x, int64_t k, int64_t axisIn, bool largest, const std::string& name) {
    const auto shape = staticShape(x);
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, x.ndim()));
    const int64_t n = shape[axis];
    if (k < 0 || k > n) throw CompileError("topk: k = " + std::to_string(k) + " is out of range");
    // The rank of every element in its row: how many elements come before it
    // (better, or equal at a lower index). Ranks are a permutation of 0..n-1.
    Tensor rank = te::compute(
        toExprs(shape),
        [&](const std::vector<Var>& i) {
            IterVar rj = reduceVar("rj", n);
            std::vector<Expr> at = exprs(i);
            at[axis] = rj->var;
            Expr other = x(at), self = x(exprs(i));
            Expr better = largest ? other > self : other < self;
            Expr before = better || (other == self && Expr(rj->var) < Expr(i[axis]));
            return te::sum(select(before, intImm(1), intImm(0)), {rj});
        },
        name + "_rank", tag::kReduce);
    std::vector<int64_t> outShape = shape;
    outShape[axis] = k;
    const DataType i64 = DataType::int64();
    Tensor index = te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            IterVar ri = reduceVar("ri", n);
            std::vector<Expr> at = exprs(i);
            at[axis] = ri->var;
            return te::sum(select(rank(at) == Expr(i[axis]), asInt64(ri->var), makeZero(i64)), {ri});
        },
        name + "_indices", tag::kReduce);
    Tensor values = injective(outShape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at = exprs(i);
        at[axis] = tir::cast(DataType::int32(), clampIndex(index(exprs(i)), 0, n - 1));
        return x(at);
    }, name);
    return {values, index};
}

} // namespace tessel::topi
