/// \file
/// expand-quantized: writes the integer products MatMulInteger, ConvInteger,
/// QLinearMatMul and QLinearConv as int32 products of existing operators.
///
/// Summary: compute integer products in int32 as Cast, Sub, MatMul or Conv,
/// and requantize the QLinear forms.
///
/// Description (for the pass registry): an integer product multiplies 8-bit
/// operands less their zero points and adds in int32. The pass writes each
/// operand as Cast to int32 and Sub of its zero point (per tensor, per row of
/// A, per column of B or per output channel of the weights, reshaped to
/// broadcast), so a constant operand folds once, and the product as MatMul
/// or Conv on int32 tensors, which the general strategies compute (the
/// blocked and packed ones take float32 only). Padding after the subtraction
/// is zero, which is what ONNX's padding with the input's zero point means.
/// QLinearMatMul and QLinearConv add the int32 bias, scale the sum by
/// x_scale * w_scale / y_scale in float32 and quantize it with y's zero point
/// (QuantizeLinear: round half to even, saturate to uint8 or int8); fusion
/// puts those element-wise stages into the product's kernel.
///
/// With `conv-integer` (the CPU pipelines set it), a ConvInteger that the
/// CPU's blocked integer convolution computes (keepsConvInteger()) stays as
/// it is, and such a QLinearConv becomes that ConvInteger, the int32 bias and
/// the requantization.
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct ExpandQuantizedOptions {
    /// The operators to look up (the inference of the nodes it makes); null:
    /// the default registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
    /// Keep the ConvIntegers keepsConvInteger() accepts (option conv-integer).
    bool keepConvInteger = false;
};

/// One input of an integer product as keepsConvInteger() sees it: absent,
/// or its (logical) type and, when it is a constant, its value.
struct ProductInput {
    bool present = false;
    TensorType type;
    Ref<Constant> constant;
};

/// Whether the blocked integer convolution (topi::nn::convIntegerNCHWc, the
/// CPU strategy record of ConvInteger) takes a ConvInteger of inputs `in`
/// (x, w, x_zero_point, w_zero_point) and attributes `attrs`: 2-d, one group,
/// explicit or no padding, 8-bit data, constant 8-bit weights, a data zero
/// point of one element, a constant weight zero point of one element or one
/// per output channel. The pass and the record ask the same question.
bool keepsConvInteger(const std::vector<ProductInput>& in, const Attributes& attrs);

/// Returns `g` with every MatMulInteger, ConvInteger, QLinearMatMul and
/// QLinearConv replaced by int32 products of existing operators (but for the
/// convolutions `options.keepConvInteger` keeps).
Graph expandQuantized(const Graph& g, const ExpandQuantizedOptions& options = {});

} // namespace tessel::graph
