// Convolutions, matrix products, pooling and batch normalisation.
#include "topi/Nn.h"

#include "ir/Diagnostic.h"
#include "topi/NnUtil.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi::nn {

using namespace tir;

namespace {

/// Axis names for N, C and `n` spatial axes ("n", "c", "d", "h", "w"), and
/// with `block` the outer channel axis "cb" and the block "cc" last.
std::vector<std::string> axisNames(size_t n, bool block = false) {
    std::vector<std::string> names{"n", block ? "cb" : "c"};
    static const char* kSpatial[] = {"d", "h", "w"};
    for (size_t i = 0; i < n; ++i)
        names.push_back(n <= 3 ? kSpatial[3 - n + i] : std::string("s") + std::to_string(i));
    if (block) names.push_back("cc");
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

/// The stage p[n, c, j...] = x[n, c, (j - before) / dilate] where that index
/// is whole and inside x, zero elsewhere: zero padding (dilate 1), or the
/// zero-interleaved, padded input of a transposed convolution. Reads are
/// clamped, so every schedule may evaluate them anywhere.
Tensor padStage(const Tensor& x, const std::vector<int64_t>& before, const std::vector<int64_t>& extent,
                const std::vector<int64_t>& dilate, const std::string& name) {
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
        name + "_pad", tag::kPad, axisNames(extent.size()));
}

/// Reads the weight of output channel `oc`, input channel `ic` (the `rc`-th
/// of oc's group) at kernel position `k`.
using WeightRead =
    std::function<Expr(const Expr& oc, const Expr& ic, const Expr& rc, const std::vector<Expr>& k)>;

/// The grouped direct convolution as one pure reduction:
/// out[n, oc, y...] = sum over rc, k of data[n, ic, y * stride + k * dilation] * weight,
/// with ic the rc-th input channel of oc's group. `data` is already padded.
Tensor convolve(const Tensor& data, int64_t outChannels, int64_t group, const std::vector<int64_t>& kernel,
                const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                const WeightRead& weight, const std::string& name, const char* tagName) {
    auto ds = staticShape(data);
    const size_t n = kernel.size();
    const int64_t groupIn = ds[1] / group, groupOut = outChannels / group;
    std::vector<int64_t> shape{ds[0], outChannels};
    for (size_t d = 0; d < n; ++d)
        shape.push_back((ds[d + 2] - ((kernel[d] - 1) * dilations[d] + 1)) / strides[d] + 1);
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
Tensor addBias(const Tensor& y, const Tensor& bias, const std::string& name) {
    return te::compute(
        y->shape, [&](const std::vector<Var>& i) { return y(exprs(i)) + bias({i[1]}); }, name,
        tag::kBroadcast, axisNames(size_t(y.ndim() - 2)));
}

void requireRank(const Tensor& t, int rank, const char* what) {
    if (t.ndim() != rank)
        throw CompileError(std::string(what) + " '" + t.name() + "' has rank " + std::to_string(t.ndim()) +
                           ", expected " + std::to_string(rank));
}

void requireSpatial(const Tensor& data, const char* what) {
    if (data.ndim() < 3)
        throw CompileError(std::string(what) + " '" + data.name() +
                           "' must have at least one spatial axis (N, C, D1, ...)");
}

/// The number of taps k in [0, kernel) with lo <= start + k * dilation < hi.
Expr tapCount(Expr start, int64_t kernel, int64_t dilation, int64_t lo, int64_t hi) {
    const Expr d = intImm(dilation);
    Expr first = max(intImm(0), floordiv(intImm(lo) - start + intImm(dilation - 1), d));
    Expr last = min(intImm(kernel - 1), floordiv(intImm(hi - 1) - start, d));
    return max(last - first + intImm(1), intImm(0));
}

} // namespace

// --- convolutions ---------------------------------------------------------------------------

Tensor conv(const Tensor& x, const Tensor& w, const ConvParams& params, const Tensor& bias,
            const std::string& name) {
    requireSpatial(x, "data");
    requireRank(w, x.ndim(), "weight");
    auto xs = staticShape(x), ws = staticShape(w);
    const size_t n = xs.size() - 2;
    Window win = slidingWindow(xs, std::vector<int64_t>(ws.begin() + 2, ws.end()), params.strides,
                               params.padding, params.dilation, false);
    const int64_t group = params.groups, channels = xs[1], outChannels = ws[0];
    if (group < 1 || channels % group != 0 || ws[1] * group != channels)
        throw CompileError("group " + std::to_string(group) + " does not divide the " +
                           std::to_string(channels) + " input channels into groups of " +
                           std::to_string(ws[1]));
    Tensor data = x;
    if (win.padded()) {
        std::vector<int64_t> extent;
        for (size_t i = 0; i < n; ++i)
            extent.push_back(win.in[i] + win.padBegin[i] + win.padEnd[i]);
        data = padStage(x, win.padBegin, extent, std::vector<int64_t>(n, 1), name);
    }
    // TVM's dispatch: depthwise when input, output channels and groups agree.
    const char* tagName = n != 2                                      ? tag::kOpaque
                          : channels == group && outChannels == group ? tag::kDepthwise
                                                                      : tag::kConv2d;
    Tensor y = convolve(
        data, outChannels, group, win.kernel, win.strides, win.dilations,
        [&](const Expr& oc, const Expr&, const Expr& rc, const std::vector<Expr>& k) {
            std::vector<Expr> idx{oc, rc};
            idx.insert(idx.end(), k.begin(), k.end());
            return w(idx);
        },
        bias.defined() ? name + "_conv" : name, tagName);
    return bias.defined() ? addBias(y, bias, name) : y;
}

Tensor conv2d(const Tensor& data, const Tensor& weight, const ConvParams& params, const Tensor& bias,
              const std::string& name) {
    requireRank(data, 4, "data");
    return conv(data, weight, params, bias, name);
}

Tensor convTranspose(const Tensor& x, const Tensor& w, const ConvTransposeParams& params,
                     const Tensor& bias, const std::string& name) {
    requireSpatial(x, "data");
    requireRank(w, x.ndim(), "weight");
    auto xs = staticShape(x), ws = staticShape(w);
    const size_t n = xs.size() - 2;
    const int64_t group = params.groups, channels = xs[1];
    if (group < 1 || ws[0] != channels || channels % group != 0)
        throw CompileError("weights with " + std::to_string(ws[0]) + " input channels and group " +
                           std::to_string(group) + " do not fit the " + std::to_string(channels) +
                           " input channels");
    const int64_t outChannels = ws[1] * group;
    std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
    auto strides = perAxis(params.strides, n, 1, "strides");
    auto dilations = perAxis(params.dilation, n, 1, "dilation");
    auto outputPadding = perAxis(params.outputPadding, n, 0, "output padding");
    Padding pads = expandPadding(params.padding, n);

    // out[y] = full[y + padBegin], where full is the uncropped result of
    // length stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1.
    std::vector<int64_t> before, extent;
    bool identity = true;
    for (size_t i = 0; i < n; ++i) {
        const int64_t in = xs[i + 2];
        const int64_t span = (kernel[i] - 1) * dilations[i];
        const int64_t full = strides[i] * (in - 1) + outputPadding[i] + span + 1;
        const int64_t out = full - pads.begin[i] - pads.end[i];
        before.push_back(span - pads.begin[i]);
        extent.push_back(out + span);
        identity = identity && strides[i] == 1 && before.back() == 0 && extent.back() == in;
    }
    Tensor data = identity ? x : padStage(x, before, extent, strides, name);
    const int64_t groupOut = ws[1];
    Tensor y = convolve(
        data, outChannels, group, kernel, std::vector<int64_t>(n, 1), dilations,
        [&](const Expr& oc, const Expr& ic, const Expr&, const std::vector<Expr>& k) {
            std::vector<Expr> idx{ic, floormod(oc, intImm(groupOut))};
            for (size_t d = 0; d < n; ++d)
                idx.push_back(intImm(kernel[d] - 1) - k[d]);
            return w(idx);
        },
        bias.defined() ? name + "_conv" : name, tag::kOpaque);
    return bias.defined() ? addBias(y, bias, name) : y;
}

// --- pooling ------------------------------------------------------------------------------------

Tensor pool(const Tensor& x, PoolType type, const PoolParams& params, const std::string& name) {
    requireSpatial(x, "data");
    const bool block = params.channelBlock;
    if (block && x.ndim() < 4) throw CompileError("a pooling of channel blocks needs [N, C, spatial..., c]");
    auto xs = staticShape(x);
    const int64_t cc = block ? xs.back() : 0;
    if (block) xs.pop_back(); // the window is over the axes between C and the block
    const size_t n = xs.size() - 2;
    if (params.kernel.empty()) throw CompileError("pooling needs a kernel size");
    Window win = slidingWindow(xs, perAxis(params.kernel, n, 1, "kernel"), params.strides, params.padding,
                               params.dilation, params.ceilMode);
    const DataType t = x->dtype;
    std::vector<int64_t> outShape{xs[0], xs[1]};
    outShape.insert(outShape.end(), win.out.begin(), win.out.end());
    if (block) outShape.push_back(cc);
    auto rk = kernelAxes(win.kernel);
    // Taps in the padding (or past it, in ceil mode) read the identity of the
    // reduction: -inf (the lowest value) for max, 0 for the sum.
    auto taps = [&](const std::vector<Var>& i, Expr outside) {
        std::vector<Expr> idx{i[0], i[1]};
        for (size_t d = 0; d < n; ++d)
            idx.push_back(i[d + 2] * intImm(win.strides[d]) - intImm(win.padBegin[d]) +
                          rk[d]->var * intImm(win.dilations[d]));
        if (block) idx.push_back(i[n + 2]);
        return paddedRead(x, idx, outside);
    };
    if (type == PoolType::Max)
        return te::compute(
            toExprs(outShape),
            [&](const std::vector<Var>& i) { return te::max(taps(i, reduceIdentity(ReduceKind::Max, t)), rk); },
            name, tag::kPool, axisNames(n, block));

    Tensor sum = te::compute(
        toExprs(outShape), [&](const std::vector<Var>& i) { return te::sum(taps(i, makeZero(t)), rk); },
        name + "_sum", tag::kPool, axisNames(n, block));
    // The divisor counts the taps inside the input, or inside the padded input
    // with count_include_pad (never those past the end padding in ceil mode).
    const bool includePad = params.countIncludePad;
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            Expr count = intImm(1);
            for (size_t d = 0; d < n; ++d) {
                const int64_t lo = includePad ? -win.padBegin[d] : 0;
                const int64_t hi = includePad ? win.in[d] + win.padEnd[d] : win.in[d];
                const int64_t s = win.strides[d], pb = win.padBegin[d];
                const int64_t lastEnd = (win.out[d] - 1) * s - pb + (win.kernel[d] - 1) * win.dilations[d];
                if (-pb >= lo && lastEnd < hi) {
                    count = count * intImm(win.kernel[d]); // every window is whole
                    continue;
                }
                Expr start = i[d + 2] * intImm(s) - intImm(pb);
                count = count * tapCount(start, win.kernel[d], win.dilations[d], lo, hi);
            }
            return sum(exprs(i)) / tir::cast(t, count);
        },
        name, tag::kElemWise, axisNames(n, block));
}

