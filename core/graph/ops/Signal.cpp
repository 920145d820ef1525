/// \file
/// Signal processing operators of opset 17: DFT and STFT (the windows are
/// generators, in Generator.cpp). Complex tensors are a last axis of 2.
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

/// A constant scalar input as an integer (nullopt when absent or computed).
std::optional<int64_t> constScalar(const InferContext& ctx, int i, const char* what) {
    if (!ctx.hasInput(i)) return std::nullopt;
    if (ctx.input(i).numElements() != 1) ctx.fail(std::string(what) + " " + ctx.input(i).str() + " must be a scalar");
    auto v = constInts(ctx, i, what);
    return v ? std::optional<int64_t>((*v)[0]) : std::nullopt;
}

Types inferDft(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireFloat(ctx, 0);
    requireMinRank(ctx, 0, 3, "input");
    if (x.shape.back() != 1 && x.shape.back() != 2) ctx.fail("input " + x.str() + " must end in an axis of 1 or 2");
    const int64_t a = ctx.attrs().getInt("axis", 1);
    auto axis = normalizeAxis(a, x.rank());
    if (!axis || *axis == x.rank() - 1) ctx.fail("axis " + std::to_string(a) + " does not fit " + x.str());
    int64_t n = x.shape[static_cast<size_t>(*axis)];
    if (ctx.hasInput(1)) n = constScalar(ctx, 1, "dft_length").value_or(-1);
    if (ctx.attrs().getInt("onesided", 0) != 0 && n >= 0) n = n / 2 + 1;
    Shape out = x.shape;
    out[static_cast<size_t>(*axis)] = n;
    out.back() = 2;
    return {TensorType(x.dtype, out)};
}

Types inferStft(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireFloat(ctx, 0);
    if (x.rank() != 3 || (x.shape[2] != 1 && x.shape[2] != 2))
        ctx.fail("signal " + x.str() + " must be [batch, length, 1 or 2]");
    auto step = constScalar(ctx, 1, "frame_step");
    int64_t length = -1;
    if (ctx.hasInput(2)) {
        if (ctx.input(2).rank() != 1) ctx.fail("window " + ctx.input(2).str() + " must be 1-D");
        length = ctx.input(2).shape[0];
    }
    if (auto l = constScalar(ctx, 3, "frame_length")) length = *l;
    if (!ctx.hasInput(2) && !ctx.hasInput(3)) ctx.fail("either a window or a frame_length is required");
    int64_t frames = -1, bins = -1;
    if (step && length > 0 && x.shape[1] >= 0) {
        if (*step < 1 || length > x.shape[1]) ctx.fail("frame_step and frame_length do not fit " + x.str());
        frames = (x.shape[1] - length) / *step + 1;
    }
    if (length > 0) bins = ctx.attrs().getInt("onesided", 1) != 0 ? length / 2 + 1 : length;
    return {TensorType(x.dtype, {x.shape[0], frames, bins, 2})};
}

} // namespace

void registerSignalOps(OpRegistry& r) {
    using P = OpPattern;
    r.add(op("DFT", "the discrete Fourier transform along axis (complex as a last axis of 2)", P::Opaque, 1, 2,
             inferDft,
             {attrInt("axis", 1, "the transformed axis"), attrInt("inverse", 0, "1: the inverse transform"),
              attrInt("onesided", 0, "1: only bins 0 .. n/2 (real input)")}));
    r.add(op("STFT", "transforms of windowed frames of a signal: [batch, frames, bins, 2]", P::Opaque, 2, 4, inferStft,
             {attrInt("onesided", 1, "1: only bins 0 .. n/2")}));
}

} // namespace tessel::graph::ops
