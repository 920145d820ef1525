/// \file
/// Linear quantisation as operators: QuantizeLinear, DequantizeLinear and
/// DynamicQuantizeLinear (per-tensor or per-axis scales and zero points),
/// computed element by element; and the integer products MatMulInteger,
/// ConvInteger, QLinearMatMul and QLinearConv, which expand-quantized
/// (graph/passes/ExpandQuantized.h) writes as int32 products of the operands
/// less their zero points, requantized for the QLinear forms.
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

/// Scale (and zero point) either one value or a vector along `axis`.
void requireQuantParams(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& scale = ctx.input(1);
    if (!scale.dtype.isFloat()) ctx.fail("scale " + scale.str() + " must be a float tensor");
    if (scale.rank() > 1) ctx.fail("scale " + scale.str() + " must be a scalar or 1-D");
    if (scale.rank() == 1 && scale.shape[0] != 1) {
        const int64_t a = ctx.attrs().getInt("axis", 1);
        auto axis = normalizeAxis(a, x.rank());
        if (!axis) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
        const int64_t dim = x.shape[static_cast<size_t>(*axis)];
        if (dim >= 0 && scale.shape[0] >= 0 && scale.shape[0] != dim)
            ctx.fail("scale " + scale.str() + " does not match axis " + std::to_string(*axis) + " of " + x.str());
    }
    if (ctx.hasInput(2) && ctx.input(2).shape != scale.shape)
        ctx.fail("zero point " + ctx.input(2).str() + " must have the shape of scale " + scale.str());
}

Types inferQuantize(const InferContext& ctx) {
    requireQuantParams(ctx);
    DataType t = ctx.hasInput(2) ? ctx.input(2).dtype : DataType::uint8();
    if (!(t.isIntOrUInt() && t.bits() == 8)) ctx.fail("zero point type " + t.str() + " is not supported (int8, uint8)");
    return {TensorType(t, ctx.input(0).shape)};
}

Types inferDequantize(const InferContext& ctx) {
    requireQuantParams(ctx);
    const DataType t = ctx.input(0).dtype;
    if (!t.isIntOrUInt()) ctx.fail("x " + ctx.input(0).str() + " must be an integer tensor");
    if (ctx.hasInput(2)) requireSameDtype(ctx, 0, 2);
    return {TensorType(ctx.input(1).dtype, ctx.input(0).shape)};
}

Types inferDynamicQuantize(const InferContext& ctx) {
    requireFloat(ctx, 0);
    return {TensorType(DataType::uint8(), ctx.input(0).shape), TensorType(DataType::float32(), {}),
            TensorType(DataType::uint8(), {})};
}

