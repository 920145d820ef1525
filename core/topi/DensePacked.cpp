#include "topi/DensePacked.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/Knobs.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {
constexpr int64_t kLanes = 16;
/// Below this many multiply-adds (about 20 us on one core) a product stays on one thread.
constexpr int64_t kMinParallelMultiplyAdds = int64_t(1) << 18;
} // namespace

namespace nn {

namespace {

/// B [K, N] (or [N, K] with transB) in [ceil(N/16), K, 16] panels, the last
/// one padded with zeros: from the packer when it knows B, else a stage.
Tensor packPanels(const Tensor& b, bool transB, int64_t k, int64_t n, const std::string& name,
                  ConstantPacker* packer) {
    const int64_t nb = (n + kLanes - 1) / kLanes;
    Tensor panels;
    if (packer)
        panels = packer->derive(b, name + "_bpack", DataType::float32(), {nb, k, kLanes},
                                [&](const void* from, void* to) {
                                    const float* src = static_cast<const float*>(from);
                                    float* dst = static_cast<float*>(to);
                                    for (int64_t j = 0; j < n; ++j)
                                        for (int64_t kk = 0; kk < k; ++kk)
                                            dst[(j / kLanes * k + kk) * kLanes + j % kLanes] =
                                                src[transB ? j * k + kk : kk * n + j];
                                });
    if (panels.defined()) return panels;
    return te::compute(
        toExprs({nb, k, kLanes}),
        [&](const std::vector<Var>& i) {
            Expr j = i[0] * intImm(kLanes) + i[2];
            Expr jc = clampIndex(j, 0, n - 1);
            return select(j < intImm(n), transB ? b({jc, i[1]}) : b({i[1], jc}), makeZero(DataType::float32()));
        },
        name + "_bpack", tag::kOpaque);
}

} // namespace

bool densePackedApplies(const Tensor& a, const Tensor& b, const GemmParams& params) {
    return !params.transA && a->dtype == DataType::float32() && b->dtype == DataType::float32() &&
           a.ndim() == 2 && b.ndim() == 2;
}

Tensor densePacked(const Tensor& a, const Tensor& b, const Tensor& c, const GemmParams& params,
                   const std::string& name, ConstantPacker* packer) {
    if (!densePackedApplies(a, b, params))
        throw CompileError("the packed dense layer needs float32 matrices and A not transposed");
    const auto as = staticShape(a), bs = staticShape(b);
    const bool transB = params.transB;
    const int64_t m = as[0], k = as[1];
    const int64_t n = transB ? bs[0] : bs[1];
    if ((transB ? bs[1] : bs[0]) != k)
        throw CompileError("the inner dimensions of A and B differ (" + std::to_string(k) + " and " +
                           std::to_string(transB ? bs[1] : bs[0]) + ")");
    const int64_t nb = (n + kLanes - 1) / kLanes; // the last panel padded with zeros
    const double alpha = params.alpha, beta = params.beta;

    Tensor panels = packPanels(b, transB, k, n, name, packer);

    IterVar rk = te::reduceAxis(Range(intImm(0), intImm(k)), "rk");
    Tensor acc = te::compute(
        toExprs({m, nb, kLanes}),
        [&](const std::vector<Var>& i) { return te::sum(a({i[0], rk->var}) * panels({i[1], rk->var, i[2]}), {rk}); },
        name + "_dense", tag::kDensePacked, {"i", "jb", "ji"});
    const bool addC = c.defined() && beta != 0.0;
    return te::compute(
        toExprs({m, n}),
        [&](const std::vector<Var>& i) {
            Expr v = acc({i[0], floordiv(i[1], intImm(kLanes)), floormod(i[1], intImm(kLanes))});
            if (alpha != 1.0) v = constant(DataType::float32(), alpha) * v;
            if (addC) {
                Expr cv = broadcastRead(c, i);
                v = v + (beta != 1.0 ? constant(DataType::float32(), beta) * cv : cv);
            }
            return v;
        },
        name, tag::kInjective, {"i", "j"});
}

bool matmulPackedApplies(const Tensor& a, const Tensor& b) {
    return a->dtype == DataType::float32() && b->dtype == DataType::float32() && a.ndim() >= 2 && b.ndim() == 2;
}

Tensor matmulPacked(const Tensor& a, const Tensor& b, const std::string& name, ConstantPacker* packer) {
    if (!matmulPackedApplies(a, b))
        throw CompileError("the packed matrix product needs float32 operands, A of rank 2 or more and a 2-d B");
    const auto as = staticShape(a), bs = staticShape(b);
    const size_t rank = as.size();
    const int64_t k = as[rank - 1], n = bs[1];
    if (bs[0] != k)
        throw CompileError("the inner dimensions of A and B differ (" + std::to_string(k) + " and " +
                           std::to_string(bs[0]) + ")");
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < rank; ++d) rows *= as[d];
    const int64_t nb = (n + kLanes - 1) / kLanes;
    Tensor panels = packPanels(b, false, k, n, name, packer);

