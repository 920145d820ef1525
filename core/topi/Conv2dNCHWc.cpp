#include "topi/Conv2dNCHWc.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/Knobs.h"
#include "topi/NnUtil.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {

/// A 1x1 convolution reads its input straight from NCHW up to this plane size
/// (28 x 28); on larger planes the reads of consecutive channels are too far
/// apart for the prefetchers and the block copy pays for itself, unless the
/// convolution is strided (the copy would move four times what it reads) or
/// has fewer than 64 output channels (too little arithmetic per copied element:
/// MobileNetV2's projections, measured 1.2-2.5x faster without the copy).
constexpr int64_t kMaxViewPlane = 28 * 28;

} // namespace

namespace nn {

std::optional<Conv2dNCHWcLayout> conv2dNCHWcLayout(const Tensor& data, const Tensor& weight,
                                                   const ConvParams& params, te::ConfigSpace* cfg) {
    if (data.ndim() != 4 || weight.ndim() != 4 || data->dtype != DataType::float32() ||
        weight->dtype != DataType::float32() || params.groups < 1)
        return std::nullopt;
    // Per group: its input channels (the weights' second axis) and output
    // channels; the blocks split those, so no block straddles two groups.
    const int64_t g = params.groups, cAll = staticShape(data)[1], ocAll = staticShape(weight)[0];
    if (cAll % g != 0 || ocAll % g != 0 || staticShape(weight)[1] * g != cAll) return std::nullopt;
    const int64_t c = cAll / g, oc = ocAll / g;
    Conv2dNCHWcLayout l;
    l.ocBn = oc % 16 == 0 ? 16 : oc % 8 == 0 ? 8 : 0;
    if (l.ocBn == 0) return std::nullopt;
    l.icBn = c % 16 == 0 ? 16 : largestDivisorAtMost(c, 16);
    if (cfg) {
        l.icBn = defineSplitKnob(*cfg, "tile_ic", c, 2, innerSplit(c, l.icBn),
                                 [](const std::vector<int64_t>& f) { return f[1] <= 64; })[1];
        l.ocBn = defineSplitKnob(*cfg, "tile_oc", oc, 2, innerSplit(oc, l.ocBn),
                                 [](const std::vector<int64_t>& f) { return f[1] % 8 == 0 && f[1] <= 64; })[1];
    }
    return l;
}

Tensor conv2dNCHWc(const Tensor& x, const Tensor& w, const ConvParams& params, const Tensor& bias,
                   const std::string& name, ConstantPacker* packer, te::ConfigSpace* cfg) {
    auto layout = conv2dNCHWcLayout(x, w, params, cfg);
    if (!layout) throw CompileError("the blocked convolution needs float32 NCHW data, weights that fit its groups "
                                    "and a multiple of 8 output channels per group");
    const auto xs = staticShape(x), ws = staticShape(w);
    const Window win = slidingWindow(xs, {ws[2], ws[3]}, params.strides, params.padding, params.dilation, false);
    const int64_t n = xs[0], c = xs[1], h = xs[2], wd = xs[3], oc = ws[0], kh = ws[2], kw = ws[3];
    // cg input and og output channels per group (all of them with one group).
    const int64_t groups = params.groups, cg = c / groups, og = oc / groups;
    const int64_t oh = win.out[0], ow = win.out[1];
    const int64_t sh = win.strides[0], sw = win.strides[1], dh = win.dilations[0], dw = win.dilations[1];
    const int64_t pt = win.padBegin[0], pl = win.padBegin[1];
    const int64_t icBn = layout->icBn, ocBn = layout->ocBn;
    const int64_t hpad = h + pt + win.padEnd[0], wpad = wd + pl + win.padEnd[1];

    // The padded input in NCHW[c]c blocks: materialised once, read KH*KW times.
    // A 1x1 convolution without padding reads each input element once per
    // output-channel block, straight from NCHW: the copy would cost more than
    // it saves, so its "blocks" are a view inlined into the convolution.
    const bool view = kh == 1 && kw == 1 && hpad == h && wpad == wd &&
                      (h * wd <= kMaxViewPlane || sh > 1 || sw > 1 || oc < 64);
    Tensor data = te::compute(
        toExprs({n, c / icBn, hpad, wpad, icBn}),
        [&](const std::vector<Var>& i) {
            if (view) return x({i[0], i[1] * intImm(icBn) + i[4], i[2], i[3]});
            return paddedRead(x, {i[0], i[1] * intImm(icBn) + i[4], i[2] - intImm(pt), i[3] - intImm(pl)},
                              makeZero(DataType::float32()));
        },
        name + "_data", view ? tag::kInjective : tag::kPad, {"n", "cb", "h", "w", "ci"});

    // w[OC, Cg, KH, KW] -> [OC/ocBn, Cg/icBn, KH, KW, icBn, ocBn]: an output
    // block reduces over the input blocks of its group only.
    const std::vector<int64_t> kshape{oc / ocBn, cg / icBn, kh, kw, icBn, ocBn};
    Tensor kernel;
    if (packer)
        kernel = packer->derive(w, name + "_wpack", DataType::float32(), kshape, [&](const void* from, void* to) {
            const float* src = static_cast<const float*>(from);
            float* dst = static_cast<float*>(to);
            for (int64_t o = 0; o < oc; ++o)
                for (int64_t ci = 0; ci < cg; ++ci)
                    for (int64_t i = 0; i < kh; ++i)
                        for (int64_t j = 0; j < kw; ++j) {
                            int64_t d = ((((o / ocBn * (cg / icBn) + ci / icBn) * kh + i) * kw + j) * icBn +
                                         ci % icBn) * ocBn + o % ocBn;
                            dst[d] = src[((o * cg + ci) * kh + i) * kw + j];
                        }
        });
    if (!kernel.defined()) {
        // No compile-time constants here (a TE script, the operator tests): pack with a stage.
        kernel = te::compute(
            toExprs(kshape),
            [&](const std::vector<Var>& i) {
                return w({i[0] * intImm(ocBn) + i[5], i[1] * intImm(icBn) + i[4], i[2], i[3]});
            },
            name + "_wpack", tag::kOpaque);
    }

    auto rcb = te::reduceAxis(Range(intImm(0), intImm(cg / icBn)), "rcb");
    auto rh = te::reduceAxis(Range(intImm(0), intImm(kh)), "rh");
    auto rw = te::reduceAxis(Range(intImm(0), intImm(kw)), "rw");
    auto rci = te::reduceAxis(Range(intImm(0), intImm(icBn)), "rci");
    Tensor conv = te::compute(
        toExprs({n, oc / ocBn, oh, ow, ocBn}),
        [&](const std::vector<Var>& i) {
            Expr hh = i[2] * intImm(sh) + rh->var * intImm(dh);
            Expr ww = i[3] * intImm(sw) + rw->var * intImm(dw);
            // The first input block of this output block's group.
            Expr cb = groups == 1 ? Expr(rcb->var) : floordiv(i[1], intImm(og / ocBn)) * intImm(cg / icBn) + rcb->var;
            return te::sum(data({i[0], cb, hh, ww, rci->var}) *
                               kernel({i[1], rcb->var, rh->var, rw->var, rci->var, i[4]}),
                           {rcb, rh, rw, rci});
        },
        name + "_conv", tag::kConv2dNCHWc, {"n", "ocb", "oh", "ow", "oc"});

    // Back to NCHW, with the bias: the stage the fused element-wise operators join.
    return te::compute(
        toExprs({n, oc, oh, ow}),
        [&](const std::vector<Var>& i) {
            Expr v = conv({i[0], floordiv(i[1], intImm(ocBn)), i[2], i[3], floormod(i[1], intImm(ocBn))});
            if (bias.defined()) v = v + bias({i[1]});
            return v;
        },
        name, tag::kInjective, {"n", "c", "h", "w"});
}

} // namespace nn

