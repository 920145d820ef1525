#include "topi/Conv2dGpu.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "topi/GpuTiles.h"
#include "topi/Knobs.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <algorithm>
#include <tuple>

namespace tessel::topi {

using te::IterVar;
using namespace tir;

namespace {

/// The convolution stage among the function's operations: the one direct
/// (conv2d) or depthwise one (null when there is not exactly one).
te::Operation findConv(const std::vector<te::Tensor>& outputs) {
    const te::Operation conv = findTagged(outputs, tag::kConv2d), depthwise = findTagged(outputs, tag::kDepthwise);
    return conv.defined() != depthwise.defined() ? (conv.defined() ? conv : depthwise) : te::Operation();
}

} // namespace

bool conv2dGpuScheduleApplies(const std::vector<te::Tensor>& outputs) {
    if (outputs.size() != 1 || outputs[0].ndim() != 4) return false;
    const te::Operation conv = findConv(outputs);
    const te::ComputeOpNode* c = conv.defined() ? computeOf(conv) : nullptr;
    if (!c || c->axis.size() != 4 || c->reduceAxis.empty() || c->reduceAxis.size() > 3) return false;
    // Everything between the convolution and the output is injective (the epilogue).
    return injectiveEpilogue(outputs[0], conv);
}

te::Schedule scheduleConv2dGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg) {
    TESSEL_CHECK(conv2dGpuScheduleApplies(outputs), "GPU convolution schedule on unexpected outputs");
    te::Schedule s = te::createSchedule({outputs[0]->op});
    const te::Operation convOp = findConv(outputs);
    const te::Tensor conv = convOp.output(0);
    const te::ComputeOpNode* c = computeOf(convOp);
    // The data the convolution reads (the padded input, or the input) and the weights.
    const std::vector<te::Tensor> ins = c->inputTensors();
    TESSEL_CHECK(ins.size() == 2, "a convolution reads data and weights");
    const int64_t F = extentOr(c->axis[1], 1), H = extentOr(c->axis[2], 1), W = extentOr(c->axis[3], 1);
    // Data first in the product; the weights are the one with F rows (the padded data when in doubt).
    te::Tensor data = ins[0], weight = ins[1];
    if (data->op->tag != tag::kPad && (weight->op->tag == tag::kPad || staticShape(weight)[0] != F))
        std::swap(data, weight);

    const bool hasRc = c->reduceAxis.size() == 3;
    const int64_t C = hasRc ? extentOr(c->reduceAxis[0], 1) : 1;

    // Defaults: a row of 14-16 threads (coalesced stores), ~64 threads per
    // row block, ~256 per block, up to 8 output channels per thread.
    const int64_t tx = tileDivisor(W, 16);
    const int64_t ty = tileDivisor(H, std::max<int64_t>(1, 64 / tx));
    int64_t tf = tileDivisor(F, std::max<int64_t>(1, 256 / (tx * ty)));
    // A depthwise output channel reads its own input channel only: more
    // channels per thread would reuse nothing, so one.
    const bool depthwise = convOp->tag == tag::kDepthwise;
    int64_t fi = depthwise ? 1 : tileDivisor(F / tf, 8);
    // Enough blocks for a large GPU's multiprocessors (132 on an H100): on
    // small planes (ResNet's 7x7) fewer channels per thread, then per block.
    const int64_t spatialBlocks = (H / ty) * (W / tx);
    while (spatialBlocks * (F / (tf * fi)) < kMinGpuBlocks && fi > 1) fi = tileDivisor(F / tf, fi - 1);
    while (spatialBlocks * (F / (tf * fi)) < kMinGpuBlocks && tf > 1) tf = tileDivisor(F / fi, tf - 1);
    const int64_t rci = tileDivisor(C, 8);
    auto threadsFit = [](int64_t t) { return t <= 64; };
    const auto sf = defineSplitKnob(cfg, "tile_f", F, 3, {F / (tf * fi), tf, fi},
                                    [&](const std::vector<int64_t>& v) { return threadsFit(v[1]) && v[2] <= 16; });
    const auto sy = defineSplitKnob(cfg, "tile_y", H, 3, {H / ty, ty, 1},
                                    [&](const std::vector<int64_t>& v) { return threadsFit(v[1]) && v[2] <= 4; });
    const auto sx = defineSplitKnob(cfg, "tile_x", W, 3, {W / tx, tx, 1},
                                    [&](const std::vector<int64_t>& v) { return v[1] <= 32 && v[2] <= 4; });
    const auto src = defineSplitKnob(cfg, "tile_rc", C, 2, {C / rci, rci},
                                     [](const std::vector<int64_t>& v) { return v[1] <= 32; });
    // Virtual threads along the row (TVM's vx): a thread's columns split into
    // vthread_x groups a row of threads apart, so neighbouring threads read
    // neighbouring words of the shared window, not columns-per-thread apart.
    // 1 by default, whose tile is one column a thread.
    const int64_t vx = defineChoiceKnob(cfg, "vthread_x", {te::KnobValue(int64_t(1)), te::KnobValue(int64_t(2))},
                                        te::KnobValue(int64_t(1)))
                           .asInt();
    if (sf[1] * sy[1] * sx[1] > 1024)
        throw CompileError("conv2d GPU schedule: " + std::to_string(sf[1] * sy[1] * sx[1]) +
                           " threads per block; a block has at most 1024");
    if (sx[2] % vx != 0)
        throw CompileError("conv2d GPU schedule: vthread_x " + std::to_string(vx) + " does not divide the " +
                           std::to_string(sx[2]) + " columns a thread computes");

    // Stage the tiles in shared memory; the padding is computed while copying.
    te::Tensor dataShared = s.cacheRead(data, "shared", {convOp});
    te::Tensor weightShared = s.cacheRead(weight, "shared", {convOp});
    if (data->op->tag == tag::kPad) s[data].computeInline();

    // The output stage and the convolution's accumulators in registers.
    // When the convolution is not the output, its copy out of the accumulators
    // and every injective stage before the output (bias, residual add) are
    // inlined: the output stage reads the accumulators directly.
    const te::Tensor out = outputs[0];
    const te::Tensor acc = s.cacheWrite(conv, "local");
    if (out->op.get() != convOp.get()) {
        s[conv].computeInline();
        inlineEpilogue(s, {dataShared->op, weightShared->op, acc->op});
    }

    te::Stage o = s[out];
    const auto& oax = computeOf(o.op())->axis;
    auto [bf, fr] = o.split(oax[1], intImm(sf[1] * sf[2]));
    auto [tfv, fiv] = o.split(fr, intImm(sf[2]));
    auto [by, yr] = o.split(oax[2], intImm(sy[1] * sy[2]));
    auto [tyv, yiv] = o.split(yr, intImm(sy[2]));
    auto [bx, xr] = o.split(oax[3], intImm(sx[1] * sx[2]));
    IterVar vxv;
    if (vx > 1) std::tie(vxv, xr) = o.splitByNParts(xr, intImm(vx));
    auto [txv, xiv] = o.split(xr, intImm(sx[2] / vx));
    if (vx > 1) {
        o.reorder({oax[0], bf, by, bx, vxv, tfv, tyv, txv, fiv, yiv, xiv});
        o.bind(vxv, te::threadAxis("vthread"));
    } else {
        o.reorder({oax[0], bf, by, bx, tfv, tyv, txv, fiv, yiv, xiv});
    }
    fuseAndBind(o, {oax[0], bf}, "blockIdx.z");
    bindLoops(o, {{by, "blockIdx.y"},
                  {bx, "blockIdx.x"},
                  {tfv, "threadIdx.z"},
                  {tyv, "threadIdx.y"},
                  {txv, "threadIdx.x"}});
    o.unroll(fiv);
    o.unroll(yiv);
    o.unroll(xiv);

    te::Stage a = s[acc];
    a.computeAt(o, txv);
    const te::ComputeOpNode* ac = computeOf(a.op());
    std::vector<IterVar> order;
    IterVar rco;
    if (hasRc) {
        auto [ro, ri] = a.split(ac->reduceAxis[0], intImm(src[1]));
        rco = ro;
        order = {ro, ri};
    }
    for (size_t r = hasRc ? 1 : 0; r < ac->reduceAxis.size(); ++r) order.push_back(ac->reduceAxis[r]);
    for (auto& iv : ac->axis) order.push_back(iv);
    a.reorder(order);
    for (auto& iv : ac->axis) a.unroll(iv);
    a.unroll(ac->reduceAxis.back());

    // The tiles of each chunk of input channels (or the whole reduction when there is one channel).
    const IterVar at = hasRc ? rco : ac->reduceAxis[0];
    for (const te::Tensor& t : {dataShared, weightShared}) {
        te::Stage st = s[t];
        st.computeAt(a, at);
        cooperativeFetch(st, {{"threadIdx.z", sf[1]}, {"threadIdx.y", sy[1]}, {"threadIdx.x", sx[1]}});
    }
    return s;
}

} // namespace tessel::topi
