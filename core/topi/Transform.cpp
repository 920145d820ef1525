// Injective operators that move data: reshapes, transposes, slices, joins,
// padding, resizing, gathers and shape producers.
#include "topi/Transform.h"

#include "ir/Layout.h"

#include "ir/AxisMath.h"
#include "ir/Diagnostic.h"
#include "tir/arith/Analyzer.h"
#include "topi/TopiUtil.h"

#include <algorithm>
#include <numeric>

namespace tessel::topi::transform {

using namespace tir;

namespace {

std::string shapeStr(const std::vector<int64_t>& s) {
    std::string t = "[";
    for (size_t k = 0; k < s.size(); ++k)
        t += (k ? ", " : "") + std::to_string(s[k]);
    return t + "]";
}

/// A stage of `shape` tagged injective.
Tensor injective(const std::vector<int64_t>& shape, const te::ComputeFunction& f, const std::string& name) {
    return te::compute(toExprs(shape), f, name, tag::kInjective);
}

} // namespace

// --- reshapes ------------------------------------------------------------------

Tensor reshape(const Tensor& x, const std::vector<int64_t>& newShape, const std::string& name) {
    std::vector<int64_t> inShape = staticShape(x), outShape = newShape;
    int64_t count = 1, known = 1;
    for (int64_t d : inShape)
        count *= d;
    int inferred = -1;
    for (size_t d = 0; d < outShape.size(); ++d) {
        if (outShape[d] == -1 && inferred < 0) {
            inferred = int(d);
            continue;
        }
        if (outShape[d] < 0) throw CompileError("cannot reshape to " + shapeStr(newShape));
        known *= outShape[d];
    }
    if (inferred >= 0 && known > 0 && count % known == 0) outShape[size_t(inferred)] = count / known;
    int64_t total = 1;
    for (int64_t d : outShape)
        total *= d;
    if (total != count)
        throw CompileError("cannot reshape " + shapeStr(inShape) + " to " + shapeStr(newShape) +
                           ": the element counts differ");
    // When only size-1 axes are added or removed (Squeeze, Unsqueeze, most
    // Flattens), each remaining axis maps to one axis: no division needed.
    std::vector<size_t> inAxes, outAxes;
    for (size_t d = 0; d < inShape.size(); ++d)
        if (inShape[d] != 1) inAxes.push_back(d);
    for (size_t d = 0; d < outShape.size(); ++d)
        if (outShape[d] != 1) outAxes.push_back(d);
    bool direct = inAxes.size() == outAxes.size();
    for (size_t k = 0; direct && k < inAxes.size(); ++k)
        direct = inShape[inAxes[k]] == outShape[outAxes[k]];
    return injective(outShape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at(inShape.size(), intImm(0));
        if (direct) {
            for (size_t k = 0; k < inAxes.size(); ++k)
                at[inAxes[k]] = i[outAxes[k]];
            return x(at);
        }
        Expr flat = intImm(0);
        for (size_t d = 0; d < outShape.size(); ++d)
            flat = outShape[d] == 1 ? flat : flat * intImm(outShape[d]) + i[d];
        for (size_t d = inShape.size(); d-- > 0;) {
            if (inShape[d] == 1) continue;
            at[d] = d == 0 ? flat : floormod(flat, intImm(inShape[d]));
            flat = floordiv(flat, intImm(inShape[d]));
        }
        // Simplified under the output's extents, an axis split or merged in
        // whole is an affine index ([B, S, H * D] as [B, S, H, D] reads
        // x[b, s, h * D + d], no division): what bound inference and the
        // GPU's tiled transpose (topi/ScheduleGpu.h) can follow.
        arith::Analyzer an;
        for (size_t d = 0; d < outShape.size(); ++d) an.bind(i[d], Range(intImm(0), intImm(outShape[d])));
        for (auto& e : at) e = an.simplify(e);
        return x(at);
    }, name);
}

