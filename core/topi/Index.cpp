// Gathers, scatters, one-hot, TopK and the triangle and diagonal masks.
#include "topi/Index.h"

#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

#include <algorithm>
#include <numeric>

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

Tensor maxPoolIndices(const Tensor& x, const Tensor& pooled, const std::vector<int64_t>& kernel,
                      const std::vector<int64_t>& strides, const std::vector<int64_t>& pads,
                      const std::vector<int64_t>& dilations, bool columnMajor, const std::string& name) {
    const auto xs = staticShape(x), ps = staticShape(pooled);
    if (xs.size() != 4 || kernel.size() != 2 || strides.size() != 2 || pads.size() != 4 || dilations.size() != 2)
        throw CompileError("max_pool_indices: 2-d pooling of [N, C, H, W] only");
    const int64_t H = xs[2], W = xs[3];
    const DataType i64 = DataType::int64();
    const int64_t none = xs[0] * xs[1] * H * W; // larger than every index
    Tensor key = te::compute(
        toExprs(ps),
        [&](const std::vector<Var>& i) {
            IterVar kh = reduceVar("kh", kernel[0]), kw = reduceVar("kw", kernel[1]);
            Expr h = Expr(i[2]) * intImm(strides[0]) - intImm(pads[0]) + Expr(kh->var) * intImm(dilations[0]);
            Expr w = Expr(i[3]) * intImm(strides[1]) - intImm(pads[1]) + Expr(kw->var) * intImm(dilations[1]);
            Expr inside = h >= intImm(0) && h < intImm(H) && w >= intImm(0) && w < intImm(W);
            Expr v = paddedRead(x, {Expr(i[0]), Expr(i[1]), h, w}, makeZero(x->dtype));
            Expr plane = (asInt64(i[0]) * makeConst(i64, xs[1]) + asInt64(i[1])) * makeConst(i64, H * W);
            Expr at = columnMajor ? asInt64(w) * makeConst(i64, H) + asInt64(h) : asInt64(h) * makeConst(i64, W) + asInt64(w);
            Expr hit = inside && v == pooled(exprs(i));
            // The first window position in row-major scan order holding the maximum.
            Expr order = asInt64(Expr(kh->var) * intImm(kernel[1]) + Expr(kw->var));
            Expr key = select(hit, order * makeConst(i64, none) + plane + at, makeConst(i64, kernel[0] * kernel[1] * none));
            return te::min(key, {kh, kw});
        },
        name + "_key", tag::kReduce);
    return injective(ps, [&](const std::vector<Var>& i) {
        return floormod(key(exprs(i)), makeConst(i64, none));
    }, name);
}

Tensor maxUnpool(const Tensor& x, const Tensor& indices, const std::vector<int64_t>& outShape,
                 const std::vector<int64_t>& indexShape, const std::string& name) {
    const auto xs = staticShape(x);
    if (xs.size() < 3 || outShape.size() != xs.size() || indexShape.size() != xs.size() || staticShape(indices) != xs ||
        outShape[0] != xs[0] || outShape[1] != xs[1])
        throw CompileError("max_unpool: x and indices must be [N, C, spatial...] and the output keep N and C");
    const DataType i64 = DataType::int64();
    // Each output element gathers the inputs of its own plane whose index names it.
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            std::vector<IterVar> rv;
            std::vector<Expr> at{Expr(i[0]), Expr(i[1])};
            for (size_t d = 2; d < xs.size(); ++d) {
                rv.push_back(reduceVar("r" + std::to_string(d), xs[d]));
                at.push_back(rv.back()->var);
            }
            Expr flat = asInt64(i[0]) * makeConst(i64, xs[1]) + asInt64(i[1]);
            Expr inside = makeConst(DataType::boolean(), int64_t(1));
            for (size_t d = 2; d < outShape.size(); ++d) {
                flat = flat * makeConst(i64, indexShape[d]) + asInt64(i[d]);
                if (indexShape[d] < outShape[d]) inside = inside && Expr(i[d]) < intImm(indexShape[d]);
            }
            return te::sum(select(inside && asInt64(indices(at)) == flat, x(at), makeZero(x->dtype)), rv);
        },
        name, tag::kReduce);
}

