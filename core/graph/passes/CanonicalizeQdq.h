/// \file
/// canonicalize-qdq: writes the QDQ form of quantized models (ONNX Runtime's
/// static quantizer: DequantizeLinear -> float Conv, MatMul or Gemm ->
/// QuantizeLinear) as the integer products QLinearConv and QLinearMatMul, as
/// TVM's QNN canonicalisation does.
///
/// Summary: rewrite DequantizeLinear -> Conv/MatMul/Gemm [-> Relu] ->
/// QuantizeLinear into QLinearConv or QLinearMatMul, and pool 8-bit tensors
/// directly.
///
/// Description (for the pass registry): in a QDQ model every quantized
/// product reads its activation and its constant weights through
/// DequantizeLinear and its result goes through QuantizeLinear, so the
/// product itself is computed in float. The pass matches Conv, MatMul and
/// Gemm whose activation is dequantized per tensor and whose weights are a
/// constant 8-bit tensor dequantized per tensor or per output channel (axis
/// 0 of Conv's weights and of Gemm's with transB, axis 1 of MatMul's and
/// Gemm's without), whose bias, if any, is an int32 constant dequantized with
/// the scale x_scale * w_scale (or a float constant, quantized so), and whose
/// only user is a QuantizeLinear, possibly through a Relu that nothing else
/// reads. It writes the chain as QLinearConv or QLinearMatMul (a Gemm with a
/// bias: MatMulInteger, the int32 bias added, then requantized) reading the
/// 8-bit tensors directly; expand-quantized then computes it in int32. A
/// Relu folds: with y's scale positive, Q(relu(v)) = max(Q(v), y_zero_point)
/// exactly, which saturation already gives when the zero point is the least
/// value of y's type and a Max gives otherwise. The result differs from the
/// float chain by the rounding of the float sums only: at most one step of y
/// per element. Anything else (per-tensor weights read through several
/// products are fine; a product's result read elsewhere, weights computed at
/// run time, an axis or bias scale that does not fit, Gemm's transA or
/// alpha) stays as it is, as do QuantizeLinear -> DequantizeLinear pairs
/// between float operators, which round. DequantizeLinear -> MaxPool ->
/// QuantizeLinear with the same scale, zero point and type on both sides
/// becomes MaxPool on the 8-bit tensor, exactly (dequantizing is
/// increasing, so the maximum commutes with it; a padding smaller than the
/// kernel never wins, -inf or the type's least value).
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct CanonicalizeQdqOptions {
    /// The operators to look up (the inference of the nodes it makes); null:
    /// the default registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
    /// Fold a Relu between the product and its QuantizeLinear.
    bool foldRelu = true;
};

/// Returns `g` with every matching DequantizeLinear -> Conv/MatMul/Gemm
/// [-> Relu] -> QuantizeLinear chain replaced by an integer product, and
/// every matching DequantizeLinear -> MaxPool -> QuantizeLinear by MaxPool.
Graph canonicalizeQdq(const Graph& g, const CanonicalizeQdqOptions& options = {});

} // namespace tessel::graph
