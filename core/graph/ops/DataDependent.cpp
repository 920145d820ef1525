/// \file
/// Operators whose output shape depends on their input values: NonZero,
/// Compress, Unique and NonMaxSuppression. They have no kernel: their records
/// carry OpInfo::dataDependent, compileGraph cuts the graph around them as it
/// does around control flow, and the host executor of
/// driver/ControlFlowProgram.h computes them (driver/HostOps.h) once their
/// inputs are known; what reads their outputs is compiled for the shapes a run
/// brings. Their inference gives -1 for every length that is data.
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

Types inferNonZero(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    // numpy's nonzero: a scalar counts as a 1-D tensor of one element.
    return {TensorType(DataType::int64(), {std::max(x.rank(), 1), -1})};
}

/// The `axis` attribute normalised for `rank`, or nullopt when the node has none.
std::optional<int64_t> optionalAxis(const InferContext& ctx, int64_t rank) {
    if (!ctx.attrs().has("axis")) return std::nullopt;
    const int64_t a = ctx.attrs().getInt("axis", 0);
    auto n = normalizeAxis(a, rank);
    if (!n) ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return n;
}

Types inferCompress(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& cond = ctx.input(1);
    if (!cond.dtype.isBool() || cond.rank() != 1) ctx.fail("condition " + cond.str() + " must be a 1-D bool tensor");
    const auto axis = optionalAxis(ctx, x.rank());
    if (!axis) return {TensorType(x.dtype, {-1})};
    Shape out = x.shape;
    out[size_t(*axis)] = -1;
    return {TensorType(x.dtype, out)};
}

Types inferUnique(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t sorted = ctx.attrs().getInt("sorted", 1);
    if (sorted != 0 && sorted != 1) ctx.fail("sorted must be 0 or 1, not " + std::to_string(sorted));
    const auto axis = optionalAxis(ctx, x.rank());
    TensorType y(x.dtype, {-1});
    int64_t along = x.numElements();
    if (axis) {
        y.shape = x.shape;
        y.shape[size_t(*axis)] = -1;
        along = x.shape[size_t(*axis)];
    }
    Types out{y, TensorType(DataType::int64(), {-1}), TensorType(DataType::int64(), {along}),
              TensorType(DataType::int64(), {-1})};
    out.resize(size_t(ctx.numOutputs()));
    return out;
}

void requireScalar(const InferContext& ctx, int i, const char* what, bool isFloat) {
    if (!ctx.hasInput(i)) return;
    const TensorType& t = ctx.input(i);
    if (t.numElements() > 1 || t.rank() > 1 || (isFloat ? !t.dtype.isFloat() : !t.dtype.isIntOrUInt()))
        ctx.fail(std::string(what) + " " + t.str() + " must be a " + (isFloat ? "float" : "int64") + " scalar");
}

Types inferNonMaxSuppression(const InferContext& ctx) {
    const TensorType& boxes = ctx.input(0);
    const TensorType& scores = ctx.input(1);
    if (boxes.rank() != 3 || (boxes.shape[2] >= 0 && boxes.shape[2] != 4) || !boxes.dtype.isFloat())
        ctx.fail("boxes " + boxes.str() + " must be float [batches, boxes, 4]");
    if (scores.rank() != 3 || !scores.dtype.isFloat())
        ctx.fail("scores " + scores.str() + " must be float [batches, classes, boxes]");
    for (int d : {0, 1})
        if (boxes.shape[size_t(d)] >= 0 && scores.shape[size_t(d ? 2 : 0)] >= 0 &&
            boxes.shape[size_t(d)] != scores.shape[size_t(d ? 2 : 0)])
            ctx.fail("boxes " + boxes.str() + " and scores " + scores.str() + " disagree on the " +
                     (d ? "box count" : "batch"));
    const int64_t center = ctx.attrs().getInt("center_point_box", 0);
    if (center != 0 && center != 1) ctx.fail("center_point_box must be 0 or 1, not " + std::to_string(center));
    requireScalar(ctx, 2, "max_output_boxes_per_class", false);
    requireScalar(ctx, 3, "iou_threshold", true);
    requireScalar(ctx, 4, "score_threshold", true);
    return {TensorType(DataType::int64(), {-1, 3})};
}

OpInfo dataDependent(OpInfo info) {
    info.dataDependent = true;
    return info;
}

} // namespace

void registerDataDependentOps(OpRegistry& r) {
    using P = OpPattern;
    r.add(dataDependent(op("NonZero", "the indices of the non-zero elements, one row per axis", P::Opaque, 1, 1,
                           inferNonZero)));
    r.add(dataDependent(op("Compress", "the slices along an axis (or elements) where the condition is true",
                           P::Opaque, 2, 2, inferCompress,
                           {attrInt("axis", std::nullopt, "the axis to select along; none: the flattened input")})));
    r.add(dataDependent(op(
        "Unique", "the unique elements or slices, with first indices, inverse indices and counts", P::Opaque, 1, 1,
        inferUnique,
        {attrInt("axis", std::nullopt, "the axis whose slices are compared; none: the flattened input's elements"),
         attrInt("sorted", 1, "1: ascending order; 0: the order of first occurrence")},
        1, 4)));
    r.add(dataDependent(op(
        "NonMaxSuppression", "per batch and class, the boxes kept by greedy suppression of high overlaps",
        P::Opaque, 2, 5, inferNonMaxSuppression,
        {attrInt("center_point_box", 0, "0: boxes are [y1, x1, y2, x2] corners; 1: [x_center, y_center, width, height]")})));
}

} // namespace tessel::graph::ops
