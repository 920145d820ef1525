/// \file
/// The neural-network operators: convolution (and its transpose), pooling,
/// Gemm, MatMul and Einsum, the normalisations and softmax. None has a constant
/// evaluator: they are computed by kernels only.
#include "graph/ops/OpHelpers.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace tessel::graph::ops {

namespace {

/// Output sizes of a sliding window (convolution and pooling) over the
/// spatial dims `in`, following ONNX: explicit pads, or auto_pad SAME_UPPER /
/// SAME_LOWER (output = ceil(in / stride)) or VALID (no padding). With
/// ceil_mode the last window may start in the end padding but not past it
/// (the rule PyTorch and ONNX Runtime use).
Shape windowOutput(const InferContext& ctx, const Shape& in, const Shape& kernel, bool ceilMode) {
    const size_t n = in.size();
    Shape strides = intsOfSize(ctx, "strides", n, 1);
    Shape dilations = intsOfSize(ctx, "dilations", n, 1);
    Shape pads = intsOfSize(ctx, "pads", 2 * n, 0);
    std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" &&
        autoPad != "VALID")
        ctx.fail("unknown auto_pad \"" + autoPad + "\"");
    Shape out(n);
    for (size_t i = 0; i < n; ++i) {
        if (strides[i] < 1 || dilations[i] < 1 || kernel[i] < 1)
            ctx.fail("strides, dilations and kernel sizes must be positive");
        if (pads[i] < 0 || pads[i + n] < 0) ctx.fail("pads must not be negative");
        if (in[i] < 0) {
            out[i] = -1;
            continue;
        }
        // The window's numbers come from the model: computed wide, they
        // saturate instead of overflowing.
        const int64_t effKernel = saturated(__int128(kernel[i] - 1) * dilations[i] + 1);
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            out[i] = ceilDiv(in[i], strides[i]);
            continue;
        }
        const int64_t padBegin = autoPad == "VALID" ? 0 : pads[i];
        const int64_t padEnd = autoPad == "VALID" ? 0 : pads[i + n];
        const int64_t padded = saturated(__int128(in[i]) + padBegin + padEnd);
        const int64_t span = padded - effKernel;
        if (span < 0)
            ctx.fail("the window (" + std::to_string(effKernel) +
                     " with dilation) is larger than the padded input (" + std::to_string(padded) +
                     ") in spatial dim " + std::to_string(i));
        out[i] = (ceilMode ? ceilDiv(span, strides[i]) : span / strides[i]) + 1;
        if (ceilMode && __int128(out[i] - 1) * strides[i] >= __int128(in[i]) + padBegin) --out[i];
    }
    return out;
}

/// The checks Conv and ConvTranspose share (ranks, types, group, kernel_shape
/// against the weights): the kernel's spatial extents.
Shape convKernel(const InferContext& ctx) {
    const TensorType x = ctx.input(0).logical();
    const TensorType& w = ctx.input(1);
    if (x.rank() < 3) ctx.fail("input X " + x.str() + " must have rank 3 or more");
    if (w.rank() != x.rank())
        ctx.fail("weights W " + w.str() + " have rank " + std::to_string(w.rank()) + ", expected " +
                 std::to_string(x.rank()) + " like input X " + x.str());
    requireSameDtype(ctx, 0, 1);
    const size_t n = static_cast<size_t>(x.rank() - 2);
    const int64_t group = ctx.attrs().getInt("group", 1);
    if (group < 1) ctx.fail("group must be positive, got " + std::to_string(group));
    Shape kernel = intsOfSize(ctx, "kernel_shape", n, 0);
    if (!ctx.attrs().has("kernel_shape")) kernel.assign(w.shape.begin() + 2, w.shape.end());
    for (size_t i = 0; i < n; ++i)
        if (kernel[i] >= 0 && w.shape[i + 2] >= 0 && kernel[i] != w.shape[i + 2])
            ctx.fail("kernel_shape " + listStr(kernel) + " does not match weights " + w.str());
    for (int64_t k : kernel)
        if (k < 0) ctx.fail("the kernel size is unknown (weights " + w.str() + ")");
    return kernel;
}

