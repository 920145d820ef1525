#include "graph/OpRegistry.h"

#include "ir/Diagnostic.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessel::graph {

const char* opPatternName(OpPattern p) {
    switch (p) {
    case OpPattern::ElementWise:
        return "elementwise";
    case OpPattern::Broadcast:
        return "broadcast";
    case OpPattern::Injective:
        return "injective";
    case OpPattern::CommReduce:
        return "reduce";
    case OpPattern::OutEWiseFusable:
        return "out-elementwise-fusable";
    case OpPattern::Opaque:
        return "opaque";
    }
    return "?";
}

const AttrSchema* OpInfo::findAttr(const std::string& attrName) const {
    for (const auto& a : attributes)
        if (a.name == attrName) return &a;
    return nullptr;
}

namespace {

std::string countText(int lo, int hi, const char* what) {
    std::string plural = std::string(what) + "s";
    if (hi < 0) return "at least " + std::to_string(lo) + " " + (lo == 1 ? what : plural);
    if (lo == hi) return std::to_string(lo) + " " + (lo == 1 ? what : plural);
    return std::to_string(lo) + " to " + std::to_string(hi) + " " + plural;
}

/// A shape as printed in types: `[2, ?, 4]`.
std::string shapeStr(const std::vector<int64_t>& s) {
    return TensorType(DataType::float32(), s).str().substr(7);
}
/// A list of integers as given: `[0, -1]`.
std::string listStr(const std::vector<int64_t>& v) {
    return attrValueStr(AttrValue(v));
}

} // namespace

std::string OpInfo::inputCountText() const {
    return countText(minInputs, maxInputs, "input");
}
std::string OpInfo::outputCountText() const {
    return countText(minOutputs, maxOutputs, "output");
}

const TensorType& InferContext::input(int i) const {
    if (!hasInput(i)) fail("input " + std::to_string(i) + " is absent");
    return inputs_[static_cast<size_t>(i)].type();
}

Ref<Constant> InferContext::constantInput(int i) const {
    return hasInput(i) ? inputs_[static_cast<size_t>(i)].constant() : Ref<Constant>();
}

void InferContext::fail(const std::string& message) const {
    throw CompileError(message);
}

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b) {
    const size_t r = std::max(a.size(), b.size());
    std::vector<int64_t> out(r);
    for (size_t i = 0; i < r; ++i) {
        int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
        int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
        if (x == y)
            out[i] = x;
        else if (x == 1)
            out[i] = y;
        else if (y == 1)
            out[i] = x;
        else if (x < 0)
            out[i] = y; // unknown must be 1 or y
        else if (y < 0)
            out[i] = x;
        else
            return std::nullopt;
    }
    return out;
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
    if (axis < -rank || axis >= rank) return std::nullopt;
    return axis < 0 ? axis + rank : axis;
}

SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step) {
    SliceRange r;
    r.step = step;
    if (dim <= 0) return r;
    // Adding dim to a negative value cannot overflow; INT64_MAX ("to the end") is never shifted.
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    // A step longer than the axis takes at most one element: clamping it keeps
    // the count and keeps -step from overflowing.
    const int64_t s = std::clamp(step, -dim - 1, dim + 1);
    if (step > 0) {
        r.start = std::clamp(start, int64_t(0), dim);
        end = std::clamp(end, int64_t(0), dim);
        r.count = end > r.start ? (end - r.start + s - 1) / s : 0;
    } else {
        r.start = std::clamp(start, int64_t(0), dim - 1);
        end = std::clamp(end, int64_t(-1), dim - 1);
        r.count = r.start > end ? (r.start - end - s - 1) / -s : 0;
    }
    return r;
}

std::vector<TensorType> inferOutputTypes(const Node& node, const std::vector<Value>& inputs) {
    auto fail = [&](const std::string& m) { throw CompileError(node.describe() + ": " + m); };
    const OpInfo* info = findOp(node.op);
    if (!info) fail("unknown operator '" + node.op + "'");
    const int nin = static_cast<int>(inputs.size());
    if (nin < info->minInputs || (info->maxInputs >= 0 && nin > info->maxInputs))
        fail("expects " + info->inputCountText() + ", got " + std::to_string(nin));
    if (node.numOutputs() < info->minOutputs ||
        (info->maxOutputs >= 0 && node.numOutputs() > info->maxOutputs))
        fail("expects " + info->outputCountText() + ", got " + std::to_string(node.numOutputs()));
    for (int i = 0; i < nin; ++i) {
        const Value& v = inputs[static_cast<size_t>(i)];
        if (!v.defined()) {
            if (i < info->minInputs) fail("required input " + std::to_string(i) + " is absent");
            continue;
        }
        if (!v.type().known())
            fail("input " + std::to_string(i) + " (from " + v.producer()->describe() +
                 ") has no type yet");
    }
    std::vector<TensorType> out;
    try {
        out = info->infer(InferContext(node, inputs));
    } catch (const CompileError& e) {
        fail(e.what());
    }
    if (static_cast<int>(out.size()) != node.numOutputs())
        throw CompileError(node.describe() + ": inference gave " + std::to_string(out.size()) +
                           " types for " + std::to_string(node.numOutputs()) + " outputs");
    return out;
}

// --- inference functions -----------------------------------------------------

namespace {

using Shape = std::vector<int64_t>;
using Types = std::vector<TensorType>;

int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

/// The product of dims [lo, hi), or -1 when one is unknown.
int64_t productOf(const Shape& s, size_t lo, size_t hi) {
    int64_t p = 1;
    for (size_t i = lo; i < hi; ++i) {
        if (s[i] < 0) return -1;
        p *= s[i];
    }
    return p;
}

void requireSameDtype(const InferContext& ctx, int a, int b) {
    if (ctx.input(a).dtype != ctx.input(b).dtype)
        ctx.fail("input " + std::to_string(b) + " has type " + ctx.input(b).dtype.str() +
                 ", input " + std::to_string(a) + " has " + ctx.input(a).dtype.str());
}

void requireFloat(const InferContext& ctx, int i) {
    if (!ctx.input(i).dtype.isFloat())
        ctx.fail("input " + std::to_string(i) + " has type " + ctx.input(i).dtype.str() +
                 ", expected a floating-point type");
}

void requireMinRank(const InferContext& ctx, int i, int rank, const char* what) {
    if (ctx.input(i).rank() < rank)
        ctx.fail(std::string(what) + " has rank " + std::to_string(ctx.input(i).rank()) + " (" +
                 ctx.input(i).str() + "), expected at least " + std::to_string(rank));
}

std::vector<int64_t> intsOfSize(const InferContext& ctx, const std::string& attr, size_t n,
                                int64_t fill) {
    std::vector<int64_t> v = ctx.attrs().getInts(attr, std::vector<int64_t>(n, fill));
    if (v.size() != n)
        ctx.fail("attribute '" + attr + "' has " + std::to_string(v.size()) + " values, expected " +
                 std::to_string(n));
    return v;
}

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
        const int64_t effKernel = (kernel[i] - 1) * dilations[i] + 1;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            out[i] = ceilDiv(in[i], strides[i]);
            continue;
        }
        const int64_t padBegin = autoPad == "VALID" ? 0 : pads[i];
        const int64_t padEnd = autoPad == "VALID" ? 0 : pads[i + n];
        const int64_t span = in[i] + padBegin + padEnd - effKernel;
        if (span < 0)
            ctx.fail("the window (" + std::to_string(effKernel) +
                     " with dilation) is larger than the padded input (" +
                     std::to_string(in[i] + padBegin + padEnd) + ") in spatial dim " +
                     std::to_string(i));
        out[i] = (ceilMode ? ceilDiv(span, strides[i]) : span / strides[i]) + 1;
        if (ceilMode && (out[i] - 1) * strides[i] >= in[i] + padBegin) --out[i];
    }
    return out;
}

