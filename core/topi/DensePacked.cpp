#include "topi/DensePacked.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/Knobs.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {
constexpr int64_t kLanes = 16;
} // namespace

namespace nn {

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
    if (!panels.defined())
        panels = te::compute(
            toExprs({nb, k, kLanes}),
            [&](const std::vector<Var>& i) {
                Expr j = i[0] * intImm(kLanes) + i[2];
                Expr jc = clampIndex(j, 0, n - 1);
                return select(j < intImm(n), transB ? b({jc, i[1]}) : b({i[1], jc}), makeZero(DataType::float32()));
            },
            name + "_bpack", tag::kOpaque);

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

} // namespace nn

void scheduleDensePacked(te::Schedule& s, const te::Tensor& acc, const te::Tensor& out, const ScheduleOptions&,
                         te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(acc->op.get());
    TESSEL_CHECK(outOp && accOp && outOp->axis.size() == 2, "packed dense schedule on unexpected stages");
    auto extent = [](const IterVar& iv) { return extentOr(iv, 1); };
    const int64_t m = extent(outOp->axis[0]), k = extent(accOp->reduceAxis[0]);
    const int64_t regM = defineSplitKnob(cfg, "tile_y", m, 2, innerSplit(m, largestDivisorAtMost(m, 4)),
                                         [](const std::vector<int64_t>& f) { return f[1] <= 8; })[1];
    const int64_t kInner = defineSplitKnob(cfg, "tile_k", k, 2, innerSplit(k, k),
                                           [k](const std::vector<int64_t>& f) { return f[1] >= 4 && (f[1] <= 64 || f[1] == k); })[1];
    const bool unrollK = defineChoiceKnob(cfg, "unroll_k", {te::KnobValue(false), te::KnobValue(true)},
                                          te::KnobValue(false))
                             .asBool();

    // The output: a task per block of rows and 16 columns.
    te::Stage o = s[out];
    auto [mo, mi] = o.split(outOp->axis[0], intImm(regM));
    auto [jb, ji] = o.split(outOp->axis[1], intImm(kLanes));
    o.reorder({mo, jb, mi, ji});
    IterVar task = o.fuse(mo, jb);
    o.parallel(task);
    o.vectorize(ji);

    // regM x 16 accumulators in registers across the whole reduction.
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
    a.vectorize(accOp->axis[2]);
}

} // namespace tessel::topi
