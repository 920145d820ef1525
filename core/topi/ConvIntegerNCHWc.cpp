#include "topi/ConvIntegerNCHWc.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/Conv2dNCHWc.h"
#include "topi/Knobs.h"
#include "topi/NnUtil.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi {

using namespace tir;

namespace {

bool isByte(DataType t) { return t == DataType::uint8() || t == DataType::int8(); }

/// Two int16 values as the halves of one int32 (lo in the low half): what
/// pair_dot_i16 reads. Both are in -255 .. 255.
Expr packPair(Expr lo, Expr hi) { return floormod(lo, intImm(65536)) + hi * intImm(65536); }

int32_t packPair(int32_t lo, int32_t hi) {
    return int32_t(uint32_t(uint16_t(int16_t(lo))) | (uint32_t(uint16_t(int16_t(hi))) << 16));
}

/// The first element of a one-element tensor as int32.
Expr scalarOf(const Tensor& t) {
    return cast(DataType::int32(), t(std::vector<Expr>(t.ndim(), intImm(0))));
}

/// Schedules the function's NCHW output, which reads the blocked sums
/// through the element-wise epilogue (bias, requantization ...), across
/// each channel block: the block's `ocb` int32 sums of one pixel are one
/// contiguous vector, and so are per-channel parameters, so the epilogue
/// runs in vectors and only the NCHW stores are scattered. (Along the rows
/// instead, every read would be a stride-`ocb` gather and an integer output
/// would not vectorise at all.) False when the output is not the
/// convolution's [N, OC, OH, OW] with OC a multiple of `ocb`.
bool scheduleAcrossChannelBlock(te::Stage o, const te::ComputeOpNode* conv, const ScheduleOptions& options) {
    auto* op = dynamic_cast<const te::ComputeOpNode*>(o.op().get());
    if (!op || op->axis.size() != 4 || !op->reduceAxis.empty()) return false;
    const int64_t ocb = extentOr(conv->axis[4], 0);
    const int64_t oc = extentOr(op->axis[1], 0);
    if (ocb <= 0 || extentOr(op->axis[0], 0) != extentOr(conv->axis[0], 0) || oc % ocb != 0 || oc / ocb != extentOr(conv->axis[1], 0) ||
        extentOr(op->axis[2], 0) != extentOr(conv->axis[2], 0) || extentOr(op->axis[3], 0) != extentOr(conv->axis[3], 0))
        return false;
    auto [cb, ci] = o.split(op->axis[1], intImm(ocb));
    o.reorder({op->axis[0], cb, op->axis[2], op->axis[3], ci});
    o.vectorize(ci);
    IterVar task = o.fuse(o.fuse(op->axis[0], cb), op->axis[2]);
    if (extentOr(op->axis[0], 0) * oc / ocb * extentOr(op->axis[2], 0) * extentOr(op->axis[3], 0) * ocb >=
        options.minParallelElements)
        o.parallel(task);
    return true;
}

} // namespace

