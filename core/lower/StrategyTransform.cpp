// Strategies of the injective operators that move data: the constant
// operands ONNX passes as inputs (Reshape's shape, Slice's starts, Pad's
// pads, Resize's scales) become the plain values of the topi computes.
#include "lower/Strategy.h"

#include "topi/TopiUtil.h"
#include "topi/Transform.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tessel::lower {

namespace {

using te::Tensor;
using Tensors = std::vector<Tensor>;
namespace tf = topi::transform;

/// An axis attribute made non-negative; fails naming the node when out of range.
int64_t axisOf(const OpContext& ctx, const char* attr, int64_t fallback, int64_t rank) {
    const int64_t a = ctx.attrs().getInt(attr, fallback);
    if (a < -rank || a >= rank)
        ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return a < 0 ? a + rank : a;
}

Tensors reshape(const OpContext& ctx) {
    return {tf::reshape(ctx.input(0), ctx.outputType().shape, ctx.name())};
}

Tensors concat(const OpContext& ctx) {
    std::vector<Tensor> ins;
    for (int k = 0; k < ctx.numInputs(); ++k)
        if (ctx.hasInput(k)) ins.push_back(ctx.input(k));
    return {tf::concatenate(ins, ctx.attrs().getInt("axis", 0), ctx.name())};
}

Tensors split(const OpContext& ctx) {
    // The part sizes (the split input, num_outputs or equal parts) are already
    // in the inferred output shapes.
    const auto axis = size_t(axisOf(ctx, "axis", 0, ctx.inputType(0).rank()));
    std::vector<int64_t> sizes;
    for (int k = 0; k < ctx.numOutputs(); ++k)
        sizes.push_back(ctx.outputType(k).shape[axis]);
    return tf::split(ctx.input(0), sizes, int64_t(axis), ctx.name());
}

Tensors slice(const OpContext& ctx) {
    tf::SliceParams p;
    p.starts = ctx.constInts(1);
    p.ends = ctx.constInts(2);
    if (ctx.hasInput(3)) p.axes = ctx.constInts(3);
    if (ctx.hasInput(4)) p.steps = ctx.constInts(4);
    return {tf::stridedSlice(ctx.input(0), p, ctx.name())};
}

Tensors pad(const OpContext& ctx) {
    const size_t rank = size_t(ctx.inputType(0).rank());
    tf::PadParams p;
    p.mode = ctx.attrs().getString("mode", "constant");
    auto pads = ctx.constInts(1);
    std::vector<int64_t> axes(rank);
    std::iota(axes.begin(), axes.end(), 0);
    if (ctx.hasInput(3)) axes = ctx.constInts(3);
    if (pads.size() != 2 * axes.size())
        ctx.fail("pads has " + std::to_string(pads.size()) + " values; " + std::to_string(2 * axes.size()) +
                 " expected (a begin and an end per axis)");
    p.before.assign(rank, 0);
    p.after.assign(rank, 0);
    for (size_t k = 0; k < axes.size(); ++k) {
        const auto a = static_cast<size_t>(topi::normalizeAxis(axes[k], int64_t(rank)));
        p.before[a] = pads[k];
        p.after[a] = pads[k + axes.size()];
    }
    return {tf::pad(ctx.input(0), p, ctx.hasInput(2) ? ctx.scalarInput(2) : Tensor(), ctx.name())};
}

/// ONNX's Resize attributes and its roi / scales / sizes inputs resolved to
/// per-axis scales and the output size.
Tensors resize(const OpContext& ctx) {
    const auto& inShape = ctx.inputType(0).shape;
    const size_t rank = inShape.size();
    const auto& attrs = ctx.attrs();
    tf::ResizeParams p;
    p.size = ctx.outputType().shape;
    p.mode = attrs.getString("mode", "nearest");
    p.coordinateTransformationMode = attrs.getString("coordinate_transformation_mode", "half_pixel");
    p.nearestMode = attrs.getString("nearest_mode", "round_prefer_floor");
    p.cubicCoeffA = attrs.getFloat("cubic_coeff_a", -0.75);
    p.excludeOutside = attrs.getInt("exclude_outside", 0) != 0;
    p.extrapolationValue = attrs.getFloat("extrapolation_value", 0.0);
    const std::string policy = attrs.getString("keep_aspect_ratio_policy", "stretch");
    if (attrs.getInt("antialias", 0) != 0) ctx.fail("antialias=1 is not supported");
    if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
        ctx.fail("keep_aspect_ratio_policy '" + policy + "' is not supported");

    std::vector<int64_t> axes(rank);
    std::iota(axes.begin(), axes.end(), 0);
    axes = attrs.getInts("axes", axes);
    for (auto& a : axes)
        a = topi::normalizeAxis(a, int64_t(rank));

    // Scales as the ONNX reference uses them: the given scales, or out / in
    // (in double) when sizes are given.
    p.scales.assign(rank, 1.0);
    std::vector<double> scales = ctx.constant(2) ? ctx.constFloats(2) : std::vector<double>{};
    if (!scales.empty()) {
        if (scales.size() != axes.size()) ctx.fail("scales must have one value per resized axis");
        for (size_t k = 0; k < axes.size(); ++k)
            p.scales[size_t(axes[k])] = scales[k];
    } else {
        if (!ctx.hasInput(3)) ctx.fail("needs scales or sizes (as constants)");
        auto sizes = ctx.constInts(3);
        if (sizes.size() != axes.size()) ctx.fail("sizes must have one value per resized axis");
        std::vector<double> ratio;
        for (size_t k = 0; k < axes.size(); ++k)
            ratio.push_back(double(sizes[k]) / double(inShape[size_t(axes[k])]));
        for (size_t k = 0; k < axes.size(); ++k) {
            double r = ratio[k];
            if (policy == "not_larger") r = *std::min_element(ratio.begin(), ratio.end());
            if (policy == "not_smaller") r = *std::max_element(ratio.begin(), ratio.end());
            p.scales[size_t(axes[k])] = r;
        }
    }
    if (p.coordinateTransformationMode == "tf_crop_and_resize") {
        auto roi = ctx.constFloats(1);
        if (roi.size() != 2 * axes.size()) ctx.fail("roi must have a start and an end per resized axis");
        p.roi.assign(rank, 0.0);
        p.roi.resize(2 * rank, 1.0);
        for (size_t k = 0; k < axes.size(); ++k) {
            p.roi[size_t(axes[k])] = roi[k];
            p.roi[rank + size_t(axes[k])] = roi[k + axes.size()];
        }
    }
    return {tf::resize(ctx.input(0), p, ctx.name())};
}

Tensors tile(const OpContext& ctx) {
    // The repeats are in the inferred output shape.
    const auto& in = ctx.inputType(0).shape;
    const auto& out = ctx.outputType().shape;
    std::vector<int64_t> reps;
    for (size_t d = 0; d < in.size(); ++d)
        reps.push_back(out[d] / in[d]);
    return {tf::tile(ctx.input(0), reps, ctx.name())};
}

Tensors constantOfShape(const OpContext& ctx) {
    const DataType t = ctx.outputType().dtype;
    auto value = ctx.attrs().getTensor("value");
    if (value && value->numElements() != 1) ctx.fail("the value attribute must hold one element");
    te::Expr v = !value        ? tir::makeZero(t)
                 : t.isFloat() ? tir::makeConst(t, value->toDoubles().at(0))
                               : tir::makeConst(t, value->toInts().at(0));
    return {tf::full(ctx.outputType().shape, v, ctx.name())};
}

} // namespace

