#include "topi/LaneReduceGpu.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "topi/GpuTiles.h"
#include "topi/Knobs.h"
#include "topi/Reduce.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi {

using te::IterVar;

namespace {

/// Threads of a block the default rows per block aim for.
constexpr int64_t kBlockThreads = 256;

/// The output axis whose outputs a block's rows take: the last one longer
/// than 1 (the columns of a GEMV, the channels of a global pooling).
size_t rowAxis(const std::vector<int64_t>& shape) {
    for (size_t j = shape.size(); j-- > 0;)
        if (shape[j] > 1) return j;
    return shape.size() - 1;
}

/// The stage that reduces the partials of `lanes` (null when not exactly one reads them).
te::Operation finishingStage(const te::Tensor& out, const te::Operation& lanes) {
    te::Operation found;
    for (auto& op : te::postOrderOps({out->op})) {
        const te::ComputeOpNode* c = computeOf(op);
        if (!c) continue;
        for (auto& t : c->inputTensors())
            if (t->op.get() == lanes.get()) {
                if (found.defined() && found.get() != op.get()) return {};
                found = op;
            }
    }
    return found;
}

} // namespace

int64_t defineLanesKnob(te::ConfigSpace* cfg, int64_t length) {
    std::vector<te::KnobValue> choices;
    for (int64_t l : {16, 32, 64, 128})
        if (l < 2 * length || l == 16) choices.emplace_back(l);
    const te::KnobValue def(std::min<int64_t>(32, choices.back().asInt()));
    if (!cfg) return def.asInt();
    return defineChoiceKnob(*cfg, "lanes", choices, def).asInt();
}

namespace nn {

bool gemvLanesApplies(const te::Tensor& a, const te::Tensor& b, const GemmParams& params) {
    if (a.ndim() != 2 || b.ndim() != 2 || params.transA || !params.transB) return false;
    if (a->dtype != DataType::float32() || b->dtype != DataType::float32()) return false;
    const auto as = staticShape(a), bs = staticShape(b);
    return as[0] == 1 && as[1] == bs[1] && as[1] >= 64;
}

te::Tensor gemvLanes(const te::Tensor& a, const te::Tensor& b, const te::Tensor& c, const GemmParams& params,
                     int64_t lanes, const std::string& name) {
    if (!gemvLanesApplies(a, b, params)) throw CompileError("gemvLanes: not a GEMV of A [1, K] and B [N, K]");
    const auto bs = staticShape(b);
    const bool epilogue = params.alpha != 1.0 || (c.defined() && params.beta != 0.0);
    te::Tensor product = reduceRowLanes(
        {1, bs[0]}, bs[1], lanes, ReduceOp::Sum,
        [&](const std::vector<te::Expr>& i, te::Expr k) { return a({i[0], k}) * b({i[1], k}); },
        epilogue ? name + "_matmul" : name, tag::kDense);
    return gemmEpilogue(product, c, params, name);
}

te::Tensor globalPoolLanes(const te::Tensor& data, PoolType type, int64_t lanes, const std::string& name) {
    if (data.ndim() != 4) throw CompileError("globalPoolLanes needs NCHW data");
    const auto xs = staticShape(data);
    const int64_t w = xs[3], count = xs[2] * xs[3];
    const bool avg = type == PoolType::Avg;
    te::Tensor r = reduceRowLanes(
        {xs[0], xs[1], 1, 1}, count, lanes, avg ? ReduceOp::Sum : ReduceOp::Max,
        [&](const std::vector<te::Expr>& i, te::Expr k) {
            return data({i[0], i[1], tir::floordiv(k, intImm(w)), tir::floormod(k, intImm(w))});
        },
        avg ? name + "_sum" : name, tag::kPool);
    if (!avg) return r;
    return te::compute(
        r->shape,
        [&](const std::vector<te::Var>& i) { return r(exprs(i)) / constant(data->dtype, double(count)); }, name,
        tag::kElemWise);
}

} // namespace nn

bool laneReduceGpuScheduleApplies(const std::vector<te::Tensor>& outputs) {
    if (outputs.size() != 1) return false;
    const te::Operation lanes = findTagged(outputs, tag::kReduceLanes);
    if (!lanes.defined() || computeOf(lanes)->reduceAxis.size() != 1) return false;
    const te::Operation fin = finishingStage(outputs[0], lanes);
    const te::ComputeOpNode* f = fin.defined() ? computeOf(fin) : nullptr;
    return f && f->reduceAxis.size() == 1 && staticShape(outputs[0]) == staticShape(fin.output(0)) &&
           injectiveEpilogue(outputs[0], fin, {lanes});
}

te::Schedule scheduleLaneReduceGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg) {
    TESSEL_CHECK(laneReduceGpuScheduleApplies(outputs), "GPU lane reduction schedule on unexpected outputs");
    const te::Tensor out = outputs[0];
    te::Schedule s = te::createSchedule({out->op});
    const te::Operation lanesOp = findTagged(outputs, tag::kReduceLanes);
    const te::Tensor lanes = lanesOp.output(0), fin = finishingStage(out, lanesOp).output(0);
    const std::vector<int64_t> shape = staticShape(fin);
    const int64_t L = staticShape(lanes).back();
    const size_t rows = rowAxis(shape);
    const int64_t R = shape[rows];

    const int64_t defRows = tileDivisor(R, kBlockThreads / L);
    const auto sr = defineSplitKnob(cfg, "tile_rows", R, 2, {R / defRows, defRows},
                                    [&](const std::vector<int64_t>& v) { return v[1] * L <= 1024; });
    if (sr[1] * L > 1024)
        throw CompileError("lane reduction GPU schedule: " + std::to_string(sr[1] * L) +
                           " threads per block; a block has at most 1024");

    // The partials accumulate in shared memory, the row sums in registers;
    // the copies out of both, the inputs' views and the epilogue are inlined.
    const te::Tensor partial = s.cacheWrite(lanes, "shared");
    const te::Tensor acc = s.cacheWrite(fin, "local");
    if (out->op.get() != fin->op.get()) s[fin].computeInline();
    inlineEpilogue(s, {partial->op, acc->op});

    te::Stage o = s[out];
    const auto& oax = computeOf(o.op())->axis;
    auto [bx, ty] = o.split(oax[rows], intImm(sr[1]));
    std::vector<IterVar> others;
    for (size_t j = 0; j < oax.size(); ++j)
        if (j != rows) others.push_back(oax[j]);
    std::vector<IterVar> order = others;
    order.insert(order.end(), {bx, ty});
    o.reorder(order);
    fuseAndBind(o, others, "blockIdx.y");
    bindLoops(o, {{bx, "blockIdx.x"}, {ty, "threadIdx.y"}});

    s[acc].computeAt(o, ty);

    te::Stage p = s[partial];
    p.computeAt(o, bx);
    const auto& pax = computeOf(p.op())->axis;
    bindLoops(p, {{pax[rows], "threadIdx.y"}, {pax.back(), "threadIdx.x"}});
    return s;
}

} // namespace tessel::topi
