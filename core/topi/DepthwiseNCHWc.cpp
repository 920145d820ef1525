#include "topi/DepthwiseNCHWc.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "ir/Layout.h"
#include "topi/Knobs.h"
#include "topi/NnUtil.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {

int64_t extentOf(const IterVar& iv) { return extentOr(iv, 1); }

int64_t blockOf(const std::string& layout) { return layout.empty() ? 0 : Layout::of(layout).blockOf('C'); }

} // namespace

namespace nn {

bool depthwiseNCHWcApplies(const Tensor& x, const Tensor& w, const ConvParams& params, const ConvLayouts& layouts) {
    const int64_t xb = blockOf(layouts.data), ob = blockOf(layouts.out);
    if (ob == 0 || x.ndim() != (xb ? 5 : 4) || w.ndim() != 4 || x->dtype != DataType::float32() ||
        w->dtype != DataType::float32())
        return false;
    const auto xs = staticShape(x), ws = staticShape(w);
    const int64_t c = xs[1] * (xb ? xb : 1);
    return params.groups == c && ws[0] == c && ws[1] == 1 && c % ob == 0 && params.strides.size() == 2 &&
           params.padding.size() == 4 && params.dilation.size() == 2;
}

Tensor depthwiseConv2dNCHWc(const Tensor& x, const Tensor& w, const ConvParams& params, const Tensor& bias,
                            const ConvLayouts& layouts, const std::string& name, ConstantPacker* packer) {
    if (!depthwiseNCHWcApplies(x, w, params, layouts))
        throw CompileError("the blocked depthwise convolution needs float32 data, one channel per group and an "
                           "output stored in channel blocks that divide the channels");
    const int64_t xb = blockOf(layouts.data), b = blockOf(layouts.out);
    auto xs = staticShape(x);
    if (xb) {
        xs[1] *= xb;
        xs.pop_back();
    }
    const auto ws = staticShape(w);
    const Window win = slidingWindow(xs, {ws[2], ws[3]}, params.strides, params.padding, params.dilation, false);
    const int64_t n = xs[0], c = xs[1], h = xs[2], wd = xs[3], kh = ws[2], kw = ws[3];
    const int64_t oh = win.out[0], ow = win.out[1];
    const int64_t sh = win.strides[0], sw = win.strides[1], dh = win.dilations[0], dw = win.dilations[1];
    const int64_t pt = win.padBegin[0], pl = win.padBegin[1];
    const int64_t hpad = h + pt + win.padEnd[0], wpad = wd + pl + win.padEnd[1];

    // The padded input in the output's blocks: copied once, read KH * KW times.
    const bool view = hpad == h && wpad == wd && xb == b;
    Tensor data = te::compute(
        toExprs({n, c / b, hpad, wpad, b}),
        [&](const std::vector<Var>& i) {
            if (view) return x({i[0], i[1], i[2], i[3], i[4]});
            const Expr hh = i[2] - intImm(pt), ww = i[3] - intImm(pl);
            if (xb == b) return paddedRead(x, {i[0], i[1], hh, ww, i[4]}, makeZero(DataType::float32()));
            const Expr ch = i[1] * intImm(b) + i[4];
            std::vector<Expr> idx = xb == 0 ? std::vector<Expr>{i[0], ch, hh, ww}
                                            : std::vector<Expr>{i[0], floordiv(ch, intImm(xb)), hh, ww,
                                                                floormod(ch, intImm(xb))};
            return paddedRead(x, idx, makeZero(DataType::float32()));
        },
        name + "_data", view ? tag::kInjective : tag::kPad, {"n", "cb", "h", "w", "cc"});

    // w[C, 1, KH, KW] -> [C/b, KH, KW, b]: the taps of one channel block, a vector each.
    const std::vector<int64_t> kshape{c / b, kh, kw, b};
    Tensor kernel;
    if (packer)
        kernel = packer->derive(w, name + "_wpack", DataType::float32(), kshape, [&](const void* from, void* to) {
            const float* src = static_cast<const float*>(from);
            float* dst = static_cast<float*>(to);
            for (int64_t ch = 0; ch < c; ++ch)
                for (int64_t i = 0; i < kh; ++i)
                    for (int64_t j = 0; j < kw; ++j)
                        dst[((ch / b * kh + i) * kw + j) * b + ch % b] = src[(ch * kh + i) * kw + j];
        });
    if (!kernel.defined())
        kernel = te::compute(
            toExprs(kshape),
            [&](const std::vector<Var>& i) { return w({i[0] * intImm(b) + i[3], intImm(0), i[1], i[2]}); },
            name + "_wpack", tag::kOpaque);

    auto rh = te::reduceAxis(Range(intImm(0), intImm(kh)), "rh");
    auto rw = te::reduceAxis(Range(intImm(0), intImm(kw)), "rw");
    Tensor conv = te::compute(
        toExprs({n, c / b, oh, ow, b}),
        [&](const std::vector<Var>& i) {
            Expr hh = i[2] * intImm(sh) + rh->var * intImm(dh);
            Expr ww = i[3] * intImm(sw) + rw->var * intImm(dw);
            return te::sum(data({i[0], i[1], hh, ww, i[4]}) * kernel({i[1], rh->var, rw->var, i[4]}), {rh, rw});
        },
        name + "_conv", tag::kDepthwiseNCHWc, {"n", "cb", "oh", "ow", "cc"});

    return te::compute(
        toExprs({n, c / b, oh, ow, b}),
        [&](const std::vector<Var>& i) {
            Expr v = conv({i[0], i[1], i[2], i[3], i[4]});
            if (bias.defined()) v = v + bias({i[1] * intImm(b) + i[4]});
            return v;
        },
        name, tag::kInjective, {"n", "cb", "oh", "ow", "cc"});
}

} // namespace nn

void scheduleDepthwiseNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                            const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(outOp && convOp && outOp->axis.size() == 5 && convOp->reduceAxis.size() == 2,
                 "blocked depthwise schedule on unexpected stages");
    const auto& ax = outOp->axis; // n, cb, oh, ow, cc
    const int64_t oh = extentOf(ax[2]), ow = extentOf(ax[3]), kw = extentOf(convOp->reduceAxis[1]);
    // Accumulators plus the weights of one tap row and a couple of input vectors.
    const int64_t budget = std::max<int64_t>(1, options.vectorRegisters - kw - 2);
    std::vector<te::KnobValue> choices;
    te::KnobValue fallback;
    int64_t bestCols = 0, bestRows = 0;
    for (int64_t rows = 1; rows <= std::min<int64_t>(oh, 4); ++rows) {
        if (oh % rows) continue;
        for (int64_t cols = 1; cols <= std::min<int64_t>(ow, 32); ++cols) {
            if (ow % cols || rows * cols > budget) continue;
            choices.emplace_back(std::vector<int64_t>{rows, cols});
            // The default: a row of up to 16 columns; on narrow planes, rows
            // until 8 accumulators hide the multiply-add latency.
            const bool better = (rows == 1 && cols <= 16 && cols > bestCols && bestRows <= 1) ||
                                (bestCols < 8 && cols == bestCols && rows * cols <= 16 && rows > bestRows);
            if (better) {
                bestCols = cols;
                bestRows = rows;
                fallback = choices.back();
            }
        }
    }
    TESSEL_CHECK(!choices.empty(), "no register block fits");
    const auto block = defineChoiceKnob(cfg, "reg_block", choices, fallback).ints();

    te::Stage o = s[out];
    auto [oho, ohi] = o.split(ax[2], intImm(block[0]));
    auto [owo, owi] = o.split(ax[3], intImm(block[1]));
    o.reorder({ax[0], ax[1], oho, owo, ohi, owi, ax[4]});
    IterVar task = o.fuse(o.fuse(ax[0], ax[1]), oho);
    o.parallel(task);
    o.unroll(ohi);
    o.unroll(owi);
    o.vectorize(ax[4]);

    te::Tensor acc = s.cacheWrite(conv, "local");
    s[conv].computeInline();
    te::Stage a = s[acc];
    a.computeAt(o, owo);
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(a.op().get());
    a.reorder({accOp->reduceAxis[0], accOp->reduceAxis[1], accOp->axis[2], accOp->axis[3], accOp->axis[4]});
    // The kernel rows stay a loop: unrolled by LLVM, they interleave with the
    // epilogue (a SiLU fused after the convolution) and spill the block.
    a.pragma(accOp->reduceAxis[0], "llvm_unroll", intImm(1));
    a.unroll(accOp->reduceAxis[1]);
    a.unroll(accOp->axis[2]);
    a.unroll(accOp->axis[3]);
    a.vectorize(accOp->axis[4]);

    // The padded rows a task reads, copied inside the task: a depthwise
    // convolution does so little per input element that a separate pass over
    // the whole padded input through memory would cost as much as the
    // arithmetic; these few rows stay in the cache (rows shared by two tasks
    // are copied twice).
    for (auto& t : convOp->inputTensors()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
        if (!op || op->tag != tag::kPad) continue;
        te::Stage st = s[t];
        st.computeAt(o, task);
        st.vectorize(op->axis[4]);
    }
}

} // namespace tessel::topi