/// The checks Conv and ConvTranspose share (ranks, types, group, kernel_shape
/// against the weights): the kernel's spatial extents.
Shape convKernel(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& w = ctx.input(1);
    requireMinRank(ctx, 0, 3, "input X");
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

Types inferConv(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
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
    return {TensorType(x.dtype, out)};
}

Types inferPool(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireMinRank(ctx, 0, 3, "input X");
    const size_t n = static_cast<size_t>(x.rank() - 2);
    if (!ctx.attrs().has("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
    Shape kernel = intsOfSize(ctx, "kernel_shape", n, 1);
    const bool ceilMode = ctx.attrs().getInt("ceil_mode", 0) != 0;
    Shape spatial = windowOutput(ctx, Shape(x.shape.begin() + 2, x.shape.end()), kernel, ceilMode);
    Shape out{x.shape[0], x.shape[1]};
    out.insert(out.end(), spatial.begin(), spatial.end());
    Types types{TensorType(x.dtype, out)};
    if (ctx.numOutputs() == 2) types.emplace_back(DataType::int64(), out); // MaxPool's Indices
    return types;
}

Types inferGlobalPool(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireMinRank(ctx, 0, 3, "input X");
    Shape out = x.shape;
    std::fill(out.begin() + 2, out.end(), 1);
    return {TensorType(x.dtype, out)};
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

/// The numpy broadcast of all inputs' shapes.
Shape broadcastInputs(const InferContext& ctx) {
    Shape out = ctx.input(0).shape;
    for (int i = 1; i < ctx.numInputs(); ++i) {
        auto bc = broadcastShapes(out, ctx.input(i).shape);
        if (!bc) {
            std::string list;
            for (int j = 0; j < ctx.numInputs(); ++j)
                list += (j ? " and " : "") + ctx.input(j).str();
            ctx.fail("shapes " + list + " do not broadcast");
        }
        out = *bc;
    }
    return out;
}

/// Numpy broadcasting over all present inputs; `sameDtype` requires equal types.
Types inferBroadcast(const InferContext& ctx, bool sameDtype) {
    if (sameDtype)
        for (int i = 1; i < ctx.numInputs(); ++i)
            requireSameDtype(ctx, 0, i);
    return {TensorType(ctx.input(0).dtype, broadcastInputs(ctx))};
}

Types inferUnary(const InferContext& ctx) {
    return {ctx.input(0)};
}

Types inferFloatUnary(const InferContext& ctx) {
    requireFloat(ctx, 0);
    return {ctx.input(0)};
}

Types inferClip(const InferContext& ctx) {
    for (int i = 1; i < 3; ++i)
        if (ctx.hasInput(i)) {
            if (ctx.input(i).numElements() > 1)
                ctx.fail(std::string(i == 1 ? "min " : "max ") + ctx.input(i).str() +
                         " must be a scalar");
            requireSameDtype(ctx, 0, i);
        }
    return {ctx.input(0)};
}

Types inferDropout(const InferContext& ctx) {
    Types out{ctx.input(0)};
    if (ctx.numOutputs() == 2) out.emplace_back(DataType::boolean(), ctx.input(0).shape);
    return out;
}

Types inferCast(const InferContext& ctx) {
    if (!ctx.attrs().has("to")) ctx.fail("attribute 'to' is required");
    const int64_t to = ctx.attrs().getInt("to", 0);
    auto dtype = dataTypeFromOnnx(to);
    if (!dtype) ctx.fail("unsupported target type code " + std::to_string(to));
    return {TensorType(*dtype, ctx.input(0).shape)};
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

Types inferSoftmax(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t axis = ctx.attrs().getInt("axis", -1);
    if (!normalizeAxis(axis, std::max(x.rank(), 1)))
        ctx.fail("axis " + std::to_string(axis) + " is out of range for " + x.str());
    requireFloat(ctx, 0);
    return {x};
}

/// The int64 values of a constant input (Reshape's shape, Squeeze's axes ...).
std::optional<std::vector<int64_t>> constInts(const InferContext& ctx, int i, const char* what) {
    if (!ctx.hasInput(i)) return std::nullopt;
    Ref<Constant> c = ctx.constantInput(i);
    if (!c) return std::nullopt;
    if (!c->dtype.isIntOrUInt())
        ctx.fail(std::string(what) + " " + c->type().str() + " must be an integer tensor");
    if (c->shape.size() > 1) ctx.fail(std::string(what) + " " + c->type().str() + " must be 1-D");
    return c->toInts();
}

Types inferReshape(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& shapeType = ctx.input(1);
    auto target = constInts(ctx, 1, "shape");
    if (!target) {
        if (shapeType.rank() != 1 || shapeType.shape[0] < 0)
            ctx.fail("the shape input " + shapeType.str() +
                     " must be a constant or have a known length");
        return {TensorType(x.dtype, Shape(static_cast<size_t>(shapeType.shape[0]), -1))};
    }
    const bool allowZero = ctx.attrs().getInt("allowzero", 0) != 0;
    Shape out;
    int inferAt = -1;
    for (size_t i = 0; i < target->size(); ++i) {
        const int64_t d = (*target)[i];
        if (d == 0 && !allowZero) {
            if (static_cast<int>(i) >= x.rank())
                ctx.fail("shape " + listStr(*target) + " copies dim " + std::to_string(i) +
                         " (0) but data " + x.str() + " has rank " + std::to_string(x.rank()));
            out.push_back(x.shape[i]);
        } else if (d == -1) {
            if (inferAt >= 0) ctx.fail("shape " + listStr(*target) + " has more than one -1");
            inferAt = static_cast<int>(i);
            out.push_back(-1);
        } else if (d < -1) {
            ctx.fail("shape " + listStr(*target) + " has a negative dimension");
        } else {
            out.push_back(d);
        }
    }
    // Dims copied by a 0 appear on both sides and cancel; the -1 takes what
    // is left of the input's elements once the other output dims are known.
    std::vector<bool> copied(out.size(), false);
    for (size_t i = 0; i < out.size(); ++i)
        copied[i] = (*target)[i] == 0 && !allowZero;
    int64_t inRest = 1, outRest = 1;
    bool known = true;
    for (size_t i = 0; i < x.shape.size(); ++i) {
        if (i < copied.size() && copied[i]) continue;
        if (x.shape[i] < 0)
            known = false;
        else
            inRest *= x.shape[i];
    }
    for (size_t i = 0; i < out.size(); ++i) {
        if (copied[i] || static_cast<int>(i) == inferAt) continue;
        outRest *= out[i];
    }
    if (known) {
        const int64_t total = x.numElements();
        if (inferAt >= 0) {
            if (outRest == 0 || inRest % outRest != 0)
                ctx.fail("cannot reshape " + x.str() + " (" + std::to_string(total) +
                         " elements) to " + listStr(*target));
            out[static_cast<size_t>(inferAt)] = inRest / outRest;
        } else if (inRest != outRest) {
            ctx.fail("cannot reshape " + x.str() + " (" + std::to_string(total) + " elements) to " +
                     shapeStr(out) + " (" + std::to_string(TensorType(x.dtype, out).numElements()) +
                     " elements)");
        }
    }
    return {TensorType(x.dtype, out)};
}

Types inferFlatten(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    int64_t axis = ctx.attrs().getInt("axis", 1);
    if (axis < -x.rank() || axis > x.rank())
        ctx.fail("axis " + std::to_string(axis) + " is out of range for " + x.str());
    if (axis < 0) axis += x.rank();
    const size_t a = static_cast<size_t>(axis);
    return {TensorType(x.dtype, {productOf(x.shape, 0, a), productOf(x.shape, a, x.shape.size())})};
}

/// DepthToSpace (toSpace) and SpaceToDepth: blocks of channels to and from
/// blocksize x blocksize spatial tiles of a 4-d NCHW tensor.
Types inferBlockSpace(const InferContext& ctx, bool toSpace) {
    const TensorType& x = ctx.input(0);
    if (x.rank() != 4) ctx.fail("needs a 4-d input, not " + x.str());
    const int64_t b = ctx.attrs().getInt("blocksize", 0);
    if (b < 1) ctx.fail("blocksize must be positive");
    Shape s = x.shape;
    auto scale = [](int64_t d, int64_t f) { return d < 0 ? d : d * f; };
    if (toSpace) {
        if (s[1] >= 0 && s[1] % (b * b) != 0)
            ctx.fail(std::to_string(s[1]) + " channels do not divide into blocks of " + std::to_string(b * b));
        s = {s[0], s[1] < 0 ? -1 : s[1] / (b * b), scale(s[2], b), scale(s[3], b)};
    } else {
        for (int i = 2; i < 4; ++i)
            if (s[i] >= 0 && s[i] % b != 0)
                ctx.fail("spatial size " + std::to_string(s[i]) + " is not a multiple of blocksize " +
                         std::to_string(b));
        s = {s[0], scale(s[1], b * b), s[2] < 0 ? -1 : s[2] / b, s[3] < 0 ? -1 : s[3] / b};
    }
    return {TensorType(x.dtype, s)};
}

Types inferTranspose(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    Shape perm(static_cast<size_t>(x.rank()));
    for (size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
    perm = ctx.attrs().getInts("perm", perm);
    Shape sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    Shape iota(static_cast<size_t>(x.rank()));
    std::iota(iota.begin(), iota.end(), 0);
    if (sorted != iota)
        ctx.fail("perm " + listStr(perm) + " is not a permutation of the " +
                 std::to_string(x.rank()) + " axes of " + x.str());
    Shape out;
    for (int64_t p : perm)
        out.push_back(x.shape[static_cast<size_t>(p)]);
    return {TensorType(x.dtype, out)};
}

Types inferConcat(const InferContext& ctx) {
    if (!ctx.attrs().has("axis")) ctx.fail("attribute 'axis' is required");
    const TensorType& first = ctx.input(0);
    const int64_t axisAttr = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(axisAttr, first.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + first.str());
    Shape out = first.shape;
    for (int i = 1; i < ctx.numInputs(); ++i) {
        const TensorType& t = ctx.input(i);
        requireSameDtype(ctx, 0, i);
        if (t.rank() != first.rank())
            ctx.fail("input " + std::to_string(i) + " " + t.str() + " has rank " +
                     std::to_string(t.rank()) + ", input 0 " + first.str() + " has " +
                     std::to_string(first.rank()));
        for (size_t d = 0; d < out.size(); ++d) {
            if (static_cast<int64_t>(d) == *axis) {
                out[d] = out[d] < 0 || t.shape[d] < 0 ? -1 : out[d] + t.shape[d];
            } else if (out[d] < 0) {
                out[d] = t.shape[d];
            } else if (t.shape[d] >= 0 && t.shape[d] != out[d]) {
                ctx.fail("input " + std::to_string(i) + " " + t.str() + " differs from input 0 " +
                         first.str() + " in dim " + std::to_string(d) +
                         " (concatenating along axis " + std::to_string(*axis) + ")");
            }
        }
    }
    return {TensorType(first.dtype, out)};
}

/// The length of the 1-D input i (-1 when unknown); fails for another rank.
int64_t vectorLength(const InferContext& ctx, int i, const char* what) {
    const TensorType& t = ctx.input(i);
    if (t.rank() != 1) ctx.fail(std::string(what) + " " + t.str() + " must be 1-D");
    return t.shape[0];
}

/// The number of axes given by an axes input (input 1) that is not a
/// constant: the output rank follows from it, its dims are unknown until run
/// time. Nullopt when the axes are a constant, an attribute or absent.
std::optional<int64_t> runtimeAxesCount(const InferContext& ctx) {
    if (!ctx.hasInput(1) || ctx.constantInput(1)) return std::nullopt;
    const int64_t n = vectorLength(ctx, 1, "axes");
    if (n < 0)
        ctx.fail("the axes input " + ctx.input(1).str() +
                 " must be a constant or have a known length");
    return n;
}

/// Axes from input 1 (opset 13) or from the `axes` attribute (older opsets).
std::optional<std::vector<int64_t>> axesOf(const InferContext& ctx) {
    if (ctx.hasInput(1)) {
        auto axes = constInts(ctx, 1, "axes");
        if (!axes) ctx.fail("the axes input must be a constant");
        return axes;
    }
    if (ctx.attrs().has("axes")) return ctx.attrs().getInts("axes", {});
    return std::nullopt;
}

Types inferSqueeze(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    if (auto n = runtimeAxesCount(ctx)) {
        if (*n == 0 || *n > x.rank())
            ctx.fail("the axes input " + ctx.input(1).str() + " must be a constant");
        return {TensorType(x.dtype, Shape(static_cast<size_t>(x.rank() - *n), -1))};
    }
    auto axes = axesOf(ctx);
    std::vector<bool> drop(static_cast<size_t>(x.rank()), false);
    if (axes && !axes->empty()) {
        for (int64_t a : *axes) {
            auto n = normalizeAxis(a, x.rank());
            if (!n) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
            if (x.shape[static_cast<size_t>(*n)] > 1 || x.shape[static_cast<size_t>(*n)] == 0)
                ctx.fail("cannot squeeze axis " + std::to_string(a) + " of " + x.str() +
                         ": its size is not 1");
            drop[static_cast<size_t>(*n)] = true;
        }
    } else {
        for (size_t i = 0; i < drop.size(); ++i) {
            if (x.shape[i] < 0)
                ctx.fail("without axes, every dimension of " + x.str() + " must be known");
            drop[i] = x.shape[i] == 1;
        }
    }
    Shape out;
    for (size_t i = 0; i < drop.size(); ++i)
        if (!drop[i]) out.push_back(x.shape[i]);
    return {TensorType(x.dtype, out)};
}

Types inferUnsqueeze(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    if (auto n = runtimeAxesCount(ctx))
        return {TensorType(x.dtype, Shape(static_cast<size_t>(x.rank() + *n), -1))};
    auto axes = axesOf(ctx);
    if (!axes || axes->empty())
        ctx.fail("axes are required (an input from opset 13, an attribute before)");
    const int64_t outRank = x.rank() + static_cast<int64_t>(axes->size());
    std::vector<bool> inserted(static_cast<size_t>(outRank), false);
    for (int64_t a : *axes) {
        auto n = normalizeAxis(a, outRank);
        if (!n)
            ctx.fail("axis " + std::to_string(a) + " is out of range for output rank " +
                     std::to_string(outRank));
        if (inserted[static_cast<size_t>(*n)])
            ctx.fail("axis " + std::to_string(a) + " is given twice");
        inserted[static_cast<size_t>(*n)] = true;
    }
    Shape out;
    size_t next = 0;
    for (size_t i = 0; i < inserted.size(); ++i)
        out.push_back(inserted[i] ? 1 : x.shape[next++]);
    return {TensorType(x.dtype, out)};
}

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

Types inferShape(const InferContext& ctx) {
    const int64_t r = ctx.input(0).rank();
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t(0), r); };
    const int64_t start = clamp(ctx.attrs().getInt("start", 0));
    const int64_t end = clamp(ctx.attrs().getInt("end", r));
    return {TensorType(DataType::int64(), {std::max(end - start, int64_t(0))})};
}

Types inferGather(const InferContext& ctx) {
    const TensorType& data = ctx.input(0);
    const TensorType& indices = ctx.input(1);
    if (!indices.dtype.isInt()) ctx.fail("indices " + indices.str() + " must be int32 or int64");
    const int64_t axisAttr = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(axisAttr, data.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + data.str());
    Shape out(data.shape.begin(), data.shape.begin() + *axis);
    out.insert(out.end(), indices.shape.begin(), indices.shape.end());
    out.insert(out.end(), data.shape.begin() + *axis + 1, data.shape.end());
    return {TensorType(data.dtype, out)};
}

Types inferConstantOp(const InferContext& ctx) {
    const Attributes& a = ctx.attrs();
    if (a.size() != 1)
        ctx.fail("exactly one value attribute is required (value, value_float, value_ints ...)");
    if (a.has("value")) {
        Ref<Constant> c = a.getTensor("value");
        if (!c) ctx.fail("attribute 'value' holds no tensor");
        return {c->type()};
    }
    if (a.has("value_float")) return {TensorType(DataType::float32(), {})};
    if (a.has("value_int")) return {TensorType(DataType::int64(), {})};
    if (a.has("value_floats"))
        return {TensorType(DataType::float32(),
                           {static_cast<int64_t>(a.getFloats("value_floats", {}).size())})};
    if (a.has("value_ints"))
        return {TensorType(DataType::int64(),
                           {static_cast<int64_t>(a.getInts("value_ints", {}).size())})};
    ctx.fail("unsupported value attribute '" + a.entries()[0].first + "'");
}

// --- operators added for whole models (issue 3) ----------------------------------

/// A float constant input as doubles; null when absent, not a constant, or float16 (unreadable).
std::optional<std::vector<double>> constFloats(const InferContext& ctx, int i) {
    Ref<Constant> c = ctx.constantInput(i);
    if (!c || (c->dtype.isFloat() && c->dtype.bits() == 16)) return std::nullopt;
    return c->toDoubles();
}

Types inferConvTranspose(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
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
    const int64_t m = w.shape[1] < 0 ? -1 : w.shape[1] * group;
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
        return {TensorType(x.dtype, out)};
    }
    for (size_t i = 0; i < n; ++i) {
        const int64_t in = x.shape[i + 2];
        if (in < 0) {
            out.push_back(-1);
            continue;
        }
        const int64_t full = strides[i] * (in - 1) + outPad[i] + (kernel[i] - 1) * dilations[i] + 1;
        int64_t size = 0;
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
            // Padded until the output is in * stride; when even the unpadded
            // output is smaller, padding cannot get there (ONNX Runtime's rule).
            size = std::min(in * strides[i], full);
        else if (autoPad == "VALID")
            size = full;
        else
            size = full - pads[i] - pads[i + n];
        if (size < 0)
            ctx.fail("pads " + listStr(pads) + " leave no output in spatial dim " +
                     std::to_string(i));
        out.push_back(size);
    }
    return {TensorType(x.dtype, out)};
}

Types inferSplit(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t axisAttr = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(axisAttr, x.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + x.str());
    const size_t a = static_cast<size_t>(*axis);
    const int k = ctx.numOutputs();
    std::optional<Shape> split;
    if (ctx.hasInput(1)) {
        vectorLength(ctx, 1, "split");
        split = constInts(ctx, 1, "split");
        if (!split) { // sizes known only at run time
            Shape s = x.shape;
            s[a] = -1;
            return Types(static_cast<size_t>(k), TensorType(x.dtype, s));
        }
    } else if (ctx.attrs().has("split")) {
        split = ctx.attrs().getInts("split", {});
    }
    const int64_t dim = x.shape[a];
    Types out(static_cast<size_t>(k), TensorType(x.dtype, x.shape));
    if (split && !split->empty()) {
        if (static_cast<int>(split->size()) != k)
            ctx.fail("split " + listStr(*split) + " has " + std::to_string(split->size()) +
                     " sizes for " + std::to_string(k) + " outputs");
        int64_t sum = 0;
        for (size_t i = 0; i < split->size(); ++i) {
            if ((*split)[i] < 0) ctx.fail("split " + listStr(*split) + " has a negative size");
            sum += (*split)[i];
            out[i].shape[a] = (*split)[i];
        }
        if (dim >= 0 && sum != dim)
            ctx.fail("split " + listStr(*split) + " adds up to " + std::to_string(sum) +
                     ", but axis " + std::to_string(*axis) + " of " + x.str() + " has " +
                     std::to_string(dim));
        return out;
    }
    if (dim >= 0 && dim % k != 0)
        ctx.fail("axis " + std::to_string(*axis) + " of " + x.str() + " (" + std::to_string(dim) +
                 ") does not split into " + std::to_string(k) + " equal parts");
    for (auto& t : out)
        t.shape[a] = dim < 0 ? -1 : dim / k;
    return out;
}

Types inferSlice(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t r = x.rank();
    // One slice parameter: from the inputs (opset 10+) or the attributes (opset 1).
    // `present` says whether it is given, `known` whether its values are.
    struct Param {
        bool present = false;
        std::optional<Shape> values;
        int64_t length = -1;
    };
    const bool fromAttrs = ctx.numInputs() == 1;
    auto param = [&](int i, const char* name) {
        Param p;
        if (fromAttrs) {
            if (i <= 3 && ctx.attrs().has(name)) {
                p.present = true;
                p.values = ctx.attrs().getInts(name, {});
            }
        } else if (ctx.hasInput(i)) {
            p.present = true;
            p.length = vectorLength(ctx, i, name);
            p.values = constInts(ctx, i, name);
        }
        if (p.values) p.length = static_cast<int64_t>(p.values->size());
        return p;
    };
    Param starts = param(1, "starts"), ends = param(2, "ends"), axes = param(3, "axes"),
          steps = param(4, "steps");
    if (!starts.present || !ends.present)
        ctx.fail("starts and ends are required (inputs from opset 10, attributes before)");
    for (const Param* p : {&ends, &axes, &steps})
        if (p->present && p->length >= 0 && starts.length >= 0 && p->length != starts.length)
            ctx.fail("starts, ends, axes and steps must have the same length (starts has " +
                     std::to_string(starts.length) + ", another has " + std::to_string(p->length) +
                     ")");
    // Which axes are sliced: given, or the first len(starts) ones.
    std::optional<Shape> sliced;
    if (axes.present) {
        if (axes.values) {
            sliced = Shape();
            std::vector<bool> seen(static_cast<size_t>(r), false);
            for (int64_t a : *axes.values) {
                auto na = normalizeAxis(a, r);
                if (!na) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
                if (seen[static_cast<size_t>(*na)])
                    ctx.fail("axis " + std::to_string(a) + " is given twice");
                seen[static_cast<size_t>(*na)] = true;
                sliced->push_back(*na);
            }
        }
    } else if (starts.length >= 0) {
        if (starts.length > r)
            ctx.fail("starts has " + std::to_string(starts.length) + " values for " + x.str());
        sliced = Shape(static_cast<size_t>(starts.length));
        std::iota(sliced->begin(), sliced->end(), 0);
    }
    Shape out = x.shape;
    const bool valuesKnown =
        starts.values && ends.values && (!steps.present || steps.values.has_value());
    if (!valuesKnown || !sliced) {
        // Sizes known only at run time: the rank stays, sliced axes become unknown.
        if (!sliced)
            std::fill(out.begin(), out.end(), -1);
        else
            for (int64_t a : *sliced)
                out[static_cast<size_t>(a)] = -1;
        return {TensorType(x.dtype, out)};
    }
    for (size_t i = 0; i < sliced->size(); ++i) {
        const size_t a = static_cast<size_t>((*sliced)[i]);
        const int64_t step = steps.values ? (*steps.values)[i] : 1;
        if (step == 0) ctx.fail("steps " + listStr(*steps.values) + " has a 0");
        if (x.shape[a] < 0) continue;
        out[a] = sliceRange(x.shape[a], (*starts.values)[i], (*ends.values)[i], step).count;
    }
    return {TensorType(x.dtype, out)};
}

Types inferPad(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t r = x.rank();
    const std::string mode = ctx.attrs().getString("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge")
        ctx.fail("unknown mode \"" + mode + "\" (constant, reflect or edge)");
    if (ctx.hasInput(2)) {
        const TensorType& v = ctx.input(2);
        if (v.numElements() > 1 || v.rank() > 1)
            ctx.fail("constant_value " + v.str() + " must be a scalar");
        requireSameDtype(ctx, 0, 2);
    }
    std::optional<Shape> pads;
    if (ctx.numInputs() == 1) { // opset < 11: an attribute
        if (!ctx.attrs().has("pads"))
            ctx.fail("pads are required (an input from opset 11, an attribute before)");
        pads = ctx.attrs().getInts("pads", {});
    } else {
        const int64_t len = vectorLength(ctx, 1, "pads");
        if (len >= 0 && len != 2 * r)
            ctx.fail("pads " + ctx.input(1).str() +
                     " must have 2 * rank = " + std::to_string(2 * r) + " values for " + x.str());
        pads = constInts(ctx, 1, "pads");
        if (!pads) return {TensorType(x.dtype, Shape(static_cast<size_t>(r), -1))};
    }
    if (static_cast<int64_t>(pads->size()) != 2 * r)
        ctx.fail("pads " + listStr(*pads) + " must have 2 * rank = " + std::to_string(2 * r) +
                 " values for " + x.str());
    Shape out = x.shape;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] < 0) continue;
        // Negative pads crop.
        out[i] += (*pads)[i] + (*pads)[i + out.size()];
        if (out[i] < 0)
            ctx.fail("pads " + listStr(*pads) + " remove more than the " +
                     std::to_string(x.shape[i]) + " elements of dim " + std::to_string(i) + " of " +
                     x.str());
    }
    return {TensorType(x.dtype, out)};
}

