/// \file
/// Convolutions, matrix products, pooling and inference-mode batch
/// normalisation (TVM's topi.nn.conv2d, topi.nn.dense, topi.nn.pool2d ...).
///
/// The computes take tensors and a parameter struct of plain values, every
/// field with a default, so a call names only what differs:
/// `nn::conv2d(x, w, {.strides = {2, 2}, .padding = {1, 1, 1, 1}})`.
/// Data is NC[D]HW and weights OI[D]HW; every shape is static.
///
/// They are reference computes in TVM-topi form: padding is its own stage
/// (tag pad, clamped reads), a convolution or matrix product is a pure
/// reduction (tag conv2d, depthwise_conv2d, dense or pool), and a bias,
/// alpha/beta or average divisor is a separate element-wise consumer, so that
/// the default schedules (Schedule.h) see the stage shapes they expect.
/// `name` names the last stage; inner stages get suffixes (`name`_pad,
/// `name`_conv, `name`_sum, `name`_matmul).
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::topi::nn {

/// Sliding-window lists (strides, dilation, kernel) accept: no value (the
/// default everywhere), one value (every spatial axis) or one per axis.
/// Padding accepts: none (0), one value (every side), one per axis (both
/// sides of it) or two per axis: every axis's begin, then every axis's end
/// (ONNX's `pads`; top, left, bottom, right in 2-d, as TVM's 4-tuple).

/// The geometry of a (grouped) convolution.
struct ConvParams {
    std::vector<int64_t> strides = {};  ///< default 1
    std::vector<int64_t> padding = {};  ///< zero padding; default 0
    std::vector<int64_t> dilation = {}; ///< default 1
    /// Channels split into this many groups; input channels == output
    /// channels == groups is a depthwise convolution (tag depthwise_conv2d).
    int64_t groups = 1;
};

/// Direct convolution of data [N, C, spatial...] with weight [OC, C / groups,
/// kernel...], plus bias[OC] when `bias` is defined. 2-d convolutions are
/// tagged conv2d (depthwise_conv2d when depthwise), others opaque.
te::Tensor conv(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params = {},
                const te::Tensor& bias = {}, const std::string& name = "conv");
/// conv() on 4-d data (NCHW).
te::Tensor conv2d(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params = {},
                  const te::Tensor& bias = {}, const std::string& name = "conv2d");

/// The geometry of a transposed convolution.
struct ConvTransposeParams {
    std::vector<int64_t> strides = {};  ///< default 1
    /// Cropped from the full output (begins, then ends, as ConvParams::padding);
    /// a negative end extends the output with zeros-fed positions.
    std::vector<int64_t> padding = {};
    std::vector<int64_t> dilation = {};      ///< default 1
    std::vector<int64_t> outputPadding = {}; ///< added to the end of the full output; default 0
    int64_t groups = 1;
};

/// The gradient of conv() with respect to its input: data [N, C, spatial...],
/// weight [C, OC / groups, kernel...], output [N, OC, out...] with out =
/// stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1 - pad
/// begin - pad end. Computed as a convolution of the zero-interleaved,
/// padded input with the flipped kernel (tag opaque).
te::Tensor convTranspose(const te::Tensor& data, const te::Tensor& weight,
                         const ConvTransposeParams& params = {}, const te::Tensor& bias = {},
                         const std::string& name = "conv_transpose");

enum class PoolType { Max, Avg };

/// The window of a pooling.
struct PoolParams {
    std::vector<int64_t> kernel = {};   ///< required: one per spatial axis (or one for all)
    std::vector<int64_t> strides = {};  ///< default 1
    std::vector<int64_t> padding = {};  ///< default 0; padded taps never win a max nor count in an average
    std::vector<int64_t> dilation = {}; ///< default 1
    /// Round the output size up: the last window may start in the end padding.
    bool ceilMode = false;
    /// Averages divide by the taps inside the padded input, not only the real input.
    bool countIncludePad = false;
    /// The data's last axis is a block of channels (NCHW16c: [N, C/16, H, W,
    /// 16]), pooled like the channels: the spatial axes are those between.
    bool channelBlock = false;
};

/// Max or average pooling over the spatial axes of [N, C, spatial...] (tag pool).
te::Tensor pool(const te::Tensor& data, PoolType type, const PoolParams& params,
                const std::string& name = "pool");
/// pool() on 4-d data (NCHW).
te::Tensor pool2d(const te::Tensor& data, PoolType type, const PoolParams& params,
                  const std::string& name = "pool2d");
/// Max or average over all spatial axes; the output keeps them with extent 1.
/// With `channelBlock`, the last axis is a block of channels (NCHW16c), not pooled.
te::Tensor globalPool(const te::Tensor& data, PoolType type, const std::string& name = "global_pool",
                      bool channelBlock = false);

/// ONNX's Gemm: Y = alpha * A' * B' + beta * C.
struct GemmParams {
    bool transA = false; ///< A is [K, M]
    bool transB = false; ///< B is [N, K]
    double alpha = 1.0;
    double beta = 1.0; ///< 0 ignores C (it is not read)
};

/// The 2-d matrix product (tag dense) with C broadcast to [M, N] when defined.
te::Tensor gemm(const te::Tensor& a, const te::Tensor& b, const te::Tensor& c = {},
                const GemmParams& params = {}, const std::string& name = "gemm");
/// alpha * product + beta * C (C broadcast to the product's [M, N]), named
/// `name` (tag broadcast); the product itself when alpha is 1 and C is not read.
te::Tensor gemmEpilogue(const te::Tensor& product, const te::Tensor& c, const GemmParams& params,
                        const std::string& name);
/// TVM's dense: data [M, K] times weight [N, K] transposed, plus bias [N].
te::Tensor dense(const te::Tensor& data, const te::Tensor& weight, const te::Tensor& bias = {},
                 const std::string& name = "dense");
/// numpy's matmul: a 1-d A is a row and a 1-d B a column (that axis is then
/// dropped from the output); batch axes broadcast (tag dense).
te::Tensor matmul(const te::Tensor& a, const te::Tensor& b, const std::string& name = "matmul");

/// Inference-mode batch normalisation over axis 1:
/// (x - mean) / sqrt(var + epsilon) * scale + bias, per channel.
te::Tensor batchNorm(const te::Tensor& x, const te::Tensor& scale, const te::Tensor& bias,
                     const te::Tensor& mean, const te::Tensor& var, double epsilon = 1e-5,
                     const std::string& name = "batch_norm");

} // namespace tessel::topi::nn
