// The dense layer with constant weights (Gemm with a constant B, as every
// classifier head has): B is packed at compile time into [N/16, K, 16]
// panels so that one AVX-512 register holds 16 outputs of a row and the
// reduction streams the panel contiguously; the output stage applies alpha,
// beta * C and the fused element-wise operators.
#include "ir/Check.h"
#include "topi/Schedule.h"
#include "topi/TopiUtil.h"

#include <cstring>

namespace tessel::topi {

using namespace tir;

namespace {

constexpr int64_t kLanes = 16;

std::vector<Tensor> densePacked(const OpContext& ctx) {
    const auto& at = ctx.inputType(0);
    const auto& bt = ctx.inputType(1);
    auto bConst = ctx.constant(1);
    const bool transA = ctx.attrs().getInt("transA", 0) != 0;
    const bool transB = ctx.attrs().getInt("transB", 0) != 0;
    if (transA || !bConst || at.dtype != DataType::float32() || bt.dtype != DataType::float32() || bt.rank() != 2)
        return {};
    const int64_t m = at.shape[0], k = at.shape[1];
    const int64_t n = transB ? bt.shape[0] : bt.shape[1];
    const int64_t nb = (n + kLanes - 1) / kLanes; // the last panel padded with zeros
    const double alpha = ctx.attrs().getFloat("alpha", 1.0), beta = ctx.attrs().getFloat("beta", 1.0);
    Tensor a = ctx.input(0), b = ctx.input(1);
    const std::string name = ctx.name();

    Tensor panels = ctx.derivedConstant(name + "_bpack", [&] {
        std::vector<float> src(static_cast<size_t>(bConst->numElements()));
        std::memcpy(src.data(), bConst->bytes.data(), bConst->bytes.size());
        std::vector<uint8_t> bytes(static_cast<size_t>(nb * k * kLanes) * sizeof(float), 0);
        float* dst = reinterpret_cast<float*>(bytes.data());
        for (int64_t j = 0; j < n; ++j)
            for (int64_t kk = 0; kk < k; ++kk)
                dst[(j / kLanes * k + kk) * kLanes + j % kLanes] =
                    src[static_cast<size_t>(transB ? j * k + kk : kk * n + j)];
        return graph::Constant::make(DataType::float32(), {nb, k, kLanes}, std::move(bytes));
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
    const bool addC = ctx.hasInput(2) && beta != 0.0;
    Tensor out = te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr v = acc({i[0], floordiv(i[1], intImm(kLanes)), floormod(i[1], intImm(kLanes))});
            if (alpha != 1.0) v = constant(DataType::float32(), alpha) * v;
            if (addC) {
                Expr c = broadcastRead(ctx.input(2), i);
                v = v + (beta != 1.0 ? constant(DataType::float32(), beta) * c : c);
            }
            return v;
        },
        name, tag::kInjective, {"i", "j"});
    return {out};
}

} // namespace

void addDensePackedOps(std::vector<TopiOp>& ops) { ops.push_back({"Gemm", densePacked}); }

void scheduleDensePacked(te::Schedule& s, const te::Tensor& acc, const te::Tensor& out, const ScheduleOptions&) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(acc->op.get());
    TESSEL_CHECK(outOp && accOp && outOp->axis.size() == 2, "packed dense schedule on unexpected stages");
    auto extent = [](const IterVar& iv) { return extentOr(iv, 1); };
    const int64_t regM = largestDivisorAtMost(extent(outOp->axis[0]), 4);

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
    a.reorder({accOp->reduceAxis[0], accOp->axis[0], accOp->axis[1], accOp->axis[2]});
    a.unroll(accOp->axis[0]);
    a.vectorize(accOp->axis[2]);
}

} // namespace tessel::topi