Types inferResize(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const size_t r = static_cast<size_t>(x.rank());
    auto oneOf = [&](const char* attr, const char* def, std::initializer_list<const char*> ok) {
        const std::string v = ctx.attrs().getString(attr, def);
        std::string list;
        for (const char* o : ok) {
            if (v == o) return;
            list += (list.empty() ? "" : ", ") + std::string(o);
        }
        ctx.fail("unknown " + std::string(attr) + " \"" + v + "\" (" + list + ")");
    };
    oneOf("mode", "nearest", {"nearest", "linear", "cubic"});
    oneOf("coordinate_transformation_mode", "half_pixel",
          {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
           "tf_half_pixel_for_nn", "tf_crop_and_resize"});
    oneOf("nearest_mode", "round_prefer_floor",
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"});
    // Opset 11 writers pass an empty tensor for the one of scales and sizes
    // they do not use; that counts as absent.
    auto given = [&](int i) {
        if (!ctx.hasInput(i)) return false;
        const TensorType& t = ctx.input(i);
        return !(t.rank() == 1 && t.shape[0] == 0);
    };
    const bool hasScales = given(2), hasSizes = given(3);
    if (hasScales && hasSizes) ctx.fail("only one of scales and sizes may be given");
    if (!hasScales && !hasSizes) ctx.fail("scales or sizes is required");
    const int i = hasSizes ? 3 : 2;
    const char* what = hasSizes ? "sizes" : "scales";
    const int64_t len = vectorLength(ctx, i, what);
    if (len >= 0 && len != static_cast<int64_t>(r))
        ctx.fail(std::string(what) + " " + ctx.input(i).str() + " must have " + std::to_string(r) +
                 " values, one per dim of " + x.str());
    if (hasSizes) {
        auto sizes = constInts(ctx, 3, "sizes");
        if (!sizes) return {TensorType(x.dtype, Shape(r, -1))};
        for (int64_t d : *sizes)
            if (d < 0) ctx.fail("sizes " + listStr(*sizes) + " has a negative size");
        return {TensorType(x.dtype, *sizes)};
    }
    if (!ctx.input(2).dtype.isFloat())
        ctx.fail("scales " + ctx.input(2).str() + " must be a floating-point tensor");
    auto scales = constFloats(ctx, 2);
    if (!scales) return {TensorType(x.dtype, Shape(r, -1))};
    Shape out = x.shape;
    for (size_t d = 0; d < r; ++d) {
        const float s = static_cast<float>((*scales)[d]);
        if (!(s > 0))
            ctx.fail("scale " + std::to_string(s) + " of dim " + std::to_string(d) +
                     " is not positive");
        // ONNX's own inference multiplies in float.
        if (out[d] >= 0) out[d] = static_cast<int64_t>(std::floor(static_cast<float>(out[d]) * s));
    }
    return {TensorType(x.dtype, out)};
}

Types inferExpand(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t len = vectorLength(ctx, 1, "shape");
    auto shape = constInts(ctx, 1, "shape");
    if (!shape) {
        if (len < 0)
            ctx.fail("the shape input " + ctx.input(1).str() +
                     " must be a constant or have a known length");
        shape = Shape(static_cast<size_t>(len), -1); // unknown dims: 1 or the input's
    } else {
        for (int64_t d : *shape)
            if (d < 0) ctx.fail("shape " + listStr(*shape) + " has a negative dimension");
    }
    auto out = broadcastShapes(x.shape, *shape);
    if (!out) ctx.fail("input " + x.str() + " does not broadcast to shape " + listStr(*shape));
    return {TensorType(x.dtype, *out)};
}

Types inferTile(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t len = vectorLength(ctx, 1, "repeats");
    if (len >= 0 && len != x.rank())
        ctx.fail("repeats " + ctx.input(1).str() + " must have one value per dim of " + x.str());
    auto repeats = constInts(ctx, 1, "repeats");
    if (!repeats) return {TensorType(x.dtype, Shape(x.shape.size(), -1))};
    Shape out = x.shape;
    for (size_t i = 0; i < out.size(); ++i) {
        const int64_t k = (*repeats)[i];
        if (k < 0) ctx.fail("repeats " + listStr(*repeats) + " has a negative count");
        out[i] = k == 0 ? 0 : (out[i] < 0 ? -1 : out[i] * k);
    }
    return {TensorType(x.dtype, out)};
}

Types inferWhere(const InferContext& ctx) {
    if (!ctx.input(0).dtype.isBool())
        ctx.fail("condition " + ctx.input(0).str() + " must be a bool tensor");
    requireSameDtype(ctx, 1, 2);
    return {TensorType(ctx.input(1).dtype, broadcastInputs(ctx))};
}

Types inferConstantOfShape(const InferContext& ctx) {
    Ref<Constant> value = ctx.attrs().getTensor("value");
    if (value && value->numElements() != 1)
        ctx.fail("attribute 'value' " + value->type().str() + " must hold exactly one element");
    const DataType dtype = value ? value->dtype : DataType::float32();
    const int64_t len = vectorLength(ctx, 0, "shape");
    if (!ctx.input(0).dtype.isIntOrUInt())
        ctx.fail("shape " + ctx.input(0).str() + " must be an integer tensor");
    auto shape = constInts(ctx, 0, "shape");
    if (!shape) {
        if (len < 0)
            ctx.fail("the shape input " + ctx.input(0).str() +
                     " must be a constant or have a known length");
        return {TensorType(dtype, Shape(static_cast<size_t>(len), -1))};
    }
    for (int64_t d : *shape)
        if (d < 0) ctx.fail("shape " + listStr(*shape) + " has a negative dimension");
    return {TensorType(dtype, *shape)};
}

Types inferRange(const InferContext& ctx) {
    static const char* names[] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i) {
        if (ctx.input(i).numElements() != 1 || ctx.input(i).rank() > 1)
            ctx.fail(std::string(names[i]) + " " + ctx.input(i).str() + " must be a scalar");
        if (i) requireSameDtype(ctx, 0, i);
    }
    const DataType t = ctx.input(0).dtype;
    if (!t.isFloat() && !t.isInt())
        ctx.fail("type " + t.str() + " is not supported (float, double, int16, int32, int64)");
    Ref<Constant> start = ctx.constantInput(0), limit = ctx.constantInput(1),
                  delta = ctx.constantInput(2);
    if (!start || !limit || !delta || (t.isFloat() && t.bits() == 16)) return {TensorType(t, {-1})};
    int64_t n = 0;
    if (t.isFloat()) {
        const double s = start->toDoubles()[0], l = limit->toDoubles()[0],
                     d = delta->toDoubles()[0];
        if (d == 0) ctx.fail("delta is 0");
        // ceil((limit - start) / delta), computed in the tensor's own precision.
        const double q =
            t.bits() == 32
                ? static_cast<double>(static_cast<float>(
                      (static_cast<float>(l) - static_cast<float>(s)) / static_cast<float>(d)))
                : (l - s) / d;
        if (!std::isfinite(q) || q > 9.0e18) ctx.fail("the range has too many elements");
        n = static_cast<int64_t>(std::ceil(q));
    } else {
        const int64_t s = start->toInts()[0], l = limit->toInts()[0], d = delta->toInts()[0];
        if (d == 0) ctx.fail("delta is 0");
        if (d > 0 && l > s) n = (l - s + d - 1) / d;
        if (d < 0 && l < s) n = (s - l - d - 1) / -d;
    }
    return {TensorType(t, {std::max(n, int64_t(0))})};
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

Types inferPRelu(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& slope = ctx.input(1);
    requireSameDtype(ctx, 0, 1);
    // The slope broadcasts to X one way: the output has X's shape.
    auto bc = broadcastShapes(x.shape, slope.shape);
    bool ok = bc && bc->size() == x.shape.size();
    for (size_t i = 0; ok && i < x.shape.size(); ++i)
        ok = x.shape[i] < 0 || (*bc)[i] == x.shape[i];
    if (!ok) ctx.fail("slope " + slope.str() + " does not broadcast to X " + x.str());
    return {x};
}

Types inferCompare(const InferContext& ctx) {
    requireSameDtype(ctx, 0, 1);
    return {TensorType(DataType::boolean(), broadcastInputs(ctx))};
}

Types inferLogical(const InferContext& ctx) {
    for (int i = 0; i < ctx.numInputs(); ++i)
        if (!ctx.input(i).dtype.isBool())
            ctx.fail("input " + std::to_string(i) + " " + ctx.input(i).str() +
                     " must be a bool tensor");
    return {TensorType(DataType::boolean(), broadcastInputs(ctx))};
}

Types inferSize(const InferContext&) {
    return {TensorType(DataType::int64(), {})};
}

Types inferFloatBroadcast(const InferContext& ctx) {
    requireFloat(ctx, 0);
    return inferBroadcast(ctx, true);
}

// --- the registry ------------------------------------------------------------

AttrSchema attrInt(std::string name, std::optional<int64_t> def, std::string doc) {
    return {std::move(name), AttrKind::Int, def ? std::optional<AttrValue>(*def) : std::nullopt,
            std::move(doc)};
}
AttrSchema attrFloat(std::string name, double def, std::string doc) {
    return {std::move(name), AttrKind::Float, AttrValue(def), std::move(doc)};
}
AttrSchema attrString(std::string name, std::string def, std::string doc) {
    return {std::move(name), AttrKind::String, AttrValue(std::move(def)), std::move(doc)};
}
AttrSchema attrInts(std::string name, std::string doc) {
    return {std::move(name), AttrKind::Ints, std::nullopt, std::move(doc)};
}

std::vector<AttrSchema> windowAttrs(bool dilations) {
    std::vector<AttrSchema> a{
        attrString("auto_pad", "NOTSET", "NOTSET (use pads), SAME_UPPER, SAME_LOWER or VALID"),
        attrInts("kernel_shape", "window size per spatial axis"),
        attrInts("pads", "padding, all begins then all ends (default 0)"),
        attrInts("strides", "step per spatial axis (default 1)"),
    };
    if (dilations)
        a.push_back(attrInts("dilations", "spacing of window taps per spatial axis (default 1)"));
    return a;
}

OpInfo op(std::string name, std::string doc, OpPattern pattern, int minIn, int maxIn, InferFn infer,
          std::vector<AttrSchema> attrs = {}, int minOut = 1, int maxOut = 1) {
    OpInfo i;
    i.name = std::move(name);
    i.doc = std::move(doc);
    i.pattern = pattern;
    i.minInputs = minIn;
    i.maxInputs = maxIn;
    i.minOutputs = minOut;
    i.maxOutputs = maxOut;
    i.infer = std::move(infer);
    i.attributes = std::move(attrs);
    return i;
}

std::vector<OpInfo> makeOps() {
    using P = OpPattern;
    auto broadcastSame = [](const InferContext& c) { return inferBroadcast(c, true); };
    auto broadcastPow = [](const InferContext& c) { return inferBroadcast(c, false); };
    std::vector<AttrSchema> reduceAttrs{
        attrInts("axes", "axes to reduce (before the axes input of opset 13/18); all when empty"),
        attrInt("keepdims", 1, "keep reduced axes as size 1"),
        attrInt("noop_with_empty_axes", 0, "with no axes: 1 = identity, 0 = reduce all"),
    };
    std::vector<OpInfo> ops{
        // Convolution, matrix products, pooling.
        op("Conv", "N-d convolution with groups, strides, dilations and padding",
           P::OutEWiseFusable, 2, 3, inferConv,
           [] {
               auto a = windowAttrs(true);
               a.push_back(attrInt("group", 1, "number of channel groups (C for depthwise)"));
               return a;
           }()),
        op("Gemm", "Y = alpha * A' * B' + beta * C with optional transposes", P::OutEWiseFusable, 2,
           3, inferGemm,
           {attrFloat("alpha", 1.0, "scale of A' * B'"), attrFloat("beta", 1.0, "scale of C"),
            attrInt("transA", 0, "transpose A"), attrInt("transB", 0, "transpose B")}),
        op("MatMul", "numpy matmul: batched, with broadcast batch dims", P::OutEWiseFusable, 2, 2,
           inferMatMul),
        op(
            "MaxPool", "maximum over sliding windows", P::OutEWiseFusable, 1, 1, inferPool,
            [] {
                auto a = windowAttrs(true);
                a.push_back(attrInt("ceil_mode", 0, "round the output size up"));
                a.push_back(
                    attrInt("storage_order", 0, "layout of Indices: 0 row-major, 1 column-major"));
                return a;
            }(),
            1, 2),
        op("AveragePool", "mean over sliding windows", P::OutEWiseFusable, 1, 1, inferPool,
           [] {
               auto a = windowAttrs(true);
               a.push_back(attrInt("ceil_mode", 0, "round the output size up"));
               a.push_back(attrInt("count_include_pad", 0, "count padding in the divisor"));
               return a;
           }()),
        op("GlobalAveragePool", "mean over all spatial positions", P::OutEWiseFusable, 1, 1,
           inferGlobalPool),
        op("GlobalMaxPool", "maximum over all spatial positions", P::OutEWiseFusable, 1, 1,
           inferGlobalPool),

        // Broadcasting binary operators.
        op("Add", "A + B with numpy broadcasting", P::Broadcast, 2, 2, broadcastSame),
        op("Sub", "A - B with numpy broadcasting", P::Broadcast, 2, 2, broadcastSame),
        op("Mul", "A * B with numpy broadcasting", P::Broadcast, 2, 2, broadcastSame),
        op("Div", "A / B with numpy broadcasting", P::Broadcast, 2, 2, broadcastSame),
        op("Pow", "X ^ Y with numpy broadcasting (output type of X)", P::Broadcast, 2, 2,
           broadcastPow),
        op("Min", "element-wise minimum of all inputs, broadcast", P::Broadcast, 1, -1,
           broadcastSame),
        op("Max", "element-wise maximum of all inputs, broadcast", P::Broadcast, 1, -1,
           broadcastSame),

        // Element-wise unary operators.
        op("Relu", "max(x, 0)", P::ElementWise, 1, 1, inferUnary),
        op("Sigmoid", "1 / (1 + exp(-x))", P::ElementWise, 1, 1, inferFloatUnary),
        op("Tanh", "hyperbolic tangent", P::ElementWise, 1, 1, inferFloatUnary),
        op("Exp", "e^x", P::ElementWise, 1, 1, inferFloatUnary),
        op("Log", "natural logarithm", P::ElementWise, 1, 1, inferFloatUnary),
        op("Sqrt", "square root", P::ElementWise, 1, 1, inferFloatUnary),
        op("Neg", "-x", P::ElementWise, 1, 1, inferUnary),
        op("Abs", "|x|", P::ElementWise, 1, 1, inferUnary),
        op("Erf", "the Gauss error function", P::ElementWise, 1, 1, inferFloatUnary),
        op("LeakyRelu", "x if x >= 0 else alpha * x", P::ElementWise, 1, 1, inferFloatUnary,
           {attrFloat("alpha", 0.01, "slope for negative x")}),
        op("Clip", "min(max(x, min), max); bounds are inputs from opset 11, attributes before",
           P::ElementWise, 1, 3, inferClip,
           {attrFloat("min", -3.4028234663852886e38, "lower bound (opset < 11)"),
            attrFloat("max", 3.4028234663852886e38, "upper bound (opset < 11)")}),
        op("HardSigmoid", "max(0, min(1, alpha * x + beta))", P::ElementWise, 1, 1, inferFloatUnary,
           {attrFloat("alpha", 0.2, "slope"), attrFloat("beta", 0.5, "offset")}),
        op("HardSwish", "x * max(0, min(1, x / 6 + 1 / 2))", P::ElementWise, 1, 1, inferFloatUnary),
        op("Identity", "y = x", P::ElementWise, 1, 1, inferUnary),
        op("Dropout", "identity at inference (the optional mask is all true)", P::ElementWise, 1, 3,
           inferDropout,
           {attrFloat("ratio", 0.5, "drop probability (opset < 12)"),
            attrInt("seed", 0, "random seed")},
           1, 2),
        op("Cast", "converts elements to the type `to` (an ONNX type code)", P::ElementWise, 1, 1,
           inferCast, {attrInt("to", std::nullopt, "target TensorProto element type")}),

        // Normalisation.
        op("BatchNormalization", "(x - mean) / sqrt(var + epsilon) * scale + B per channel",
           P::Opaque, 5, 5, inferBatchNorm,
           {attrFloat("epsilon", 1e-5, "added to the variance"),
            attrFloat("momentum", 0.9, "training only"),
            attrInt("training_mode", 0, "1 = training (also outputs running statistics)")},
           1, 5),
        op("Softmax", "exp(x) / sum(exp(x)) along axis", P::Opaque, 1, 1, inferSoftmax,
           {attrInt("axis", -1, "the axis to normalise (-1 from opset 13)")}),
        op("LogSoftmax", "log(softmax(x)) along axis", P::Opaque, 1, 1, inferSoftmax,
           {attrInt("axis", -1, "the axis to normalise (-1 from opset 13)")}),

        // Shape manipulation.
        op("Reshape", "new shape from a shape tensor (0 copies a dim, -1 is inferred)",
           P::Injective, 2, 2, inferReshape,
           {attrInt("allowzero", 0, "1 = a 0 in shape means size 0, not copy")}),
        op("Flatten", "2-D view: dims before axis and dims from axis", P::Injective, 1, 1,
           inferFlatten, {attrInt("axis", 1, "first dim of the second output dimension")}),
        op("DepthToSpace", "moves channel blocks into blocksize x blocksize spatial tiles",
           P::Injective, 1, 1, [](const InferContext& c) { return inferBlockSpace(c, true); },
           {attrInt("blocksize", std::nullopt, "edge of the spatial tile"),
            attrString("mode", "DCR", "DCR (depth, column, row) or CRD (column, row, depth)")}),
        op("SpaceToDepth", "moves blocksize x blocksize spatial tiles into channels", P::Injective, 1,
           1, [](const InferContext& c) { return inferBlockSpace(c, false); },
           {attrInt("blocksize", std::nullopt, "edge of the spatial tile")}),
        op("Transpose", "permutes the axes (reverses them by default)", P::Injective, 1, 1,
           inferTranspose, {attrInts("perm", "the new order of the axes")}),
        op("Concat", "joins tensors along axis", P::Injective, 1, -1, inferConcat,
           {attrInt("axis", std::nullopt, "the axis to join along (required)")}),
        op("Squeeze", "removes size-1 axes (axes an input from opset 13)", P::Injective, 1, 2,
           inferSqueeze,
           {attrInts("axes", "axes to remove (opset < 13); all size-1 axes when absent")}),
        op("Unsqueeze", "inserts size-1 axes (axes an input from opset 13)", P::Injective, 1, 2,
           inferUnsqueeze, {attrInts("axes", "positions in the output (opset < 13)")}),

        // Shape computations (folded away once input shapes are bound).
        op("Shape", "the shape of a tensor as an int64 vector (dims start to end)", P::Opaque, 1, 1,
           inferShape,
           {attrInt("start", 0, "first dim (opset 15)"),
            attrInt("end", std::nullopt, "one past the last dim (opset 15)")}),
        op("Gather", "takes slices of data along axis at the given indices", P::Injective, 2, 2,
           inferGather, {attrInt("axis", 0, "the axis to index")}),
        op("Constant", "a constant tensor given by an attribute", P::Opaque, 0, 0, inferConstantOp,
           {{"value", AttrKind::Tensor, std::nullopt, "the tensor"},
            {"value_float", AttrKind::Float, std::nullopt, "a float32 scalar"},
            {"value_floats", AttrKind::Floats, std::nullopt, "a float32 vector"},
            {"value_int", AttrKind::Int, std::nullopt, "an int64 scalar"},
            {"value_ints", AttrKind::Ints, std::nullopt, "an int64 vector"}}),

        // Reductions.
        op("ReduceMean", "mean over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        op("ReduceSum", "sum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        op("ReduceMax", "maximum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        op("ReduceMin", "minimum over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),
        op("ReduceProd", "product over axes", P::CommReduce, 1, 2, inferReduce, reduceAttrs),

        // Added for whole models: transposed convolution, more element-wise
        // operators, comparisons and logic, data movement, shape sub-graphs.
        op("ConvTranspose", "N-d transposed convolution (the gradient of Conv) with groups",
           P::OutEWiseFusable, 2, 3, inferConvTranspose,
           [] {
               auto a = windowAttrs(true);
               a.push_back(attrInt("group", 1, "number of channel groups"));
               a.push_back(attrInts("output_padding",
                                    "added to one end of each spatial output (default 0)"));
               a.push_back(
                   attrInts("output_shape", "the spatial output size; pads are derived from it"));
               return a;
           }()),
        op("Sum", "element-wise sum of all inputs, broadcast", P::Broadcast, 1, -1,
           inferFloatBroadcast),
        op("Mean", "element-wise mean of all inputs, broadcast", P::Broadcast, 1, -1,
           inferFloatBroadcast),
        op("PRelu", "x if x >= 0 else slope * x; slope broadcasts to x", P::Broadcast, 2, 2,
           inferPRelu),
        op("Reciprocal", "1 / x", P::ElementWise, 1, 1, inferFloatUnary),
        op("Floor", "largest integer <= x", P::ElementWise, 1, 1, inferFloatUnary),
        op("Ceil", "smallest integer >= x", P::ElementWise, 1, 1, inferFloatUnary),
        op("Round", "nearest integer, halves to even", P::ElementWise, 1, 1, inferFloatUnary),
        op("Sign", "-1, 0 or 1 by the sign of x", P::ElementWise, 1, 1, inferUnary),
        op("Sin", "sine", P::ElementWise, 1, 1, inferFloatUnary),
        op("Cos", "cosine", P::ElementWise, 1, 1, inferFloatUnary),
        op("Softplus", "log(exp(x) + 1)", P::ElementWise, 1, 1, inferFloatUnary),
        op("Elu", "x if x > 0 else alpha * (exp(x) - 1)", P::ElementWise, 1, 1, inferFloatUnary,
           {attrFloat("alpha", 1.0, "scale for negative x")}),
        op("Selu", "gamma * (x if x > 0 else alpha * (exp(x) - 1))", P::ElementWise, 1, 1,
           inferFloatUnary,
           {attrFloat("alpha", 1.67326319217681884765625, "scale of the negative part"),
            attrFloat("gamma", 1.05070102214813232421875, "scale of the whole")}),
        op("Equal", "A == B with numpy broadcasting (bool)", P::Broadcast, 2, 2, inferCompare),
        op("Less", "A < B with numpy broadcasting (bool)", P::Broadcast, 2, 2, inferCompare),
        op("Greater", "A > B with numpy broadcasting (bool)", P::Broadcast, 2, 2, inferCompare),
        op("LessOrEqual", "A <= B with numpy broadcasting (bool)", P::Broadcast, 2, 2,
           inferCompare),
        op("GreaterOrEqual", "A >= B with numpy broadcasting (bool)", P::Broadcast, 2, 2,
           inferCompare),
        op("Not", "logical not of a bool tensor", P::ElementWise, 1, 1, inferLogical),
        op("And", "logical and, broadcast", P::Broadcast, 2, 2, inferLogical),
        op("Or", "logical or, broadcast", P::Broadcast, 2, 2, inferLogical),
        op("Xor", "logical exclusive or, broadcast", P::Broadcast, 2, 2, inferLogical),
        op("Where", "X where the condition holds, else Y; all three broadcast", P::Broadcast, 3, 3,
           inferWhere),

        // Normalisation over instances and layers.
        op("InstanceNormalization",
           "(x - mean) / sqrt(var + epsilon) * scale + B over each instance's spatial dims",
           P::Opaque, 3, 3, inferInstanceNorm,
           {attrFloat("epsilon", 1e-5, "added to the variance")}),
        op("LayerNormalization",
           "(x - mean) / sqrt(var + epsilon) * Scale + B over the dims from axis on (opset 17)",
           P::Opaque, 2, 3, inferLayerNorm,
           {attrInt("axis", -1, "the first normalised dim"),
            attrFloat("epsilon", 1e-5, "added to the variance"),
            attrInt("stash_type", 1, "element type code of Mean and InvStdDev (1 = float32)")},
           1, 3),

        // Data movement.
        op("Split", "splits a tensor along axis into parts (split sizes an input from opset 13)",
           P::Injective, 1, 2, inferSplit,
           {attrInt("axis", 0, "the axis to split"),
            attrInts("split", "part sizes (opset < 13); equal parts when absent")},
           1, -1),
        op("Slice", "elements from starts to ends with steps along axes (inputs from opset 10)",
           P::Injective, 1, 5, inferSlice,
           {attrInts("starts", "first index per axis (opset 1)"),
            attrInts("ends", "one past the last index per axis (opset 1)"),
            attrInts("axes", "the sliced axes (opset 1); the first len(starts) when absent")}),
        op("Pad", "pads (or crops, when negative) each dim at both ends (pads an input from 11)",
           P::Injective, 1, 3, inferPad,
           {attrString("mode", "constant", "constant, reflect or edge"),
            attrInts("pads", "all begins then all ends (opset < 11)"),
            attrFloat("value", 0.0, "the constant fill (opset < 11)")}),
        op("Resize", "resamples the spatial dims by scales or to sizes (nearest, linear, cubic)",
           P::Injective, 1, 4, inferResize,
           {attrString("mode", "nearest", "nearest, linear or cubic"),
            attrString("coordinate_transformation_mode", "half_pixel",
                       "how output coordinates map to input coordinates"),
            attrString("nearest_mode", "round_prefer_floor",
                       "rounding of nearest: round_prefer_floor, round_prefer_ceil, floor, ceil"),
            attrFloat("cubic_coeff_a", -0.75, "the cubic kernel's a"),
            attrInt("exclude_outside", 0, "1 = zero weights outside the input, renormalised"),
            attrFloat("extrapolation_value", 0.0, "fill outside the input (tf_crop_and_resize)")}),
        op("Expand", "broadcasts the input to a shape given as a tensor", P::Injective, 2, 2,
           inferExpand),
        op("Tile", "repeats the input along each axis", P::Injective, 2, 2, inferTile),
        op("ConstantOfShape", "a tensor of a given shape filled with one value", P::Injective, 1, 1,
           inferConstantOfShape,
           {{"value", AttrKind::Tensor, AttrValue(Constant::zeros(DataType::float32(), {1})),
             "the fill value, one element (default float32 0)"}}),
        op("Range", "start, start + delta, ... up to (not including) limit", P::Injective, 3, 3,
           inferRange),
        op("Size", "the number of elements of a tensor, as an int64 scalar", P::Opaque, 1, 1,
           inferSize),
    };
    return ops;
}

} // namespace

const std::vector<OpInfo>& graphOps() {
    static const std::vector<OpInfo> ops = makeOps();
    return ops;
}

const OpInfo* findOp(std::string_view name) {
    for (const auto& o : graphOps())
        if (o.name == name) return &o;
    return nullptr;
}

} // namespace tessel::graph
