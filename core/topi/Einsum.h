/// \file
/// Einsum (numpy's and ONNX's): the product of the operands summed over the
/// axes the output leaves out, as one compute whose reduction axes are those
/// letters (diagonals, traces, transposes, batched matrix products and outer
/// products all fall out of it). Tagged reduce when it sums (parallel over
/// the output under the default schedule), broadcast when it does not.
#pragma once

#include "te/Tensor.h"

#include <string>
#include <vector>

namespace tessel::topi {

te::Tensor einsum(const std::string& equation, const std::vector<te::Tensor>& inputs,
                  const std::string& name = "einsum");

} // namespace tessel::topi
