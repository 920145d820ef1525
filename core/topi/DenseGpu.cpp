#include "topi/DenseGpu.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "topi/GpuTiles.h"
#include "topi/Knobs.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi {

using te::IterVar;

namespace {

/// The axis of `shape` the tiles take as rows: the second-to-last, or the
/// last one before the columns that is longer than 1.
size_t rowAxis(const std::vector<int64_t>& shape) {
    const size_t cols = shape.size() - 1;
    for (size_t j = cols; j-- > 0;)
        if (shape[j] > 1) return j;
    return cols - 1;
}

} // namespace

bool denseGpuScheduleApplies(const std::vector<te::Tensor>& outputs) {
    if (outputs.size() != 1) return false;
    const te::Operation mm = findTagged(outputs, tag::kDense);
    const te::ComputeOpNode* c = mm.defined() ? computeOf(mm) : nullptr;
    if (!c || c->axis.size() < 2 || c->reduceAxis.size() != 1 || c->inputTensors().size() != 2) return false;
    return staticShape(outputs[0]) == staticShape(mm.output(0)) && injectiveEpilogue(outputs[0], mm);
}

te::Schedule scheduleDenseGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg) {
    TESSEL_CHECK(denseGpuScheduleApplies(outputs), "GPU dense schedule on unexpected outputs");
    const te::Tensor out = outputs[0];
    te::Schedule s = te::createSchedule({out->op});
    const te::Operation mmOp = findTagged(outputs, tag::kDense);
    const te::Tensor mm = mmOp.output(0);
    const te::ComputeOpNode* c = computeOf(mmOp);
    const std::vector<te::Tensor> ins = c->inputTensors();

    const std::vector<int64_t> shape = staticShape(mm);
    const size_t cols = shape.size() - 1, rows = rowAxis(shape);
    const int64_t N = shape[cols], R = shape[rows], K = extentOr(c->reduceAxis[0], 1);
    int64_t batchBlocks = 1;
    for (size_t j = 0; j < cols; ++j)
        if (j != rows) batchBlocks *= shape[j];

    // Defaults: up to 4 x 4 outputs per thread and 16 x 16 threads; smaller
    // register tiles (then fewer threads) until the product has enough blocks.
    int64_t yi = tileDivisor(R, 4), xi = tileDivisor(N, 4);
    int64_t ty = tileDivisor(R / yi, 16), tx = tileDivisor(N / xi, 16);
    auto blocks = [&] { return batchBlocks * (R / (ty * yi)) * (N / (tx * xi)); };
    while (blocks() < kMinGpuBlocks && yi > 1) yi = tileDivisor(R / ty, yi - 1);
    while (blocks() < kMinGpuBlocks && xi > 1) xi = tileDivisor(N / tx, xi - 1);
    const int64_t kc = tileDivisor(K, 16);
    const auto sy = defineSplitKnob(cfg, "tile_y", R, 3, {R / (ty * yi), ty, yi},
                                    [](const std::vector<int64_t>& v) { return v[1] <= 32 && v[2] <= 8; });
    const auto sx = defineSplitKnob(cfg, "tile_x", N, 3, {N / (tx * xi), tx, xi},
                                    [](const std::vector<int64_t>& v) { return v[1] <= 32 && v[2] <= 8; });
    const auto sk = defineSplitKnob(cfg, "tile_k", K, 2, {K / kc, kc},
                                    [](const std::vector<int64_t>& v) { return v[1] <= 64; });
    if (sy[1] * sx[1] > 1024)
        throw CompileError("dense GPU schedule: " + std::to_string(sy[1] * sx[1]) +
                           " threads per block; a block has at most 1024");

    // The tiles of A and B in shared memory, the accumulators in registers;
    // the product's copy out of them, views of its inputs (a Flatten before
    // a Gemm) and the epilogue are inlined.
    const te::Tensor aShared = s.cacheRead(ins[0], "shared", {mmOp});
    const te::Tensor bShared = s.cacheRead(ins[1], "shared", {mmOp});
    const te::Tensor acc = s.cacheWrite(mm, "local");
    if (out->op.get() != mmOp.get()) s[mm].computeInline();
    inlineEpilogue(s, {aShared->op, bShared->op, acc->op});

    te::Stage o = s[out];
    const auto& oax = computeOf(o.op())->axis;
    auto [by, yr] = o.split(oax[rows], intImm(sy[1] * sy[2]));
    auto [tyv, yiv] = o.split(yr, intImm(sy[2]));
    auto [bx, xr] = o.split(oax[cols], intImm(sx[1] * sx[2]));
    auto [txv, xiv] = o.split(xr, intImm(sx[2]));
    std::vector<IterVar> order;
    for (size_t j = 0; j < cols; ++j)
        if (j != rows) order.push_back(oax[j]);
    const std::vector<IterVar> batch = order;
    order.insert(order.end(), {by, bx, tyv, txv, yiv, xiv});
    o.reorder(order);
    fuseAndBind(o, batch, "blockIdx.z");
    bindLoops(o, {{by, "blockIdx.y"}, {bx, "blockIdx.x"}, {tyv, "threadIdx.y"}, {txv, "threadIdx.x"}});
    o.unroll(yiv);
    o.unroll(xiv);

    te::Stage a = s[acc];
    a.computeAt(o, txv);
    const te::ComputeOpNode* ac = computeOf(a.op());
    auto [ko, ki] = a.split(ac->reduceAxis[0], intImm(sk[1]));
    std::vector<IterVar> accOrder{ko, ki};
    accOrder.insert(accOrder.end(), ac->axis.begin(), ac->axis.end());
    a.reorder(accOrder);
    for (auto& iv : ac->axis) a.unroll(iv);
    a.unroll(ki);

    for (const te::Tensor& t : {aShared, bShared}) {
        te::Stage st = s[t];
        st.computeAt(a, ko);
        cooperativeFetch(st, {{"threadIdx.y", sy[1]}, {"threadIdx.x", sx[1]}});
    }
    return s;
}

} // namespace tessel::topi
