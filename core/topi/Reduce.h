/// \file
/// Reductions, softmax and the normalisations (TVM's topi.sum, topi.max,
/// topi.nn.softmax, topi.nn.layer_norm ...).
///
/// A reduction is a stage tagged reduce; what follows it (a mean's divisor,
/// softmax's normalisation) is an element-wise stage the schedule inlines.
/// `name` names the last stage; inner stages get suffixes (`name`_sum,
/// `name`_max, `name`_mean, `name`_sqsum, `name`_inv_std).
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::topi {

enum class ReduceOp { Sum, Mean, Max, Min, Prod };

/// Which axes a reduction folds, and the shape it leaves.
struct ReduceParams {
    /// Axes in [-rank, rank); empty: every axis (unless noopWithEmptyAxes).
    std::vector<int64_t> axes = {};
    /// Reduced axes stay with extent 1 (else they are dropped).
    bool keepDims = true;
    /// With no axes, the result is a copy of the input (ONNX's noop_with_empty_axes).
    bool noopWithEmptyAxes = false;
};

/// Reduces `x` with `op` over `params.axes`. Integer means truncate.
te::Tensor reduce(const te::Tensor& x, ReduceOp op, const ReduceParams& params = {},
                  const std::string& name = "reduce");

namespace nn {

/// exp(x - max) / sum(exp(x - max)) along `axis` (the max keeps exp from overflowing).
te::Tensor softmax(const te::Tensor& x, int64_t axis = -1, const std::string& name = "softmax");
/// log(softmax(x)) along `axis`, as x - max - log(sum(exp(x - max))).
te::Tensor logSoftmax(const te::Tensor& x, int64_t axis = -1, const std::string& name = "log_softmax");

struct LayerNormParams {
    /// The first normalised axis: statistics are over it and every later axis.
    int64_t axis = -1;
    double epsilon = 1e-5;
    /// The precision of the statistics (a floating-point type).
    DataType stashType = DataType::float32();
};

/// The output of layerNorm() and its statistics (in stashType, the
/// normalised axes kept with extent 1).
struct LayerNormResult {
    te::Tensor output, mean, invStdDev;
};

/// (x - mean) / sqrt(variance + epsilon) * scale + bias over the axes from
/// `params.axis` on; `scale` and `bias` (optional) broadcast against x.
LayerNormResult layerNorm(const te::Tensor& x, const te::Tensor& scale, const te::Tensor& bias = {},
                          const LayerNormParams& params = {}, const std::string& name = "layer_norm");

/// Normalises every (image, channel) plane of [N, C, spatial...], then
/// scale[C] and bias[C].
te::Tensor instanceNorm(const te::Tensor& x, const te::Tensor& scale, const te::Tensor& bias,
                        double epsilon = 1e-5, const std::string& name = "instance_norm");

} // namespace nn

} // namespace tessel::topi