/// The output type `logical` stored in the layout attribute `attr` (none or
/// empty: plain); fails when the layout does not fit it.
TensorType storedAs(const InferContext& ctx, const TensorType& logical, const std::string& layout) {
    if (layout.empty()) return logical;
    if (!Layout::parse(layout)) ctx.fail("malformed layout \"" + layout + "\"");
    auto t = logical.inLayout(layout);
    if (!t) ctx.fail("the output " + logical.str() + " cannot be stored as " + layout);
    return *t;
}

/// The input's layout must be NCHW with the channels in blocks (or plain).
void requireChannelBlocks(const InferContext& ctx, int i) {
    const TensorType& t = ctx.input(i);
    if (!t.blocked()) return;
    const Layout l = Layout::of(t.layout);
    if (l.primal().str() != "NCHW" || l.storedRank() != 5 || l.blockOf('C') == 0)
        ctx.fail("input " + std::to_string(i) + " " + t.str() + " is stored in a layout other than NCHW[x]c");
}

Types inferConv(const InferContext& ctx) {
    requireChannelBlocks(ctx, 0);
    const TensorType x = ctx.input(0).logical();
    const TensorType& w = ctx.input(1);
    const int64_t group = ctx.attrs().getInt("group", 1);
    const Shape kernel = convKernel(ctx);
    const int64_t c = x.shape[1], wc = w.shape[1], m = w.shape[0];
    if (c >= 0 && wc >= 0 && c != wc * group)
        ctx.fail("input X " + x.str() + " has " + std::to_string(c) + " channels, but weights W " +
                 w.str() + " with group " + std::to_string(group) + " expect " +
                 std::to_string(wc * group));
    if (m >= 0 && m % group != 0)
        ctx.fail("weights W " + w.str() + " have " + std::to_string(m) +
                 " output channels, not a multiple of group " + std::to_string(group));
    if (ctx.hasInput(2)) {
        const TensorType& b = ctx.input(2);
        if (b.rank() != 1 || (b.shape[0] >= 0 && m >= 0 && b.shape[0] != m))
            ctx.fail("bias B " + b.str() + " should have shape [" + std::to_string(m) + "]");
    }
    Shape spatial = windowOutput(ctx, Shape(x.shape.begin() + 2, x.shape.end()), kernel, false);
    Shape out{x.shape[0], m};
    out.insert(out.end(), spatial.begin(), spatial.end());
    return {storedAs(ctx, TensorType(x.dtype, out), ctx.attrs().getString("out_layout", ""))};
}

