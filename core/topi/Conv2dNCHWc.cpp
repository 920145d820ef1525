#include "topi/Conv2dNCHWc.h"

#include "ir/Check.h"
#include "topi/TopiUtil.h"

#include <cstring>

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

struct ConvShape {
    int64_t n, c, h, w, oc, kh, kw, oh, ow;
    int64_t sh, sw, dh, dw, pt, pl;
    int64_t icBn, ocBn;
    bool depthwise = false;
};

/// The shape of a Conv node the blocked path handles, or nullopt (then the
/// general compute runs): 2-d, float32, a constant weight, explicit or no
/// padding, groups 1 or depthwise, output channels a multiple of 16 (8).
std::optional<ConvShape> blockedShape(const OpContext& ctx) {
    const auto& x = ctx.inputType(0);
    if (x.rank() != 4 || x.dtype != DataType::float32() || !ctx.constant(1)) return std::nullopt;
    const auto& wt = ctx.inputType(1);
    const auto& y = ctx.outputType();
    std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID") return std::nullopt;
    ConvShape s{};
    s.n = x.shape[0], s.c = x.shape[1], s.h = x.shape[2], s.w = x.shape[3];
    s.oc = wt.shape[0], s.kh = wt.shape[2], s.kw = wt.shape[3];
    s.oh = y.shape[2], s.ow = y.shape[3];
    auto strides = ctx.attrs().getInts("strides", {1, 1});
    auto dil = ctx.attrs().getInts("dilations", {1, 1});
    auto pads = autoPad == "VALID" ? std::vector<int64_t>{0, 0, 0, 0} : ctx.attrs().getInts("pads", {0, 0, 0, 0});
    if (strides.size() != 2 || dil.size() != 2 || pads.size() != 4) return std::nullopt;
    s.sh = strides[0], s.sw = strides[1], s.dh = dil[0], s.dw = dil[1], s.pt = pads[0], s.pl = pads[1];
    int64_t group = ctx.attrs().getInt("group", 1);
    // Depthwise convolutions stay NCHW (scheduleDepthwiseNCHW): with one input
    // channel per output channel there is no reduction over channels to block,
    // and the copies into and out of blocks would cost more than the arithmetic.
    if (group != 1) return std::nullopt;
    s.ocBn = s.oc % 16 == 0 ? 16 : s.oc % 8 == 0 ? 8 : 0;
    if (s.ocBn == 0) return std::nullopt;
    s.icBn = s.depthwise ? s.ocBn : (s.c % 16 == 0 ? 16 : largestDivisorAtMost(s.c, 16));
    return s;
}

/// w[OC, C, KH, KW] -> [OC/ocBn, C/icBn, KH, KW, icBn, ocBn] (depthwise:
/// w[C, 1, KH, KW] -> [C/ocBn, KH, KW, ocBn]).
Ref<graph::Constant> packWeights(const graph::Constant& w, const ConvShape& s) {
    std::vector<float> src(static_cast<size_t>(w.numElements()));
    std::memcpy(src.data(), w.bytes.data(), w.bytes.size());
    std::vector<uint8_t> bytes(w.bytes.size());
    float* dst = reinterpret_cast<float*>(bytes.data());
    std::vector<int64_t> shape;
    if (s.depthwise) {
        shape = {s.oc / s.ocBn, s.kh, s.kw, s.ocBn};
        for (int64_t c = 0; c < s.oc; ++c)
            for (int64_t i = 0; i < s.kh; ++i)
                for (int64_t j = 0; j < s.kw; ++j)
                    dst[((c / s.ocBn * s.kh + i) * s.kw + j) * s.ocBn + c % s.ocBn] =
                        src[static_cast<size_t>((c * s.kh + i) * s.kw + j)];
    } else {
        shape = {s.oc / s.ocBn, s.c / s.icBn, s.kh, s.kw, s.icBn, s.ocBn};
        for (int64_t o = 0; o < s.oc; ++o)
            for (int64_t c = 0; c < s.c; ++c)
                for (int64_t i = 0; i < s.kh; ++i)
                    for (int64_t j = 0; j < s.kw; ++j) {
                        int64_t d = ((((o / s.ocBn * (s.c / s.icBn) + c / s.icBn) * s.kh + i) * s.kw + j) * s.icBn +
                                     c % s.icBn) * s.ocBn + o % s.ocBn;
                        dst[d] = src[static_cast<size_t>(((o * s.c + c) * s.kh + i) * s.kw + j)];
                    }
    }
    return graph::Constant::make(DataType::float32(), std::move(shape), std::move(bytes));
}

