// Strategies of the operators that index with tensors (gathers, scatters,
// OneHot, TopK, ReverseSequence, the Trilu and EyeLike masks), Einsum, the
// losses, linear quantisation, and signal processing (windows, DFT, STFT).
#include "lower/Strategy.h"

#include "topi/Einsum.h"
#include "topi/Index.h"
#include "topi/Loss.h"
#include "topi/Quantize.h"
#include "topi/Signal.h"

namespace tessel::lower {

namespace {

using te::Tensor;
using Tensors = std::vector<Tensor>;

topi::ScatterReduction reductionOf(const OpContext& ctx) {
    const std::string r = ctx.attrs().getString("reduction", "none");
    if (r == "add") return topi::ScatterReduction::Add;
    if (r == "mul") return topi::ScatterReduction::Mul;
    if (r != "none") ctx.fail("reduction '" + r + "' is not supported (none, add or mul)");
    return topi::ScatterReduction::None;
}

topi::nn::LossParams lossParams(const OpContext& ctx) {
    topi::nn::LossParams p;
    p.reduction = ctx.attrs().getString("reduction", "mean");
    if (ctx.attrs().has("ignore_index")) p.ignoreIndex = ctx.attrs().getInt("ignore_index", 0);
    return p;
}

Tensors oneHot(const OpContext& ctx) {
    // The output's type carries the depth (a constant input, checked by inference).
    const auto& out = ctx.outputType().shape;
    const int64_t rank = static_cast<int64_t>(out.size());
    int64_t axis = ctx.attrs().getInt("axis", -1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) ctx.fail("axis is out of range");
    return {topi::oneHot(ctx.input(0), out[static_cast<size_t>(axis)], ctx.input(2), axis, ctx.name())};
}

Tensors topK(const OpContext& ctx) {
    const int64_t k = ctx.constInts(1).at(0);
    return topi::topK(ctx.input(0), k, ctx.attrs().getInt("axis", -1), ctx.attrs().getInt("largest", 1) != 0,
                      ctx.name());
}

Tensors einsum(const OpContext& ctx) {
    Tensors ins;
    for (int i = 0; i < ctx.numInputs(); ++i)
        ins.push_back(ctx.input(i));
    return {topi::einsum(ctx.attrs().getString("equation", ""), ins, ctx.name())};
}

Tensors scatterElements(const OpContext& c) {
    return {topi::scatterElements(c.input(0), c.input(1), c.input(2), c.attrs().getInt("axis", 0), reductionOf(c),
                                  c.name())};
}

OpStrategy window(std::string op, topi::signal::WindowKind kind) {
    return {std::move(op), "topi::signal::window", [kind](const OpContext& c) {
                const auto& out = c.outputType();
                return Tensors{topi::signal::window(kind, out.shape.at(0), c.attrs().getInt("periodic", 1) != 0,
                                                    out.dtype, c.name())};
            }};
}

Tensors dft(const OpContext& c) {
    int64_t length = 0;
    if (c.hasInput(1)) length = c.constInts(1).at(0);
    return {topi::signal::dft(c.input(0), length, c.attrs().getInt("axis", 1), c.attrs().getInt("inverse", 0) != 0,
                              c.attrs().getInt("onesided", 0) != 0, c.name())};
}

Tensors stft(const OpContext& c) {
    const int64_t step = c.constInts(1).at(0);
    const te::Tensor win = c.optionalInput(2);
    const int64_t length = c.hasInput(3) ? c.constInts(3).at(0) : c.inputType(2).shape.at(0);
    return {topi::signal::stft(c.input(0), step, win, length, c.attrs().getInt("onesided", 1) != 0, c.name())};
}

Tensors maxUnpool(const OpContext& c) {
    // The indices point into the shape the window unpools to; output_shape
    // may add rows and columns after it (which stay 0).
    const auto& xs = c.inputType(0).shape;
    const size_t n = xs.size() - 2;
    const auto kernel = c.intsAttr("kernel_shape", n, 1), strides = c.intsAttr("strides", n, 1),
               pads = c.intsAttr("pads", 2 * n, 0);
    std::vector<int64_t> unpooled{xs[0], xs[1]};
    for (size_t d = 0; d < n; ++d)
        unpooled.push_back((xs[d + 2] - 1) * strides[d] + kernel[d] - pads[d] - pads[d + n]);
    const auto& out = c.outputType().shape;
    for (size_t d = 2; d < out.size(); ++d)
        if (unpooled[d] > out[d]) c.fail("output_shape is smaller than the unpooled shape");
    return {topi::maxUnpool(c.input(0), c.input(1), out, unpooled, c.name())};
}

} // namespace

void addIndexStrategies(std::vector<OpStrategy>& s) {
    s.push_back({"GatherElements", "topi::gatherElements", [](const OpContext& c) {
                     return Tensors{topi::gatherElements(c.input(0), c.input(1), c.attrs().getInt("axis", 0), c.name())};
                 }});
    s.push_back({"GatherND", "topi::gatherND", [](const OpContext& c) {
                     return Tensors{topi::gatherND(c.input(0), c.input(1), c.attrs().getInt("batch_dims", 0), c.name())};
                 }});
    s.push_back({"ScatterElements", "topi::scatterElements", scatterElements});
    s.push_back({"Scatter", "topi::scatterElements", scatterElements});
    s.push_back({"ReverseSequence", "topi::reverseSequence", [](const OpContext& c) {
                     return Tensors{topi::reverseSequence(c.input(0), c.input(1), c.attrs().getInt("batch_axis", 1),
                                                          c.attrs().getInt("time_axis", 0), c.name())};
                 }});
    s.push_back({"ScatterND", "topi::scatterND", [](const OpContext& c) {
                     return Tensors{topi::scatterND(c.input(0), c.input(1), c.input(2), reductionOf(c), c.name())};
                 }});
    s.push_back({"OneHot", "topi::oneHot", oneHot});
    s.push_back({"TopK", "topi::topK", topK});
    s.push_back({"Trilu", "topi::trilu", [](const OpContext& c) {
                     return Tensors{topi::trilu(c.input(0), c.hasInput(1) ? c.scalarInput(1) : Tensor(),
                                                c.attrs().getInt("upper", 1) != 0, c.name())};
                 }});
    s.push_back({"EyeLike", "topi::eyeLike", [](const OpContext& c) {
                     return Tensors{topi::eyeLike(c.outputType().shape, c.outputType().dtype, c.attrs().getInt("k", 0),
                                                  c.name())};
                 }});
    s.push_back({"Einsum", "topi::einsum", einsum});
    s.push_back({"MaxUnpool", "topi::maxUnpool", maxUnpool});
    s.push_back({"RoiAlign", "topi::roiAlign", [](const OpContext& c) {
                     topi::RoiAlignParams p;
                     p.outputHeight = c.attrs().getInt("output_height", 1);
                     p.outputWidth = c.attrs().getInt("output_width", 1);
                     p.samplingRatio = c.attrs().getInt("sampling_ratio", 0);
                     p.spatialScale = c.attrs().getFloat("spatial_scale", 1.0);
                     p.halfPixel = c.attrs().getString("coordinate_transformation_mode", "half_pixel") == "half_pixel";
                     p.max = c.attrs().getString("mode", "avg") == "max";
                     return Tensors{topi::roiAlign(c.input(0), c.input(1), c.input(2), p, c.name())};
                 }});
    s.push_back({"Det", "topi::det", [](const OpContext& c) { return Tensors{topi::det(c.input(0), c.name())}; }});
    s.push_back({"QuantizeLinear", "topi::quantizeLinear", [](const OpContext& c) {
                     return Tensors{topi::quantizeLinear(c.input(0), c.input(1), c.optionalInput(2),
                                                         c.attrs().getInt("axis", 1), c.outputType().dtype, c.name())};
                 }});
    s.push_back({"DequantizeLinear", "topi::dequantizeLinear", [](const OpContext& c) {
                     return Tensors{topi::dequantizeLinear(c.input(0), c.input(1), c.optionalInput(2),
                                                           c.attrs().getInt("axis", 1), c.name())};
                 }});
    s.push_back({"DynamicQuantizeLinear", "topi::dynamicQuantizeLinear",
                 [](const OpContext& c) { return topi::dynamicQuantizeLinear(c.input(0), c.name()); }});
    s.push_back(window("HannWindow", topi::signal::WindowKind::Hann));
    s.push_back(window("HammingWindow", topi::signal::WindowKind::Hamming));
    s.push_back(window("BlackmanWindow", topi::signal::WindowKind::Blackman));
    s.push_back({"DFT", "topi::signal::dft", dft});
    s.push_back({"STFT", "topi::signal::stft", stft});
    s.push_back({"NegativeLogLikelihoodLoss", "topi::nn::nllLoss", [](const OpContext& c) {
                     return Tensors{topi::nn::nllLoss(c.input(0), c.input(1), c.optionalInput(2), lossParams(c), c.name())};
                 }});
    s.push_back({"SoftmaxCrossEntropyLoss", "topi::nn::softmaxCrossEntropy", [](const OpContext& c) {
                     auto r = topi::nn::softmaxCrossEntropy(c.input(0), c.input(1), c.optionalInput(2), lossParams(c),
                                                            c.name());
                     Tensors out{r.loss};
                     if (c.numOutputs() > 1) out.push_back(r.logProb);
                     return out;
                 }});
}

} // namespace tessel::lower
