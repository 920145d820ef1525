#include "topi/Conv2dNCHWc.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "ir/Layout.h"
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

/// Independent accumulators a register block needs to keep two FMA pipes
/// busy through a 4-cycle FMA latency (the x86 and Arm cores Tessel runs on).
constexpr int64_t kMinAccumulators = 8;

} // namespace

namespace nn {

std::optional<Conv2dNCHWcLayout> conv2dNCHWcLayout(const Tensor& data, const Tensor& weight,
                                                   const ConvParams& params, te::ConfigSpace* cfg,
                                                   const ConvLayouts& layouts) {
    const int64_t dataBlock = layouts.data.empty() ? 0 : Layout::of(layouts.data).blockOf('C');
    const int64_t outBlock = layouts.out.empty() ? 0 : Layout::of(layouts.out).blockOf('C');
    if (data.ndim() != (dataBlock ? 5 : 4) || weight.ndim() != 4 || data->dtype != DataType::float32() ||
        weight->dtype != DataType::float32() || params.groups < 1)
        return std::nullopt;
    // Per group: its input channels (the weights' second axis) and output
    // channels; the blocks split those, so no block straddles two groups.
    const int64_t g = params.groups, ocAll = staticShape(weight)[0];
    const int64_t cAll = staticShape(data)[1] * (dataBlock ? dataBlock : 1);
    if (cAll % g != 0 || ocAll % g != 0 || staticShape(weight)[1] * g != cAll) return std::nullopt;
    const int64_t c = cAll / g, oc = ocAll / g;
    Conv2dNCHWcLayout l;
    l.ocBn = oc % 16 == 0 ? 16 : oc % 8 == 0 ? 8 : 0;
    if (outBlock) {
        // The output's stored block: a block of a group's channels.
        if (oc % outBlock != 0) return std::nullopt;
        l.ocBn = outBlock;
    }
    if (l.ocBn == 0) return std::nullopt;
    l.icBn = c % 16 == 0 ? 16 : largestDivisorAtMost(c, 16);
    // Blocked data is read in its own blocks when they fit a group.
    if (dataBlock && c % dataBlock == 0) l.icBn = dataBlock;
    if (cfg && !dataBlock)
        l.icBn = defineSplitKnob(*cfg, "tile_ic", c, 2, innerSplit(c, l.icBn),
                                 [](const std::vector<int64_t>& f) { return f[1] <= 64; })[1];
    if (cfg && !outBlock)
        l.ocBn = defineSplitKnob(*cfg, "tile_oc", oc, 2, innerSplit(oc, l.ocBn),
                                 [](const std::vector<int64_t>& f) { return f[1] % 8 == 0 && f[1] <= 64; })[1];
    return l;
}

std::vector<te::IterVar> blockedReduceAxes(int64_t blocks, int64_t kh, int64_t kw, int64_t block) {
    return {te::reduceAxis(Range(intImm(0), intImm(blocks)), "rcb"), te::reduceAxis(Range(intImm(0), intImm(kh)), "rh"),
            te::reduceAxis(Range(intImm(0), intImm(kw)), "rw"), te::reduceAxis(Range(intImm(0), intImm(block)), "rci")};
}

Tensor conv2dNCHWc(const Tensor& x, const Tensor& w, const ConvParams& params, const Tensor& bias,
                   const std::string& name, ConstantPacker* packer, te::ConfigSpace* cfg, const ConvLayouts& layouts) {
    auto layout = conv2dNCHWcLayout(x, w, params, cfg, layouts);
    if (!layout) throw CompileError("the blocked convolution needs float32 NCHW data, weights that fit its groups "
                                    "and a multiple of 8 output channels per group");
    // The data's stored block (0: plain NCHW) and the logical shape it stores.
    const int64_t xb = layouts.data.empty() ? 0 : Layout::of(layouts.data).blockOf('C');
    const int64_t ob = layouts.out.empty() ? 0 : Layout::of(layouts.out).blockOf('C');
    auto xs = staticShape(x);
    if (xb) {
        xs[1] *= xb;
        xs.pop_back();
    }
    const auto ws = staticShape(w);
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
    // Data already stored in these blocks is read where it is, whatever the plane.
    // A strided 1x1 convolution without padding reads only every sh-th row and
    // sw-th column: with enough output channels to read them many times, its
    // blocks are those pixels alone, copied once, so every later pass reads a
    // plane sh*sw times smaller with no skipped half-lines (ResNet-50's
    // 1024 -> 2048 downsample at 14 x 14: 5.0 -> 3.4 ms on Zen 3, its input
    // no longer outgrowing L2 between output-channel blocks).
    const bool subsample = kh == 1 && kw == 1 && hpad == h && wpad == wd && (sh > 1 || sw > 1) && oc >= 64;
    const bool view = !subsample && kh == 1 && kw == 1 && hpad == h && wpad == wd &&
                      (xb == icBn || h * wd <= kMaxViewPlane || sh > 1 || sw > 1 || oc < 64);
    // The data stage's plane, and the strides the convolution reads it with.
    const int64_t dataH = subsample ? oh : hpad, dataW = subsample ? ow : wpad;
    const int64_t readSh = subsample ? 1 : sh, readSw = subsample ? 1 : sw;
    // Element (n, channel, h, w) of the input, stored plain or in xb-blocks.
    auto input = [&](Expr nn, Expr ch, Expr hh, Expr ww, bool padded) {
        std::vector<Expr> idx = xb == 0 ? std::vector<Expr>{nn, ch, hh, ww}
                                        : std::vector<Expr>{nn, floordiv(ch, intImm(xb)), hh, ww, floormod(ch, intImm(xb))};
        return padded ? paddedRead(x, idx, makeZero(DataType::float32())) : x(idx);
    };
    Tensor data = te::compute(
        toExprs({n, c / icBn, dataH, dataW, icBn}),
        [&](const std::vector<Var>& i) {
            Expr ch = xb == icBn ? Expr() : i[1] * intImm(icBn) + i[4];
            if (subsample) {
                Expr hh = i[2] * intImm(sh), ww = i[3] * intImm(sw);
                return xb == icBn ? x({i[0], i[1], hh, ww, i[4]}) : input(i[0], ch, hh, ww, false);
            }
            if (xb == icBn) {
                // The same blocks: no channel arithmetic.
                std::vector<Expr> idx{i[0], i[1], i[2] - intImm(pt), i[3] - intImm(pl), i[4]};
                if (view) return x({i[0], i[1], i[2], i[3], i[4]});
                return paddedRead(x, idx, makeZero(DataType::float32()));
            }
            if (view) return input(i[0], ch, i[2], i[3], false);
            return input(i[0], ch, i[2] - intImm(pt), i[3] - intImm(pl), true);
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

    const auto r = blockedReduceAxes(cg / icBn, kh, kw, icBn);
    const auto &rcb = r[0], &rh = r[1], &rw = r[2], &rci = r[3];
    Tensor conv = te::compute(
        toExprs({n, oc / ocBn, oh, ow, ocBn}),
        [&](const std::vector<Var>& i) {
            Expr hh = i[2] * intImm(readSh) + rh->var * intImm(dh);
            Expr ww = i[3] * intImm(readSw) + rw->var * intImm(dw);
            // The first input block of this output block's group.
            Expr cb = groups == 1 ? Expr(rcb->var) : floordiv(i[1], intImm(og / ocBn)) * intImm(cg / icBn) + rcb->var;
            return te::sum(data({i[0], cb, hh, ww, rci->var}) *
                               kernel({i[1], rcb->var, rh->var, rw->var, rci->var, i[4]}),
                           r);
        },
        name + "_conv", tag::kConv2dNCHWc, {"n", "ocb", "oh", "ow", "oc"});

    // The output's own blocks, with the bias: the stage the fused element-wise operators join.
    if (ob) {
        TESSEL_CHECK(ob == ocBn, "the output block differs from the convolution's");
        return te::compute(
            toExprs({n, oc / ocBn, oh, ow, ocBn}),
            [&](const std::vector<Var>& i) {
                Expr v = conv({i[0], i[1], i[2], i[3], i[4]});
                if (bias.defined()) v = v + bias({i[1] * intImm(ocBn) + i[4]});
                return v;
            },
            name, tag::kInjective, {"n", "ocb", "oh", "ow", "oc"});
    }
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

bool unrollsCleanly(const std::vector<int64_t>& block, int registers) {
    // Unrolled, LLVM 16 starts broadcasts of later steps early. With one
    // channel block each broadcast feeds one multiply-add, and blocks of 10
    // accumulators or more spill under AVX2; blocks whose accumulators pass
    // half the register file by more than 4 spill under AVX-512 ([4, 2, 3]).
    // Measured over every block of tst_topi_nn's registerBlocksDoNotSpill.
    const int64_t accumulators = block[0] * block[1] * block[2];
    return block[0] >= 2 && accumulators + block[0] + 1 <= registers && accumulators <= registers / 2 + 4;
}

double registerBlockCycles(int64_t ocb, int64_t oh, int64_t ow, const std::vector<int64_t>& block, bool unrolled) {
    const int64_t cb = block[0], rows = block[1], cols = block[2];
    // A step kept in a loop of 8 or 16 channels costs 3 cycles more: the
    // loop's increment, compare and branch, and its exit every block of
    // channels (Zen 3: [1, 1, 14] looped ran 1.4x slower than [2, 1, 5]
    // unrolled, whose steps model the same).
    const double loopCycles = unrolled ? 0.0 : 3.0;
    // One reduction step of a block of `pixels`: its multiply-adds on two FMA
    // pipes, its loads (a weight vector per channel block, a broadcast per
    // pixel) at two per cycle, and no faster than one FMA latency with slack
    // (4 + 1.5 cycles: the accumulators' dependency chains; measured on Zen 3,
    // [2, 1, 4]'s 8 accumulators run 1.2x slower than [2, 1, 6]'s 12).
    auto step = [cb, loopCycles](int64_t pixels) {
        if (pixels == 0) return 0.0;
        return std::max({double(cb * pixels) / 2.0, 5.5, double(cb + pixels) / 2.0}) + loopCycles;
    };
    // Full blocks and the partial ones that loop partitioning peels off.
    const int64_t fullRows = oh / rows, restRows = oh % rows, fullCols = ow / cols, restCols = ow % cols;
    const double cycles = double(fullRows) * (double(fullCols) * step(rows * cols) + step(rows * restCols)) +
                          (restRows ? double(fullCols) * step(restRows * cols) + step(restRows * restCols) : 0.0);
    return cycles * double(ocb / cb) / double(ocb * oh * ow);
}

RegisterBlocks registerBlocks(int64_t ocb, int64_t oh, int64_t ow, int registers, bool unrollChannels) {
    RegisterBlocks r;
    auto divisors = [](int64_t n, int64_t limit) {
        std::vector<int64_t> d;
        for (int64_t k = 1; k <= std::min(n, limit); ++k)
            if (n % k == 0) d.push_back(k);
        return d;
    };
    // The default: the fewest modelled cycles per output vector
    // (registerBlockCycles); among equals, one that tiles the plane exactly,
    // then the most multiply-adds per load (capped where two loads per cycle
    // feed two FMA pipes), then the most accumulators, then fewer rows (one
    // input stream).
    double bestCycles = 0, bestScore = -1;
    int64_t bestAcc = -1, bestRows = 0;
    bool haveDefault = false, bestTiles = false;
    auto offer = [&](int64_t cb, int64_t rows, int64_t cols) {
        const int64_t pixels = rows * cols;
        // Accumulators, one weight vector per channel block and the
        // broadcast input value.
        if (cb * pixels + cb + 1 > registers) return;
        for (const auto& c : r.choices)
            if (c == std::vector<int64_t>{cb, rows, cols}) return;
        r.choices.push_back({cb, rows, cols});
        const double cycles =
            registerBlockCycles(ocb, oh, ow, r.choices.back(),
                                !unrollChannels || unrollsCleanly(r.choices.back(), registers));
        const double score = std::min(2.0, double(cb * pixels) / double(cb + pixels));
        const int64_t acc = cb * pixels;
        const bool tiles = ow % cols == 0 && oh % rows == 0;
        const bool better =
            !haveDefault || cycles < bestCycles - 1e-9 ||
            (cycles < bestCycles + 1e-9 &&
             (tiles > bestTiles ||
              (tiles == bestTiles &&
               (score > bestScore + 1e-9 ||
                (score > bestScore - 1e-9 && (acc > bestAcc || (acc == bestAcc && rows < bestRows)))))));
        if (better) {
            haveDefault = true;
            bestTiles = tiles;
            bestCycles = cycles;
            bestScore = score;
            bestAcc = acc;
            bestRows = rows;
            r.defaultIndex = r.choices.size() - 1;
        }
    };
    // Blocks that tile the plane exactly come first (their indices are
    // those of records tuned before the others were offered).
    for (int64_t cb : divisors(ocb, 4))
        for (int64_t rows : divisors(oh, 8))
            for (int64_t cols : divisors(ow, 32))
                offer(cb, rows, cols);
    if (bestAcc < kMinAccumulators) {
        // Too few accumulators to hide the FMA latency: a 7 x 7 plane with 16
        // registers allows 1 x 7 pixels of one channel block. Rows that do
        // not divide the plane are offered too (the schedule keeps row
        // blocks a serial loop, where loop partitioning peels the partial
        // last one): [1, 2, 7]'s 14 accumulators ran ResNet-18's 7 x 7
        // layers 1.2-1.25x faster than [1, 1, 7] on Zen 3.
        for (int64_t cb : divisors(ocb, 4))
            for (int64_t rows = 2; rows <= std::min<int64_t>(oh, 8); ++rows) {
                if (oh % rows == 0) continue;
                for (int64_t cols : divisors(ow, 32))
                    offer(cb, rows, cols);
            }
    }
    // Rows of columns that do not divide the plane's width, with the partial
    // last block peeled: the planes of 7 x 2^k pixels have no divisor between
    // 4 and 7, so 16 registers left them 8 accumulators ([2, 1, 4]) where
    // [2, 1, 6] holds 12. Only blocks with enough accumulators are worth it.
    for (int64_t cb : divisors(ocb, 4))
        for (int64_t cols = 2; cols <= std::min<int64_t>(ow, 32); ++cols)
            if (ow % cols != 0 && cb * cols >= kMinAccumulators) offer(cb, 1, cols);
    return r;
}

std::string defaultTaskOrder(int64_t dataBytes, int64_t weightBytes, int64_t channelPasses, int64_t rowPasses,
                             int64_t cacheBytes) {
    const double channelsFirst =
        double(weightBytes) + double(dataBytes) * double(dataBytes > cacheBytes ? channelPasses : 1);
    const double rowsFirst =
        double(dataBytes) + double(weightBytes) * double(weightBytes > cacheBytes ? rowPasses : 1);
    return rowsFirst < channelsFirst ? "rows" : "channels";
}

namespace {

int64_t bytesOf(const te::Tensor& t) {
    int64_t n = t->dtype.bytes();
    for (const auto& d : t->shape) n *= tir::asConstInt(d).value_or(1);
    return n;
}

/// The schedule of a convolution whose output is stored in channel blocks.
void scheduleBlockedOutput(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                           const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    const auto& ax = outOp->axis; // n, ocb, oh, ow, oc
    const RegisterBlocks blocks =
        registerBlocks(extentOf(ax[1]), extentOf(ax[2]), extentOf(ax[3]), options.vectorRegisters,
                       options.unrollChannels);
    TESSEL_CHECK(!blocks.choices.empty(), "no register block fits");
    std::vector<te::KnobValue> choices;
    for (auto& c : blocks.choices) choices.emplace_back(c);
    const auto block = defineChoiceKnob(cfg, "reg_block", choices, choices[blocks.defaultIndex]).ints();
    const bool unrollKw =
        defineChoiceKnob(cfg, "unroll_kw", {te::KnobValue(false), te::KnobValue(true)}, te::KnobValue(false))
            .asBool();
    int64_t dataBytes = 0, weightBytes = 0;
    for (const auto& t : convOp->inputTensors()) {
        if (t->shape.size() == 5) dataBytes = bytesOf(t);
        else if (t->shape.size() == 6) weightBytes = bytesOf(t);
    }
    const auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    const std::string defaultOrder =
        defaultTaskOrder(dataBytes, weightBytes, ceilDiv(extentOf(ax[1]), block[0]),
                         ceilDiv(extentOf(ax[2]), block[1]), options.l2Bytes);
    const bool rowsFirst =
        defineChoiceKnob(cfg, "task_order", {te::KnobValue(std::string("channels")), te::KnobValue(std::string("rows"))},
                         te::KnobValue(defaultOrder))
            .asString() == "rows";

    // The output: tasks of (image, channel-block group, row block) in the
    // task order; inside, one register block of tile_ocb x tile_oh x tile_ow
    // vectors at a time, stored with the epilogue as soon as its sums are
    // complete.
    te::Stage o = s[out];
    auto [cbo, cbi] = o.split(ax[1], intImm(block[0]));
    auto [oho, ohi] = o.split(ax[2], intImm(block[1]));
    auto [owo, owi] = o.split(ax[3], intImm(block[2]));
    IterVar task;
    if (extentOf(ax[2]) % block[1] != 0) {
        // A partial last row block: the row blocks stay a serial loop inside
        // the task, where loop partitioning peels the partial one. (Fused
        // into the parallel task, the row guard cannot be split off and
        // stays a branch around every multiply-add of the block.)
        o.reorder({ax[0], cbo, oho, owo, cbi, ohi, owi, ax[4]});
        task = o.fuse(ax[0], cbo);
    } else if (rowsFirst) {
        o.reorder({ax[0], oho, cbo, owo, cbi, ohi, owi, ax[4]});
        task = o.fuse(o.fuse(ax[0], oho), cbo);
    } else {
        o.reorder({ax[0], cbo, oho, owo, cbi, ohi, owi, ax[4]});
        task = o.fuse(o.fuse(ax[0], cbo), oho);
    }
    o.parallel(task);
    o.unroll(cbi);
    o.unroll(ohi);
    o.unroll(owi);
    o.vectorize(ax[4]);

    te::Tensor acc = s.cacheWrite(conv, "local");
    s[conv].computeInline();
    te::Stage a = s[acc];
    a.computeAt(o, owo);
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(a.op().get());
    // Pixels outside channel blocks: each broadcast input value is used by
    // every channel block's weight vector at once, so one broadcast and the
    // block's tile_ocb weight vectors are live beside the accumulators, the
    // count registerBlocks() sizes the block by. (Channel blocks outside
    // keep every pixel's broadcast live instead: [2, 1, 6] under AVX2 then
    // needs 19 registers, and LLVM spills in the inner loop.)
    std::vector<IterVar> order(accOp->reduceAxis.begin(), accOp->reduceAxis.end());
    order.insert(order.end(), {accOp->axis[2], accOp->axis[3], accOp->axis[1], accOp->axis[4]});
    a.reorder(order);
    a.unroll(accOp->axis[1]);
    a.unroll(accOp->axis[2]);
    a.unroll(accOp->axis[3]);
    a.vectorize(accOp->axis[4]);
    // The reduction stays loops around the register block: unrolled by LLVM,
    // taps and channels interleave, loads of one tap serve another and the
    // block no longer fits the registers (spills in the inner loop).
    // A channel loop of a few iterations (a first layer's 3 colours, or 2
    // pairs of them in int8) is unrolled all the same: as a loop it is more
    // control than work (ResNet-18's 7x7 layer 15 % faster unrolled, float
    // and int8).
    //
    // The channels of one input block (the innermost reduction, 8 or 16
    // steps) are unrolled by default when the block is one LLVM schedules
    // without spilling once unrolled (unrollsCleanly): the loop's overhead
    // and its exit branch every 8 steps go (ResNet-50's 1x1 convolutions
    // from 256 channels at 56 x 56 in [2, 1, 6] blocks: 1.8 -> 1.2 ms on
    // Zen 3; its first 3x3 layer 3.3 -> 2.9 ms). The others keep the loop
    // (ResNet-50's 7 x 7 3x3 layer in [1, 2, 7] unrolled: 15 % slower).
    const size_t ci = accOp->reduceAxis.size() - 1;
    const int64_t ciSteps = extentOr(accOp->reduceAxis[ci], 0);
    const bool unrollIc =
        defineChoiceKnob(cfg, "unroll_ic", {te::KnobValue(false), te::KnobValue(true)},
                         te::KnobValue(options.unrollChannels && ciSteps > 0 && ciSteps <= 16 &&
                                       unrollsCleanly(block, options.vectorRegisters)))
            .asBool();
    for (size_t r = 0; r < accOp->reduceAxis.size(); ++r) {
        const bool fewChannels = r == ci && r >= 3 && ciSteps > 0 && ciSteps <= 4;
        if ((r == 2 && unrollKw) || (r == ci && unrollIc) || fewChannels) a.unroll(accOp->reduceAxis[r]);
        else a.pragma(accOp->reduceAxis[r], "llvm_unroll", intImm(1));
    }

    // The padded input: every block row in parallel.
    for (auto& t : convOp->inputTensors()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
        if (!op || op->tag != tag::kPad) continue;
        te::Stage st = s[t];
        st.parallel(st.fuse(st.fuse(op->axis[0], op->axis[1]), op->axis[2]));
        st.vectorize(op->axis[4]);
    }
}

} // namespace

void scheduleConv2dNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                         const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(outOp && convOp && (outOp->axis.size() == 4 || outOp->axis.size() == 5),
                 "blocked conv schedule on unexpected stages");
    if (outOp->axis.size() == 5) return scheduleBlockedOutput(s, conv, out, options, cfg);
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