namespace nn {

bool convIntegerNCHWcApplies(const Tensor& data, const Tensor& weight, const ConvParams& params) {
    return data.ndim() == 4 && weight.ndim() == 4 && isByte(data->dtype) && isByte(weight->dtype) &&
           params.groups == 1 && staticShape(weight)[1] == staticShape(data)[1];
}

Tensor convIntegerNCHWc(const Tensor& x, const Tensor& w, const Tensor& dataZero, const std::vector<int64_t>& weightZero,
                        const ConvParams& params, const std::string& name, ConstantPacker* packer,
                        te::ConfigSpace* cfg) {
    if (!convIntegerNCHWcApplies(x, w, params))
        throw CompileError("the blocked integer convolution needs 4-d 8-bit data and weights and one group");
    const auto xs = staticShape(x), ws = staticShape(w);
    const Window win = slidingWindow(xs, {ws[2], ws[3]}, params.strides, params.padding, params.dilation, false);
    const int64_t n = xs[0], c = xs[1], oc = ws[0], kh = ws[2], kw = ws[3];
    if (!weightZero.empty() && weightZero.size() != 1 && int64_t(weightZero.size()) != oc)
        throw CompileError("the weight zero point needs one value or one per output channel");
    const int64_t oh = win.out[0], ow = win.out[1];
    const int64_t sh = win.strides[0], sw = win.strides[1], dh = win.dilations[0], dw = win.dilations[1];
    const int64_t pt = win.padBegin[0], pl = win.padBegin[1];
    const int64_t hpad = xs[2] + pt + win.padEnd[0], wpad = xs[3] + pl + win.padEnd[1];
    // A strided 1x1 convolution without padding packs only the pixels it
    // reads (the float kernel's rule, conv2dNCHWc): a copy sh*sw times smaller.
    const bool subsample = kh == 1 && kw == 1 && hpad == xs[2] && wpad == xs[3] && (sh > 1 || sw > 1);
    const int64_t dataH = subsample ? win.out[0] : hpad, dataW = subsample ? win.out[1] : wpad;
    const int64_t readSh = subsample ? 1 : sh, readSw = subsample ? 1 : sw;

    // Channel pairs, blocked like the float kernel's channels; output
    // channels in blocks of 16 (or 8), the last one padded with zero weights.
    const int64_t c2 = (c + 1) / 2;
    int64_t icb = largestDivisorAtMost(c2, 16), ocb = oc % 16 == 0 ? 16 : 8;
    if (cfg) {
        icb = defineSplitKnob(*cfg, "tile_ic", c2, 2, innerSplit(c2, icb),
                              [](const std::vector<int64_t>& f) { return f[1] <= 32; })[1];
        ocb = defineChoiceKnob(*cfg, "tile_oc", {te::KnobValue(int64_t(8)), te::KnobValue(int64_t(16))},
                               te::KnobValue(ocb))
                  .asInt();
    }
    const int64_t ocBlocks = (oc + ocb - 1) / ocb;

    // The input less its zero point, zero in the padding (and in the channel
    // that pairs with an odd count's last one), as int32 pairs.
    const Expr xZero = dataZero.defined() ? scalarOf(dataZero) : intImm(0);
    Tensor data = te::compute(
        toExprs({n, c2 / icb, dataH, dataW, icb}),
        [&](const std::vector<Var>& i) {
            Expr pair = i[1] * intImm(icb) + i[4];
            Expr hh = subsample ? i[2] * intImm(sh) : i[2] - intImm(pt);
            Expr ww = subsample ? i[3] * intImm(sw) : i[3] - intImm(pl);
            auto half = [&](Expr ch) {
                // Padded taps read the zero point itself (ONNX's padding), less itself: 0.
                Expr v = paddedRead(x, {i[0], ch, hh, ww}, cast(x->dtype, xZero));
                return cast(DataType::int32(), v) - xZero;
            };
            return packPair(half(pair * intImm(2)), half(pair * intImm(2) + intImm(1)));
        },
        name + "_data", tag::kPad, {"n", "cb", "h", "w", "ci"});

    // w[OC, C, KH, KW] less its zero point -> [OC/ocb, C2/icb, KH, KW, icb, ocb] pairs.
    const std::vector<int64_t> kshape{ocBlocks, c2 / icb, kh, kw, icb, ocb};
    auto zeroOf = [&](int64_t o) { return weightZero.empty() ? 0 : weightZero[weightZero.size() == 1 ? 0 : o]; };
    Tensor kernel;
    if (packer)
        kernel = packer->derive(w, name + "_wpack", DataType::int32(), kshape, [&](const void* from, void* to) {
            const bool s8 = w->dtype == DataType::int8();
            auto at = [&](int64_t o, int64_t ch, int64_t i, int64_t j) -> int32_t {
                if (o >= oc || ch >= c) return 0;
                const int64_t k = ((o * c + ch) * kh + i) * kw + j;
                const int32_t v = s8 ? static_cast<const int8_t*>(from)[k] : static_cast<const uint8_t*>(from)[k];
                return v - int32_t(zeroOf(o));
            };
            int32_t* dst = static_cast<int32_t*>(to);
            for (int64_t o = 0; o < ocBlocks * ocb; ++o)
                for (int64_t p = 0; p < c2; ++p)
                    for (int64_t i = 0; i < kh; ++i)
                        for (int64_t j = 0; j < kw; ++j)
                            dst[((((o / ocb * (c2 / icb) + p / icb) * kh + i) * kw + j) * icb + p % icb) * ocb +
                                o % ocb] = packPair(at(o, 2 * p, i, j), at(o, 2 * p + 1, i, j));
        });
    if (!kernel.defined()) {
        // No compile-time constants (a TE script, the operator tests): pack
        // with a stage; a per-channel zero point is a select over the channel.
        auto zero = [&](Expr o) {
            Expr z = intImm(int32_t(zeroOf(0)));
            if (weightZero.size() > 1)
                for (int64_t k = 1; k < oc; ++k)
                    z = select(o == intImm(k), intImm(int32_t(zeroOf(k))), z);
            return z;
        };
        kernel = te::compute(
            toExprs(kshape),
            [&](const std::vector<Var>& i) {
                Expr o = i[0] * intImm(ocb) + i[5], pair = i[1] * intImm(icb) + i[4];
                auto half = [&](Expr ch) {
                    Expr v = cast(DataType::int32(), paddedRead(w, {o, ch, i[2], i[3]}, makeZero(w->dtype))) - zero(o);
                    return select(o < intImm(oc) && ch < intImm(c), v, intImm(0));
                };
                return packPair(half(pair * intImm(2)), half(pair * intImm(2) + intImm(1)));
            },
            name + "_wpack", tag::kOpaque);
    }

    const auto r = blockedReduceAxes(c2 / icb, kh, kw, icb);
    const auto &rcb = r[0], &rh = r[1], &rw = r[2], &rci = r[3];
    Tensor conv = te::compute(
        toExprs({n, ocBlocks, oh, ow, ocb}),
        [&](const std::vector<Var>& i) {
            Expr hh = i[2] * intImm(readSh) + rh->var * intImm(dh);
            Expr ww = i[3] * intImm(readSw) + rw->var * intImm(dw);
            return te::sum(call(Intrinsic::PairDotI16, {data({i[0], rcb->var, hh, ww, rci->var}),
                                                        kernel({i[1], rcb->var, rh->var, rw->var, rci->var, i[4]})}),
                           r);
        },
        name + "_conv", tag::kConvIntegerNCHWc, {"n", "ocb", "oh", "ow", "oc"});
    // The stage the schedule computes in register blocks (the reduction
    // inlined into it through a local accumulator), then back to NCHW.
    Tensor blocked = te::compute(
        toExprs({n, ocBlocks, oh, ow, ocb}), [&](const std::vector<Var>& i) { return conv({i[0], i[1], i[2], i[3], i[4]}); },
        name + "_blocked", tag::kInjective, {"n", "ocb", "oh", "ow", "oc"});
    return te::compute(
        toExprs({n, oc, oh, ow}),
        [&](const std::vector<Var>& i) {
            return blocked({i[0], floordiv(i[1], intImm(ocb)), i[2], i[3], floormod(i[1], intImm(ocb))});
        },
        name, tag::kInjective, {"n", "c", "h", "w"});
}

} // namespace nn

