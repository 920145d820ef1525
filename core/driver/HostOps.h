/// \file
/// The host kernels of the operators whose output shape depends on their
/// input values (NonZero, Compress, Unique, NonMaxSuppression; records with
/// graph::OpInfo::dataDependent). The host executor of
/// driver/ControlFlowProgram.h runs them between compiled regions, as TVM's
/// Relay VM runs such operators with their shape functions: their outputs are
/// allocated once their size is known, and the regions that read them are
/// compiled for the shapes they get.
///
/// Semantics are ONNX's (opset 11 and later); where ONNX leaves a choice
/// open, ONNX Runtime's: NonMaxSuppression keeps a box whose score is
/// strictly above score_threshold, takes boxes by descending score (the lower
/// index first on a tie) and suppresses a box whose IoU with a kept one is
/// strictly above iou_threshold, computed in float32; Compress reads the
/// condition up to the length of the axis.
#pragma once

#include "graph/Graph.h"
#include "runtime/NDArray.h"

#include <optional>
#include <vector>

namespace tessel::driver {

/// True when `n` is an operator with a data-dependent output shape that the
/// host executor runs (its record has OpInfo::dataDependent).
bool isDataDependentNode(const graph::Node& n);

/// Runs node `n` (isDataDependentNode) on host `inputs` (an undefined array
/// for an absent optional input): one array per output of the node. Throws
/// CompileError for inputs the operator refuses.
std::vector<runtime::NDArray> runHostOp(const graph::Node& n, const std::vector<runtime::NDArray>& inputs);

// --- the kernels -------------------------------------------------------------------------

/// NonZero: int64 [rank, count], the indices of the non-zero elements in
/// row-major order (a scalar counts as rank 1).
runtime::NDArray nonZero(const runtime::NDArray& x);

/// Compress: the slices of `x` along `axis` (none: the elements of the
/// flattened `x`) where the bool `condition` is true.
runtime::NDArray compress(const runtime::NDArray& x, const runtime::NDArray& condition,
                          std::optional<int64_t> axis);

struct UniqueResult {
    runtime::NDArray y;       ///< the unique elements (or slices along the axis)
    runtime::NDArray indices; ///< int64: where each first occurs in the input
    runtime::NDArray inverse; ///< int64: for each input element (or slice), its entry in y
    runtime::NDArray counts;  ///< int64: how often each occurs
};
/// Unique: over the flattened `x`'s elements, or over its slices along
/// `axis` (compared in lexicographic order); ascending when `sorted`, else in
/// the order of first occurrence.
UniqueResult unique(const runtime::NDArray& x, std::optional<int64_t> axis, bool sorted);

struct NmsOptions {
    bool centerPointBox = false; ///< boxes as [x_center, y_center, width, height], else [y1, x1, y2, x2]
    int64_t maxOutputBoxesPerClass = 0;
    float iouThreshold = 0;
    std::optional<float> scoreThreshold;
};
/// NonMaxSuppression: int64 [selected, 3] rows of (batch, class, box),
/// batch by batch and class by class, each class's boxes in the order kept.
runtime::NDArray nonMaxSuppression(const runtime::NDArray& boxes, const runtime::NDArray& scores,
                                   const NmsOptions& options);

} // namespace tessel::driver