Tensor pool2d(const Tensor& data, PoolType type, const PoolParams& params, const std::string& name) {
    requireRank(data, 4, "data");
    return pool(data, type, params, name);
}

Tensor globalPool(const Tensor& x, PoolType type, const std::string& name, bool block) {
    requireSpatial(x, "data");
    if (block && x.ndim() < 4) throw CompileError("a pooling of channel blocks needs [N, C, spatial..., c]");
    auto xs = staticShape(x);
    const size_t trailing = block ? 1 : 0;
    const size_t n = xs.size() - 2 - trailing;
    std::vector<int64_t> spatial(xs.begin() + 2, xs.end() - long(trailing));
    std::vector<int64_t> outShape = xs;
    std::fill(outShape.begin() + 2, outShape.end() - long(trailing), 1);
    auto rk = kernelAxes(spatial);
    auto all = [&](const std::vector<Var>& i) {
        std::vector<Expr> idx{i[0], i[1]};
        for (auto& r : rk)
            idx.push_back(r->var);
        if (block) idx.push_back(i.back());
        return x(idx);
    };
    if (type == PoolType::Max)
        return te::compute(
            toExprs(outShape), [&](const std::vector<Var>& i) { return te::max(all(i), rk); }, name,
            tag::kPool, axisNames(n, block));
    Tensor sum = te::compute(
        toExprs(outShape), [&](const std::vector<Var>& i) { return te::sum(all(i), rk); }, name + "_sum",
        tag::kPool, axisNames(n, block));
    int64_t count = 1;
    for (int64_t s : spatial)
        count *= s;
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) { return sum(exprs(i)) / constant(x->dtype, double(count)); }, name,
        tag::kElemWise, axisNames(n, block));
}

