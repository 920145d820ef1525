#include "topi/ConvTransposeNCHWc.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "ir/Layout.h"
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

namespace {

/// The channel block of a stored layout (0: plain).
int64_t blockOfLayout(const std::string& layout) { return layout.empty() ? 0 : Layout::of(layout).blockOf('C'); }

/// The logical NCHW shape of data stored plain or in `block`-channel blocks.
std::vector<int64_t> logicalShape(const Tensor& x, int64_t block) {
    auto xs = staticShape(x);
    if (block) {
        xs[1] *= block;
        xs.pop_back();
    }
    return xs;
}

} // namespace

bool convTransposeNCHWcApplies(const Tensor& x, const Tensor& w, const ConvTransposeParams& p,
                               const ConvLayouts& layouts) {
    const int64_t xb = blockOfLayout(layouts.data), ob = blockOfLayout(layouts.out);
    if (x.ndim() != (xb ? 5 : 4) || w.ndim() != 4 || x->dtype != DataType::float32() ||
        w->dtype != DataType::float32() || p.groups != 1)
        return false;
    for (int64_t d : p.dilation)
        if (d != 1) return false;
    if (p.padding.size() == 4 && (p.padding[0] < 0 || p.padding[1] < 0)) return false;
    if (p.padding.size() == 2 && (p.padding[0] < 0 || p.padding[1] < 0)) return false;
    if (p.padding.size() == 1 && p.padding[0] < 0) return false;
    const auto ws = staticShape(w);
    if (ob && ws[1] % ob != 0) return false;
    return ws[0] == logicalShape(x, xb)[1];
}

