// Convolutions, matrix products and pooling.
//
// Reference computes in TVM-topi form: padding is its own stage (tag pad,
// clamped reads), a convolution or matrix product is a pure reduction, and a
// bias, alpha/beta or average divisor is a separate element-wise consumer, so
// that the schedules see the stage shapes they expect.
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi {

using namespace tir;

namespace {

/// `n` integers of attribute `name` (each `fill` when absent).
std::vector<int64_t> intsAttr(const OpContext& ctx, const std::string& name, size_t n,
                              int64_t fill) {
    auto v = ctx.attrs().getInts(name, std::vector<int64_t>(n, fill));
    if (v.size() != n)
        ctx.fail("attribute '" + name + "' has " + std::to_string(v.size()) + " values, expected " +
                 std::to_string(n));
    return v;
}

/// Axis names for N, C and `n` spatial axes ("n", "c", "d", "h", "w").
std::vector<std::string> axisNames(size_t n) {
    std::vector<std::string> names{"n", "c"};
    static const char* kSpatial[] = {"d", "h", "w"};
    for (size_t i = 0; i < n; ++i)
        names.push_back(n <= 3 ? kSpatial[3 - n + i] : std::string("s") + std::to_string(i));
    return names;
}

/// One reduction axis per kernel dimension ("rd", "rh", "rw").
std::vector<IterVar> kernelAxes(const std::vector<int64_t>& kernel) {
    std::vector<IterVar> axes;
    auto names = axisNames(kernel.size());
    for (size_t i = 0; i < kernel.size(); ++i)
        axes.push_back(te::reduceAxis(Range(intImm(0), intImm(kernel[i])), "r" + names[i + 2]));
    return axes;
}

std::vector<Expr> exprs(const std::vector<Var>& vars) {
    return {vars.begin(), vars.end()};
}

/// The sliding-window geometry of a Conv or pooling node over its spatial
/// axes, with auto_pad resolved against the inferred output size.
struct Window {
    std::vector<int64_t> in, out, kernel, strides, dilations, padBegin, padEnd;
    bool padded() const {
        return std::any_of(padBegin.begin(), padBegin.end(), [](int64_t p) { return p != 0; }) ||
               std::any_of(padEnd.begin(), padEnd.end(), [](int64_t p) { return p != 0; });
    }
};

Window slidingWindow(const OpContext& ctx, std::vector<int64_t> kernel) {
    auto xs = staticShape(ctx.input(0));
    const auto& ys = ctx.outputType().shape;
    const size_t n = xs.size() - 2;
    if (kernel.size() != n)
        ctx.fail("kernel_shape has " + std::to_string(kernel.size()) + " values for " +
                 std::to_string(n) + " spatial axes");
    Window w;
    w.in.assign(xs.begin() + 2, xs.end());
    w.out.assign(ys.begin() + 2, ys.end());
    w.kernel = std::move(kernel);
    w.strides = intsAttr(ctx, "strides", n, 1);
    w.dilations = intsAttr(ctx, "dilations", n, 1);
    auto pads = intsAttr(ctx, "pads", 2 * n, 0);
    const std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    for (size_t i = 0; i < n; ++i) {
        int64_t begin = 0, end = 0;
        if (autoPad == "NOTSET") {
            begin = pads[i];
            end = pads[i + n];
        } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            // The padding that makes out = ceil(in / stride); an odd total puts
            // the extra element at the end (UPPER) or at the beginning (LOWER).
            const int64_t effKernel = (w.kernel[i] - 1) * w.dilations[i] + 1;
            const int64_t total =
                std::max<int64_t>(0, (w.out[i] - 1) * w.strides[i] + effKernel - w.in[i]);
            begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            end = total - begin;
        } else if (autoPad != "VALID") {
            ctx.fail("unknown auto_pad \"" + autoPad + "\"");
        }
        w.padBegin.push_back(begin);
        w.padEnd.push_back(end);
    }
    return w;
}

/// The stage p[n, c, j...] = x[n, c, (j - before) / dilate] where that index
/// is whole and inside x, zero elsewhere: zero padding (dilate 1), or the
/// zero-interleaved, padded input of a transposed convolution. Reads are
/// clamped, so every schedule may evaluate them anywhere.
Tensor padStage(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& before,
                const std::vector<int64_t>& extent, const std::vector<int64_t>& dilate) {
    auto xs = staticShape(x);
    std::vector<int64_t> shape{xs[0], xs[1]};
    shape.insert(shape.end(), extent.begin(), extent.end());
    return te::compute(
        toExprs(shape),
        [&](const std::vector<Var>& i) {
            std::vector<Expr> idx{i[0], i[1]};
            Expr onGrid;
            for (size_t d = 0; d < extent.size(); ++d) {
                Expr u = i[d + 2] - intImm(before[d]);
                if (dilate[d] > 1) {
                    Expr whole = floormod(u, intImm(dilate[d])) == intImm(0);
                    onGrid = onGrid.defined() ? (onGrid && whole) : whole;
                    u = floordiv(u, intImm(dilate[d]));
                }
                idx.push_back(u);
            }
            Expr v = paddedRead(x, idx, makeZero(x->dtype));
            return onGrid.defined() ? select(onGrid, v, makeZero(x->dtype)) : v;
        },
        ctx.name() + "_pad", tag::kPad, axisNames(extent.size()));
}

/// Reads the weight of output channel `oc`, input channel `ic` (the `rc`-th
/// of oc's group) at kernel position `k`.
using WeightRead =
    std::function<Expr(const Expr& oc, const Expr& ic, const Expr& rc, const std::vector<Expr>& k)>;

/// The grouped direct convolution as one pure reduction:
/// out[n, oc, y...] = sum over rc, k of data[n, ic, y * stride + k * dilation] * weight,
/// with ic the rc-th input channel of oc's group. `data` is already padded.
Tensor convolve(const OpContext& ctx, const Tensor& data, int64_t outChannels, int64_t group,
                const std::vector<int64_t>& kernel, const std::vector<int64_t>& strides,
                const std::vector<int64_t>& dilations, const WeightRead& weight,
                const std::string& name, const char* tagName) {
    auto ds = staticShape(data);
    const size_t n = kernel.size();
    const int64_t groupIn = ds[1] / group, groupOut = outChannels / group;
    std::vector<int64_t> shape = ctx.outputType().shape;
    shape[1] = outChannels;
    std::vector<IterVar> axes;
    Expr rc = intImm(0);
    if (groupIn > 1) {
        axes.push_back(te::reduceAxis(Range(intImm(0), intImm(groupIn)), "rc"));
        rc = axes.back()->var;
    }
    auto rk = kernelAxes(kernel);
    axes.insert(axes.end(), rk.begin(), rk.end());
    return te::compute(
        toExprs(shape),
        [&](const std::vector<Var>& i) {
            Expr oc = i[1];
            Expr ic = group == 1 ? rc : floordiv(oc, intImm(groupOut)) * intImm(groupIn) + rc;
            std::vector<Expr> idx{i[0], ic}, k;
            for (size_t d = 0; d < n; ++d) {
                k.push_back(rk[d]->var);
                idx.push_back(i[d + 2] * intImm(strides[d]) + rk[d]->var * intImm(dilations[d]));
            }
            return te::sum(data(idx) * weight(oc, ic, rc, k), axes);
        },
        name, tagName, axisNames(n));
}

/// y[n, c, ...] + bias[c], the consumer that keeps the convolution a pure reduction.
Tensor addBias(const OpContext& ctx, const Tensor& y, const Tensor& bias) {
    return te::compute(
        y->shape, [&](const std::vector<Var>& i) { return y(exprs(i)) + bias({i[1]}); }, ctx.name(),
        tag::kBroadcast, axisNames(size_t(y.ndim() - 2)));
}

std::vector<Tensor> conv(const OpContext& ctx) {
    Tensor x = ctx.input(0), w = ctx.input(1);
    auto xs = staticShape(x), ws = staticShape(w);
    Window win = slidingWindow(ctx, std::vector<int64_t>(ws.begin() + 2, ws.end()));
    const size_t n = win.in.size();
    const int64_t group = ctx.attrs().getInt("group", 1), channels = xs[1], outChannels = ws[0];
    if (group < 1 || channels % group != 0 || ws[1] * group != channels)
        ctx.fail("group " + std::to_string(group) + " does not divide the " +
                 std::to_string(channels) + " input channels into groups of " +
                 std::to_string(ws[1]));
    Tensor data = x;
    if (win.padded()) {
        std::vector<int64_t> extent;
        for (size_t i = 0; i < n; ++i)
            extent.push_back(win.in[i] + win.padBegin[i] + win.padEnd[i]);
        data = padStage(ctx, x, win.padBegin, extent, std::vector<int64_t>(n, 1));
    }
    // TVM's dispatch: depthwise when input, output channels and groups agree.
    const char* tagName = n != 2                                      ? tag::kOpaque
                          : channels == group && outChannels == group ? tag::kDepthwise
                                                                      : tag::kConv2d;
    const bool bias = ctx.hasInput(2);
    Tensor y = convolve(
        ctx, data, outChannels, group, win.kernel, win.strides, win.dilations,
        [&](const Expr& oc, const Expr&, const Expr& rc, const std::vector<Expr>& k) {
            std::vector<Expr> idx{oc, rc};
            idx.insert(idx.end(), k.begin(), k.end());
            return w(idx);
        },
        bias ? ctx.name() + "_conv" : ctx.name(), tagName);
    return {bias ? addBias(ctx, y, ctx.input(2)) : y};
}

/// ConvTranspose as a convolution: the input interleaved with stride - 1
/// zeros and padded so that a stride-1 convolution with the flipped kernel
/// gives the transposed one (what TVM's conv2d_transpose does).
std::vector<Tensor> convTranspose(const OpContext& ctx) {
    Tensor x = ctx.input(0), w = ctx.input(1);
    auto xs = staticShape(x), ws = staticShape(w);
    const auto& ys = ctx.outputType().shape;
    const size_t n = xs.size() - 2;
    const int64_t group = ctx.attrs().getInt("group", 1), channels = xs[1];
    if (group < 1 || ws[0] != channels || channels % group != 0)
        ctx.fail("weights with " + std::to_string(ws[0]) + " input channels and group " +
                 std::to_string(group) + " do not fit the " + std::to_string(channels) +
                 " input channels");
    const int64_t outChannels = ws[1] * group;
    std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
    auto strides = intsAttr(ctx, "strides", n, 1);
    auto dilations = intsAttr(ctx, "dilations", n, 1);
    auto outputPadding = intsAttr(ctx, "output_padding", n, 0);
    auto pads = intsAttr(ctx, "pads", 2 * n, 0);
    const std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
        autoPad != "SAME_LOWER")
        ctx.fail("unknown auto_pad \"" + autoPad + "\"");
    const bool derivedPads = ctx.attrs().has("output_shape") || autoPad.starts_with("SAME");

    // out[y] = full[y + padBegin], where full is the uncropped result of
    // length stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1.
    std::vector<int64_t> before, extent;
    bool identity = true;
    for (size_t i = 0; i < n; ++i) {
        const int64_t in = xs[i + 2], out = ys[i + 2];
        const int64_t span = (kernel[i] - 1) * dilations[i];
        int64_t padBegin = autoPad == "NOTSET" ? pads[i] : 0;
        if (derivedPads) {
            // The ONNX rule: the cropping that yields the output size, split
            // evenly, the odd element at the end for SAME_UPPER and at the
            // beginning otherwise. A larger output extends at the end.
            const int64_t full = strides[i] * (in - 1) + outputPadding[i] + span + 1;
            const int64_t total = std::max<int64_t>(0, full - out);
            padBegin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
        }
        before.push_back(span - padBegin);
        extent.push_back(out + span);
        identity = identity && strides[i] == 1 && before.back() == 0 && extent.back() == in;
    }
    Tensor data = identity ? x : padStage(ctx, x, before, extent, strides);
    const int64_t groupOut = ws[1];
    const bool bias = ctx.hasInput(2);
    Tensor y = convolve(
        ctx, data, outChannels, group, kernel, std::vector<int64_t>(n, 1), dilations,
        [&](const Expr& oc, const Expr& ic, const Expr&, const std::vector<Expr>& k) {
            std::vector<Expr> idx{ic, floormod(oc, intImm(groupOut))};
            for (size_t d = 0; d < n; ++d)
                idx.push_back(intImm(kernel[d] - 1) - k[d]);
            return w(idx);
        },
        bias ? ctx.name() + "_conv" : ctx.name(), tag::kOpaque);
    return {bias ? addBias(ctx, y, ctx.input(2)) : y};
}