/// DequantizeLinear of constant inputs: a weight stored in 8 bits that no
/// integer product took (canonicalize-qdq runs first) is dequantized once at
/// compile time, not on every run. float32 scales only; per tensor or per axis.
EvalResult evaluateDequantize(const EvalContext& e) {
    const Constant& x = e.input(0);
    const Constant& scale = e.input(1);
    if (!(scale.dtype == DataType::float32()) || e.output().dtype != DataType::float32()) return std::nullopt;
    const std::vector<float> sc = load<float>(scale);
    const int64_t n = x.numElements();
    // The scale (and zero point) index of element k: k / inner % dim along the axis.
    int64_t inner = 1, dim = 1;
    if (sc.size() > 1) {
        const auto axis = normalizeAxis(e.attrs().getInt("axis", 1), static_cast<int64_t>(x.shape.size()));
        if (!axis) return std::nullopt;
        dim = x.shape[static_cast<size_t>(*axis)];
        for (size_t d = static_cast<size_t>(*axis) + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
    }
    std::vector<float> out(static_cast<size_t>(n));
    const bool ok = dispatch(x.dtype, false, [&](auto t) {
        using T = decltype(t);
        if constexpr (std::is_integral_v<T>) {
            const std::vector<T> v = load<T>(x);
            std::vector<T> zp(sc.size(), T(0));
            if (e.hasInput(2)) zp = load<T>(e.input(2));
            for (int64_t k = 0; k < n; ++k) {
                const size_t c = static_cast<size_t>(k / inner % dim);
                const int64_t q = static_cast<int64_t>(v[static_cast<size_t>(k)]) - static_cast<int64_t>(zp[c]);
                out[static_cast<size_t>(k)] = static_cast<float>(q) * sc[c];
            }
        }
    });
    if (!ok || !x.dtype.isIntOrUInt()) return std::nullopt;
    return one(store(DataType::float32(), x.shape, out));
}

/// An 8-bit integer input (int8 or uint8).
void requireInt8(const InferContext& ctx, int i, const char* what) {
    const DataType t = ctx.input(i).dtype;
    if (!(t.isIntOrUInt() && t.bits() == 8))
        ctx.fail(std::string(what) + " " + ctx.input(i).str() + " must be int8 or uint8");
}

/// What requirePerAxis takes for parameters that are one value only.
constexpr int64_t kScalarOnly = -3;

/// A zero point or scale (input i): one value, or `count` values along the
/// axis the operator allows (-1: a count not known yet; kScalarOnly: none).
void requirePerAxis(const InferContext& ctx, int i, const char* what, int64_t count) {
    const TensorType& t = ctx.input(i);
    const int64_t n = t.rank() == 0 ? 1 : t.rank() == 1 ? t.shape[0] : -2;
    if (n == 1) return;
    if (count != kScalarOnly && n != -2 && (n == -1 || count == -1 || n == count)) return;
    ctx.fail(std::string(what) + " " + t.str() + " must be a scalar" +
             (count == kScalarOnly ? std::string() : " or hold " + std::to_string(count) + " values"));
}

void requireZeroPoint(const InferContext& ctx, int zp, int of, const char* what, int64_t count) {
    if (!ctx.hasInput(zp)) return;
    requireSameDtype(ctx, of, zp);
    requirePerAxis(ctx, zp, what, count);
}

void requireScale(const InferContext& ctx, int i, const char* what, int64_t count) {
    if (!ctx.input(i).dtype.isFloat()) ctx.fail(std::string(what) + " " + ctx.input(i).str() + " must be float");
    requirePerAxis(ctx, i, what, count);
}

/// The shape `infer` (MatMul's, Conv's) gives inputs `which` of the node,
/// typed alike as stand-ins: the operands of an integer product may differ
/// in signedness, which the float operators' inference refuses.
Shape productShape(const InferContext& ctx, Types (*infer)(const InferContext&), std::vector<int> which) {
    Graph g("operands");
    std::vector<Value> ins;
    for (int i : which) {
        TensorType t = ctx.input(i);
        t.dtype = DataType::int32();
        ins.push_back(g.addInput("input" + std::to_string(i), t));
    }
    return infer(InferContext(ctx.node(), ins))[0].shape;
}

/// Rows of A (per-row zero points) and columns of B (per-column ones).
std::pair<int64_t, int64_t> rowsAndColumns(const InferContext& ctx, int a, int b) {
    const TensorType& ta = ctx.input(a);
    const TensorType& tb = ctx.input(b);
    return {ta.rank() >= 2 ? ta.shape[static_cast<size_t>(ta.rank() - 2)] : 1,
            tb.rank() >= 2 ? tb.shape.back() : 1};
}

Types inferMatMulInteger(const InferContext& ctx) {
    requireInt8(ctx, 0, "A");
    requireInt8(ctx, 1, "B");
    auto [m, n] = rowsAndColumns(ctx, 0, 1);
    requireZeroPoint(ctx, 2, 0, "a_zero_point", m);
    requireZeroPoint(ctx, 3, 1, "b_zero_point", n);
    return {TensorType(DataType::int32(), productShape(ctx, inferMatMulShape, {0, 1}))};
}

Types inferConvInteger(const InferContext& ctx) {
    requireInt8(ctx, 0, "x");
    requireInt8(ctx, 1, "w");
    requireZeroPoint(ctx, 2, 0, "x_zero_point", kScalarOnly);
    requireZeroPoint(ctx, 3, 1, "w_zero_point", ctx.input(1).shape.empty() ? -1 : ctx.input(1).shape[0]);
    return {TensorType(DataType::int32(), productShape(ctx, inferConvShape, {0, 1}))};
}

Types inferQLinearMatMul(const InferContext& ctx) {
    requireInt8(ctx, 0, "a");
    requireInt8(ctx, 3, "b");
    requireInt8(ctx, 7, "y_zero_point");
    auto [m, n] = rowsAndColumns(ctx, 0, 3);
    requireScale(ctx, 1, "a_scale", m);
    requireZeroPoint(ctx, 2, 0, "a_zero_point", m);
    requireScale(ctx, 4, "b_scale", n);
    requireZeroPoint(ctx, 5, 3, "b_zero_point", n);
    requireScale(ctx, 6, "y_scale", kScalarOnly);
    requirePerAxis(ctx, 7, "y_zero_point", kScalarOnly);
    return {TensorType(ctx.input(7).dtype, productShape(ctx, inferMatMulShape, {0, 3}))};
}

Types inferQLinearConv(const InferContext& ctx) {
    requireInt8(ctx, 0, "x");
    requireInt8(ctx, 3, "w");
    requireInt8(ctx, 7, "y_zero_point");
    const int64_t m = ctx.input(3).shape.empty() ? -1 : ctx.input(3).shape[0];
    requireScale(ctx, 1, "x_scale", kScalarOnly);
    requireZeroPoint(ctx, 2, 0, "x_zero_point", kScalarOnly);
    requireScale(ctx, 4, "w_scale", m);
    requireZeroPoint(ctx, 5, 3, "w_zero_point", m);
    requireScale(ctx, 6, "y_scale", kScalarOnly);
    requirePerAxis(ctx, 7, "y_zero_point", kScalarOnly);
    if (ctx.hasInput(8)) {
        const TensorType& b = ctx.input(8);
        if (b.dtype != DataType::int32() || b.rank() != 1 || (b.shape[0] >= 0 && m >= 0 && b.shape[0] != m))
            ctx.fail("bias B " + b.str() + " must be int32[" + std::to_string(m) + "]");
    }
    return {TensorType(ctx.input(7).dtype, productShape(ctx, inferConvShape, {0, 3}))};
}

} // namespace