// --- matrix products ----------------------------------------------------------------------------

Tensor gemm(const Tensor& a, const Tensor& b, const Tensor& c, const GemmParams& p, const std::string& name) {
    requireRank(a, 2, "A");
    requireRank(b, 2, "B");
    auto as = staticShape(a), bs = staticShape(b);
    const int64_t m = as[p.transA ? 1 : 0], depth = as[p.transA ? 0 : 1];
    const int64_t n = bs[p.transB ? 0 : 1];
    if (bs[p.transB ? 1 : 0] != depth)
        throw CompileError("the inner dimensions of A and B differ (" + std::to_string(depth) + " and " +
                           std::to_string(bs[p.transB ? 1 : 0]) + ")");
    const bool epilogue = p.alpha != 1.0 || (c.defined() && p.beta != 0.0);
    IterVar rk = te::reduceAxis(Range(intImm(0), intImm(depth)), "rk");
    Tensor product = te::compute(
        toExprs({m, n}),
        [&](const std::vector<Var>& i) {
            Expr k = rk->var;
            Expr av = p.transA ? a({k, i[0]}) : a({i[0], k});
            Expr bv = p.transB ? b({i[1], k}) : b({k, i[1]});
            return te::sum(av * bv, {rk});
        },
        epilogue ? name + "_matmul" : name, tag::kDense, {"i", "j"});
    return gemmEpilogue(product, c, p, name);
}