    // Row r of the product is A's row r in row-major order over its leading axes.
    auto rowIndex = [&](Expr r) {
        std::vector<Expr> idx(rank - 1);
        for (size_t d = rank - 1; d-- > 0;) {
            idx[d] = d == 0 ? r : floormod(r, intImm(as[d]));
            if (d > 0) r = floordiv(r, intImm(as[d]));
        }
        return idx;
    };
    IterVar rk = te::reduceAxis(Range(intImm(0), intImm(k)), "rk");
    Tensor acc = te::compute(
        toExprs({rows, nb, kLanes}),
        [&](const std::vector<Var>& i) {
            auto ai = rowIndex(i[0]);
            ai.push_back(rk->var);
            return te::sum(a(ai) * panels({i[1], rk->var, i[2]}), {rk});
        },
        name + "_dense", tag::kDensePacked, {"i", "jb", "ji"});
    std::vector<int64_t> outShape(as.begin(), as.end() - 1);
    outShape.push_back(n);
    std::vector<std::string> names;
    for (size_t d = 0; d + 2 < rank; ++d) names.push_back("b" + std::to_string(d));
    names.push_back("i");
    names.push_back("j");
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            Expr r = i[0];
            for (size_t d = 1; d + 1 < rank; ++d) r = r * intImm(as[d]) + i[d];
            Expr j = i[rank - 1];
            return acc({r, floordiv(j, intImm(kLanes)), floormod(j, intImm(kLanes))});
        },
        name, tag::kInjective, names);
}

} // namespace nn