void addTransformStrategies(std::vector<OpStrategy>& s) {
    s.push_back({"Reshape", "topi::transform::reshape", reshape});
    s.push_back({"Flatten", "topi::transform::reshape", reshape});
    s.push_back({"Squeeze", "topi::transform::reshape", reshape});
    s.push_back({"Unsqueeze", "topi::transform::reshape", reshape});
    s.push_back({"Transpose", "topi::transform::transpose", [](const OpContext& c) {
                     return Tensors{tf::transpose(c.input(0), c.attrs().getInts("perm", {}), c.name())};
                 }});
    // Blocked inputs join along the stored axis alter-layout wrote into `axis`.
    s.push_back({.op = "Concat", .compute = "topi::transform::concatenate", .apply = concat, .layouts = true});
    s.push_back({.op = "LayoutTransform",
                 .compute = "topi::transform::layoutTransform",
                 .apply = [](const OpContext& c) {
                     return Tensors{tf::layoutTransform(c.input(0), c.inputType(0).layout, c.outputType().layout,
                                                        c.name())};
                 },
                 .layouts = true});
    s.push_back({"Split", "topi::transform::split", split});
    s.push_back({"Slice", "topi::transform::stridedSlice", slice});
    s.push_back({"Gather", "topi::transform::gather", [](const OpContext& c) {
                     return Tensors{tf::gather(c.input(0), c.inputOrLiteral(1), c.attrs().getInt("axis", 0), c.name())};
                 }});
    s.push_back({"Pad", "topi::transform::pad", pad});
    s.push_back({"GridSample", "topi::transform::gridSample", [](const OpContext& c) {
                     tf::GridSampleParams p;
                     p.mode = c.attrs().getString("mode", "bilinear");
                     p.paddingMode = c.attrs().getString("padding_mode", "zeros");
                     p.alignCorners = c.attrs().getInt("align_corners", 0) != 0;
                     return Tensors{tf::gridSample(c.input(0), c.input(1), p, c.name())};
                 }});
    s.push_back({"Resize", "topi::transform::resize", resize});
    s.push_back({"Expand", "topi::transform::broadcastTo", [](const OpContext& c) {
                     return Tensors{tf::broadcastTo(c.input(0), c.outputType().shape, c.name())};
                 }});
    s.push_back({"Tile", "topi::transform::tile", tile});
    s.push_back({"DepthToSpace", "topi::transform::depthToSpace", [](const OpContext& c) {
                     return Tensors{tf::depthToSpace(c.input(0), c.attrs().getInt("blocksize", 0),
                                                     c.attrs().getString("mode", "DCR"), c.name())};
                 }});
    s.push_back({"SpaceToDepth", "topi::transform::spaceToDepth", [](const OpContext& c) {
                     return Tensors{tf::spaceToDepth(c.input(0), c.attrs().getInt("blocksize", 0), c.name())};
                 }});
    s.push_back({"Shape", "topi::transform::shapeOf", [](const OpContext& c) {
                     return Tensors{tf::shapeOf(c.input(0), c.attrs().getInt("start", 0),
                                                c.attrs().getInt("end", std::numeric_limits<int64_t>::max()),
                                                c.outputType().dtype, c.name())};
                 }});
    s.push_back({"Size", "topi::transform::sizeOf", [](const OpContext& c) {
                     return Tensors{tf::sizeOf(c.input(0), c.outputType().dtype, c.name())};
                 }});
    s.push_back({"ConstantOfShape", "topi::transform::full", constantOfShape});
    s.push_back({"Range", "topi::transform::arange", [](const OpContext& c) {
                     return Tensors{tf::arange(c.scalarInput(0), c.scalarInput(2), c.outputType().shape.at(0), c.name())};
                 }});
}

} // namespace tessel::lower