namespace {

int64_t extentOf(const IterVar& iv) { return extentOr(iv, 1); }

} // namespace

void scheduleConv2dNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                         const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(outOp && convOp && outOp->axis.size() == 4, "blocked conv schedule on unexpected stages");
    const int64_t ocBn = extentOf(convOp->axis[4]);
    const int64_t ow = extentOf(convOp->axis[3]);
    const int64_t regN = defineSplitKnob(cfg, "tile_ow", ow, 2, innerSplit(ow, largestDivisorAtMost(ow, 14)),
                                         [](const std::vector<int64_t>& f) { return f[1] <= 32; })[1];
    const bool unrollKw = defineChoiceKnob(cfg, "unroll_kw", {te::KnobValue(false), te::KnobValue(true)},
                                           te::KnobValue(false))
                              .asBool();

    // The output: one task per (image, channel block) when there are enough of
    // them, so that a task writes whole 16-channel planes; per output row
    // otherwise. (Rows of a small plane are shorter than a cache line: tasks
    // per row on different threads would write the same lines.)
    te::Stage o = s[out];
    auto [cb, ci] = o.split(outOp->axis[1], intImm(ocBn));
    o.reorder({outOp->axis[0], cb, outOp->axis[2], ci, outOp->axis[3]});
    const int64_t planes = extentOf(outOp->axis[0]) * (extentOf(outOp->axis[1]) / ocBn);
    IterVar task = o.fuse(outOp->axis[0], cb);
    IterVar row = outOp->axis[2];
    if (planes >= options.minParallelPlanes) {
        o.parallel(task);
    } else {
        row = o.fuse(task, row);
        o.parallel(row);
    }

    // The convolution of that row, into a small buffer, through a register block.
    te::Tensor acc = s.cacheWrite(conv, "local");
    te::Stage c = s[conv];
    c.computeAt(o, row);
    auto* copyOp = dynamic_cast<const te::ComputeOpNode*>(c.op().get());
    auto [owo, owi] = c.split(copyOp->axis[3], intImm(regN));
    c.vectorize(copyOp->axis[4]);
    (void)owi;

    te::Stage a = s[acc];
    a.computeAt(c, owo);
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(a.op().get());
    std::vector<IterVar> order(accOp->reduceAxis.begin(), accOp->reduceAxis.end());
    order.push_back(accOp->axis[3]);
    order.push_back(accOp->axis[4]);
    a.reorder(order);
    a.unroll(accOp->axis[3]);
    a.vectorize(accOp->axis[4]);
    if (unrollKw) a.unroll(accOp->reduceAxis[2]);

    // The packed input: every block row in parallel.
    for (auto& t : convOp->inputTensors()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
        if (!op) continue;
        te::Stage st = s[t];
        if (op->tag == tag::kPad) {
            IterVar f = st.fuse(st.fuse(op->axis[0], op->axis[1]), op->axis[2]);
            st.parallel(f);
        }
    }
}

} // namespace tessel::topi