void scheduleDensePacked(te::Schedule& s, const te::Tensor& acc, const te::Tensor& out, const ScheduleOptions& options,
                         te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(acc->op.get());
    TESSEL_CHECK(outOp && accOp && outOp->axis.size() >= 2, "packed dense schedule on unexpected stages");
    auto extent = [](const IterVar& iv) { return extentOr(iv, 1); };
    const auto& ax = outOp->axis;
    // The row axis: M, or for an M of 1 (a [S, 1, K] activation, as
    // PyTorch's sequence-first attention has) the innermost batch axis with
    // more than one index; the axes between them have one index.
    size_t rowAxis = ax.size() - 2;
    while (rowAxis > 0 && extent(ax[rowAxis]) == 1) --rowAxis;
    const int64_t m = extent(ax[rowAxis]), k = extent(accOp->reduceAxis[0]);
    const int64_t regM = defineSplitKnob(cfg, "tile_y", m, 2, innerSplit(m, largestDivisorAtMost(m, 4)),
                                         [](const std::vector<int64_t>& f) { return f[1] <= 8; })[1];
    const int64_t kInner = defineSplitKnob(cfg, "tile_k", k, 2, innerSplit(k, k), [k](const std::vector<int64_t>& f) {
                               return f[1] >= 4 && (f[1] <= 64 || f[1] == k);
                           })[1];
    const bool unrollK = defineChoiceKnob(cfg, "unroll_k", {te::KnobValue(false), te::KnobValue(true)},
                                          te::KnobValue(false))
                             .asBool();
    // Panels of 16 columns per task. A multiply-add chain waits for the one
    // before it (about 4-5 cycles on two pipes), so a block needs about 8
    // independent accumulator vectors to keep the pipes busy: with one row (a
    // GEMV: a recurrent step, a classifier) one panel gave 1-2 and ran at the
    // chain's latency. The default takes the fewest panels that reach 8
    // vectors with regM rows; the choices stop where the accumulators would
    // outgrow the registers (a broadcast and a weight vector stay free).
    const int64_t nb = (extent(ax.back()) + kLanes - 1) / kLanes;
    const int64_t vectorsPerPanel = std::max<int64_t>(1, kLanes / std::max(1, options.vectorLanes));
    const int64_t budget = std::max<int64_t>(1, options.vectorRegisters - 3);
    const int64_t wantPanels = std::max<int64_t>(1, (8 + regM * vectorsPerPanel - 1) / (regM * vectorsPerPanel));
    const int64_t fitPanels = std::max<int64_t>(1, budget / (regM * vectorsPerPanel));
    const int64_t panels =
        defineSplitKnob(cfg, "tile_n", nb, 2,
                        innerSplit(nb, largestDivisorAtMost(nb, std::min(wantPanels, fitPanels))),
                        [&](const std::vector<int64_t>& f) { return f[1] * vectorsPerPanel <= budget; })[1];

    // The output: a task per block of regM rows and `panels` x 16 columns (and per index
    // of the other axes: splitting one axis only keeps the rows of the
    // product a task needs one exact block).
    te::Stage o = s[out];
    auto [mo, mi] = o.split(ax[rowAxis], intImm(regM));
    auto [jb, ji] = o.split(ax.back(), intImm(kLanes));
    auto [jbo, jbi] = o.split(jb, intImm(panels));
    std::vector<IterVar> outer(ax.begin(), ax.begin() + static_cast<std::ptrdiff_t>(rowAxis));
    outer.push_back(mo);
    outer.insert(outer.end(), ax.begin() + static_cast<std::ptrdiff_t>(rowAxis) + 1, ax.end() - 1);
    outer.push_back(jbo);
    std::vector<IterVar> order = outer;
    order.push_back(mi);
    order.push_back(jbi);
    order.push_back(ji);
    o.reorder(order);
    IterVar task = outer[0];
    for (size_t d = 1; d < outer.size(); ++d) task = o.fuse(task, outer[d]);
    // A product too small to pay for waking the pool's threads runs on the
    // caller's: an LSTM step's 128x512 took 4x longer on 2 threads than on 1.
    int64_t macs = k * static_cast<int64_t>(nb) * kLanes;
    for (size_t d = 0; d + 1 < ax.size(); ++d) macs *= extent(ax[d]);
    if (macs >= kMinParallelMultiplyAdds) o.parallel(task);
    // The rows unrolled: the accumulators are indexed by constants only (they
    // stay registers), and an epilogue's rows are independent chains (GELU's
    // erf after a row loop was latency-bound at twice its own kernel's time).
    o.unroll(mi);
    o.unroll(jbi);
    o.vectorize(ji);

    // regM x panels x 16 accumulators in registers across the whole reduction.
    te::Stage a = s[acc];
    a.computeAt(o, task);
    if (kInner < k) {
        auto [ko, ki] = a.split(accOp->reduceAxis[0], intImm(kInner));
        a.reorder({ko, ki, accOp->axis[0], accOp->axis[1], accOp->axis[2]});
        if (unrollK) a.unroll(ki);
    } else {
        a.reorder({accOp->reduceAxis[0], accOp->axis[0], accOp->axis[1], accOp->axis[2]});
        if (unrollK && k <= 64) a.unroll(accOp->reduceAxis[0]); // never a whole long reduction
    }
    a.unroll(accOp->axis[0]);
    a.unroll(accOp->axis[1]);
    a.vectorize(accOp->axis[2]);
}

} // namespace tessel::topi