Tensor transpose(const Tensor& x, const std::vector<int64_t>& permIn, const std::string& name) {
    const auto xs = staticShape(x);
    std::vector<int64_t> perm(xs.size());
    std::iota(perm.rbegin(), perm.rend(), 0);
    if (!permIn.empty()) perm = permIn;
    if (perm.size() != xs.size())
        throw CompileError("perm has " + std::to_string(perm.size()) + " axes for a tensor of rank " +
                           std::to_string(xs.size()));
    std::vector<int64_t> shape;
    std::vector<bool> seen(xs.size(), false);
    for (auto& p : perm) {
        p = normalizeAxis(p, int64_t(xs.size()));
        if (seen[size_t(p)]) throw CompileError("perm names axis " + std::to_string(p) + " twice");
        seen[size_t(p)] = true;
        shape.push_back(xs[size_t(p)]);
    }
    return injective(shape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at(perm.size());
        for (size_t k = 0; k < perm.size(); ++k)
            at[static_cast<size_t>(perm[k])] = i[k];
        return x(at);
    }, name);
}

Tensor layoutTransform(const Tensor& x, const std::string& src, const std::string& dst, const std::string& name) {
    const auto xs = staticShape(x);
    const Layout from = src.empty() ? Layout() : Layout::of(src);
    const Layout to = dst.empty() ? Layout() : Layout::of(dst);
    // A plain side takes the other's primal axes.
    const Layout a = from.empty() ? to.primal() : from, b = to.empty() ? from.primal() : to;
    if (a.empty() || b.empty()) throw CompileError("layout_transform needs at least one layout");
    if (!a.convertibleTo(b))
        throw CompileError("layout_transform from " + a.str() + " to " + b.str() + ": not the same axes");
    auto logical = a.logicalShape(xs);
    if (!logical) throw CompileError("input " + typeText(x) + " is not stored as " + a.str());
    auto shape = b.storedShape(*logical);
    if (!shape) throw CompileError("layout_transform: " + b.str() + " does not divide the tensor's axes");
    return injective(*shape, [&](const std::vector<Var>& i) {
        // The logical index of each primal axis, then where `a` stores it.
        auto logicalOf = [&](char p) {
            const int outer = b.storedIndexOf(p);
            const int64_t block = b.blockOf(p);
            Expr v = i[size_t(outer)];
            if (block > 0) v = v * intImm(block) + i[size_t(b.storedIndexOf(char(p - 'A' + 'a')))];
            return v;
        };
        std::vector<Expr> at;
        for (auto& ax : a.axes()) {
            if (ax.primal()) {
                const int64_t block = a.blockOf(ax.name);
                Expr l = logicalOf(ax.name);
                at.push_back(block > 0 ? floordiv(l, intImm(block)) : l);
            } else {
                at.push_back(floormod(logicalOf(char(ax.name - 'a' + 'A')), intImm(ax.factor)));
            }
        }
        return x(at);
    }, name);
}

// --- joins and slices ------------------------------------------------------------

Tensor concatenate(const std::vector<Tensor>& ins, int64_t axisIn, const std::string& name) {
    if (ins.empty()) throw CompileError("needs at least one input");
    const int64_t rank = ins[0].ndim();
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, rank));
    std::vector<int64_t> begin, extent, shape = staticShape(ins[0]);
    int64_t offset = 0;
    for (auto& t : ins) {
        auto ts = staticShape(t);
        for (size_t d = 0; d < ts.size(); ++d)
            if (ts.size() != shape.size() || (d != axis && ts[d] != shape[d]))
                throw CompileError("cannot join " + shapeStr(shape) + " and " + shapeStr(ts) + " along axis " +
                                   std::to_string(axis));
        begin.push_back(offset);
        extent.push_back(ts[axis]);
        offset += extent.back();
    }
    shape[axis] = offset;
    return injective(shape, [&](const std::vector<Var>& i) {
        // Select evaluates both sides: each read is clamped into its input.
        Expr v;
        for (size_t k = ins.size(); k-- > 0;) {
            std::vector<Expr> at = exprs(i);
            at[axis] = i[axis] - intImm(begin[k]);
            if (ins.size() > 1) at[axis] = clampIndex(at[axis], 0, extent[k] - 1);
            Expr read = ins[k](at);
            v = v.defined() ? select(i[axis] < intImm(begin[k] + extent[k]), read, v) : read;
        }
        return v;
    }, name);
}

