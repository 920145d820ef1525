/// \file
/// Linear quantisation as operators: QuantizeLinear, DequantizeLinear and
/// DynamicQuantizeLinear (per-tensor or per-axis scales and zero points).
/// Computed element by element; the graph passes that fold such pairs into
/// integer convolutions are another matter.
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

} // namespace

void registerQuantizeOps(OpRegistry& r) {
    using P = OpPattern;
    const AttrSchema axis = attrInt("axis", 1, "the axis of per-axis scales");
    r.add(op("QuantizeLinear", "saturate(round(x / scale) + zero_point), halves to even", P::Broadcast, 2, 3,
             inferQuantize, {axis}));
    r.add(op("DequantizeLinear", "(x - zero_point) * scale", P::Broadcast, 2, 3, inferDequantize, {axis}));
    r.add(op("DynamicQuantizeLinear", "x to uint8 with the scale and zero point of its range (and 0)", P::Opaque, 1,
             1, inferDynamicQuantize, {}, 3, 3));
}

} // namespace tessel::graph::ops