Tensor convTransposeNCHWc(const Tensor& x, const Tensor& w, const ConvTransposeParams& params, const Tensor& bias,
                          const std::string& name, ConstantPacker* packer, const ConvLayouts& layouts,
                          te::ConfigSpace* cfg) {
    if (!convTransposeNCHWcApplies(x, w, params, layouts))
        throw CompileError("the blocked transposed convolution needs float32 NCHW data (or NCHW[x]c), one group, "
                           "dilation 1, weights [C, OC, KH, KW] for the input's C channels and OC a multiple of "
                           "the output block");
    const int64_t xb = blockOfLayout(layouts.data), ob = blockOfLayout(layouts.out);
    const auto xs = logicalShape(x, xb), ws = staticShape(w);
    const auto strides = perAxis(params.strides, 2, 1, "strides");
    const auto outPad = perAxis(params.outputPadding, 2, 0, "output padding");
    const Padding pads = expandPadding(params.padding, 2);
    const PhaseAxis ah = phaseAxis(xs[2], ws[2], strides[0], pads.begin[0], pads.end[0], outPad[0]);
    const PhaseAxis aw = phaseAxis(xs[3], ws[3], strides[1], pads.begin[1], pads.end[1], outPad[1]);
    if (ah.out < 1 || aw.out < 1) throw CompileError("the transposed convolution's output would be empty");
    const int64_t n = xs[0], c = xs[1], oc = ws[1];
    // The padded copy regroups the input channels freely, so their block is
    // the reduction's inner loop only: long enough that the loops around it
    // cost little (measured: 32 before 16 before 8 on the DCGAN layers,
    // whatever the data's stored block); knob tile_ic. Blocked output is
    // computed in its blocks (alter-layout's, from the target's vector width).
    const int64_t icDefault = largestDivisorAtMost(c, 32);
    const int64_t icBn = cfg ? defineInnerSplit(*cfg, "tile_ic", c, 64, icDefault) : icDefault;
    const int64_t ocBn = ob ? ob : oc % 16 == 0 ? 16 : 8;
    const int64_t ocBlocks = (oc + ocBn - 1) / ocBn;
    const int64_t sh = ah.stride, sw = aw.stride;

    // The input in NCHW[c]c blocks, padded by taps - 1 before (and to the
    // extent the last phase reads after).
    Tensor data = te::compute(
        toExprs({n, c / icBn, ah.padded, aw.padded, icBn}),
        [&](const std::vector<Var>& i) {
            Expr hh = i[2] - intImm(ah.taps - 1), ww = i[3] - intImm(aw.taps - 1);
            std::vector<Expr> idx;
            if (xb == icBn) {
                idx = {i[0], i[1], hh, ww, i[4]};
            } else {
                Expr ch = i[1] * intImm(icBn) + i[4];
                idx = xb ? std::vector<Expr>{i[0], floordiv(ch, intImm(xb)), hh, ww, floormod(ch, intImm(xb))}
                         : std::vector<Expr>{i[0], ch, hh, ww};
            }
            return paddedRead(x, idx, makeZero(DataType::float32()));
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

    if (ob) {
        // Stored in the output's channel blocks (ob == ocBn): phases interleave, channels stay whole vectors.
        return te::compute(
            toExprs({n, oc / ob, ah.out, aw.out, ob}),
            [&](const std::vector<Var>& i) {
                Expr v = conv({i[0], i[1], floormod(i[2], intImm(sh)), floormod(i[3], intImm(sw)),
                               floordiv(i[2], intImm(sh)), floordiv(i[3], intImm(sw)), i[4]});
                if (bias.defined()) v = v + bias({i[1] * intImm(ob) + i[4]});
                return v;
            },
            name, tag::kInjective, {"n", "ocb", "h", "w", "oc"});
    }
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

namespace {

/// The register blocks [channel blocks, rows, columns, column phases] of a
/// product with `ocBlocks` channel blocks (of `vectors` registers each) and
/// phases of qh x qw pixels, s_w column phases; the blocks that fit
/// `registers` (accumulators, one phase's weights and a broadcast input),
/// and the default: the most multiply-adds per load (capped where two loads
/// per cycle feed two FMA pipes), then the most accumulators, then fewer
/// rows and phases. The column phases of one block read overlapping inputs
/// (counted once: one more column than the block's).
struct PhaseBlocks {
    std::vector<te::KnobValue> choices;
    size_t defaultIndex = 0;
};

PhaseBlocks phaseRegisterBlocks(int64_t ocBlocks, int64_t qh, int64_t qw, int64_t sw, int64_t vectors,
                                int registers) {
    auto divisors = [](int64_t n, int64_t limit) {
        std::vector<int64_t> d;
        for (int64_t k = 1; k <= std::min(n, limit); ++k)
            if (n % k == 0) d.push_back(k);
        return d;
    };
    std::vector<int64_t> phases{1};
    if (sw > 1) phases.push_back(sw);
    PhaseBlocks r;
    double bestScore = -1;
    int64_t bestAcc = -1;
    for (int64_t cb : divisors(ocBlocks, 4))
        for (int64_t rows : divisors(qh, 8))
            for (int64_t cols : divisors(qw, 32))
                for (int64_t ph : phases) {
                    const int64_t acc = cb * rows * cols * ph * vectors;
                    if (acc + cb * vectors + 1 > registers) continue;
                    r.choices.emplace_back(std::vector<int64_t>{cb, rows, cols, ph});
                    const int64_t loads = cb * ph * vectors + rows * (cols + (ph > 1 ? 1 : 0));
                    const double score = std::min(2.0, double(acc) / double(loads));
                    // Ties keep the earlier choice: fewer rows and phases.
                    if (score > bestScore + 1e-9 || (score > bestScore - 1e-9 && acc > bestAcc)) {
                        bestScore = score;
                        bestAcc = acc;
                        r.defaultIndex = r.choices.size() - 1;
                    }
                }
    return r;
}

} // namespace

void scheduleConvTransposeNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                                const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(convOp && convOp->axis.size() == 7 && (out.ndim() == 4 || out.ndim() == 5),
                 "blocked transposed convolution schedule on unexpected stages");
    auto extent = [](const IterVar& iv) { return extentOr(iv, 1); };
    const int64_t ocBlocks = extent(convOp->axis[1]), qh = extent(convOp->axis[4]), qw = extent(convOp->axis[5]);
    const int64_t ocBn = extent(convOp->axis[6]);

    // The output (with the fused operators, plain or in channel blocks):
    // injective loops reading the product, which is materialised whole (its
    // phase-major order is not the output's; a few hundred KB at most).
    scheduleInjective(s[out], options);

    // Every phase is a stride-1 convolution with its own sub-kernel: the
    // register block is channel blocks x rows x columns of one phase, or of
    // every column phase at once (their reads overlap: phase r reads from
    // column (r + pad) / s on, so the block loads fewer input values per
    // multiply-add, which matters when there are few channel blocks).
    const int64_t vectorsPerBlock = std::max<int64_t>(1, (ocBn + options.vectorLanes - 1) / options.vectorLanes);
    const PhaseBlocks blocks = phaseRegisterBlocks(ocBlocks, qh, qw, extent(convOp->axis[3]), vectorsPerBlock,
                                                   options.vectorRegisters);
    TESSEL_CHECK(!blocks.choices.empty(), "no register block fits");
    const auto block = defineChoiceKnob(cfg, "reg_block", blocks.choices, blocks.choices[blocks.defaultIndex]).ints();
    const int64_t phasesInBlock = block[3];

    // The product: a task per (image, channel-block group, row phase, row
    // block); inside, per column phase or for all of them, one register block
    // at a time.
    te::Tensor acc = s.cacheWrite(conv, "local");
    te::Stage c = s[conv];
    auto* copyOp = dynamic_cast<const te::ComputeOpNode*>(c.op().get());
    const auto& ax = copyOp->axis; // n, ocb, rh, rw, qh, qw, oc
    auto [cbo, cbi] = c.split(ax[1], intImm(block[0]));
    auto [qho, qhi] = c.split(ax[4], intImm(block[1]));
    auto [qwo, qwi] = c.split(ax[5], intImm(block[2]));
    if (phasesInBlock > 1) {
        c.reorder({ax[0], cbo, ax[2], qho, qwo, cbi, ax[3], qhi, qwi, ax[6]});
        c.unroll(ax[3]);
    } else {
        c.reorder({ax[0], cbo, ax[2], qho, ax[3], qwo, cbi, qhi, qwi, ax[6]});
    }
    // A task keeps its channel blocks' sub-kernels (C x blocks x s_w x taps
    // vectors, a few hundred KB at most) in cache over all its rows: with the
    // rows split among tasks as well, each task would stream the same weights
    // again (the 4x4-pixel layers with megabytes of weights are bound by it).
    // Rows join the tasks only when there are too few of them.
    IterVar task = c.fuse(c.fuse(ax[0], cbo), ax[2]);
    const int64_t tasks = extent(convOp->axis[0]) * (ocBlocks / block[0]) * extent(convOp->axis[2]);
    if (tasks < options.minParallelPlanes) task = c.fuse(task, qho);
    c.parallel(task);
    c.unroll(cbi);
    c.unroll(qhi);
    c.unroll(qwi);
    c.vectorize(ax[6]);

    te::Stage a = s[acc];
    a.computeAt(c, qwo);
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(a.op().get());
    const auto& aa = accOp->axis;
    std::vector<IterVar> order(accOp->reduceAxis.begin(), accOp->reduceAxis.end());
    for (int k : {1, 3, 4, 5, 6}) order.push_back(aa[size_t(k)]);
    a.reorder(order);
    a.unroll(aa[1]);
    a.unroll(aa[3]);
    a.unroll(aa[4]);
    a.unroll(aa[5]);
    a.vectorize(aa[6]);
    // The reduction stays loops around the block (as in the direct
    // convolution: unrolled, taps interleave and the block spills).
    // for (auto& r : accOp->reduceAxis) a.pragma(r, "llvm_unroll", intImm(1));

    // The padded input: every block row in parallel.
    for (auto& t : convOp->inputTensors()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
        if (!op || op->tag != tag::kPad) continue;
        te::Stage st = s[t];
        st.parallel(st.fuse(st.fuse(op->axis[0], op->axis[1]), op->axis[2]));
        // Vectors of the data's stored block only (from NCHW, or across
        // stored blocks, they would gather one channel plane apart).
        int64_t stored = 0;
        for (auto& in : op->inputTensors())
            if (in.ndim() == 5) stored = staticShape(in)[4];
        const int64_t icBn = extent(op->axis[4]);
        if (stored == icBn) {
            st.vectorize(op->axis[4]);
        } else if (stored > 1 && icBn % stored == 0) {
            auto [cio, cii] = st.split(op->axis[4], intImm(stored));
            (void)cio;
            st.vectorize(cii);
        }
    }
}

} // namespace tessel::topi
