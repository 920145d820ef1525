/// \file
/// Computes that read or write at indices held in a tensor (TVM's
/// topi.gather, topi.gather_nd, topi.scatter_elements, topi.scatter_nd,
/// topi.one_hot, topi.topk, topi.trilu) and the diagonal mask EyeLike.
///
/// Indices may be negative (counted from the end); every read through an
/// index is clamped into its axis, so a bad index never reads outside a
/// buffer. Gathers and masks are tagged injective (inlined into their
/// consumers). A scatter is an output-centred reduction over the updates
/// (which update lands on this element: the last one, or the sum or product
/// of all of them), tagged reduce: parallel over the output, with no writes
/// that race. TopK ranks each element against its row (tagged reduce), then
/// gathers by rank.
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::topi {

/// out[i] = data[i with axis i[axis] replaced by indices[i]]; out has the
/// shape of indices (ONNX GatherElements).
te::Tensor gatherElements(const te::Tensor& data, const te::Tensor& indices, int64_t axis = 0,
                          const std::string& name = "gather_elements");

/// ONNX GatherND: the last axis of `indices` addresses the leading axes of
/// `data` after `batchDims` shared ones.
te::Tensor gatherND(const te::Tensor& data, const te::Tensor& indices, int64_t batchDims = 0,
                    const std::string& name = "gather_nd");

/// How a scatter combines the updates that land on one element.
enum class ScatterReduction { None, Add, Mul };

/// `data` with updates[k] written at k with axis replaced by indices[k]
/// (ONNX ScatterElements). With duplicate indices and no reduction the last
/// update wins (ONNX leaves it undefined).
te::Tensor scatterElements(const te::Tensor& data, const te::Tensor& indices, const te::Tensor& updates,
                           int64_t axis = 0, ScatterReduction reduction = ScatterReduction::None,
                           const std::string& name = "scatter_elements");

/// `data` with the slices of `updates` written where the rows of `indices`
/// point (ONNX ScatterND).
te::Tensor scatterND(const te::Tensor& data, const te::Tensor& indices, const te::Tensor& updates,
                     ScatterReduction reduction = ScatterReduction::None, const std::string& name = "scatter_nd");

/// `onValue` where the index (negative: from the end) equals the position
/// along the new axis of extent `depth` inserted at `axis`, `offValue`
/// elsewhere; the values are one-element reads (or literals).
te::Tensor oneHot(const te::Tensor& indices, int64_t depth, const te::Tensor& values, int64_t axis = -1,
                  const std::string& name = "one_hot");

/// The upper (`upper`) or lower triangle of the last two axes, from the
/// diagonal `k` (a one-element tensor, read at run time, or a literal); zeros elsewhere.
te::Tensor trilu(const te::Tensor& x, const te::Tensor& k, bool upper, const std::string& name = "trilu");

/// The first lens[b] steps along `timeAxis` of every batch entry b (along
/// `batchAxis`) reversed, the rest kept; lens is read at run time (clamped).
te::Tensor reverseSequence(const te::Tensor& x, const te::Tensor& lens, int64_t batchAxis = 1, int64_t timeAxis = 0,
                           const std::string& name = "reverse_sequence");

/// Ones on diagonal `k` of a [rows, cols] tensor of `dtype`, zeros elsewhere.
te::Tensor eyeLike(const std::vector<int64_t>& shape, DataType dtype, int64_t k = 0,
                   const std::string& name = "eye_like");

/// The int64 flat index (into the whole of x, row-major; with
/// `columnMajor` the spatial part is column-major) of the first element of
/// each 2-d pooling window of x [N, C, H, W] that equals `pooled` (the max
/// pooling of x under `kernel`, `strides`, `pads` [top, left, bottom,
/// right], `dilations`): MaxPool's Indices output.
te::Tensor maxPoolIndices(const te::Tensor& x, const te::Tensor& pooled, const std::vector<int64_t>& kernel,
                          const std::vector<int64_t>& strides, const std::vector<int64_t>& pads,
                          const std::vector<int64_t>& dilations, bool columnMajor,
                          const std::string& name = "max_pool_indices");

/// MaxUnpool: zeros of `outShape` with x[k] written where the flat index
/// indices[k] points in a tensor of `indexShape` (the unpooled shape the
/// window gives; it may be smaller than outShape, whose extra rows and columns
/// stay 0). An index points into k's own image and channel, as MaxPool's do.
te::Tensor maxUnpool(const te::Tensor& x, const te::Tensor& indices, const std::vector<int64_t>& outShape,
                     const std::vector<int64_t>& indexShape, const std::string& name = "max_unpool");

/// RoiAlign (opset 16): x [N, C, H, W] averaged (or maxed) over
/// `samplingRatio`^2 bilinear samples per bin of each region rois[r] (x1, y1,
/// x2, y2, times `spatialScale`) in image batchIndices[r]: [R, C, oh, ow].
struct RoiAlignParams {
    int64_t outputHeight = 1, outputWidth = 1;
    int64_t samplingRatio = 0; ///< samples per bin and axis; 0 (adaptive) is not supported
    double spatialScale = 1.0;
    bool halfPixel = true; ///< coordinate_transformation_mode half_pixel (else output_half_pixel)
    bool max = false;      ///< mode max (else avg)
};
te::Tensor roiAlign(const te::Tensor& x, const te::Tensor& rois, const te::Tensor& batchIndices,
                    const RoiAlignParams& params, const std::string& name = "roi_align");

/// The determinants of the [..., M, M] matrices (Leibniz's sum over
/// permutations: M up to 4).
te::Tensor det(const te::Tensor& x, const std::string& name = "det");

/// The `k` largest (or smallest) elements along `axis`, sorted, and their
/// int64 indices; equal elements keep their order (the lower index first).
std::vector<te::Tensor> topK(const te::Tensor& x, int64_t k, int64_t axis = -1, bool largest = true,
                             const std::string& name = "topk");

} // namespace tessel::topi