/// The number of taps k in [0, kernel) with lo <= start + k * dilation < hi.
Expr tapCount(Expr start, int64_t kernel, int64_t dilation, int64_t lo, int64_t hi) {
    const Expr d = intImm(dilation);
    Expr first = max(intImm(0), floordiv(intImm(lo) - start + intImm(dilation - 1), d));
    Expr last = min(intImm(kernel - 1), floordiv(intImm(hi - 1) - start, d));
    return max(last - first + intImm(1), intImm(0));
}

std::vector<Tensor> pool(const OpContext& ctx, bool isMax) {
    if (isMax && ctx.node().numOutputs() > 1)
        ctx.fail("the Indices output of MaxPool is not supported; only the pooled values are");
    if (!ctx.attrs().has("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
    Window win = slidingWindow(ctx, ctx.attrs().getInts("kernel_shape", {}));
    const size_t n = win.in.size();
    Tensor x = ctx.input(0);
    const DataType t = x->dtype;
    auto rk = kernelAxes(win.kernel);
    // Taps in the padding (or past it, in ceil mode) read the identity of the
    // reduction: -inf (the lowest value) for max, 0 for the sum.
    auto taps = [&](const std::vector<Var>& i, Expr outside) {
        std::vector<Expr> idx{i[0], i[1]};
        for (size_t d = 0; d < n; ++d)
            idx.push_back(i[d + 2] * intImm(win.strides[d]) - intImm(win.padBegin[d]) +
                          rk[d]->var * intImm(win.dilations[d]));
        return paddedRead(x, idx, outside);
    };
    if (isMax)
        return {te::compute(
            ctx.outputShape(),
            [&](const std::vector<Var>& i) {
                return te::max(taps(i, reduceIdentity(ReduceKind::Max, t)), rk);
            },
            ctx.name(), tag::kPool, axisNames(n))};

    Tensor sum = te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) { return te::sum(taps(i, makeZero(t)), rk); },
        ctx.name() + "_sum", tag::kPool, axisNames(n));
    // The divisor counts the taps inside the input, or inside the padded input
    // with count_include_pad (never those past the end padding in ceil mode).
    const bool includePad = ctx.attrs().getInt("count_include_pad", 0) != 0;
    return {te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr count = intImm(1);
            for (size_t d = 0; d < n; ++d) {
                const int64_t lo = includePad ? -win.padBegin[d] : 0;
                const int64_t hi = includePad ? win.in[d] + win.padEnd[d] : win.in[d];
                const int64_t s = win.strides[d], pb = win.padBegin[d];
                const int64_t lastEnd =
                    (win.out[d] - 1) * s - pb + (win.kernel[d] - 1) * win.dilations[d];
                if (-pb >= lo && lastEnd < hi) {
                    count = count * intImm(win.kernel[d]); // every window is whole
                    continue;
                }
                Expr start = i[d + 2] * intImm(s) - intImm(pb);
                count = count * tapCount(start, win.kernel[d], win.dilations[d], lo, hi);
            }
            return sum(exprs(i)) / cast(t, count);
        },
        ctx.name(), tag::kElemWise, axisNames(n))};
}

