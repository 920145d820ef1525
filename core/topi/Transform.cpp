// Injective operators that move data: reshapes, transposes, slices, joins,
// padding, resizing, gathers and shape producers.
#include "topi/TopiUtil.h"

#include "graph/OpRegistry.h"

#include <algorithm>
#include <numeric>

namespace tessel::topi {

using namespace tir;

namespace {

std::vector<Expr> exprs(const std::vector<Var>& i) {
    return {i.begin(), i.end()};
}

/// A compute of output `output` of the node, tagged injective.
Tensor injective(const OpContext& ctx, const te::ComputeFunction& f, int output = 0) {
    std::string name = ctx.name();
    if (output > 0) name += '_' + std::to_string(output);
    return te::compute(ctx.outputShape(output), f, name, tag::kInjective);
}

/// A constant of type `t` holding element `k` of `c` (integers stay exact).
Expr elementOf(const graph::Constant& c, size_t k, DataType t) {
    if (t.isFloat()) return makeConst(t, c.toDoubles().at(k));
    return makeConst(t, c.toInts().at(k));
}

/// Scalar input `i` as an expression of type `t`: a literal when it is a
/// constant, a read of its only element otherwise.
Expr scalarInput(const OpContext& ctx, int i, DataType t) {
    if (auto c = ctx.constant(i)) {
        if (c->numElements() != 1)
            ctx.fail("input " + std::to_string(i) + " must hold one element");
        return elementOf(*c, 0, t);
    }
    const Tensor& s = ctx.input(i);
    Expr v = s(std::vector<Expr>(s->shape.size(), intImm(0)));
    return v.type() == t ? v : cast(t, v);
}

// --- reshapes ------------------------------------------------------------------

/// `x` read in row-major order as a tensor of `outShape` (same element count).
Tensor reshapeTo(const OpContext& ctx, const Tensor& x) {
    std::vector<int64_t> inShape = staticShape(x), outShape = ctx.outputType().shape;
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
    return injective(ctx, [&](const std::vector<Var>& i) {
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
        return x(at);
    });
}

std::vector<Tensor> reshape(const OpContext& ctx) {
    return {reshapeTo(ctx, ctx.input(0))};
}

std::vector<Tensor> transpose(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    std::vector<int64_t> perm(static_cast<size_t>(x.ndim()));
    std::iota(perm.rbegin(), perm.rend(), 0);
    perm = ctx.attrs().getInts("perm", perm);
    return {injective(ctx, [&](const std::vector<Var>& i) {
        std::vector<Expr> at(perm.size());
        for (size_t k = 0; k < perm.size(); ++k)
            at[static_cast<size_t>(perm[k])] = i[k];
        return x(at);
    })};
}

// --- joins and slices ------------------------------------------------------------

std::vector<Tensor> concat(const OpContext& ctx) {
    std::vector<Tensor> ins;
    for (int k = 0; k < ctx.numInputs(); ++k)
        if (ctx.hasInput(k)) ins.push_back(ctx.input(k));
    if (ins.empty()) ctx.fail("needs at least one input");
    const int64_t rank = ins[0].ndim();
    const auto axis = static_cast<size_t>(normalizedAxis(ctx, ctx.attrs().getInt("axis", 0), rank));
    std::vector<int64_t> begin, extent;
    int64_t offset = 0;
    for (auto& t : ins) {
        begin.push_back(offset);
        extent.push_back(staticShape(t)[axis]);
        offset += extent.back();
    }
    return {injective(ctx, [&](const std::vector<Var>& i) {
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
    })};
}

std::vector<Tensor> split(const OpContext& ctx) {
    // The part sizes (the split input, num_outputs or equal parts) are already
    // in the inferred output shapes.
    const Tensor& x = ctx.input(0);
    const auto axis =
        static_cast<size_t>(normalizedAxis(ctx, ctx.attrs().getInt("axis", 0), x.ndim()));
    std::vector<Tensor> out;
    int64_t offset = 0;
    for (int k = 0; k < ctx.node().numOutputs(); ++k) {
        out.push_back(injective(
            ctx,
            [&](const std::vector<Var>& i) {
                std::vector<Expr> at = exprs(i);
                at[axis] = i[axis] + intImm(offset);
                return x(at);
            },
            k));
        offset += ctx.outputType(k).shape[axis];
    }
    if (offset != staticShape(x)[axis]) ctx.fail("the parts do not add up to the split axis");
    return out;
}

std::vector<Tensor> slice(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto shape = staticShape(x);
    const auto rank = static_cast<int64_t>(shape.size());
    auto starts = ctx.constInts(1), ends = ctx.constInts(2);
    std::vector<int64_t> axes(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
    if (ctx.hasInput(3)) axes = ctx.constInts(3);
    std::vector<int64_t> steps(starts.size(), 1);
    if (ctx.hasInput(4)) steps = ctx.constInts(4);
    if (ends.size() != starts.size() || axes.size() != starts.size() ||
        steps.size() != starts.size())
        ctx.fail("starts, ends, axes and steps must have the same length");
    std::vector<int64_t> first(shape.size(), 0), step(shape.size(), 1);
    for (size_t k = 0; k < starts.size(); ++k) {
        const auto a = static_cast<size_t>(normalizedAxis(ctx, axes[k], rank));
        if (steps[k] == 0) ctx.fail("a step of 0 is not allowed");
        auto r = graph::sliceRange(shape[a], starts[k], ends[k], steps[k]);
        first[a] = r.start;
        step[a] = r.step;
    }
    return {injective(ctx, [&](const std::vector<Var>& i) {
        std::vector<Expr> at;
        for (size_t d = 0; d < i.size(); ++d)
            at.push_back(intImm(first[d]) + Expr(i[d]) * intImm(step[d]));
        return x(at);
    })};
}

std::vector<Tensor> gather(const OpContext& ctx) {
    const Tensor& data = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    const auto axis =
        static_cast<size_t>(normalizedAxis(ctx, ctx.attrs().getInt("axis", 0), data.ndim()));
    const int64_t dim = staticShape(data)[axis];
    const auto q = static_cast<size_t>(indices.ndim());
    auto c = ctx.constant(1);
    return {injective(ctx, [&](const std::vector<Var>& i) {
        // One constant index (a shape subgraph's Gather) becomes a literal.
        Expr k =
            c && c->numElements() == 1
                ? makeConst(DataType::int64(), c->toInts()[0])
                : indices(std::vector<Expr>(i.begin() + long(axis), i.begin() + long(axis + q)));
        // Negative indices count from the end; out-of-range ones are clamped
        // so that a bad index never reads outside the data.
        k = select(k < makeZero(k.type()), k + makeConst(k.type(), dim), k);
        k = cast(DataType::int32(), clampIndex(k, 0, dim - 1));
        std::vector<Expr> at(i.begin(), i.begin() + long(axis));
        at.push_back(k);
        at.insert(at.end(), i.begin() + long(axis + q), i.end());
        return data(at);
    })};
}

// --- padding and tiling -----------------------------------------------------------

std::vector<Tensor> pad(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto shape = staticShape(x);
    const size_t rank = shape.size();
    const std::string mode = ctx.attrs().getString("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        ctx.fail("pad mode '" + mode + "' is not supported (constant, reflect, edge or wrap)");
    auto pads = ctx.constInts(1);
    std::vector<int64_t> axes(rank);
    std::iota(axes.begin(), axes.end(), 0);
    if (ctx.hasInput(3)) axes = ctx.constInts(3);
    if (pads.size() != 2 * axes.size())
        ctx.fail("pads has " + std::to_string(pads.size()) + " values; " +
                 std::to_string(2 * axes.size()) + " expected (a begin and an end per axis)");
    std::vector<int64_t> before(rank, 0), after(rank, 0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const auto a = static_cast<size_t>(normalizedAxis(ctx, axes[k], int64_t(rank)));
        before[a] = pads[k];
        after[a] = pads[k + axes.size()];
    }
    const DataType t = x->dtype;
    Expr value = ctx.hasInput(2) ? scalarInput(ctx, 2, t) : makeZero(t);
    return {injective(ctx, [&](const std::vector<Var>& i) {
        std::vector<Expr> at;
        for (size_t d = 0; d < rank; ++d) {
            if (before[d] == 0 && after[d] == 0) {
                at.push_back(i[d]);
                continue;
            }
            Expr p = i[d] - intImm(before[d]);
            const int64_t n = shape[d];
            if (mode == "reflect") {
                // Mirror without repeating the edge: -1 -> 1, n -> n - 2.
                p = select(p < intImm(0), intImm(0) - p, p);
                p = select(p >= intImm(n), intImm(2 * (n - 1)) - p, p);
            } else if (mode == "wrap") {
                p = floormod(p, intImm(n));
            }
            at.push_back(mode == "constant" ? p : clampIndex(p, 0, n - 1));
        }
        return mode == "constant" ? paddedRead(x, at, value) : x(at);
    })};
}

std::vector<Tensor> expand(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    return {injective(ctx, [&](const std::vector<Var>& i) { return broadcastRead(x, i); })};
}

std::vector<Tensor> tile(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto shape = staticShape(x);
    return {injective(ctx, [&](const std::vector<Var>& i) {
        std::vector<Expr> at;
        for (size_t d = 0; d < shape.size(); ++d)
            at.push_back(ctx.outputType().shape[d] == shape[d] ? Expr(i[d])
                                                               : floormod(i[d], intImm(shape[d])));
        return x(at);
    })};
}

// --- resize ------------------------------------------------------------------------

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

std::vector<Tensor> resize(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    const auto inShape = staticShape(x);
    const auto outShape = ctx.outputType().shape;
    const size_t rank = inShape.size();
    const auto& attrs = ctx.attrs();
    const std::string mode = attrs.getString("mode", "nearest");
    const std::string coord = attrs.getString("coordinate_transformation_mode", "half_pixel");
    const std::string nearestMode = attrs.getString("nearest_mode", "round_prefer_floor");
    const std::string policy = attrs.getString("keep_aspect_ratio_policy", "stretch");
    const double cubicA = attrs.getFloat("cubic_coeff_a", -0.75);
    const bool excludeOutside = attrs.getInt("exclude_outside", 0) != 0;
    const double extrapolation = attrs.getFloat("extrapolation_value", 0.0);
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
        ctx.fail("resize mode '" + mode + "' is not supported (nearest, linear or cubic)");
    if (coord != "half_pixel" && coord != "asymmetric" && coord != "align_corners" &&
        coord != "pytorch_half_pixel" && coord != "tf_half_pixel_for_nn" &&
        coord != "tf_crop_and_resize")
        ctx.fail("coordinate_transformation_mode '" + coord + "' is not supported");
    if (nearestMode != "round_prefer_floor" && nearestMode != "round_prefer_ceil" &&
        nearestMode != "floor" && nearestMode != "ceil")
        ctx.fail("nearest_mode '" + nearestMode + "' is not supported");
    if (attrs.getInt("antialias", 0) != 0) ctx.fail("antialias=1 is not supported");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
        ctx.fail("keep_aspect_ratio_policy '" + policy + "' is not supported");

    std::vector<int64_t> axes(rank);
    std::iota(axes.begin(), axes.end(), 0);
    axes = attrs.getInts("axes", axes);
    for (auto& a : axes)
        a = normalizedAxis(ctx, a, int64_t(rank));

    // Scales as the ONNX reference uses them: the given scales, or out / in
    // (in double) when sizes are given.
    std::vector<double> scale(rank, 1.0);
    std::vector<double> scales = ctx.constant(2) ? ctx.constFloats(2) : std::vector<double>{};
    if (!scales.empty()) {
        if (scales.size() != axes.size()) ctx.fail("scales must have one value per resized axis");
        for (size_t k = 0; k < axes.size(); ++k)
            scale[size_t(axes[k])] = scales[k];
    } else {
        if (!ctx.hasInput(3)) ctx.fail("needs scales or sizes (as constants)");
        auto sizes = ctx.constInts(3);
        if (sizes.size() != axes.size()) ctx.fail("sizes must have one value per resized axis");
        std::vector<double> ratio;
        for (size_t k = 0; k < axes.size(); ++k)
            ratio.push_back(double(sizes[k]) / double(inShape[size_t(axes[k])]));
        for (size_t k = 0; k < axes.size(); ++k) {
            double r = ratio[k];
            if (policy == "not_larger") r = *std::min_element(ratio.begin(), ratio.end());
            if (policy == "not_smaller") r = *std::max_element(ratio.begin(), ratio.end());
            scale[size_t(axes[k])] = r;
        }
    }
    std::vector<double> roiStart(rank, 0.0), roiEnd(rank, 1.0);
    if (coord == "tf_crop_and_resize") {
        auto roi = ctx.constFloats(1);
        if (roi.size() != 2 * axes.size())
            ctx.fail("roi must have a start and an end per resized axis");
        for (size_t k = 0; k < axes.size(); ++k) {
            roiStart[size_t(axes[k])] = roi[k];
            roiEnd[size_t(axes[k])] = roi[k + axes.size()];
        }
    }

    const DataType f64 = DataType::float64();
    const DataType valueType = x->dtype.isFloat() ? x->dtype : DataType::float32();
    auto k64 = [&](double v) { return makeConst(f64, v); };
    return {injective(ctx, [&](const std::vector<Var>& i) {
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
            Expr xo = cast(f64, i[d]);
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
            Expr base = cast(DataType::int32(), fl);
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
                taps[d] = {{at(0), cast(valueType, k64(1.0) - r)}, {at(1), cast(valueType, r)}};
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
                    taps[d].push_back({at(o - 1), cast(valueType, w[size_t(o)])});
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
                v = v.type() == valueType ? v : cast(valueType, v);
                v = v * w;
            }
            acc = acc.defined() ? acc + v : v;
            size_t d = rank;
            while (d > 0 && ++pick[d - 1] == taps[d - 1].size())
                pick[--d] = 0;
            if (d == 0) break;
        }
        if (acc.type() != x->dtype) acc = cast(x->dtype, acc);
        if (outside.defined()) acc = select(outside, makeConst(x->dtype, extrapolation), acc);
        return acc;
    })};
}

// --- rearrangements of blocks ---------------------------------------------------------

std::vector<Tensor> depthToSpace(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.ndim() != 4) ctx.fail("the input must be 4-D (N, C, H, W)");
    const int64_t b = ctx.attrs().getInt("blocksize", 0);
    const std::string mode = ctx.attrs().getString("mode", "DCR");
    if (b <= 0) ctx.fail("blocksize must be positive");
    if (mode != "DCR" && mode != "CRD")
        ctx.fail("mode '" + mode + "' is not supported (DCR or CRD)");
    const int64_t c = ctx.outputType().shape[1];
    return {injective(ctx, [&](const std::vector<Var>& i) {
        Expr bh = floormod(i[2], intImm(b)), bw = floormod(i[3], intImm(b));
        Expr block = bh * intImm(b) + bw;
        // DCR: the depth is (block row, block column, channel); CRD: (channel, block row, block
        // column).
        Expr ch = mode == "DCR" ? block * intImm(c) + i[1] : Expr(i[1]) * intImm(b * b) + block;
        return x({i[0], ch, floordiv(i[2], intImm(b)), floordiv(i[3], intImm(b))});
    })};
}

std::vector<Tensor> spaceToDepth(const OpContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.ndim() != 4) ctx.fail("the input must be 4-D (N, C, H, W)");
    const int64_t b = ctx.attrs().getInt("blocksize", 0);
    if (b <= 0) ctx.fail("blocksize must be positive");
    const int64_t c = staticShape(x)[1];
    return {injective(ctx, [&](const std::vector<Var>& i) {
        // Output channel = (block row, block column, input channel).
        Expr block = floordiv(i[1], intImm(c));
        Expr h = Expr(i[2]) * intImm(b) + floordiv(block, intImm(b));
        Expr w = Expr(i[3]) * intImm(b) + floormod(block, intImm(b));
        return x({i[0], floormod(i[1], intImm(c)), h, w});
    })};
}