te::Schedule scheduleConvIntegerNCHWc(const std::vector<te::Tensor>& outputs, const ScheduleOptions& options,
                                      te::ConfigSpace& cfg) {
    std::vector<te::Operation> ops;
    for (auto& t : outputs) ops.push_back(t->op);
    te::Schedule s = te::createSchedule(ops);
    te::Tensor conv, blocked;
    for (te::Stage stage : s.stages())
        if (stage.op()->tag == tag::kConvIntegerNCHWc) conv = stage.op().output(0);
    TESSEL_CHECK(conv.defined(), "no integer convolution to schedule");
    for (te::Stage stage : s.stages())
        if (auto* op = dynamic_cast<const te::ComputeOpNode*>(stage.op().get()))
            for (const auto& t : op->inputTensors())
                if (t->op.sameAs(conv->op)) blocked = stage.op().output(0);
    TESSEL_CHECK(blocked.defined() && blocked.ndim() == 5, "the integer convolution has no blocked stage");
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    for (te::Stage stage : s.stages()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(stage.op().get());
        if (!op || stage.op().sameAs(blocked->op) || !tag::isInjectiveTag(op->tag)) continue;
        if (!stage.data().isOutput) stage.computeInline();
        else if (!scheduleAcrossChannelBlock(stage, convOp, options)) scheduleInjective(stage, options);
    }
    // Register blocks are sized in vectors of the block's int32 lanes: 16
    // lanes are two registers under AVX2.
    ScheduleOptions blockOptions = options;
    const int64_t lanes = extentOr(dynamic_cast<const te::ComputeOpNode*>(conv->op.get())->axis[4], 16);
    blockOptions.vectorRegisters =
        std::max<int>(4, int(int64_t(options.vectorRegisters) * options.vectorLanes / std::max<int64_t>(lanes, 1)));
    blockOptions.unrollChannels = false;
    scheduleConv2dNCHWc(s, conv, blocked, blockOptions, cfg);
    return s;
}

} // namespace tessel::topi