void registerQuantizeOps(OpRegistry& r) {
    using P = OpPattern;
    const AttrSchema axis = attrInt("axis", 1, "the axis of per-axis scales");
    r.add(op("QuantizeLinear", "saturate(round(x / scale) + zero_point), halves to even", P::Broadcast, 2, 3,
             inferQuantize, {axis}));
    r.add(withEval(op("DequantizeLinear", "(x - zero_point) * scale", P::Broadcast, 2, 3, inferDequantize, {axis}),
                   evaluateDequantize));
    r.add(op("DynamicQuantizeLinear", "x to uint8 with the scale and zero point of its range (and 0)", P::Opaque, 1,
             1, inferDynamicQuantize, {}, 3, 3));
    // The integer products: no compute of their own, expand-quantized writes
    // them as Cast, Sub, MatMul or Conv in int32 (and the requantization).
    auto expanded = [](OpInfo info) {
        info.expandedBy = "expand-quantized";
        return info;
    };
    r.add(expanded(op("MatMulInteger", "(A - a_zero_point) x (B - b_zero_point) in int32", P::OutEWiseFusable, 2, 4,
                      inferMatMulInteger)));
    r.add(expanded(op("ConvInteger", "conv(x - x_zero_point, w - w_zero_point) in int32", P::OutEWiseFusable, 2, 4,
                      inferConvInteger, convAttrs())));
    r.add(expanded(op("QLinearMatMul", "MatMulInteger requantized to y_scale and y_zero_point", P::OutEWiseFusable,
                      8, 8, inferQLinearMatMul)));
    r.add(expanded(op("QLinearConv", "ConvInteger (+ an int32 bias) requantized to y_scale and y_zero_point",
                      P::OutEWiseFusable, 8, 9, inferQLinearConv, convAttrs())));
}

} // namespace tessel::graph::ops
