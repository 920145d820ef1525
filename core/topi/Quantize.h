/// \file
/// Linear quantisation computes (ONNX QuantizeLinear, DequantizeLinear,
/// DynamicQuantizeLinear): element-wise stages with scales and zero points
/// per tensor or per axis; the dynamic form adds the range reductions.
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::topi {

/// saturate(round_half_even(x / scale) + zeroPoint) in `dtype` (int8 or
/// uint8); `scale` and `zeroPoint` (optional: 0) hold one value or one per
/// element of `axis`.
te::Tensor quantizeLinear(const te::Tensor& x, const te::Tensor& scale, const te::Tensor& zeroPoint, int64_t axis,
                          DataType dtype, const std::string& name = "quantize_linear");
/// (x - zeroPoint) * scale in scale's type.
te::Tensor dequantizeLinear(const te::Tensor& x, const te::Tensor& scale, const te::Tensor& zeroPoint, int64_t axis,
                            const std::string& name = "dequantize_linear");
/// x as uint8 with the scale and zero point that map [min(x, 0), max(x, 0)]
/// onto [0, 255]: {y, scale, zeroPoint}.
std::vector<te::Tensor> dynamicQuantizeLinear(const te::Tensor& x, const std::string& name = "dynamic_quantize_linear");

} // namespace tessel::topi