Tensor gemmEpilogue(const Tensor& product, const Tensor& c, const GemmParams& p, const std::string& name) {
    const DataType t = product->dtype;
    // beta = 0 ignores C, as BLAS does (C is not read).
    const bool addC = c.defined() && p.beta != 0.0;
    if (p.alpha == 1.0 && !addC) return product;
    return te::compute(
        product->shape,
        [&](const std::vector<Var>& i) {
            Expr v = product(exprs(i));
            if (p.alpha != 1.0) v = constant(t, p.alpha) * v;
            if (addC) {
                Expr cv = broadcastRead(c, i);
                if (cv.type() != t) cv = tir::cast(t, cv);
                v = v + (p.beta != 1.0 ? constant(t, p.beta) * cv : cv);
            }
            return v;
        },
        name, tag::kBroadcast, {"i", "j"});
}

Tensor dense(const Tensor& data, const Tensor& weight, const Tensor& bias, const std::string& name) {
    return gemm(data, weight, bias, {.transB = true}, name);
}

Tensor matmul(const Tensor& a, const Tensor& b, const std::string& name) {
    if (a.ndim() < 1 || b.ndim() < 1) throw CompileError("matmul needs operands of rank 1 or more");
    auto as = staticShape(a), bs = staticShape(b);
    const bool aVec = as.size() == 1, bVec = bs.size() == 1;
    const int64_t depthB = bVec ? bs[0] : bs[bs.size() - 2];
    if (as.back() != depthB)
        throw CompileError("the inner dimensions of A and B differ (" + std::to_string(as.back()) + " and " +
                           std::to_string(depthB) + ")");
    std::vector<int64_t> outShape = broadcastShape(
        aVec ? std::vector<int64_t>{} : std::vector<int64_t>(as.begin(), as.end() - 2),
        bVec ? std::vector<int64_t>{} : std::vector<int64_t>(bs.begin(), bs.end() - 2));
    const size_t batch = outShape.size();
    if (!aVec) outShape.push_back(as[as.size() - 2]);
    if (!bVec) outShape.push_back(bs.back());
    const size_t outRank = outShape.size();
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
    return te::compute(
        toExprs(outShape),
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
        name, tag::kDense, names);
}

// --- normalisation ---------------------------------------------------------------------------

Tensor batchNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean, const Tensor& var,
                 double epsilon, const std::string& name) {
    return te::compute(
        toExprs(staticShape(x)),
        [&](const std::vector<Var>& i) {
            Expr c = i.size() > 1 ? Expr(i[1]) : intImm(0);
            Expr v = x(exprs(i));
            DataType t = v.type();
            Expr inv = makeConst(t, 1.0) / call(Intrinsic::Sqrt, {var({c}) + makeConst(t, epsilon)});
            return (v - mean({c})) * inv * scale({c}) + bias({c});
        },
        name, tag::kBroadcast);
}

} // namespace tessel::topi::nn