// --- shape producers ---------------------------------------------------------------------

std::vector<Tensor> shapeOp(const OpContext& ctx) {
    const auto& dims = ctx.inputType(0).shape;
    const auto r = static_cast<int64_t>(dims.size());
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t(0), r); };
    const int64_t start = clamp(ctx.attrs().getInt("start", 0));
    const int64_t end = clamp(ctx.attrs().getInt("end", r));
    const DataType t = ctx.outputType().dtype;
    return {injective(ctx, [&](const std::vector<Var>& i) {
        Expr v = makeConst(t, dims[size_t(end - 1)]);
        for (int64_t k = end - 1; k-- > start;)
            v = select(i[0] == intImm(k - start), makeConst(t, dims[size_t(k)]), v);
        return v;
    })};
}

std::vector<Tensor> sizeOp(const OpContext& ctx) {
    const DataType t = ctx.outputType().dtype;
    const int64_t n = ctx.inputType(0).numElements();
    return {injective(ctx, [&](const std::vector<Var>&) { return makeConst(t, n); })};
}

std::vector<Tensor> constantOfShape(const OpContext& ctx) {
    const DataType t = ctx.outputType().dtype;
    auto value = ctx.attrs().getTensor("value");
    if (value && value->numElements() != 1) ctx.fail("the value attribute must hold one element");
    Expr v = value ? elementOf(*value, 0, t) : makeZero(t);
    return {injective(ctx, [&](const std::vector<Var>&) { return v; })};
}

