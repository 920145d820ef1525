// Strategies of the convolutions, matrix products and pooling: ONNX's
// attributes (pads, auto_pad, kernel_shape, output_shape ...) resolved into
// the explicit parameters of the topi computes.
#include "lower/Strategy.h"

#include "graph/passes/ExpandQuantized.h"
#include "topi/BatchMatmul.h"
#include "topi/Conv2dGpu.h"
#include "topi/Conv2dNCHWc.h"
#include "topi/ConvIntegerNCHWc.h"
#include "topi/ConvTransposeNCHWc.h"
#include "topi/DenseGpu.h"
#include "topi/DensePacked.h"
#include "topi/Conv2dWinograd.h"
#include "topi/DepthwiseNCHWc.h"
#include "topi/Index.h"
#include "topi/LaneReduceGpu.h"
#include "topi/Nn.h"
#include "topi/ScheduleGpu.h"

#include <algorithm>
#include <optional>

namespace tessel::lower {

namespace {

using te::Tensor;
using Tensors = std::vector<Tensor>;

/// Strides, dilations and explicit pads (every begin, then every end) of a
/// Conv or pooling node over its spatial axes, with auto_pad resolved
/// against the inferred output size.
struct WindowAttrs {
    std::vector<int64_t> strides, dilations, pads;
    std::string autoPad;
};

WindowAttrs windowAttrs(const OpContext& ctx, const std::vector<int64_t>& kernel) {
    const auto xs = ctx.inputType(0).logical().shape;
    const auto ys = ctx.outputType().logical().shape;
    const size_t n = xs.size() - 2;
    if (kernel.size() != n)
        ctx.fail("kernel_shape has " + std::to_string(kernel.size()) + " values for " + std::to_string(n) +
                 " spatial axes");
    WindowAttrs w;
    w.strides = ctx.intsAttr("strides", n, 1);
    w.dilations = ctx.intsAttr("dilations", n, 1);
    auto pads = ctx.intsAttr("pads", 2 * n, 0);
    w.autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    w.pads.assign(2 * n, 0);
    for (size_t i = 0; i < n; ++i) {
        int64_t begin = 0, end = 0;
        if (w.autoPad == "NOTSET") {
            begin = pads[i];
            end = pads[i + n];
        } else if (w.autoPad == "SAME_UPPER" || w.autoPad == "SAME_LOWER") {
            // The padding that makes out = ceil(in / stride); an odd total puts
            // the extra element at the end (UPPER) or at the beginning (LOWER).
            const int64_t effKernel = (kernel[i] - 1) * w.dilations[i] + 1;
            const int64_t total = std::max<int64_t>(0, (ys[i + 2] - 1) * w.strides[i] + effKernel - xs[i + 2]);
            begin = w.autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
            end = total - begin;
        } else if (w.autoPad != "VALID") {
            ctx.fail("unknown auto_pad \"" + w.autoPad + "\"");
        }
        w.pads[i] = begin;
        w.pads[i + n] = end;
    }
    return w;
}

/// The blocked convolution's parameters, for 2-d float32 (with `integer`:
/// uint8 or int8) convolutions with constant weights and explicit or no
/// padding; nullopt otherwise.
std::optional<topi::nn::ConvParams> blockedConvParams(const OpContext& ctx, bool integer = false) {
    const auto x = ctx.inputType(0).logical();
    const bool typeFits =
        integer ? x.dtype == DataType::uint8() || x.dtype == DataType::int8() : x.dtype == DataType::float32();
    if (x.rank() != 4 || !typeFits || !ctx.constant(1)) return std::nullopt;
    const std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID") return std::nullopt;
    topi::nn::ConvParams p;
    p.strides = ctx.attrs().getInts("strides", {1, 1});
    p.dilation = ctx.attrs().getInts("dilations", {1, 1});
    p.padding = autoPad == "VALID" ? std::vector<int64_t>{0, 0, 0, 0} : ctx.attrs().getInts("pads", {0, 0, 0, 0});
    p.groups = ctx.attrs().getInt("group", 1);
    if (p.strides.size() != 2 || p.dilation.size() != 2 || p.padding.size() != 4) return std::nullopt;
    return p;
}

/// The blocked convolution applies: output channels per group a multiple of
/// 8 (grouped ones too; depthwise ones have one channel per group and take
/// their own schedule).
/// The stored layouts of the node's data and output (empty: plain).
topi::nn::ConvLayouts convLayouts(const OpContext& ctx) {
    return {ctx.inputType(0).layout, ctx.outputType().layout};
}

bool convBlockedApplies(const OpContext& ctx) {
    auto p = blockedConvParams(ctx);
    return p && topi::nn::conv2dNCHWcLayout(ctx.input(0), ctx.input(1), *p, nullptr, convLayouts(ctx)).has_value();
}

Tensors convBlocked(const OpContext& ctx) {
    auto p = blockedConvParams(ctx);
    return {topi::nn::conv2dNCHWc(ctx.input(0), ctx.input(1), *p, ctx.optionalInput(2), ctx.name(), ctx.packer(),
                                  ctx.config(), convLayouts(ctx))};
}

/// The ConvIntegers expand-quantized keeps for the CPU (graph::keepsConvInteger).
bool convIntegerBlockedApplies(const OpContext& ctx) {
    std::vector<graph::ProductInput> in;
    for (int i = 0; i < std::min(ctx.numInputs(), 4); ++i)
        in.push_back(ctx.hasInput(i) ? graph::ProductInput{true, ctx.inputType(i).logical(), ctx.constant(i)}
                                     : graph::ProductInput{});
    auto p = blockedConvParams(ctx, true);
    return p && graph::keepsConvInteger(in, ctx.attrs()) &&
           topi::nn::convIntegerNCHWcApplies(ctx.input(0), ctx.input(1), *p);
}

Tensors convIntegerBlocked(const OpContext& ctx) {
    auto p = blockedConvParams(ctx, true);
    const te::Tensor xZero = ctx.hasInput(2) ? ctx.scalarInput(2) : te::Tensor();
    const std::vector<int64_t> wZero = ctx.hasInput(3) ? ctx.constInts(3) : std::vector<int64_t>{};
    return {topi::nn::convIntegerNCHWc(ctx.input(0), ctx.input(1), xZero, wZero, *p, ctx.name(), ctx.packer(),
                                       ctx.config())};
}

/// 2-d, float32, one group: the GPU's tiled direct convolution.
bool convGpuApplies(const OpContext& ctx) {
    return ctx.inputType(0).logical().shape.size() == 4 && ctx.inputType(0).dtype == DataType::float32() &&
           ctx.attrs().getInt("group", 1) == 1;
}

/// The fused function's schedule when the GPU convolution is its anchor; a
/// group the tiled schedule does not take (several outputs, a reduction in
/// the epilogue) gets the GPU's default.
te::Schedule scheduleConvGpu(const std::vector<te::Tensor>& outputs, const topi::ScheduleOptions&,
                             te::ConfigSpace& cfg) {
    return topi::conv2dGpuScheduleApplies(outputs) ? topi::scheduleConv2dGpu(outputs, cfg)
                                                   : topi::scheduleFusedGpu(outputs);
}

/// 2-d, float32, as many groups as input and output channels: the GPU's
/// depthwise convolution (the direct one's schedule, one channel a thread).
bool depthwiseGpuApplies(const OpContext& ctx) {
    const auto& x = ctx.inputType(0).logical();
    const int64_t group = ctx.attrs().getInt("group", 1);
    return x.shape.size() == 4 && x.dtype == DataType::float32() && group > 1 && x.shape[1] == group &&
           ctx.outputType().logical().shape[1] == group;
}

bool depthwiseBlockedApplies(const OpContext& ctx) {
    auto p = blockedConvParams(ctx);
    return p && topi::nn::depthwiseNCHWcApplies(ctx.input(0), ctx.input(1), *p, convLayouts(ctx));
}

Tensors depthwiseBlocked(const OpContext& ctx) {
    auto p = blockedConvParams(ctx);
    return {topi::nn::depthwiseConv2dNCHWc(ctx.input(0), ctx.input(1), *p, ctx.optionalInput(2), convLayouts(ctx),
                                           ctx.name(), ctx.packer())};
}

bool winogradApplies(const OpContext& ctx) {
    auto p = blockedConvParams(ctx);
    return p && topi::nn::winogradApplies(ctx.input(0), ctx.input(1), *p, convLayouts(ctx));
}

Tensors winograd(const OpContext& ctx) {
    auto p = blockedConvParams(ctx);
    return {topi::nn::conv2dWinograd(ctx.input(0), ctx.input(1), *p, ctx.optionalInput(2), convLayouts(ctx),
                                     ctx.name(), ctx.packer())};
}

Tensors conv(const OpContext& ctx) {
    const auto& ws = ctx.inputType(1).shape;
    WindowAttrs w = windowAttrs(ctx, std::vector<int64_t>(ws.begin() + 2, ws.end()));
    topi::nn::ConvParams p{w.strides, w.pads, w.dilations, ctx.attrs().getInt("group", 1)};
    return {topi::nn::conv(ctx.input(0), ctx.input(1), p, ctx.optionalInput(2), ctx.name())};
}

/// The cropping of the full output (its begin and end per axis) that gives
/// the inferred output: explicit pads, or with output_shape or auto_pad SAME
/// the ONNX rule (the total split evenly, the odd element at the end for
/// SAME_UPPER and at the beginning otherwise; a larger output extends the end).
topi::nn::ConvTransposeParams convTransposeParams(const OpContext& ctx) {
    const auto xs = ctx.inputType(0).logical().shape;
    const auto& ws = ctx.inputType(1).shape;
    const auto ys = ctx.outputType().logical().shape;
    const size_t n = xs.size() - 2;
    topi::nn::ConvTransposeParams p;
    p.strides = ctx.intsAttr("strides", n, 1);
    p.dilation = ctx.intsAttr("dilations", n, 1);
    p.outputPadding = ctx.intsAttr("output_padding", n, 0);
    p.groups = ctx.attrs().getInt("group", 1);
    auto pads = ctx.intsAttr("pads", 2 * n, 0);
    const std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
        ctx.fail("unknown auto_pad \"" + autoPad + "\"");
    const bool derivedPads = ctx.attrs().has("output_shape") || autoPad.starts_with("SAME");
    p.padding.assign(2 * n, 0);
    for (size_t i = 0; i < n; ++i) {
        const int64_t full =
            p.strides[i] * (xs[i + 2] - 1) + p.outputPadding[i] + (ws[i + 2] - 1) * p.dilation[i] + 1;
        int64_t padBegin = autoPad == "NOTSET" ? pads[i] : 0;
        if (derivedPads) {
            const int64_t total = std::max<int64_t>(0, full - ys[i + 2]);
            padBegin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
        }
        p.padding[i] = padBegin;
        p.padding[i + n] = full - ys[i + 2] - padBegin;
    }
    return p;
}

Tensors convTranspose(const OpContext& ctx) {
    return {topi::nn::convTranspose(ctx.input(0), ctx.input(1), convTransposeParams(ctx), ctx.optionalInput(2),
                                    ctx.name())};
}

/// 2-d, one group, dilation 1: by phases in channel blocks.
bool convTransposeBlockedApplies(const OpContext& ctx) {
    return topi::nn::convTransposeNCHWcApplies(ctx.input(0), ctx.input(1), convTransposeParams(ctx),
                                               convLayouts(ctx));
}

Tensors convTransposeBlocked(const OpContext& ctx) {
    return {topi::nn::convTransposeNCHWc(ctx.input(0), ctx.input(1), convTransposeParams(ctx),
                                         ctx.optionalInput(2), ctx.name(), ctx.packer(), convLayouts(ctx),
                                         ctx.config())};
}

Tensors pool(const OpContext& ctx, topi::nn::PoolType type) {
    const bool indices = type == topi::nn::PoolType::Max && ctx.numOutputs() > 1;
    if (indices && (ctx.inputType(0).rank() != 4 || ctx.inputType(0).blocked()))
        ctx.fail("the Indices output of MaxPool is supported for plain 2-d pooling only");
    if (!ctx.attrs().has("kernel_shape")) ctx.fail("attribute 'kernel_shape' is required");
    topi::nn::PoolParams p;
    p.kernel = ctx.attrs().getInts("kernel_shape", {});
    WindowAttrs w = windowAttrs(ctx, p.kernel);
    p.strides = w.strides;
    p.dilation = w.dilations;
    p.padding = w.pads;
    // With auto_pad SAME the output is ceil(in / stride) whatever ceil_mode says.
    p.ceilMode = ctx.attrs().getInt("ceil_mode", 0) != 0 && !w.autoPad.starts_with("SAME");
    p.countIncludePad = ctx.attrs().getInt("count_include_pad", 0) != 0;
    p.channelBlock = ctx.inputType(0).blocked();
    Tensors out{topi::nn::pool(ctx.input(0), type, p, ctx.name())};
    if (indices)
        out.push_back(topi::maxPoolIndices(ctx.input(0), out[0], p.kernel, p.strides, p.padding, p.dilation,
                                           ctx.attrs().getInt("storage_order", 0) != 0, ctx.name() + "_indices"));
    return out;
}

topi::nn::GemmParams gemmParams(const OpContext& ctx) {
    topi::nn::GemmParams p;
    p.transA = ctx.attrs().getInt("transA", 0) != 0;
    p.transB = ctx.attrs().getInt("transB", 0) != 0;
    p.alpha = ctx.attrs().getFloat("alpha", 1.0);
    p.beta = ctx.attrs().getFloat("beta", 1.0);
    return p;
}

/// The packed dense layer, for Gemm with a constant float32 B and A not transposed.
Tensors densePacked(const OpContext& ctx) {
    if (!ctx.constant(1)) return {};
    const auto p = gemmParams(ctx);
    if (!topi::nn::densePackedApplies(ctx.input(0), ctx.input(1), p)) return {};
    return {topi::nn::densePacked(ctx.input(0), ctx.input(1), ctx.optionalInput(2), p, ctx.name(), ctx.packer())};
}

/// Gemm with a computed float32 B laid out [N, K] (transB): B is copied into
/// [K, N] inside the function, the layout the batched matmul schedule
/// vectorizes along; nothing (the general Gemm runs) otherwise.
Tensors gemmTransposedB(const OpContext& ctx) {
    auto p = gemmParams(ctx);
    const auto& b = ctx.input(1);
    if (!p.transB || ctx.constant(1) || b.ndim() != 2 || b->dtype != DataType::float32()) return {};
    p.transB = false;
    return {topi::nn::gemm(ctx.input(0), topi::nn::transposedCopy(b, ctx.name() + "_bt"), ctx.optionalInput(2), p,
                           ctx.name())};
}

/// The packed dense layer, for MatMul of any rank with a constant float32 2-d B.
Tensors matmulPacked(const OpContext& ctx) {
    if (!ctx.constant(1) || !topi::nn::matmulPackedApplies(ctx.input(0), ctx.input(1))) return {};
    return {topi::nn::matmulPacked(ctx.input(0), ctx.input(1), ctx.name(), ctx.packer())};
}

/// Gemm on a GPU: a GEMV-shaped one (M = 1, B [N, K]) as partial dot
/// products across a block's threads, the others as the general compute
/// for the tiled schedule.
Tensors gemmGpu(const OpContext& ctx) {
    const auto p = gemmParams(ctx);
    if (topi::nn::gemvLanesApplies(ctx.input(0), ctx.input(1), p)) {
        const int64_t lanes = topi::defineLanesKnob(ctx.config(), ctx.inputType(1).shape[1]);
        return {topi::nn::gemvLanes(ctx.input(0), ctx.input(1), ctx.optionalInput(2), p, lanes, ctx.name())};
    }
    return {topi::nn::gemm(ctx.input(0), ctx.input(1), ctx.optionalInput(2), p, ctx.name())};
}

bool float32Operands(const OpContext& ctx) {
    return ctx.inputType(0).dtype == DataType::float32() && ctx.inputType(1).dtype == DataType::float32();
}

/// MatMul on a GPU: both operands matrices (or batches of them).
bool matmulGpuApplies(const OpContext& ctx) {
    return float32Operands(ctx) && ctx.inputType(0).rank() >= 2 && ctx.inputType(1).rank() >= 2;
}

/// The fused function's schedule when a GPU matrix product is its anchor:
/// the lane reduction for a GEMV, the tiled one otherwise; the GPU's default
/// where neither takes the group (several outputs, a reduction in the epilogue).
te::Schedule scheduleDenseCuda(const std::vector<te::Tensor>& outputs, const topi::ScheduleOptions&,
                               te::ConfigSpace& cfg) {
    if (topi::laneReduceGpuScheduleApplies(outputs)) return topi::scheduleLaneReduceGpu(outputs, cfg);
    if (topi::denseGpuScheduleApplies(outputs)) return topi::scheduleDenseGpu(outputs, cfg);
    return topi::scheduleFusedGpu(outputs);
}

/// A global pooling of plain 2-d float32 data on a GPU: lanes of a block reduce each channel.
bool globalPoolGpuApplies(const OpContext& ctx) {
    const auto& t = ctx.inputType(0);
    return t.rank() == 4 && !t.blocked() && t.dtype == DataType::float32();
}

Tensors globalPoolGpu(const OpContext& ctx, topi::nn::PoolType type) {
    const auto& xs = ctx.inputType(0).shape;
    const int64_t lanes = topi::defineLanesKnob(ctx.config(), xs[2] * xs[3]);
    return {topi::nn::globalPoolLanes(ctx.input(0), type, lanes, ctx.name())};
}

te::Schedule scheduleLaneReduceCuda(const std::vector<te::Tensor>& outputs, const topi::ScheduleOptions&,
                                    te::ConfigSpace& cfg) {
    return topi::laneReduceGpuScheduleApplies(outputs) ? topi::scheduleLaneReduceGpu(outputs, cfg)
                                                       : topi::scheduleFusedGpu(outputs);
}

} // namespace

void addNnStrategies(std::vector<OpStrategy>& s) {
    using topi::nn::PoolType;
    // Convolutions: the specialised records carry a condition and a priority;
    // the general compute takes every convolution the others leave.
    s.push_back({.op = "Conv",
                 .compute = "topi::nn::conv2dNCHWc",
                 .apply = convBlocked,
                 .name = "conv2d_nchwc",
                 .priority = 10,
                 .when = convBlockedApplies,
                 .condition = "2-d float32 with constant weights, explicit padding, and a multiple of 8 output "
                              "channels per group",
                 .targets = kCpuKinds,
                 .tunable = true,
                 .layouts = true,
                 .version = 2}); // v2: blocked input and output, knob reg_block
    s.push_back({.op = "Conv",
                 .compute = "topi::nn::depthwiseConv2dNCHWc",
                 .apply = depthwiseBlocked,
                 .name = "depthwise_nchwc",
                 .priority = 20,
                 .when = depthwiseBlockedApplies,
                 .condition = "depthwise 2-d float32 with constant weights and explicit padding, output stored in "
                              "channel blocks (alter-layout)",
                 .targets = kCpuKinds,
                 .tunable = true,
                 .layouts = true});
    // F(4x4, 3x3): 2.25x fewer multiply-adds for two transforms; below the
    // direct convolution by default, a choice of the tuner's "strategy" knob.
    s.push_back({.op = "Conv",
                 .compute = "topi::nn::conv2dWinograd",
                 .apply = winograd,
                 .name = "conv2d_winograd",
                 .priority = 5,
                 .when = winogradApplies,
                 .condition = "3x3 float32, stride 1, one group, constant weights, output stored in channel blocks "
                              "(alter-layout)",
                 .targets = kCpuKinds,
                 .tunable = true,
                 .schedule = topi::scheduleConv2dWinograd,
                 .layouts = true});
    s.push_back({.op = "Conv",
                 .compute = "topi::nn::conv",
                 .apply = conv,
                 .name = "conv2d_nchw_cuda",
                 .priority = 10,
                 .when = convGpuApplies,
                 .condition = "2-d float32, one group (shared-memory tiles, epilogue fused)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleConvGpu,
                 .version = 2}); // v2: knob vthread_x
    s.push_back({.op = "Conv",
                 .compute = "topi::nn::conv",
                 .apply = conv,
                 .name = "depthwise_conv2d_nchw_cuda",
                 .priority = 10,
                 .when = depthwiseGpuApplies,
                 .condition = "depthwise 2-d float32 (threads along the rows, the window in shared memory, "
                              "epilogue fused)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleConvGpu});
    s.push_back({.op = "Conv", .compute = "topi::nn::conv", .apply = conv, .name = "conv_generic"});
    // Integer convolutions: expand-quantized writes the others as int32 Conv.
    s.push_back({.op = "ConvInteger",
                 .compute = "topi::nn::convIntegerNCHWc",
                 .apply = convIntegerBlocked,
                 .name = "conv_integer_nchwc",
                 .priority = 10,
                 .when = convIntegerBlockedApplies,
                 .condition = "2-d, one group, explicit padding, 8-bit data, constant 8-bit weights and weight zero "
                              "point, one data zero point (int16 channel pairs, pair_dot_i16)",
                 .targets = kCpuKinds,
                 .tunable = true,
                 .schedule = topi::scheduleConvIntegerNCHWc});
    s.push_back({.op = "Gemm",
                 .compute = "topi::nn::densePacked",
                 .apply = densePacked,
                 .name = "dense_packed",
                 .priority = 10,
                 .condition = "float32 with a constant B and A not transposed",
                 .targets = kCpuKinds,
                 .version = 2}); // v2: knob tile_n, panels of 16 columns per task
    s.push_back({.op = "Gemm",
                 .compute = "topi::nn::gemm",
                 .apply = gemmGpu,
                 .name = "dense_cuda",
                 .priority = 10,
                 .when = float32Operands,
                 .condition = "float32 (shared-memory tiles and register tiles; a GEMV with B [N, K] as partial "
                              "dot products across a block's threads)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleDenseCuda});
    s.push_back({.op = "Gemm",
                 .compute = "topi::nn::gemm",
                 .apply = gemmTransposedB,
                 .name = "gemm_transposed_b",
                 .priority = 5,
                 .condition = "a computed float32 B laid out [N, K]"});
    s.push_back({.op = "Gemm",
                 .compute = "topi::nn::gemm",
                 .apply = [](const OpContext& c) {
                     return Tensors{topi::nn::gemm(c.input(0), c.input(1), c.optionalInput(2), gemmParams(c), c.name())};
                 },
                 .name = "gemm_generic"});
    s.push_back({.op = "ConvTranspose",
                 .compute = "topi::nn::convTransposeNCHWc",
                 .apply = convTransposeBlocked,
                 .name = "conv_transpose_nchwc",
                 .priority = 10,
                 .when = convTransposeBlockedApplies,
                 .condition = "2-d float32, one group, dilation 1, no negative begin padding (by phases, input "
                              "and output in channel blocks after alter-layout)",
                 .targets = kCpuKinds,
                 .tunable = true,
                 .layouts = true,
                 .version = 2}); // v2: blocked input and output, knob reg_block
    s.push_back({.op = "ConvTranspose",
                 .compute = "topi::nn::convTranspose",
                 .apply = convTranspose,
                 .name = "conv_transpose_generic"});
    s.push_back({.op = "MatMul",
                 .compute = "topi::nn::matmulPacked",
                 .apply = matmulPacked,
                 .name = "matmul_packed",
                 .priority = 10,
                 .condition = "float32 with a constant 2-d B",
                 .targets = kCpuKinds,
                 .version = 2}); // v2: knob tile_n, panels of 16 columns per task
    s.push_back({.op = "MatMul",
                 .compute = "topi::nn::matmul",
                 .apply = [](const OpContext& c) { return Tensors{topi::nn::matmul(c.input(0), c.input(1), c.name())}; },
                 .name = "matmul_cuda",
                 .priority = 10,
                 .when = matmulGpuApplies,
                 .condition = "float32 matrices or batches of them (shared-memory tiles and register tiles)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleDenseCuda});
    s.push_back({.op = "MatMul",
                 .compute = "topi::nn::matmul",
                 .apply = [](const OpContext& c) { return Tensors{topi::nn::matmul(c.input(0), c.input(1), c.name())}; },
                 .name = "matmul_generic"});
    // Pooling pools channel blocks like channels (NCHW16c in, NCHW16c out).
    s.push_back({.op = "MaxPool",
                 .compute = "topi::nn::pool",
                 .apply = [](const OpContext& c) { return pool(c, PoolType::Max); },
                 .layouts = true});
    s.push_back({.op = "AveragePool",
                 .compute = "topi::nn::pool",
                 .apply = [](const OpContext& c) { return pool(c, PoolType::Avg); },
                 .layouts = true});
    for (auto [op, type] : {std::pair{"GlobalMaxPool", PoolType::Max}, std::pair{"GlobalAveragePool", PoolType::Avg}})
        s.push_back({.op = op,
                     .compute = "topi::nn::globalPoolLanes",
                     .apply = [type](const OpContext& c) { return globalPoolGpu(c, type); },
                     .name = "global_pool_cuda",
                     .priority = 10,
                     .when = globalPoolGpuApplies,
                     .condition = "plain 2-d float32 (each channel reduced by the lanes of a block)",
                     .targets = kGpuKinds,
                     .tunable = true,
                     .schedule = scheduleLaneReduceCuda});
    s.push_back({.op = "GlobalMaxPool",
                 .compute = "topi::nn::globalPool",
                 .apply = [](const OpContext& c) {
                     return Tensors{
                         topi::nn::globalPool(c.input(0), PoolType::Max, c.name(), c.inputType(0).blocked())};
                 },
                 .layouts = true});
    s.push_back({.op = "GlobalAveragePool",
                 .compute = "topi::nn::globalPool",
                 .apply = [](const OpContext& c) {
                     return Tensors{
                         topi::nn::globalPool(c.input(0), PoolType::Avg, c.name(), c.inputType(0).blocked())};
                 },
                 .layouts = true});
}

} // namespace tessel::lower