std::vector<Tensor> conv2dNCHWc(const OpContext& ctx) {
    auto shape = blockedShape(ctx);
    if (!shape) return {};
    const ConvShape s = *shape;
    Tensor x = ctx.input(0), w = ctx.input(1);
    const std::string name = ctx.name();
    const int64_t hp = s.h + s.pt + ctx.attrs().getInts("pads", {0, 0, 0, 0}).at(2);
    const int64_t wpd = s.w + s.pl + ctx.attrs().getInts("pads", {0, 0, 0, 0}).at(3);
    const int64_t hpad = ctx.attrs().getString("auto_pad", "NOTSET") == "VALID" ? s.h : hp;
    const int64_t wpad = ctx.attrs().getString("auto_pad", "NOTSET") == "VALID" ? s.w : wpd;
    const int64_t cBn = s.depthwise ? s.ocBn : s.icBn;

    // The padded input in NCHW[c]c blocks: materialised once, read KH*KW times.
    // A 1x1 convolution without padding reads each input element once per
    // output-channel block, straight from NCHW: the copy would cost more than
    // it saves, so its "blocks" are a view inlined into the convolution.
    const bool view = s.kh == 1 && s.kw == 1 && hpad == s.h && wpad == s.w && (s.h * s.w <= kMaxViewPlane || s.sh > 1 || s.sw > 1 || s.oc < 64);
    Tensor data = te::compute(
        toExprs({s.n, s.c / cBn, hpad, wpad, cBn}),
        [&](const std::vector<Var>& i) {
            if (view) return x({i[0], i[1] * intImm(cBn) + i[4], i[2], i[3]});
            return paddedRead(x, {i[0], i[1] * intImm(cBn) + i[4], i[2] - intImm(s.pt), i[3] - intImm(s.pl)},
                              makeZero(DataType::float32()));
        },
        name + "_data", view ? tag::kInjective : tag::kPad, {"n", "cb", "h", "w", "ci"});

    auto pack = [&] { return packWeights(*ctx.constant(1), s); };
    Tensor kernel = ctx.derivedConstant(name + "_wpack", pack);
    std::vector<int64_t> kshape = s.depthwise ? std::vector<int64_t>{s.oc / s.ocBn, s.kh, s.kw, s.ocBn}
                                              : std::vector<int64_t>{s.oc / s.ocBn, s.c / s.icBn, s.kh, s.kw, s.icBn, s.ocBn};
    if (!kernel.defined()) {
        // No compile-time constants here (the operator tests): pack with a stage.
        kernel = te::compute(
            toExprs(kshape),
            [&](const std::vector<Var>& i) {
                if (s.depthwise) return w({i[0] * intImm(s.ocBn) + i[3], intImm(0), i[1], i[2]});
                return w({i[0] * intImm(s.ocBn) + i[5], i[1] * intImm(s.icBn) + i[4], i[2], i[3]});
            },
            name + "_wpack", tag::kOpaque);
    }

    Tensor conv;
    if (s.depthwise) {
        auto rh = te::reduceAxis(Range(intImm(0), intImm(s.kh)), "rh");
        auto rw = te::reduceAxis(Range(intImm(0), intImm(s.kw)), "rw");
        conv = te::compute(
            toExprs({s.n, s.oc / s.ocBn, s.oh, s.ow, s.ocBn}),
            [&](const std::vector<Var>& i) {
                Expr h = i[2] * intImm(s.sh) + rh->var * intImm(s.dh);
                Expr ww = i[3] * intImm(s.sw) + rw->var * intImm(s.dw);
                return te::sum(data({i[0], i[1], h, ww, i[4]}) * kernel({i[1], rh->var, rw->var, i[4]}), {rh, rw});
            },
            name + "_conv", tag::kConv2dNCHWc, {"n", "ocb", "oh", "ow", "oc"});
    } else {
        auto rcb = te::reduceAxis(Range(intImm(0), intImm(s.c / s.icBn)), "rcb");
        auto rh = te::reduceAxis(Range(intImm(0), intImm(s.kh)), "rh");
        auto rw = te::reduceAxis(Range(intImm(0), intImm(s.kw)), "rw");
        auto rci = te::reduceAxis(Range(intImm(0), intImm(s.icBn)), "rci");
        conv = te::compute(
            toExprs({s.n, s.oc / s.ocBn, s.oh, s.ow, s.ocBn}),
            [&](const std::vector<Var>& i) {
                Expr h = i[2] * intImm(s.sh) + rh->var * intImm(s.dh);
                Expr ww = i[3] * intImm(s.sw) + rw->var * intImm(s.dw);
                return te::sum(data({i[0], rcb->var, h, ww, rci->var}) *
                                   kernel({i[1], rcb->var, rh->var, rw->var, rci->var, i[4]}),
                               {rcb, rh, rw, rci});
            },
            name + "_conv", tag::kConv2dNCHWc, {"n", "ocb", "oh", "ow", "oc"});
    }

    // Back to NCHW, with the bias: the stage the fused element-wise operators join.
    std::optional<Tensor> bias;
    if (ctx.hasInput(2)) bias = ctx.input(2);
    Tensor out = te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr v = conv({i[0], floordiv(i[1], intImm(s.ocBn)), i[2], i[3], floormod(i[1], intImm(s.ocBn))});
            if (bias) v = v + (*bias)({i[1]});
            return v;
        },
        name, tag::kInjective, {"n", "c", "h", "w"});
    return {out};
}

int64_t extentOf(const IterVar& iv) { return extentOr(iv, 1); }

} // namespace

void addConv2dNCHWcOps(std::vector<TopiOp>& ops) { ops.push_back({"Conv", conv2dNCHWc}); }

void scheduleConv2dNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                         const ScheduleOptions& options) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(outOp && convOp && outOp->axis.size() == 4, "blocked conv schedule on unexpected stages");
    const int64_t ocBn = extentOf(convOp->axis[4]);
    const int64_t ow = extentOf(convOp->axis[3]);
    const int64_t regN = largestDivisorAtMost(ow, 14);

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