std::vector<Tensor> globalPool(const OpContext& ctx, bool isMax) {
    Tensor x = ctx.input(0);
    auto xs = staticShape(x);
    const size_t n = xs.size() - 2;
    std::vector<int64_t> spatial(xs.begin() + 2, xs.end());
    auto rk = kernelAxes(spatial);
    auto all = [&](const std::vector<Var>& i) {
        std::vector<Expr> idx{i[0], i[1]};
        for (auto& r : rk)
            idx.push_back(r->var);
        return x(idx);
    };
    if (isMax)
        return {te::compute(
            ctx.outputShape(), [&](const std::vector<Var>& i) { return te::max(all(i), rk); },
            ctx.name(), tag::kPool, axisNames(n))};
    Tensor sum = te::compute(
        ctx.outputShape(), [&](const std::vector<Var>& i) { return te::sum(all(i), rk); },
        ctx.name() + "_sum", tag::kPool, axisNames(n));
    int64_t count = 1;
    for (int64_t s : spatial)
        count *= s;
    return {te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            return sum(exprs(i)) / constant(x->dtype, double(count));
        },
        ctx.name(), tag::kElemWise, axisNames(n))};
}

/// Y = alpha * A' * B' + beta * C: the product is its own dense stage, and the
/// scaling and C are an element-wise consumer (absent when alpha = 1 and no C).
std::vector<Tensor> gemm(const OpContext& ctx) {
    Tensor a = ctx.input(0), b = ctx.input(1);
    const bool transA = ctx.attrs().getInt("transA", 0) != 0;
    const bool transB = ctx.attrs().getInt("transB", 0) != 0;
    const double alpha = ctx.attrs().getFloat("alpha", 1.0),
                 beta = ctx.attrs().getFloat("beta", 1.0);
    const int64_t depth = staticShape(a)[transA ? 0 : 1];
    const DataType t = ctx.outputType().dtype;
    // beta = 0 ignores C, as BLAS does (C is not read).
    const bool addC = ctx.hasInput(2) && beta != 0.0;
    const bool epilogue = alpha != 1.0 || addC;
    IterVar rk = te::reduceAxis(Range(intImm(0), intImm(depth)), "rk");
    Tensor product =
        te::compute(ctx.outputShape(),
                    [&](const std::vector<Var>& i) {
                        Expr k = rk->var;
                        Expr av = transA ? a({k, i[0]}) : a({i[0], k});
                        Expr bv = transB ? b({i[1], k}) : b({k, i[1]});
                        return te::sum(av * bv, {rk});
                    },
                    epilogue ? ctx.name() + "_matmul" : ctx.name(), tag::kDense, {"i", "j"});
    if (!epilogue) return {product};
    return {te::compute(ctx.outputShape(),
                        [&](const std::vector<Var>& i) {
                            Expr v = product(exprs(i));
                            if (alpha != 1.0) v = constant(t, alpha) * v;
                            if (addC) {
                                Expr c = broadcastRead(ctx.input(2), i);
                                if (c.type() != t) c = cast(t, c);
                                v = v + (beta != 1.0 ? constant(t, beta) * c : c);
                            }
                            return v;
                        },
                        ctx.name(), tag::kBroadcast, {"i", "j"})};
}