std::vector<Tensor> range(const OpContext& ctx) {
    const DataType t = ctx.outputType().dtype;
    Expr start = scalarInput(ctx, 0, t), delta = scalarInput(ctx, 2, t);
    return {
        injective(ctx, [&](const std::vector<Var>& i) { return start + cast(t, i[0]) * delta; })};
}

} // namespace

void addTransformOps(std::vector<TopiOp>& ops) {
    ops.push_back({"Reshape", reshape});
    ops.push_back({"Flatten", reshape});
    ops.push_back({"Squeeze", reshape});
    ops.push_back({"Unsqueeze", reshape});
    ops.push_back({"Transpose", transpose});
    ops.push_back({"Concat", concat});
    ops.push_back({"Split", split});
    ops.push_back({"Slice", slice});
    ops.push_back({"Gather", gather});
    ops.push_back({"Pad", pad});
    ops.push_back({"Resize", resize});
    ops.push_back({"Expand", expand});
    ops.push_back({"Tile", tile});
    ops.push_back({"DepthToSpace", depthToSpace});
    ops.push_back({"SpaceToDepth", spaceToDepth});
    ops.push_back({"Shape", shapeOp});
    ops.push_back({"Size", sizeOp});
    ops.push_back({"ConstantOfShape", constantOfShape});
    ops.push_back({"Range", range});
}

} // namespace tessel::topi
