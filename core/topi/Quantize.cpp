// Linear quantisation: quantize, dequantize, and the dynamic form.
#include "topi/Quantize.h"

#include "ir/Diagnostic.h"
#include "topi/Reduce.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {

/// Rounds halves to even (ONNX's rounding), as topi::round does.
Expr roundHalfEven(Expr v) { return call(Intrinsic::RoundEven, {v}); }

/// A per-tensor or per-axis parameter read for element `i` of x.
Expr paramAt(const Tensor& p, const std::vector<Var>& i, size_t axis) {
    if (p.ndim() == 0) return p({});
    if (staticShape(p)[0] == 1) return p({intImm(0)});
    return p({Expr(i[axis])});
}

size_t axisFor(const Tensor& x, const Tensor& scale, int64_t axis) {
    if (scale.ndim() == 0 || staticShape(scale)[0] == 1) return 0;
    return static_cast<size_t>(normalizeAxis(axis, x.ndim()));
}

Expr saturate(Expr v, DataType t) {
    const double lo = t.isInt() ? -128.0 : 0.0, hi = t.isInt() ? 127.0 : 255.0;
    DataType f = v.type();
    return tir::cast(t, tir::max(makeConst(f, lo), tir::min(makeConst(f, hi), v)));
}

} // namespace

Tensor quantizeLinear(const Tensor& x, const Tensor& scale, const Tensor& zeroPoint, int64_t axisIn, DataType dtype,
                      const std::string& name) {
    if (!(dtype.isIntOrUInt() && dtype.bits() == 8)) throw CompileError("quantize_linear: the output must be int8 or uint8");
    const size_t axis = axisFor(x, scale, axisIn);
    return te::compute(
        toExprs(staticShape(x)),
        [&](const std::vector<Var>& i) {
            Expr v = x(exprs(i));
            DataType f = v.type().isFloat() ? v.type() : DataType::float32();
            if (v.type() != f) v = tir::cast(f, v);
            Expr s = paramAt(scale, i, axis);
            if (s.type() != f) s = tir::cast(f, s);
            Expr q = roundHalfEven(v / s);
            if (zeroPoint.defined()) q = q + tir::cast(f, paramAt(zeroPoint, i, axis));
            return saturate(q, dtype);
        },
        name, tag::kBroadcast);
}

Tensor dequantizeLinear(const Tensor& x, const Tensor& scale, const Tensor& zeroPoint, int64_t axisIn,
                        const std::string& name) {
    const size_t axis = axisFor(x, scale, axisIn);
    const DataType f = scale->dtype;
    return te::compute(
        toExprs(staticShape(x)),
        [&](const std::vector<Var>& i) {
            // In int32 first: x - zero point of two int8 values does not fit int8.
            Expr v = tir::cast(DataType::int32(), x(exprs(i)));
            if (zeroPoint.defined()) v = v - tir::cast(DataType::int32(), paramAt(zeroPoint, i, axis));
            return tir::cast(f, v) * paramAt(scale, i, axis);
        },
        name, tag::kBroadcast);
}

std::vector<Tensor> dynamicQuantizeLinear(const Tensor& x, const std::string& name) {
    ReduceParams all;
    all.keepDims = false;
    Tensor lo = reduce(x, ReduceOp::Min, all, name + "_min");
    Tensor hi = reduce(x, ReduceOp::Max, all, name + "_max");
    const DataType f = x->dtype;
    // The range always holds 0, so that 0 is exact.
    Tensor scale = te::compute(
        {},
        [&](const std::vector<Var>&) {
            Expr a = tir::min(lo({}), makeZero(f)), b = tir::max(hi({}), makeZero(f));
            return tir::cast(DataType::float32(), (b - a) / makeConst(f, 255.0));
        },
        name + "_scale", tag::kElemWise);
    Tensor zero = te::compute(
        {},
        [&](const std::vector<Var>&) {
            Expr a = tir::min(lo({}), makeZero(f));
            Expr s = tir::cast(f, scale({}));
            return saturate(roundHalfEven(makeZero(f) - a / s), DataType::uint8());
        },
        name + "_zero_point", tag::kElemWise);
    Tensor y = te::compute(
        toExprs(staticShape(x)),
        [&](const std::vector<Var>& i) {
            Expr s = tir::cast(f, scale({}));
            Expr q = roundHalfEven(x(exprs(i)) / s) + tir::cast(f, zero({}));
            return saturate(q, DataType::uint8());
        },
        name, tag::kBroadcast);
    return {y, scale, zero};
}

} // namespace tessel::topi