/// numpy matmul: a 1-d A is a row and a 1-d B a column (that axis is then
/// dropped from the output); batch axes broadcast.
std::vector<Tensor> matmul(const OpContext& ctx) {
    Tensor a = ctx.input(0), b = ctx.input(1);
    auto as = staticShape(a), bs = staticShape(b);
    const bool aVec = as.size() == 1, bVec = bs.size() == 1;
    const size_t outRank = ctx.outputType().shape.size();
    const size_t batch = outRank - (aVec ? 0 : 1) - (bVec ? 0 : 1);
    IterVar rk = te::reduceAxis(Range(intImm(0), intImm(as.back())), "rk");
    // The batch axes of `shape` (all but its last two) read at the output's batch index.
    auto batchIndex = [&](const std::vector<int64_t>& shape, const std::vector<Var>& i) {
        std::vector<Expr> idx;
        const size_t rank = shape.size() - 2;
        for (size_t j = 0; j < rank; ++j)
            idx.push_back(shape[j] == 1 ? intImm(0) : Expr(i[batch - rank + j]));
        return idx;
    };
    std::vector<std::string> names;
    for (size_t j = 0; j < batch; ++j)
        names.push_back(std::string("b") + std::to_string(j));
    if (!aVec) names.push_back("i");
    if (!bVec) names.push_back("j");
    return {te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr k = rk->var;
            std::vector<Expr> ai{k}, bi{k};
            if (!aVec) {
                ai = batchIndex(as, i);
                ai.push_back(i[batch]);
                ai.push_back(k);
            }
            if (!bVec) {
                bi = batchIndex(bs, i);
                bi.push_back(k);
                bi.push_back(i[outRank - 1]);
            }
            return te::sum(a(ai) * b(bi), {rk});
        },
        ctx.name(), tag::kDense, names)};
}

} // namespace

void addNnOps(std::vector<TopiOp>& ops) {
    ops.push_back({"Conv", conv});
    ops.push_back({"ConvTranspose", convTranspose});
    ops.push_back({"Gemm", gemm});
    ops.push_back({"MatMul", matmul});
    ops.push_back({"MaxPool", [](const OpContext& c) { return pool(c, true); }});
    ops.push_back({"AveragePool", [](const OpContext& c) { return pool(c, false); }});
    ops.push_back({"GlobalMaxPool", [](const OpContext& c) { return globalPool(c, true); }});
    ops.push_back({"GlobalAveragePool", [](const OpContext& c) { return globalPool(c, false); }});
}

} // namespace tessel::topi