std::vector<Tensor> split(const Tensor& x, const std::vector<int64_t>& sizes, int64_t axisIn,
                          const std::string& name) {
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, x.ndim()));
    const auto xs = staticShape(x);
    std::vector<Tensor> out;
    int64_t offset = 0;
    for (size_t k = 0; k < sizes.size(); ++k) {
        std::vector<int64_t> shape = xs;
        shape[axis] = sizes[k];
        out.push_back(injective(shape, [&](const std::vector<Var>& i) {
            std::vector<Expr> at = exprs(i);
            at[axis] = i[axis] + intImm(offset);
            return x(at);
        }, k == 0 ? name : name + '_' + std::to_string(k)));
        offset += sizes[k];
    }
    if (offset != xs[axis]) throw CompileError("the parts do not add up to the split axis");
    return out;
}

Tensor stridedSlice(const Tensor& x, const SliceParams& p, const std::string& name) {
    const auto shape = staticShape(x);
    const auto rank = static_cast<int64_t>(shape.size());
    const auto& starts = p.starts;
    std::vector<int64_t> axes(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
    if (!p.axes.empty()) axes = p.axes;
    std::vector<int64_t> steps(starts.size(), 1);
    if (!p.steps.empty()) steps = p.steps;
    if (p.ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
        throw CompileError("starts, ends, axes and steps must have the same length");
    std::vector<int64_t> first(shape.size(), 0), step(shape.size(), 1), outShape = shape;
    for (size_t k = 0; k < starts.size(); ++k) {
        const auto a = static_cast<size_t>(normalizeAxis(axes[k], rank));
        if (steps[k] == 0) throw CompileError("a step of 0 is not allowed");
        auto r = sliceRange(shape[a], starts[k], p.ends[k], steps[k]);
        first[a] = r.start;
        step[a] = r.step;
        outShape[a] = r.count;
    }
    return injective(outShape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at;
        for (size_t d = 0; d < i.size(); ++d)
            at.push_back(intImm(first[d]) + Expr(i[d]) * intImm(step[d]));
        return x(at);
    }, name);
}

Tensor gather(const Tensor& data, const Tensor& indices, int64_t axisIn, const std::string& name) {
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, data.ndim()));
    const auto ds = staticShape(data);
    const int64_t dim = ds[axis];
    const auto q = static_cast<size_t>(indices.ndim());
    std::vector<int64_t> shape(ds.begin(), ds.begin() + long(axis));
    auto is = staticShape(indices);
    shape.insert(shape.end(), is.begin(), is.end());
    shape.insert(shape.end(), ds.begin() + long(axis) + 1, ds.end());
    auto literal = literalOf(indices);
    std::optional<int64_t> index = literal ? asConstInt(*literal) : std::nullopt;
    return injective(shape, [&](const std::vector<Var>& i) {
        // A literal index (a shape subgraph's Gather) becomes an int64 literal.
        Expr k = index ? makeConst(DataType::int64(), *index)
                         : indices(std::vector<Expr>(i.begin() + long(axis), i.begin() + long(axis + q)));
        // Negative indices count from the end; out-of-range ones are clamped
        // so that a bad index never reads outside the data.
        k = select(k < makeZero(k.type()), k + makeConst(k.type(), dim), k);
        k = tir::cast(DataType::int32(), clampIndex(k, 0, dim - 1));
        std::vector<Expr> at(i.begin(), i.begin() + long(axis));
        at.push_back(k);
        at.insert(at.end(), i.begin() + long(axis + q), i.end());
        return data(at);
    }, name);
}

// --- padding and tiling -----------------------------------------------------------

