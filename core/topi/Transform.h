/// \file
/// Injective computes that move data (TVM's topi.reshape, topi.transpose,
/// topi.concatenate, topi.strided_slice, topi.take, topi.nn.pad, topi.image.resize
/// ...) and the tensors made from compile-time facts (a shape, a size, a
/// constant fill, a range).
///
/// Every stage is tagged injective (inlined into its consumer inside a fused
/// function); reads that could leave their input are clamped. Lists that name
/// axes accept negative axes (counted from the end); `name` names the stage.
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tessel::topi::transform {

/// `x` read in row-major order as a tensor of `newShape` (the same number of
/// elements; one extent may be -1, inferred).
te::Tensor reshape(const te::Tensor& x, const std::vector<int64_t>& newShape,
                   const std::string& name = "reshape");

/// Axis k of the result is axis perm[k] of `x`; an empty perm reverses the axes.
te::Tensor transpose(const te::Tensor& x, const std::vector<int64_t>& perm = {},
                     const std::string& name = "transpose");

/// The tensor `x`, stored in layout `src` (ir/Layout.h; empty: plain), stored
/// in layout `dst` instead (TVM's layout_transform): NCHW <-> NCHW16c, or
/// between two channel blocks. The layouts must have the same primal axes in
/// the same order, and the blocks must divide the logical extents.
te::Tensor layoutTransform(const te::Tensor& x, const std::string& src, const std::string& dst,
                           const std::string& name = "layout_transform");

/// The inputs joined along `axis` (every other extent equal).
te::Tensor concatenate(const std::vector<te::Tensor>& inputs, int64_t axis = 0,
                       const std::string& name = "concatenate");

/// `x` cut along `axis` into parts of `sizes` (which add up to that extent);
/// the parts are named `name`, `name`_1, `name`_2 ...
std::vector<te::Tensor> split(const te::Tensor& x, const std::vector<int64_t>& sizes, int64_t axis = 0,
                              const std::string& name = "split");

/// ONNX's (and numpy's) slicing, one entry per sliced axis.
struct SliceParams {
    std::vector<int64_t> starts = {}; ///< negative: from the end; clamped into the axis
    std::vector<int64_t> ends = {};   ///< exclusive; INT64_MAX: to the end
    std::vector<int64_t> axes = {};   ///< empty: 0, 1, ... (one per start)
    std::vector<int64_t> steps = {};  ///< empty: 1; negative steps walk backwards; never 0
};
te::Tensor stridedSlice(const te::Tensor& x, const SliceParams& params, const std::string& name = "strided_slice");

/// data[..., indices[...], ...] along `axis` (TVM's take): negative indices
/// count from the end and indices out of range are clamped, so a bad index
/// never reads outside the data. A literal index (topi::literalTensor, as the
/// model compiler passes a one-element constant) is folded in.
te::Tensor gather(const te::Tensor& data, const te::Tensor& indices, int64_t axis = 0,
                  const std::string& name = "gather");

/// Padding of every axis.
struct PadParams {
    std::vector<int64_t> before = {}; ///< per axis (empty: 0)
    std::vector<int64_t> after = {};  ///< per axis (empty: 0)
    /// "constant" (the value), "reflect" (mirror without repeating the
    /// edge), "edge" (repeat the edge) or "wrap" (periodic).
    std::string mode = "constant";
    double value = 0; ///< the constant, unless a value tensor is given
};
/// `x` padded; in constant mode with `value` the one-element tensor's value
/// (read at run time, or folded when it is a literal tensor).
te::Tensor pad(const te::Tensor& x, const PadParams& params, const te::Tensor& value = {},
               const std::string& name = "pad");

/// `x` broadcast (numpy rules) against `shape` (ONNX's Expand).
te::Tensor broadcastTo(const te::Tensor& x, const std::vector<int64_t>& shape,
                       const std::string& name = "broadcast_to");

/// `x` repeated reps[d] times along every axis d.
te::Tensor tile(const te::Tensor& x, const std::vector<int64_t>& reps, const std::string& name = "tile");

/// ONNX's Resize (opset 11+), every field as its attribute of the same name.
struct ResizeParams {
    std::vector<int64_t> size = {};  ///< the output shape, every axis
    /// Per axis, the scale the coordinate transform uses (empty: size / input extent).
    std::vector<double> scales = {};
    /// tf_crop_and_resize: the normalised region, every start then every end (empty: 0 to 1).
    std::vector<double> roi = {};
    std::string mode = "nearest"; ///< nearest, linear or cubic
    /// half_pixel, asymmetric, align_corners, pytorch_half_pixel,
    /// tf_half_pixel_for_nn or tf_crop_and_resize.
    std::string coordinateTransformationMode = "half_pixel";
    std::string nearestMode = "round_prefer_floor"; ///< or round_prefer_ceil, floor, ceil
    double cubicCoeffA = -0.75;
    bool excludeOutside = false; ///< cubic: taps outside get no weight
    double extrapolationValue = 0.0; ///< tf_crop_and_resize: outside the input
};
te::Tensor resize(const te::Tensor& x, const ResizeParams& params, const std::string& name = "resize");

/// ONNX's GridSample (opset 16, PyTorch's grid_sample): x [N, C, H, W]
/// sampled at grid [N, Ho, Wo, 2] (x then y, normalised to [-1, 1]).
struct GridSampleParams {
    std::string mode = "bilinear";     ///< bilinear, nearest or bicubic
    std::string paddingMode = "zeros"; ///< zeros, border or reflection
    bool alignCorners = false;         ///< -1 and 1 are the corner pixels' centres (else their outer edges)
};
te::Tensor gridSample(const te::Tensor& x, const te::Tensor& grid, const GridSampleParams& params,
                      const std::string& name = "grid_sample");
/// [N, C, H, W] -> [N, C / b^2, H * b, W * b]; mode "DCR" (depth: block row,
/// block column, channel) or "CRD" (channel, block row, block column).
te::Tensor depthToSpace(const te::Tensor& x, int64_t blockSize, const std::string& mode = "DCR",
                        const std::string& name = "depth_to_space");
/// [N, C, H, W] -> [N, C * b^2, H / b, W / b] (depth: block row, block column, channel).
te::Tensor spaceToDepth(const te::Tensor& x, int64_t blockSize, const std::string& name = "space_to_depth");

/// The extents of axes [start, end) of `x` (clamped into its rank; negative:
/// from the end) as a 1-d tensor of `dtype`.
te::Tensor shapeOf(const te::Tensor& x, int64_t start = 0, int64_t end = std::numeric_limits<int64_t>::max(),
                   DataType dtype = DataType::int64(), const std::string& name = "shape");
/// The number of elements of `x` as a 0-d tensor of `dtype`.
te::Tensor sizeOf(const te::Tensor& x, DataType dtype = DataType::int64(), const std::string& name = "size");
/// A tensor of `shape` filled with `value` (ONNX's ConstantOfShape).
te::Tensor full(const std::vector<int64_t>& shape, te::Expr value, const std::string& name = "full");
te::Tensor full(const std::vector<int64_t>& shape, DataType dtype, double value, const std::string& name = "full");
/// start + i * delta for i in [0, count), in start's type; `start` and
/// `delta` are one-element tensors (folded when literal tensors).
te::Tensor arange(const te::Tensor& start, const te::Tensor& delta, int64_t count,
                  const std::string& name = "arange");

} // namespace tessel::topi::transform
