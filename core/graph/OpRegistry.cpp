#include "graph/OpRegistry.h"

#include "ir/Diagnostic.h"

#include <algorithm>
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

std::vector<TensorType> inferOutputTypes(const Node& node, const std::vector<Value>& inputs) {
    auto fail = [&](const std::string& m) { throw CompileError(node.describe() + ": " + m); };
    const OpInfo* info = findOp(node.op);
    if (!info) fail("unknown operator '" + node.op + "'");
    const int nin = static_cast<int>(inputs.size());
    if (nin < info->minInputs || (info->maxInputs >= 0 && nin > info->maxInputs))
        fail("expects " + info->inputCountText() + ", got " + std::to_string(nin));
    if (node.numOutputs() < info->minOutputs || node.numOutputs() > info->maxOutputs)
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

Types inferConv(const InferContext& ctx) {
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

/// Numpy broadcasting over all present inputs; `sameDtype` requires equal types.
Types inferBroadcast(const InferContext& ctx, bool sameDtype) {
    Shape out = ctx.input(0).shape;
    for (int i = 1; i < ctx.numInputs(); ++i) {
        if (sameDtype) requireSameDtype(ctx, 0, i);
        auto bc = broadcastShapes(out, ctx.input(i).shape);
        if (!bc) {
            std::string list;
            for (int j = 0; j < ctx.numInputs(); ++j)
                list += (j ? " and " : "") + ctx.input(j).str();
            ctx.fail("shapes " + list + " do not broadcast");
        }
        out = *bc;
    }
    return {TensorType(ctx.input(0).dtype, out)};
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
    auto axes = axesOf(ctx);
    const bool keepDims = ctx.attrs().getInt("keepdims", 1) != 0;
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