Tensor pad(const Tensor& x, const PadParams& p, const Tensor& valueTensor, const std::string& name) {
    const auto shape = staticShape(x);
    const size_t rank = shape.size();
    const std::string& mode = p.mode;
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        throw CompileError("pad mode '" + mode + "' is not supported (constant, reflect, edge or wrap)");
    std::vector<int64_t> before = p.before.empty() ? std::vector<int64_t>(rank, 0) : p.before;
    std::vector<int64_t> after = p.after.empty() ? std::vector<int64_t>(rank, 0) : p.after;
    if (before.size() != rank || after.size() != rank)
        throw CompileError("padding needs a begin and an end for each of the " + std::to_string(rank) + " axes");
    std::vector<int64_t> outShape;
    for (size_t d = 0; d < rank; ++d)
        outShape.push_back(shape[d] + before[d] + after[d]);
    const DataType t = x->dtype;
    Expr value = valueTensor.defined() ? scalarOf(valueTensor, t) : p.value == 0 ? makeZero(t) : constant(t, p.value);
    return injective(outShape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at;
        for (size_t d = 0; d < rank; ++d) {
            if (before[d] == 0 && after[d] == 0) {
                at.push_back(i[d]);
                continue;
            }
            Expr q = i[d] - intImm(before[d]);
            const int64_t n = shape[d];
            if (mode == "reflect") {
                // Mirror without repeating the edge: -1 -> 1, n -> n - 2.
                q = select(q < intImm(0), intImm(0) - q, q);
                q = select(q >= intImm(n), intImm(2 * (n - 1)) - q, q);
            } else if (mode == "wrap") {
                q = floormod(q, intImm(n));
            }
            at.push_back(mode == "constant" ? q : clampIndex(q, 0, n - 1));
        }
        return mode == "constant" ? paddedRead(x, at, value) : x(at);
    }, name);
}

Tensor broadcastTo(const Tensor& x, const std::vector<int64_t>& shape, const std::string& name) {
    return injective(broadcastShape(staticShape(x), shape),
                     [&](const std::vector<Var>& i) { return broadcastRead(x, i); }, name);
}

Tensor tile(const Tensor& x, const std::vector<int64_t>& reps, const std::string& name) {
    const auto shape = staticShape(x);
    if (reps.size() != shape.size())
        throw CompileError("tile needs one repeat count per axis (" + std::to_string(shape.size()) + ")");
    std::vector<int64_t> outShape;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (reps[d] < 1) throw CompileError("repeat counts must be positive");
        outShape.push_back(shape[d] * reps[d]);
    }
    return injective(outShape, [&](const std::vector<Var>& i) {
        std::vector<Expr> at;
        for (size_t d = 0; d < shape.size(); ++d)
            at.push_back(outShape[d] == shape[d] ? Expr(i[d]) : floormod(i[d], intImm(shape[d])));
        return x(at);
    }, name);
}

// --- resize ------------------------------------------------------------------------

namespace {

/// One input element that an output element reads along one axis, and its
/// weight (undefined: 1).
struct Tap {
    Expr index;
    Expr weight;
};

/// ONNX's cubic convolution weights for the taps at floor(x) - 1 ... floor(x) + 2,
/// `r` = x - floor(x) (Keys' kernel with coefficient `a`).
std::vector<Expr> cubicWeights(Expr r, double a) {
    DataType f = r.type();
    auto k = [&](double v) { return makeConst(f, v); };
    auto near = [&](Expr s) { return ((k(a + 2) * s - k(a + 3)) * s * s) + k(1); }; // |s| <= 1
    auto far = [&](Expr s) {
        return ((k(a) * s - k(5 * a)) * s + k(8 * a)) * s - k(4 * a);
    }; // 1 < |s| < 2
    Expr q = k(1) - r;
    return {far(r + k(1)), near(r), near(q), far(q + k(1))};
}

} // namespace

