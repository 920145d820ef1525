#include "topi/BatchMatmul.h"

#include "ir/Check.h"
#include "topi/Knobs.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace nn {

te::Tensor transposedCopy(const te::Tensor& b, const std::string& name) {
    const auto bs = staticShape(b);
    TESSEL_CHECK(bs.size() == 2, "transposedCopy of a tensor of rank " + std::to_string(bs.size()));
    return te::compute(
        toExprs({bs[1], bs[0]}), [&](const std::vector<Var>& i) { return b({i[1], i[0]}); }, name, tag::kOpaque,
        {"k", "j"});
}

} // namespace nn

namespace {

int64_t extentOf(const IterVar& iv) { return extentOr(iv, 1); }

} // namespace

bool matmulScheduleApplies(const te::Tensor& mm, const te::Tensor& out) {
    auto* op = dynamic_cast<const te::ComputeOpNode*>(mm->op.get());
    // int32 (the integer products) has float32's lanes per vector.
    const bool lanesOf32 = mm->dtype == DataType::float32() || mm->dtype == DataType::int32();
    return op && lanesOf32 && mm.ndim() >= 2 && op->reduceAxis.size() == 1 &&
           staticShape(out) == staticShape(mm);
}

void scheduleMatmul(te::Schedule& s, const te::Tensor& mm, const te::Tensor& out, const ScheduleOptions& options,
                    te::ConfigSpace& cfg) {
    TESSEL_CHECK(matmulScheduleApplies(mm, out), "matmul schedule on unexpected stages");
    const int64_t lanes = options.vectorLanes;
    const auto shape = staticShape(mm);
    const int64_t m = shape[shape.size() - 2], n = shape.back();

    // Columns: whole vectors when N has them, up to 4 (16 accumulators with
    // 4 rows); otherwise the largest divisor up to one vector.
    const bool vectors = n % lanes == 0;
    const int64_t defaultX = vectors ? lanes * largestDivisorAtMost(n / lanes, 4) : largestDivisorAtMost(n, lanes);
    const int64_t tileX = defineInnerSplit(cfg, "tile_x", n, 8 * lanes, defaultX, [&](int64_t f) {
        return !vectors || f % lanes == 0;
    });
    const int64_t tileY = defineInnerSplit(cfg, "tile_y", m, 16, largestDivisorAtMost(m, 4));

    // The output: one task per block (and batch index), in parallel. Without
    // an epilogue the product itself is the output: it is computed into a
    // cache (cache_write) that the output copies.
    const bool epilogue = !out->op.sameAs(mm->op);
    te::Tensor acc = epilogue ? mm : s.cacheWrite(mm, "local");
    te::Stage o = s[out];
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(o.op().get());
    const auto& ax = outOp->axis;
    const size_t rank = ax.size();
    auto [yo, yi] = o.split(ax[rank - 2], intImm(tileY));
    auto [xo, xi] = o.split(ax[rank - 1], intImm(tileX));
    std::vector<IterVar> outer(ax.begin(), ax.end() - 2);
    outer.push_back(yo);
    outer.push_back(xo);
    std::vector<IterVar> order = outer;
    order.push_back(yi);
    order.push_back(xi);
    o.reorder(order);
    IterVar task = outer[0];
    for (size_t d = 1; d < outer.size(); ++d) task = o.fuse(task, outer[d]);
    int64_t total = 1;
    for (int64_t e : shape) total *= e;
    if (total * extentOf(dynamic_cast<const te::ComputeOpNode*>(mm->op.get())->reduceAxis[0]) >=
        options.minParallelElements)
        o.parallel(task);
    if (vectors) o.vectorize(xi);

    // The block's accumulators in registers across the reduction: k outermost,
    // the rows unrolled, the columns vectorized.
    te::Stage a = s[acc];
    a.computeAt(o, task);
    auto* accOp = dynamic_cast<const te::ComputeOpNode*>(a.op().get());
    std::vector<IterVar> accOrder{accOp->reduceAxis[0]};
    accOrder.insert(accOrder.end(), accOp->axis.begin(), accOp->axis.end());
    a.reorder(accOrder);
    a.unroll(accOp->axis[rank - 2]);
    if (vectors) a.vectorize(accOp->axis[rank - 1]);
    else a.unroll(accOp->axis[rank - 1]);
}

} // namespace tessel::topi