Tensor roiAlign(const Tensor& x, const Tensor& rois, const Tensor& batchIndices, const RoiAlignParams& p,
                const std::string& name) {
    const auto xs = staticShape(x), rs = staticShape(rois);
    if (xs.size() != 4 || rs.size() != 2 || rs[1] != 4) throw CompileError("roi_align: x must be [N, C, H, W] and rois [R, 4]");
    if (p.samplingRatio < 1)
        throw CompileError("roi_align: sampling_ratio 0 (adaptive, data-dependent) is not supported");
    const int64_t H = xs[2], W = xs[3], g = p.samplingRatio;
    const DataType t = x->dtype;
    auto c = [&](double d) { return makeConst(t, d); };
    Tensor sum = te::compute(
        toExprs({rs[0], xs[1], p.outputHeight, p.outputWidth}),
        [&](const std::vector<Var>& i) {
            IterVar iy = reduceVar("iy", g), ix = reduceVar("ix", g);
            const double offset = p.halfPixel ? 0.5 : 0.0;
            auto coord = [&](int k) { return rois({Expr(i[0]), intImm(k)}) * c(p.spatialScale) - c(offset); };
            Expr x1 = coord(0), y1 = coord(1), x2 = coord(2), y2 = coord(3);
            Expr rw = x2 - x1, rh = y2 - y1;
            if (!p.halfPixel) {
                rw = tir::max(rw, c(1.0));
                rh = tir::max(rh, c(1.0));
            }
            Expr bh = rh / c(double(p.outputHeight)), bw = rw / c(double(p.outputWidth));
            Expr y = y1 + tir::cast(t, Expr(i[2])) * bh + (tir::cast(t, Expr(iy->var)) + c(0.5)) * bh / c(double(g));
            Expr xx = x1 + tir::cast(t, Expr(i[3])) * bw + (tir::cast(t, Expr(ix->var)) + c(0.5)) * bw / c(double(g));
            // Caffe2's bilinear_interpolate: outside [-1, size] gives 0; the
            // last row and column are repeated.
            Expr outside = y < c(-1.0) || y > c(double(H)) || xx < c(-1.0) || xx > c(double(W));
            y = tir::max(y, c(0.0));
            xx = tir::max(xx, c(0.0));
            Expr yl = call(Intrinsic::Floor, {y}), xl = call(Intrinsic::Floor, {xx});
            Expr yEdge = yl >= c(double(H - 1)), xEdge = xl >= c(double(W - 1));
            yl = select(yEdge, c(double(H - 1)), yl);
            xl = select(xEdge, c(double(W - 1)), xl);
            y = select(yEdge, yl, y);
            xx = select(xEdge, xl, xx);
            Expr yh = select(yEdge, yl, yl + c(1.0)), xh = select(xEdge, xl, xl + c(1.0));
            Expr ly = y - yl, lx = xx - xl, hy = c(1.0) - ly, hx = c(1.0) - lx;
            Expr b = tir::cast(DataType::int32(), clampIndex(batchIndices({Expr(i[0])}), 0, xs[0] - 1));
            auto at = [&](Expr yy, Expr xv) {
                return x({b, Expr(i[1]), clampIndex(tir::cast(DataType::int32(), yy), 0, H - 1),
                          clampIndex(tir::cast(DataType::int32(), xv), 0, W - 1)});
            };
            Expr v1 = hy * hx * at(yl, xl), v2 = hy * lx * at(yl, xh), v3 = ly * hx * at(yh, xl), v4 = ly * lx * at(yh, xh);
            if (p.max) {
                Expr m = tir::max(tir::max(v1, v2), tir::max(v3, v4));
                return te::max(select(outside, c(0.0), m), {iy, ix});
            }
            return te::sum(select(outside, c(0.0), v1 + v2 + v3 + v4), {iy, ix});
        },
        p.max ? name : name + "_sum", tag::kReduce);
    if (p.max) return sum;
    return te::compute(
        sum->shape, [&](const std::vector<Var>& i) { return sum(exprs(i)) / c(double(g * g)); }, name, tag::kElemWise);
}

Tensor det(const Tensor& x, const std::string& name) {
    const auto shape = staticShape(x);
    if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2])
        throw CompileError("det: the input must be [..., M, M]");
    const int64_t m = shape.back();
    if (m > 4) throw CompileError("det of " + std::to_string(m) + "x" + std::to_string(m) + " matrices is not supported (up to 4x4)");
    std::vector<int64_t> outShape(shape.begin(), shape.end() - 2);
    std::vector<int> perm(static_cast<size_t>(m));
    std::iota(perm.begin(), perm.end(), 0);
    std::vector<std::pair<std::vector<int>, bool>> terms; // permutation, odd
    do {
        int inversions = 0;
        for (size_t a = 0; a < perm.size(); ++a)
            for (size_t b = a + 1; b < perm.size(); ++b) inversions += perm[a] > perm[b] ? 1 : 0;
        terms.emplace_back(perm, inversions % 2 != 0);
    } while (std::next_permutation(perm.begin(), perm.end()));
    return injective(outShape, [&](const std::vector<Var>& i) {
        Expr sum;
        for (auto& [pm, odd] : terms) {
            Expr prod;
            for (int64_t r = 0; r < m; ++r) {
                std::vector<Expr> at = exprs(i);
                at.push_back(intImm(r));
                at.push_back(intImm(pm[size_t(r)]));
                prod = prod.defined() ? prod * x(at) : x(at);
            }
            sum = !sum.defined() ? (odd ? makeZero(x->dtype) - prod : prod) : (odd ? sum - prod : sum + prod);
        }
        return sum;
    }, name);
}

} // namespace tessel::topi