Types inferConvTranspose(const InferContext& ctx) {
    requireChannelBlocks(ctx, 0);
    const TensorType x = ctx.input(0).logical();
    const std::string outLayout = ctx.attrs().getString("out_layout", "");
    const TensorType& w = ctx.input(1);
    const size_t n = static_cast<size_t>(x.rank() - 2);
    const int64_t group = ctx.attrs().getInt("group", 1);
    const Shape kernel = convKernel(ctx);
    // W is [C, M / group, k...]: input channels first, unlike Conv.
    const int64_t c = x.shape[1], wc = w.shape[0];
    if (c >= 0 && wc >= 0 && c != wc)
        ctx.fail("input X " + x.str() + " has " + std::to_string(c) + " channels, but weights W " +
                 w.str() + " expect " + std::to_string(wc) + " (W is [C, M / group, k...])");
    if (c >= 0 && c % group != 0)
        ctx.fail("input X " + x.str() + " has " + std::to_string(c) +
                 " channels, not a multiple of group " + std::to_string(group));
    const int64_t m = w.shape[1] < 0 ? -1 : saturated(__int128(w.shape[1]) * group);
    if (ctx.hasInput(2)) {
        const TensorType& b = ctx.input(2);
        if (b.rank() != 1 || (b.shape[0] >= 0 && m >= 0 && b.shape[0] != m))
            ctx.fail("bias B " + b.str() + " should have shape [" + std::to_string(m) + "]");
    }
    Shape strides = intsOfSize(ctx, "strides", n, 1);
    Shape dilations = intsOfSize(ctx, "dilations", n, 1);
    Shape outPad = intsOfSize(ctx, "output_padding", n, 0);
    Shape pads = intsOfSize(ctx, "pads", 2 * n, 0);
    const std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" &&
        autoPad != "VALID")
        ctx.fail("unknown auto_pad \"" + autoPad + "\"");
    for (size_t i = 0; i < n; ++i) {
        if (strides[i] < 1 || dilations[i] < 1 || kernel[i] < 1)
            ctx.fail("strides, dilations and kernel sizes must be positive");
        if (outPad[i] < 0) ctx.fail("output_padding must not be negative");
    }
    Shape out{x.shape[0], m};
    if (ctx.attrs().has("output_shape")) {
        // The spatial output size; some exporters write the whole shape.
        Shape given = ctx.attrs().getInts("output_shape", {});
        if (given.size() == n + 2) given.erase(given.begin(), given.begin() + 2);
        if (given.size() != n)
            ctx.fail("attribute 'output_shape' has " + std::to_string(given.size()) +
                     " values, expected " + std::to_string(n));
        for (int64_t d : given)
            if (d < 0) ctx.fail("output_shape " + listStr(given) + " has a negative size");
        out.insert(out.end(), given.begin(), given.end());
        return {storedAs(ctx, TensorType(x.dtype, out), outLayout)};
    }
    for (size_t i = 0; i < n; ++i) {
        const int64_t in = x.shape[i + 2];
        if (in < 0) {
            out.push_back(-1);
            continue;
        }
        // Computed wide from the model's numbers; saturated below.
        const __int128 full = __int128(strides[i]) * (in - 1) + outPad[i] +
                              __int128(kernel[i] - 1) * dilations[i] + 1;
        __int128 size = 0;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
            // Padded until the output is in * stride; when even the unpadded
            // output is smaller, padding cannot get there (ONNX Runtime's rule).
            size = std::min(__int128(in) * strides[i], full);
        else if (autoPad == "VALID")
            size = full;
        else
            size = full - pads[i] - pads[i + n];
        if (size < 0)
            ctx.fail("pads " + listStr(pads) + " leave no output in spatial dim " +
                     std::to_string(i));
        out.push_back(saturated(size));
    }
    return {storedAs(ctx, TensorType(x.dtype, out), outLayout)};
}