Tensor resize(const Tensor& x, const ResizeParams& p, const std::string& name) {
    const auto inShape = staticShape(x);
    const auto& outShape = p.size;
    const size_t rank = inShape.size();
    const std::string& mode = p.mode;
    const std::string& coord = p.coordinateTransformationMode;
    const std::string& nearestMode = p.nearestMode;
    const double cubicA = p.cubicCoeffA;
    const bool excludeOutside = p.excludeOutside;
    const double extrapolation = p.extrapolationValue;
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
        throw CompileError("resize mode '" + mode + "' is not supported (nearest, linear or cubic)");
    if (coord != "half_pixel" && coord != "asymmetric" && coord != "align_corners" &&
        coord != "pytorch_half_pixel" && coord != "tf_half_pixel_for_nn" && coord != "tf_crop_and_resize")
        throw CompileError("coordinate_transformation_mode '" + coord + "' is not supported");
    if (nearestMode != "round_prefer_floor" && nearestMode != "round_prefer_ceil" && nearestMode != "floor" &&
        nearestMode != "ceil")
        throw CompileError("nearest_mode '" + nearestMode + "' is not supported");
    if (outShape.size() != rank) throw CompileError("size must have one extent per axis");
    // Scales as the ONNX reference uses them: the given scales, or out / in (in double).
    std::vector<double> scale = p.scales;
    if (scale.empty())
        for (size_t d = 0; d < rank; ++d)
            scale.push_back(double(outShape[d]) / double(inShape[d]));
    if (scale.size() != rank) throw CompileError("scales must have one value per axis");
    std::vector<double> roiStart(rank, 0.0), roiEnd(rank, 1.0);
    if (coord == "tf_crop_and_resize" && !p.roi.empty()) {
        if (p.roi.size() != 2 * rank) throw CompileError("roi must have a start and an end per axis");
        roiStart.assign(p.roi.begin(), p.roi.begin() + long(rank));
        roiEnd.assign(p.roi.begin() + long(rank), p.roi.end());
    }

    const DataType f64 = DataType::float64();
    const DataType valueType = x->dtype.isFloat() ? x->dtype : DataType::float32();
    auto k64 = [&](double v) { return makeConst(f64, v); };
    return injective(outShape, [&](const std::vector<Var>& i) {
        std::vector<std::vector<Tap>> taps(rank);
        Expr outside; // tf_crop_and_resize: a coordinate outside the input
        for (size_t d = 0; d < rank; ++d) {
            const int64_t in = inShape[d];
            const double s = scale[d];
            const bool identity = in == outShape[d] && s == 1.0 &&
                                  coord != "tf_half_pixel_for_nn" && coord != "tf_crop_and_resize";
            if (identity) {
                taps[d] = {{i[d], Expr()}};
                continue;
            }
            // The input coordinate of output index i, in double as the reference computes it.
            Expr xo = tir::cast(f64, i[d]);
            const double outWidth = s * double(in);
            Expr c;
            if (coord == "half_pixel")
                c = (xo + k64(0.5)) / k64(s) - k64(0.5);
            else if (coord == "asymmetric")
                c = xo / k64(s);
            else if (coord == "tf_half_pixel_for_nn")
                c = (xo + k64(0.5)) / k64(s);
            else if (coord == "pytorch_half_pixel")
                c = outWidth == 1.0 ? k64(-0.5) : (xo + k64(0.5)) / k64(s) - k64(0.5);
            else if (coord == "align_corners")
                c = outWidth == 1.0 ? k64(0.0) : xo * k64(double(in - 1)) / k64(outWidth - 1.0);
            else { // tf_crop_and_resize
                const double span = (roiEnd[d] - roiStart[d]) * double(in - 1);
                c = outWidth == 1.0 ? k64(span / 2) : xo * k64(span) / k64(outWidth - 1.0);
                c = c + k64(roiStart[d] * double(in - 1));
                Expr out = c < k64(0.0) || c > k64(double(in - 1));
                outside = outside.defined() ? (outside || out) : out;
            }
            Expr fl = call(Intrinsic::Floor, {c});
            Expr r = c - fl;
            Expr base = tir::cast(DataType::int32(), fl);
            auto at = [&](int64_t off) { return clampIndex(base + intImm(off), 0, in - 1); };
            if (mode == "nearest") {
                Expr up;
                if (nearestMode == "round_prefer_floor")
                    up = r > k64(0.5);
                else if (nearestMode == "round_prefer_ceil")
                    up = r >= k64(0.5);
                else if (nearestMode == "ceil")
                    up = r > k64(0.0);
                Expr idx = up.defined() ? select(up, base + intImm(1), base) : base;
                taps[d] = {{clampIndex(idx, 0, in - 1), Expr()}};
            } else if (mode == "linear") {
                taps[d] = {{at(0), tir::cast(valueType, k64(1.0) - r)}, {at(1), tir::cast(valueType, r)}};
            } else {
                auto w = cubicWeights(r, cubicA);
                if (excludeOutside) {
                    // Taps outside the input get no weight; the rest are renormalised.
                    Expr total;
                    for (int64_t o = 0; o < 4; ++o) {
                        Expr pos = base + intImm(o - 1);
                        w[size_t(o)] =
                            select(pos >= intImm(0) && pos < intImm(in), w[size_t(o)], k64(0.0));
                        total = total.defined() ? total + w[size_t(o)] : w[size_t(o)];
                    }
                    for (auto& wk : w)
                        wk = wk / total;
                }
                for (int64_t o = 0; o < 4; ++o)
                    taps[d].push_back({at(o - 1), tir::cast(valueType, w[size_t(o)])});
            }
        }
        // The weighted sum over every combination of taps.
        Expr acc;
        std::vector<size_t> pick(rank, 0);
        while (true) {
            std::vector<Expr> at;
            Expr w;
            for (size_t d = 0; d < rank; ++d) {
                const Tap& tp = taps[d][pick[d]];
                at.push_back(tp.index);
                if (tp.weight.defined()) w = w.defined() ? w * tp.weight : tp.weight;
            }
            Expr v = x(at);
            if (w.defined()) {
                v = v.type() == valueType ? v : tir::cast(valueType, v);
                v = v * w;
            }
            acc = acc.defined() ? acc + v : v;
            size_t d = rank;
            while (d > 0 && ++pick[d - 1] == taps[d - 1].size())
                pick[--d] = 0;
            if (d == 0) break;
        }
        if (acc.type() != x->dtype) acc = tir::cast(x->dtype, acc);
        if (outside.defined()) acc = select(outside, makeConst(x->dtype, extrapolation), acc);
        return acc;
    }, name);
}


