#include "topi/ConvTransposeNCHWc.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/NnUtil.h"
#include "topi/Knobs.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {

/// One spatial axis of the decomposition. Output y = q * s + r (phase r);
/// its taps are k = (r + pad) mod s + j * s for j < taps, reading input
/// q + (r + pad) / s - j. With t = taps - 1 - j the read is padded input row
/// q + (r + pad) / s + t of an input padded by taps - 1 at the start.
struct PhaseAxis {
    int64_t in = 0, out = 0, kernel = 0, stride = 1, pad = 0;
    int64_t taps = 0;   ///< ceil(kernel / stride)
    int64_t q = 0;      ///< rows of a phase: ceil(out / stride)
    int64_t padded = 0; ///< extent of the padded input
};

PhaseAxis phaseAxis(int64_t in, int64_t kernel, int64_t stride, int64_t padBegin, int64_t padEnd,
                    int64_t outputPadding) {
    PhaseAxis a;
    a.in = in;
    a.kernel = kernel;
    a.stride = stride;
    a.pad = padBegin;
    a.out = stride * (in - 1) + outputPadding + kernel - padBegin - padEnd;
    a.taps = (kernel + stride - 1) / stride;
    a.q = (a.out + stride - 1) / stride;
    a.padded = a.q - 1 + (stride - 1 + padBegin) / stride + a.taps;
    return a;
}

/// The kernel tap of phase r and (ascending) tap t, as an expression; may be
/// >= kernel (a zero tap).
Expr tapOf(const PhaseAxis& a, Expr r, Expr t) {
    return floormod(r + intImm(a.pad), intImm(a.stride)) + (intImm(a.taps - 1) - t) * intImm(a.stride);
}
int64_t tapOf(const PhaseAxis& a, int64_t r, int64_t t) { return (r + a.pad) % a.stride + (a.taps - 1 - t) * a.stride; }

} // namespace

namespace nn {

bool convTransposeNCHWcApplies(const Tensor& x, const Tensor& w, const ConvTransposeParams& p) {
    if (x.ndim() != 4 || w.ndim() != 4 || x->dtype != DataType::float32() || w->dtype != DataType::float32() ||
        p.groups != 1)
        return false;
    for (int64_t d : p.dilation)
        if (d != 1) return false;
    if (p.padding.size() == 4 && (p.padding[0] < 0 || p.padding[1] < 0)) return false;
    if (p.padding.size() == 2 && (p.padding[0] < 0 || p.padding[1] < 0)) return false;
    if (p.padding.size() == 1 && p.padding[0] < 0) return false;
    return staticShape(w)[0] == staticShape(x)[1];
}

Tensor convTransposeNCHWc(const Tensor& x, const Tensor& w, const ConvTransposeParams& params, const Tensor& bias,
                          const std::string& name, ConstantPacker* packer) {
    if (!convTransposeNCHWcApplies(x, w, params))
        throw CompileError("the blocked transposed convolution needs float32 NCHW data, one group, dilation 1 "
                           "and weights [C, OC, KH, KW] for the input's C channels");
    const auto xs = staticShape(x), ws = staticShape(w);
    const auto strides = perAxis(params.strides, 2, 1, "strides");
    const auto outPad = perAxis(params.outputPadding, 2, 0, "output padding");
    const Padding pads = expandPadding(params.padding, 2);
    const PhaseAxis ah = phaseAxis(xs[2], ws[2], strides[0], pads.begin[0], pads.end[0], outPad[0]);
    const PhaseAxis aw = phaseAxis(xs[3], ws[3], strides[1], pads.begin[1], pads.end[1], outPad[1]);
    if (ah.out < 1 || aw.out < 1) throw CompileError("the transposed convolution's output would be empty");
    const int64_t n = xs[0], c = xs[1], oc = ws[1];
    const int64_t icBn = c % 16 == 0 ? 16 : largestDivisorAtMost(c, 16);
    const int64_t ocBn = oc % 16 == 0 ? 16 : 8;
    const int64_t ocBlocks = (oc + ocBn - 1) / ocBn;
    const int64_t sh = ah.stride, sw = aw.stride;

    // The input in NCHW[c]c blocks, padded by taps - 1 before (and to the
    // extent the last phase reads after).
    Tensor data = te::compute(
        toExprs({n, c / icBn, ah.padded, aw.padded, icBn}),
        [&](const std::vector<Var>& i) {
            return paddedRead(x,
                              {i[0], i[1] * intImm(icBn) + i[4], i[2] - intImm(ah.taps - 1),
                               i[3] - intImm(aw.taps - 1)},
                              makeZero(DataType::float32()));
        },
        name + "_data", tag::kPad, {"n", "cb", "h", "w", "ci"});

    // w[C, OC, KH, KW] -> [OC/ocBn, C/icBn, sh, sw, TH, TW, icBn, ocBn]: per
    // phase the taps that reach it, zero for taps past the kernel and
    // channels past OC.
    const std::vector<int64_t> kshape{ocBlocks, c / icBn, sh, sw, ah.taps, aw.taps, icBn, ocBn};
    Tensor kernel;
    if (packer)
        kernel = packer->derive(w, name + "_wpack", DataType::float32(), kshape, [&](const void* from, void* to) {
            const float* src = static_cast<const float*>(from);
            float* dst = static_cast<float*>(to);
            int64_t d = 0;
            for (int64_t ob = 0; ob < ocBlocks; ++ob)
                for (int64_t cb = 0; cb < c / icBn; ++cb)
                    for (int64_t rh = 0; rh < sh; ++rh)
                        for (int64_t rw = 0; rw < sw; ++rw)
                            for (int64_t th = 0; th < ah.taps; ++th)
                                for (int64_t tw = 0; tw < aw.taps; ++tw)
                                    for (int64_t ci = 0; ci < icBn; ++ci)
                                        for (int64_t o = 0; o < ocBn; ++o, ++d) {
                                            const int64_t kh = tapOf(ah, rh, th), kw = tapOf(aw, rw, tw);
                                            const int64_t oo = ob * ocBn + o, cc = cb * icBn + ci;
                                            if (kh < ah.kernel && kw < aw.kernel && oo < oc)
                                                dst[d] = src[((cc * oc + oo) * ah.kernel + kh) * aw.kernel + kw];
                                        }
        });
    if (!kernel.defined()) {
        kernel = te::compute(
            toExprs(kshape),
            [&](const std::vector<Var>& i) {
                Expr kh = tapOf(ah, i[2], i[4]), kw = tapOf(aw, i[3], i[5]);
                Expr o = i[0] * intImm(ocBn) + i[7];
                Expr inside = kh < intImm(ah.kernel) && kw < intImm(aw.kernel) && o < intImm(oc);
                Expr v = w({i[1] * intImm(icBn) + i[6], clampIndex(o, 0, oc - 1), clampIndex(kh, 0, ah.kernel - 1),
                            clampIndex(kw, 0, aw.kernel - 1)});
                return select(inside, v, makeZero(DataType::float32()));
            },
            name + "_wpack", tag::kOpaque);
    }

    auto rcb = te::reduceAxis(Range(intImm(0), intImm(c / icBn)), "rcb");
    auto rth = te::reduceAxis(Range(intImm(0), intImm(ah.taps)), "rth");
    auto rtw = te::reduceAxis(Range(intImm(0), intImm(aw.taps)), "rtw");
    auto rci = te::reduceAxis(Range(intImm(0), intImm(icBn)), "rci");
    Tensor conv = te::compute(
        toExprs({n, ocBlocks, sh, sw, ah.q, aw.q, ocBn}),
        [&](const std::vector<Var>& i) {
            Expr hh = i[4] + floordiv(i[2] + intImm(ah.pad), intImm(sh)) + rth->var;
            Expr ww = i[5] + floordiv(i[3] + intImm(aw.pad), intImm(sw)) + rtw->var;
            return te::sum(data({i[0], rcb->var, hh, ww, rci->var}) *
                               kernel({i[1], rcb->var, i[2], i[3], rth->var, rtw->var, rci->var, i[6]}),
                           {rcb, rth, rtw, rci});
        },
        name + "_conv", tag::kConvTransposeNCHWc, {"n", "ocb", "rh", "rw", "qh", "qw", "oc"});

    return te::compute(
        toExprs({n, oc, ah.out, aw.out}),
        [&](const std::vector<Var>& i) {
            Expr v = conv({i[0], floordiv(i[1], intImm(ocBn)), floormod(i[2], intImm(sh)), floormod(i[3], intImm(sw)),
                           floordiv(i[2], intImm(sh)), floordiv(i[3], intImm(sw)), floormod(i[1], intImm(ocBn))});
            if (bias.defined()) v = v + bias({i[1]});
            return v;
        },
        name, tag::kInjective, {"n", "c", "h", "w"});
}

} // namespace nn

void scheduleConvTransposeNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                                const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(convOp && convOp->axis.size() == 7 && out.ndim() == 4,
                 "blocked transposed convolution schedule on unexpected stages");
    auto extent = [](const IterVar& iv) { return extentOr(iv, 1); };
    const int64_t sw = extent(convOp->axis[3]), qw = extent(convOp->axis[5]);

    // The output (NCHW, with the fused operators): plain injective loops; it
    // reads the product, which is materialised whole (a few hundred KB).
    scheduleInjective(s[out], options);

    // The product: a task per (image, channel block, row phase, row); the
    // register block is tile_w columns of every column phase x oc_bn channels.
    const int64_t tileW = defineInnerSplit(cfg, "tile_w", qw, 16,
                                           largestDivisorAtMost(qw, std::max<int64_t>(1, 14 / sw)));
    te::Tensor acc = s.cacheWrite(conv, "local");
    te::Stage c = s[conv];
    auto* copyOp = dynamic_cast<const te::ComputeOpNode*>(c.op().get());
    const auto& ax = copyOp->axis; // n, ocb, rh, rw, qh, qw, oc
    auto [wo, wi] = c.split(ax[5], intImm(tileW));
    c.reorder({ax[0], ax[1], ax[2], ax[4], wo, ax[3], wi, ax[6]});
    IterVar task = c.fuse(c.fuse(c.fuse(ax[0], ax[1]), ax[2]), ax[4]);
    c.parallel(task);
    c.vectorize(ax[6]);

    te::Stage a = s[acc];
    a.computeAt(c, wo);
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(a.op().get());
    std::vector<IterVar> order(accOp->reduceAxis.begin(), accOp->reduceAxis.end());
    order.push_back(accOp->axis[3]);
    order.push_back(accOp->axis[5]);
    order.push_back(accOp->axis[6]);
    a.reorder(order);
    a.unroll(accOp->axis[3]);
    a.unroll(accOp->axis[5]);
    a.vectorize(accOp->axis[6]);

    // The padded input: every block row in parallel.
    for (auto& t : convOp->inputTensors()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
        if (!op || op->tag != tag::kPad) continue;
        te::Stage st = s[t];
        st.parallel(st.fuse(st.fuse(op->axis[0], op->axis[1]), op->axis[2]));
    }
}

} // namespace tessel::topi