Types inferPool(const InferContext& ctx) {
    requireChannelBlocks(ctx, 0);
    const TensorType x = ctx.input(0).logical();
    requireMinRank(ctx, 0, 3, "input X");
    const size_t n = static_cast<size_t>(x.rank() - 2);
    if (!ctx.attrs().has("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
    Shape kernel = intsOfSize(ctx, "kernel_shape", n, 1);
    const bool ceilMode = ctx.attrs().getInt("ceil_mode", 0) != 0;
    Shape spatial = windowOutput(ctx, Shape(x.shape.begin() + 2, x.shape.end()), kernel, ceilMode);
    Shape out{x.shape[0], x.shape[1]};
    out.insert(out.end(), spatial.begin(), spatial.end());
    // Pooling works per channel: a blocked input gives a blocked output.
    Types types{storedAs(ctx, TensorType(x.dtype, out), ctx.input(0).layout)};
    if (ctx.numOutputs() == 2) {
        if (ctx.input(0).blocked()) ctx.fail("the Indices output of MaxPool needs a plain input");
        types.emplace_back(DataType::int64(), out); // MaxPool's Indices
    }
    return types;
}

Types inferGlobalPool(const InferContext& ctx) {
    requireChannelBlocks(ctx, 0);
    const TensorType x = ctx.input(0).logical();
    requireMinRank(ctx, 0, 3, "input X");
    Shape out = x.shape;
    std::fill(out.begin() + 2, out.end(), 1);
    return {storedAs(ctx, TensorType(x.dtype, out), ctx.input(0).layout)};
}

Types inferGemm(const InferContext& ctx) {
    const TensorType& a = ctx.input(0);
    const TensorType& b = ctx.input(1);
    if (a.rank() != 2 || b.rank() != 2)
        ctx.fail("A " + a.str() + " and B " + b.str() + " must both have rank 2");
    requireSameDtype(ctx, 0, 1);
    const bool ta = ctx.attrs().getInt("transA", 0) != 0;
    const bool tb = ctx.attrs().getInt("transB", 0) != 0;
    const int64_t m = ta ? a.shape[1] : a.shape[0];
    const int64_t k = ta ? a.shape[0] : a.shape[1];
    const int64_t k2 = tb ? b.shape[1] : b.shape[0];
    const int64_t n = tb ? b.shape[0] : b.shape[1];
    if (k >= 0 && k2 >= 0 && k != k2)
        ctx.fail("inner dimensions differ: A " + a.str() + (ta ? " (transposed)" : "") +
                 " has K=" + std::to_string(k) + ", B " + b.str() + (tb ? " (transposed)" : "") +
                 " has K=" + std::to_string(k2));
    if (ctx.hasInput(2)) {
        const TensorType& c = ctx.input(2);
        // C broadcasts one way, to [M, N]: aligned right, each dim 1 or equal.
        const Shape mn{m, n};
        bool ok = c.rank() <= 2;
        for (int i = 0; ok && i < c.rank(); ++i) {
            const int64_t cd = c.shape[static_cast<size_t>(c.rank() - 1 - i)];
            const int64_t td = mn[static_cast<size_t>(1 - i)];
            ok = cd == 1 || cd < 0 || td < 0 || cd == td;
        }
        if (!ok) ctx.fail("C " + c.str() + " does not broadcast to [M, N] = " + shapeStr(mn));
    }
    return {TensorType(a.dtype, {m, n})};
}

Types inferMatMul(const InferContext& ctx) {
    TensorType a = ctx.input(0);
    TensorType b = ctx.input(1);
    requireSameDtype(ctx, 0, 1);
    if (a.rank() < 1 || b.rank() < 1)
        ctx.fail("MatMul inputs must have rank at least 1 (got scalars)");
    const bool aVec = a.rank() == 1, bVec = b.rank() == 1;
    if (aVec) a.shape.insert(a.shape.begin(), 1);
    if (bVec) b.shape.push_back(1);
    const int64_t k = a.shape.back(), k2 = b.shape[b.shape.size() - 2];
    if (k >= 0 && k2 >= 0 && k != k2)
        ctx.fail("inner dimensions differ: A " + ctx.input(0).str() + " has K=" +
                 std::to_string(k) + ", B " + ctx.input(1).str() + " has K=" + std::to_string(k2));
    Shape batchA(a.shape.begin(), a.shape.end() - 2), batchB(b.shape.begin(), b.shape.end() - 2);
    auto batch = broadcastShapes(batchA, batchB);
    if (!batch)
        ctx.fail("batch dimensions " + shapeStr(batchA) + " and " + shapeStr(batchB) +
                 " do not broadcast");
    Shape out = *batch;
    if (!aVec) out.push_back(a.shape[a.shape.size() - 2]);
    if (!bVec) out.push_back(b.shape.back());
    return {TensorType(a.dtype, out)};
}

Types inferBatchNorm(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireMinRank(ctx, 0, 2, "input X");
    const int64_t c = x.shape[1];
    static const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
    for (int i = 1; i < 5; ++i) {
        const TensorType& t = ctx.input(i);
        if (t.rank() != 1 || (c >= 0 && t.shape[0] >= 0 && t.shape[0] != c))
            ctx.fail(std::string(names[i]) + " " + t.str() + " should have shape [" +
                     std::to_string(c) + "] (the channels of X " + x.str() + ")");
    }
    Types out{x};
    for (int i = 1; i < ctx.numOutputs(); ++i)
        out.emplace_back(ctx.input(3).dtype, Shape{c});
    return out;
}

Types inferInstanceNorm(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireMinRank(ctx, 0, 3, "input X");
    requireFloat(ctx, 0);
    const int64_t c = x.shape[1];
    for (int i = 1; i < 3; ++i) {
        const TensorType& t = ctx.input(i);
        requireSameDtype(ctx, 0, i);
        if (t.rank() != 1 || (c >= 0 && t.shape[0] >= 0 && t.shape[0] != c))
            ctx.fail(std::string(i == 1 ? "scale " : "B ") + t.str() + " should have shape [" +
                     std::to_string(c) + "] (the channels of X " + x.str() + ")");
    }
    return {x};
}

Types inferLayerNorm(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireFloat(ctx, 0);
    const int64_t axisAttr = ctx.attrs().getInt("axis", -1);
    auto axis = normalizeAxis(axisAttr, x.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + x.str());
    const Shape normalized(x.shape.begin() + *axis, x.shape.end());
    for (int i = 1; i < ctx.numInputs(); ++i) {
        if (!ctx.hasInput(i)) continue;
        requireSameDtype(ctx, 0, i);
        // Scale and B broadcast to the normalised dims x.shape[axis:].
        auto bc = broadcastShapes(normalized, ctx.input(i).shape);
        if (!bc || bc->size() != normalized.size())
            ctx.fail(std::string(i == 1 ? "scale " : "B ") + ctx.input(i).str() +
                     " does not broadcast to the normalised dims " + shapeStr(normalized));
    }
    const int64_t stash = ctx.attrs().getInt("stash_type", 1);
    auto stashType = dataTypeFromOnnx(stash);
    if (!stashType || !stashType->isFloat())
        ctx.fail("stash_type " + std::to_string(stash) + " is not a floating-point type code");
    Shape stats(x.shape.begin(), x.shape.begin() + *axis);
    stats.resize(x.shape.size(), 1);
    Types out{x};
    for (int i = 1; i < ctx.numOutputs(); ++i)
        out.emplace_back(*stashType, stats);
    return out;
}

Types inferSoftmax(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t axis = ctx.attrs().getInt("axis", -1);
    if (!normalizeAxis(axis, std::max(x.rank(), 1)))
        ctx.fail("axis " + std::to_string(axis) + " is out of range for " + x.str());
    requireFloat(ctx, 0);
    return {x};
}

/// The attributes of a sliding window (convolution, pooling), then `extra`.
std::vector<AttrSchema> windowAttrs(std::vector<AttrSchema> extra) {
    std::vector<AttrSchema> a{
        attrString("auto_pad", "NOTSET", "NOTSET (use pads), SAME_UPPER, SAME_LOWER or VALID"),
        attrInts("kernel_shape", "window size per spatial axis"),
        attrInts("pads", "padding, all begins then all ends (default 0)"),
        attrInts("strides", "step per spatial axis (default 1)"),
        attrInts("dilations", "spacing of window taps per spatial axis (default 1)"),
    };
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

Types inferMaxUnpool(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireMinRank(ctx, 0, 3, "input X");
    if (!ctx.input(1).dtype.isInt() || ctx.input(1).shape != x.shape)
        ctx.fail("indices " + ctx.input(1).str() + " must be integers of the shape of X " + x.str());
    if (!ctx.attrs().has("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
    const size_t n = static_cast<size_t>(x.rank() - 2);
    if (ctx.hasInput(2)) {
        if (ctx.input(2).rank() != 1 || ctx.input(2).shape[0] != x.rank())
            ctx.fail("output_shape " + ctx.input(2).str() + " must hold one extent per axis of X");
        auto shape = constInts(ctx, 2, "output_shape");
        if (!shape) return {TensorType(x.dtype, Shape(static_cast<size_t>(x.rank()), -1))};
        if ((*shape)[0] != x.shape[0] || (*shape)[1] != x.shape[1])
            ctx.fail("output_shape " + listStr(*shape) + " must keep the batch and channels of X " + x.str());
        return {TensorType(x.dtype, *shape)};
    }
    const Shape kernel = intsOfSize(ctx, "kernel_shape", n, 1), strides = intsOfSize(ctx, "strides", n, 1),
                pads = intsOfSize(ctx, "pads", 2 * n, 0);
    Shape out{x.shape[0], x.shape[1]};
    for (size_t d = 0; d < n; ++d) {
        const int64_t in = x.shape[d + 2];
        out.push_back(in < 0 ? -1
                             : saturated(__int128(in - 1) * strides[d] + kernel[d] - pads[d] -
                                         pads[d + n]));
    }
    return {TensorType(x.dtype, out)};
}

Types inferRoiAlign(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireFloat(ctx, 0);
    if (x.rank() != 4) ctx.fail("X " + x.str() + " must be [N, C, H, W]");
    if (ctx.input(1).rank() != 2 || ctx.input(1).shape[1] != 4) ctx.fail("rois " + ctx.input(1).str() + " must be [R, 4]");
    requireSameDtype(ctx, 0, 1);
    if (!ctx.input(2).dtype.isInt() || ctx.input(2).rank() != 1)
        ctx.fail("batch_indices " + ctx.input(2).str() + " must be a 1-D integer tensor");
    const std::string mode = ctx.attrs().getString("mode", "avg");
    if (mode != "avg" && mode != "max") ctx.fail("mode '" + mode + "' is not supported (avg, max)");
    const std::string ct = ctx.attrs().getString("coordinate_transformation_mode", "half_pixel");
    if (ct != "half_pixel" && ct != "output_half_pixel")
        ctx.fail("coordinate_transformation_mode '" + ct + "' is not supported");
    return {TensorType(x.dtype, {ctx.input(1).shape[0], x.shape[1], ctx.attrs().getInt("output_height", 1),
                                 ctx.attrs().getInt("output_width", 1)})};
}

Types inferDet(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireFloat(ctx, 0);
    requireMinRank(ctx, 0, 2, "input");
    const int64_t a = x.shape[x.shape.size() - 2], b = x.shape.back();
    if (a >= 0 && b >= 0 && a != b) ctx.fail("input " + x.str() + " must hold square matrices");
    return {TensorType(x.dtype, Shape(x.shape.begin(), x.shape.end() - 2))};
}

Types inferLrn(const InferContext& ctx) {
    requireMinRank(ctx, 0, 3, "input");
    requireFloat(ctx, 0);
    if (ctx.attrs().getInt("size", 0) < 1) ctx.fail("attribute 'size' must be at least 1");
    return {ctx.input(0)};
}

Types inferMvn(const InferContext& ctx) {
    requireFloat(ctx, 0);
    for (int64_t a : ctx.attrs().getInts("axes", {0, 2, 3}))
        if (!normalizeAxis(a, ctx.input(0).rank()))
            ctx.fail("axis " + std::to_string(a) + " is out of range for " + ctx.input(0).str());
    return {ctx.input(0)};
}

Types inferEinsum(const InferContext& ctx) {
    std::vector<int64_t> ranks;
    for (int i = 0; i < ctx.numInputs(); ++i) {
        ranks.push_back(ctx.input(i).rank());
        if (i) requireSameDtype(ctx, 0, i);
    }
    const EinsumTerms t = parseEinsum(ctx.attrs().getString("equation", ""), ranks);
    if (!t.error.empty()) ctx.fail("equation '" + ctx.attrs().getString("equation", "") + "': " + t.error);
    // Each letter's extent; ellipsis axes of extent 1 broadcast.
    std::map<char, int64_t> extent;
    for (size_t k = 0; k < t.inputs.size(); ++k)
        for (size_t d = 0; d < t.inputs[k].size(); ++d) {
            const char c = t.inputs[k][d];
            const int64_t n = ctx.input(static_cast<int>(k)).shape[d];
            auto [it, fresh] = extent.emplace(c, n);
            if (fresh || it->second == n || n == 1) continue;
            if (it->second == 1 && std::isupper(static_cast<unsigned char>(c)))
                it->second = n;
            else if (it->second >= 0 && n >= 0)
                ctx.fail(std::string("axis '") + c + "' has extents " + std::to_string(it->second) + " and " +
                         std::to_string(n));
        }
    Shape out;
    for (char c : t.output)
        out.push_back(extent[c]);
    return {TensorType(ctx.input(0).dtype, out)};
}

} // namespace

void registerNnOps(OpRegistry& r) {
    r.add(op("MaxUnpool", "zeros with X written at the flat positions a MaxPool's indices name", OpPattern::Opaque, 2,
             3, inferMaxUnpool,
             {attrInts("kernel_shape", "the pooling window"), attrInts("strides", "window steps (default 1)"),
              attrInts("pads", "the pooling's padding (default 0)")}));
    r.add(op("RoiAlign", "bilinear averages (or maxima) over the bins of regions of interest", OpPattern::Opaque, 3, 3,
             inferRoiAlign,
             {attrString("coordinate_transformation_mode", "half_pixel", "half_pixel or output_half_pixel"),
              attrString("mode", "avg", "avg or max"), attrInt("output_height", 1, "bins per column"),
              attrInt("output_width", 1, "bins per row"), attrInt("sampling_ratio", 0, "samples per bin and axis"),
              attrFloat("spatial_scale", 1.0, "scale of the region coordinates")}));
    r.add(op("Det", "determinants of square matrices (the last two axes)", OpPattern::Opaque, 1, 1, inferDet));
    r.add(op("LRN", "x / (bias + alpha / size * sum of x^2 over the size channels around)^beta", OpPattern::Opaque,
             1, 1, inferLrn,
             {attrInt("size", std::nullopt, "channels summed"), attrFloat("alpha", 1e-4, "scale"),
              attrFloat("beta", 0.75, "exponent"), attrFloat("bias", 1.0, "offset")}));
    r.add(op("MeanVarianceNormalization", "(x - mean) / (std + 1e-9) over axes", OpPattern::Opaque, 1, 1, inferMvn,
             {attrInts("axes", "axes of the statistics (default [0, 2, 3])")}));
    r.add(op("Einsum", "sums of products of the inputs over the axes the equation leaves out", OpPattern::Opaque, 1, -1,
             inferEinsum, {attrString("equation", "", "subscripts, e.g. 'bij,bjk->bik' (an ellipsis allowed)")}));
    using P = OpPattern;
    // Convolution, matrix products, pooling.
    // Conv, ConvTranspose and pooling read inputs stored NCHW[x]c
    // (alter-layout); the convolutions write the layout out_layout names.
    auto custom = [](OpInfo i) {
        i.layouts = LayoutPolicy::Custom;
        return i;
    };
    r.add(custom(op("Conv", "N-d convolution with groups, strides, dilations and padding",
                    P::OutEWiseFusable, 2, 3, inferConv,
                    windowAttrs({attrInt("group", 1, "number of channel groups (C for depthwise)"),
                                 attrString("out_layout", "",
                                            "how the output is stored: NCHW16c (alter-layout); empty: plain")}))));
    r.add(custom(op("ConvTranspose", "N-d transposed convolution (the gradient of Conv) with groups",
                    P::OutEWiseFusable, 2, 3, inferConvTranspose,
                    windowAttrs(
                        {attrInt("group", 1, "number of channel groups"),
                         attrInts("output_padding", "added to one end of each spatial output (default 0)"),
                         attrInts("output_shape", "the spatial output size; pads are derived from it"),
                         attrString("out_layout", "",
                                    "how the output is stored: NCHW16c (alter-layout); empty: plain")}))));
    r.add(op("Gemm", "Y = alpha * A' * B' + beta * C with optional transposes", P::OutEWiseFusable,
             2, 3, inferGemm,
             {attrFloat("alpha", 1.0, "scale of A' * B'"), attrFloat("beta", 1.0, "scale of C"),
              attrInt("transA", 0, "transpose A"), attrInt("transB", 0, "transpose B")}));
    r.add(op("MatMul", "numpy matmul: batched, with broadcast batch dims", P::OutEWiseFusable, 2, 2,
             inferMatMul));
    r.add(custom(op("MaxPool", "maximum over sliding windows", P::OutEWiseFusable, 1, 1, inferPool,
             windowAttrs(
                 {attrInt("ceil_mode", 0, "round the output size up"),
                  attrInt("storage_order", 0, "layout of Indices: 0 row-major, 1 column-major")}),
             1, 2)));
    r.add(custom(op("AveragePool", "mean over sliding windows", P::OutEWiseFusable, 1, 1, inferPool,
             windowAttrs({attrInt("ceil_mode", 0, "round the output size up"),
                          attrInt("count_include_pad", 0, "count padding in the divisor")}))));
    r.add(custom(op("GlobalAveragePool", "mean over all spatial positions", P::OutEWiseFusable, 1, 1,
             inferGlobalPool)));
    r.add(custom(op("GlobalMaxPool", "maximum over all spatial positions", P::OutEWiseFusable, 1, 1,
             inferGlobalPool)));
    // Normalisation.
    r.add(op("BatchNormalization", "(x - mean) / sqrt(var + epsilon) * scale + B per channel",
             P::Opaque, 5, 5, inferBatchNorm,
             {attrFloat("epsilon", 1e-5, "added to the variance"),
              attrFloat("momentum", 0.9, "training only"),
              attrInt("training_mode", 0, "1 = training (also outputs running statistics)")},
             1, 5));
    r.add(op("InstanceNormalization",
             "(x - mean) / sqrt(var + epsilon) * scale + B over each instance's spatial dims",
             P::Opaque, 3, 3, inferInstanceNorm,
             {attrFloat("epsilon", 1e-5, "added to the variance")}));
    r.add(op("LayerNormalization",
             "(x - mean) / sqrt(var + epsilon) * Scale + B over the dims from axis on (opset 17)",
             P::Opaque, 2, 3, inferLayerNorm,
             {attrInt("axis", -1, "the first normalised dim"),
              attrFloat("epsilon", 1e-5, "added to the variance"),
              attrInt("stash_type", 1, "element type code of Mean and InvStdDev (1 = float32)")},
             1, 3));
    r.add(op("Softmax", "exp(x) / sum(exp(x)) along axis", P::Opaque, 1, 1, inferSoftmax,
             {attrInt("axis", -1, "the axis to normalise (-1 from opset 13)")}));
    r.add(op("LogSoftmax", "log(softmax(x)) along axis", P::Opaque, 1, 1, inferSoftmax,
             {attrInt("axis", -1, "the axis to normalise (-1 from opset 13)")}));
}

// The integer products (Quantize.cpp) take their shapes from these.
Types inferConvShape(const InferContext& ctx) {
    return inferConv(ctx);
}
Types inferMatMulShape(const InferContext& ctx) {
    return inferMatMul(ctx);
}
std::vector<AttrSchema> convAttrs() {
    return windowAttrs({attrInt("group", 1, "number of channel groups")});
}

} // namespace tessel::graph::ops