// --- rearrangements of blocks ---------------------------------------------------------

Tensor depthToSpace(const Tensor& x, int64_t b, const std::string& mode, const std::string& name) {
    if (x.ndim() != 4) throw CompileError("the input must be 4-D (N, C, H, W)");
    if (b <= 0) throw CompileError("blocksize must be positive");
    if (mode != "DCR" && mode != "CRD") throw CompileError("mode '" + mode + "' is not supported (DCR or CRD)");
    const auto xs = staticShape(x);
    if (xs[1] % (b * b) != 0)
        throw CompileError("the " + std::to_string(xs[1]) + " channels are not a multiple of blocksize^2");
    const int64_t c = xs[1] / (b * b);
    return injective({xs[0], c, xs[2] * b, xs[3] * b}, [&](const std::vector<Var>& i) {
        Expr bh = floormod(i[2], intImm(b)), bw = floormod(i[3], intImm(b));
        Expr block = bh * intImm(b) + bw;
        // DCR: the depth is (block row, block column, channel); CRD: (channel, block row, block column).
        Expr ch = mode == "DCR" ? block * intImm(c) + i[1] : Expr(i[1]) * intImm(b * b) + block;
        return x({i[0], ch, floordiv(i[2], intImm(b)), floordiv(i[3], intImm(b))});
    }, name);
}

Tensor spaceToDepth(const Tensor& x, int64_t b, const std::string& name) {
    if (x.ndim() != 4) throw CompileError("the input must be 4-D (N, C, H, W)");
    if (b <= 0) throw CompileError("blocksize must be positive");
    const auto xs = staticShape(x);
    if (xs[2] % b != 0 || xs[3] % b != 0)
        throw CompileError("the spatial extents are not multiples of blocksize");
    const int64_t c = xs[1];
    return injective({xs[0], c * b * b, xs[2] / b, xs[3] / b}, [&](const std::vector<Var>& i) {
        // Output channel = (block row, block column, input channel).
        Expr block = floordiv(i[1], intImm(c));
        Expr h = Expr(i[2]) * intImm(b) + floordiv(block, intImm(b));
        Expr w = Expr(i[3]) * intImm(b) + floormod(block, intImm(b));
        return x({i[0], floormod(i[1], intImm(c)), h, w});
    }, name);
}

