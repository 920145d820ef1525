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
#include <functional>
#include <string>
#include <vector>

namespace tessel::topi {

/// L1: sum of |x|; L2: sqrt of the sum of squares; LogSum: log of the sum;
/// LogSumExp: log of the sum of exp (the maximum taken out first); SumSquare.
enum class ReduceOp { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

/// Which axes a reduction folds, and the shape it leaves.
struct ReduceParams {
    /// Axes in [-rank, rank); empty: every axis (unless noopWithEmptyAxes).
    std::vector<int64_t> axes = {};
    /// Reduced axes stay with extent 1 (else they are dropped).
    bool keepDims = true;
    /// With no axes, the result is a copy of the input (ONNX's noop_with_empty_axes).
    bool noopWithEmptyAxes = false;
};

/// A row reduction (Sum or Max) of `element(output index, position)` over
/// positions [0, n), kept first as `lanes` partial results, each over every
/// lanes-th position (the last round skipping those past n): a stage of
/// shape outShape + [lanes] tagged reduce_lanes. The partials (a power of
/// two, at least 2) are then combined pairwise in log2(lanes) levels (tag
/// reduce_tree: level by level, lane t with lane t + half, the last of one
/// lane), and that lane is a tensor of outShape (tag injective). What a GPU
/// block reduces a row with in shared memory, one level per barrier
/// (topi/RowReduceGpu.h: softmax, layer norm; topi/LaneReduceGpu.h: a
/// GEMV, global pooling), where every thread summing all partials would
/// repeat the work.
te::Tensor reduceRowTree(const std::vector<int64_t>& outShape, int64_t n, int64_t lanes, ReduceOp op,
                         const std::function<te::Expr(const std::vector<te::Expr>&, te::Expr)>& element,
                         const std::string& name);

/// Reduces `x` with `op` over `params.axes`. Integer means truncate.
te::Tensor reduce(const te::Tensor& x, ReduceOp op, const ReduceParams& params = {},
                  const std::string& name = "reduce");

/// ArgMax / ArgMin along one axis.
struct ArgReduceParams {
    int64_t axis = 0;
    bool keepDims = true;
    bool selectLastIndex = false; ///< on ties the last index (else the first)
    bool isMax = true;
};
/// The index (int64) of the largest (smallest) element along the axis: the
/// extreme value (a stage `name`_max / `name`_min), then the first or last
/// index that holds it.
te::Tensor argReduce(const te::Tensor& x, const ArgReduceParams& params, const std::string& name = "arg_reduce");
/// 1 at the first largest element along `axis`, 0 elsewhere (ONNX opset 13).
te::Tensor hardmax(const te::Tensor& x, int64_t axis = -1, const std::string& name = "hardmax");
/// Running sums along `axis`: inclusive or `exclusive`, from the start or
/// the end (`reverse`).
te::Tensor cumsum(const te::Tensor& x, int64_t axis, bool exclusive = false, bool reverse = false,
                  const std::string& name = "cumsum");

namespace nn {

/// exp(x - max) / sum(exp(x - max)) along `axis` (the max keeps exp from
/// overflowing). `treeLanes` > 0 (a power of two; `axis` the innermost):
/// the max and the sum as reduceRowTree()s of that many lanes, for a GPU.
te::Tensor softmax(const te::Tensor& x, int64_t axis = -1, const std::string& name = "softmax",
                   int64_t treeLanes = 0);
/// log(softmax(x)) along `axis`, as x - max - log(sum(exp(x - max))).
te::Tensor logSoftmax(const te::Tensor& x, int64_t axis = -1, const std::string& name = "log_softmax",
                      int64_t treeLanes = 0);

struct LayerNormParams {
    /// The first normalised axis: statistics are over it and every later axis.
    int64_t axis = -1;
    double epsilon = 1e-5;
    /// The precision of the statistics (a floating-point type).
    DataType stashType = DataType::float32();
    /// > 0 (a power of two; `axis` the innermost): the sums as
    /// reduceRowTree()s of that many lanes, for a GPU.
    int64_t treeLanes = 0;
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

/// Local response normalisation across channels (axis 1): x / (bias + alpha
/// / size * sum of x^2 over channels c - (size-1)/2 .. c + size/2)^beta.
te::Tensor lrn(const te::Tensor& x, int64_t size, double alpha = 1e-4, double beta = 0.75, double bias = 1.0,
               const std::string& name = "lrn");
/// (x - mean) / (sqrt(variance) + 1e-9), the statistics over `axes` (ONNX
/// MeanVarianceNormalization).
te::Tensor meanVarianceNormalization(const te::Tensor& x, const std::vector<int64_t>& axes,
                                     const std::string& name = "mean_variance_normalization");
/// Normalises every (image, channel) plane of [N, C, spatial...], then
/// scale[C] and bias[C].
te::Tensor instanceNorm(const te::Tensor& x, const te::Tensor& scale, const te::Tensor& bias,
                        double epsilon = 1e-5, const std::string& name = "instance_norm");

} // namespace nn

} // namespace tessel::topi