// --- shape producers ---------------------------------------------------------------------

Tensor shapeOf(const Tensor& x, int64_t startIn, int64_t endIn, DataType t, const std::string& name) {
    const auto dims = staticShape(x);
    const auto r = static_cast<int64_t>(dims.size());
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t(0), r); };
    const int64_t start = clamp(startIn), end = clamp(endIn);
    return injective({end - start}, [&](const std::vector<Var>& i) {
        Expr v = makeConst(t, dims[size_t(end - 1)]);
        for (int64_t k = end - 1; k-- > start;)
            v = select(i[0] == intImm(k - start), makeConst(t, dims[size_t(k)]), v);
        return v;
    }, name);
}

Tensor sizeOf(const Tensor& x, DataType t, const std::string& name) {
    int64_t n = 1;
    for (int64_t d : staticShape(x))
        n *= d;
    return injective({}, [&](const std::vector<Var>&) { return makeConst(t, n); }, name);
}

Tensor full(const std::vector<int64_t>& shape, Expr value, const std::string& name) {
    return injective(shape, [&](const std::vector<Var>&) { return value; }, name);
}

Tensor full(const std::vector<int64_t>& shape, DataType dtype, double value, const std::string& name) {
    return full(shape, constant(dtype, value), name);
}

Tensor arange(const Tensor& startTensor, const Tensor& deltaTensor, int64_t count, const std::string& name) {
    const DataType t = startTensor->dtype;
    Expr start = scalarOf(startTensor, t), delta = scalarOf(deltaTensor, t);
    return injective({count}, [&](const std::vector<Var>& i) { return start + tir::cast(t, i[0]) * delta; }, name);
}

// --- grid sampling -------------------------------------------------------------------

namespace {

/// PyTorch's reflect_coordinates: `v` mirrored into [low, high] (given doubled).
Expr reflectCoordinate(Expr v, double twiceLow, double twiceHigh) {
    DataType t = v.type();
    if (twiceLow == twiceHigh) return makeZero(t);
    const double low = twiceLow / 2, span = (twiceHigh - twiceLow) / 2;
    Expr in = call(Intrinsic::Abs, {v - makeConst(t, low)});
    Expr flips = call(Intrinsic::Floor, {in / makeConst(t, span)});
    Expr extra = in - flips * makeConst(t, span); // fmod for in >= 0
    Expr odd = flips - makeConst(t, 2.0) * call(Intrinsic::Floor, {flips * makeConst(t, 0.5)}) != makeZero(t);
    return select(odd, makeConst(t, span + low) - extra, extra + makeConst(t, low));
}

/// A source coordinate after the padding mode (border and reflection clip it
/// into the image; zeros leaves it, and reads outside give 0).
Expr padCoordinate(Expr v, int64_t size, const GridSampleParams& p) {
    DataType t = v.type();
    auto clip = [&](Expr c) { return tir::min(tir::max(c, makeZero(t)), makeConst(t, double(size - 1))); };
    if (p.paddingMode == "border") return clip(v);
    if (p.paddingMode == "reflection") {
        v = p.alignCorners ? reflectCoordinate(v, 0, 2.0 * double(size - 1))
                           : reflectCoordinate(v, -1, 2.0 * double(size) - 1);
        return clip(v);
    }
    return v;
}

/// The Keys cubic weights (a = -0.75) of the four taps around fraction `f`.
std::vector<Expr> cubicWeights(Expr f) {
    DataType t = f.type();
    auto c = [&](double d) { return makeConst(t, d); };
    const double a = -0.75;
    auto near = [&](Expr x) { return ((c(a + 2) * x - c(a + 3)) * x * x) + c(1.0); };        // |x| <= 1
    auto far = [&](Expr x) { return ((c(a) * x - c(5 * a)) * x + c(8 * a)) * x - c(4 * a); }; // 1 < |x| < 2
    return {far(f + c(1.0)), near(f), near(c(1.0) - f), far(c(2.0) - f)};
}

} // namespace

Tensor gridSample(const Tensor& x, const Tensor& grid, const GridSampleParams& p, const std::string& name) {
    const auto xs = staticShape(x), gs = staticShape(grid);
    if (xs.size() != 4 || gs.size() != 4 || gs[3] != 2 || gs[0] != xs[0])
        throw CompileError("grid_sample: x must be [N, C, H, W] and grid [N, Ho, Wo, 2]");
    if (p.mode != "bilinear" && p.mode != "nearest" && p.mode != "bicubic")
        throw CompileError("grid_sample mode '" + p.mode + "' is not supported (bilinear, nearest, bicubic)");
    if (p.paddingMode != "zeros" && p.paddingMode != "border" && p.paddingMode != "reflection")
        throw CompileError("grid_sample padding mode '" + p.paddingMode + "' is not supported");
    const int64_t H = xs[2], W = xs[3];
    const DataType t = x->dtype;
    return injective({xs[0], xs[1], gs[1], gs[2]}, [&](const std::vector<Var>& i) {
        auto c = [&](double d) { return makeConst(t, d); };
        // Unnormalised source coordinates.
        auto unnormalize = [&](Expr g, int64_t size) {
            if (g.type() != t) g = tir::cast(t, g);
            return p.alignCorners ? (g + c(1.0)) * c(0.5 * double(size - 1)) : ((g + c(1.0)) * c(double(size)) - c(1.0)) * c(0.5);
        };
        Expr gx = unnormalize(grid({Expr(i[0]), Expr(i[2]), Expr(i[3]), intImm(0)}), W);
        Expr gy = unnormalize(grid({Expr(i[0]), Expr(i[2]), Expr(i[3]), intImm(1)}), H);
        auto at = [&](Expr yy, Expr xx) {
            return paddedRead(x, {Expr(i[0]), Expr(i[1]), tir::cast(DataType::int32(), yy), tir::cast(DataType::int32(), xx)},
                              makeZero(t));
        };
        if (p.mode == "bicubic") {
            // Every tap goes through the padding mode on its own (PyTorch's get_value_bounded).
            Expr fx = call(Intrinsic::Floor, {gx}), fy = call(Intrinsic::Floor, {gy});
            std::vector<Expr> wx = cubicWeights(gx - fx), wy = cubicWeights(gy - fy);
            Expr sum;
            for (int r = 0; r < 4; ++r) {
                Expr row;
                Expr yy = call(Intrinsic::Floor, {padCoordinate(fy + c(r - 1), H, p)});
                for (int k = 0; k < 4; ++k) {
                    Expr xx = call(Intrinsic::Floor, {padCoordinate(fx + c(k - 1), W, p)});
                    Expr term = at(yy, xx) * wx[size_t(k)];
                    row = row.defined() ? row + term : term;
                }
                sum = sum.defined() ? sum + row * wy[size_t(r)] : row * wy[size_t(r)];
            }
            return sum;
        }
        gx = padCoordinate(gx, W, p);
        gy = padCoordinate(gy, H, p);
        if (p.mode == "nearest") {
            // Halves to even, as nearbyint does.
            auto rint = [&](Expr v) {
                Expr f = call(Intrinsic::Floor, {v + c(0.5)});
                Expr isHalf = f - v == c(0.5);
                Expr odd = f - c(2.0) * call(Intrinsic::Floor, {f * c(0.5)}) != makeZero(t);
                return select(isHalf && odd, f - c(1.0), f);
            };
            return at(rint(gy), rint(gx));
        }
        Expr x0 = call(Intrinsic::Floor, {gx}), y0 = call(Intrinsic::Floor, {gy});
        Expr dx = gx - x0, dy = gy - y0;
        Expr top = at(y0, x0) * (c(1.0) - dx) + at(y0, x0 + c(1.0)) * dx;
        Expr bottom = at(y0 + c(1.0), x0) * (c(1.0) - dx) + at(y0 + c(1.0), x0 + c(1.0)) * dx;
        return top * (c(1.0) - dy) + bottom * dy;
    }, name);
}

} // namespace tessel::topi::transform
