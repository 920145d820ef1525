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
#include <optional>

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

/// The stages of the reduction tree (partials and levels) reachable from `out`.
std::vector<te::Operation> treeStages(const te::Tensor& out) {
    std::vector<te::Operation> found;
    for (auto& op : te::postOrderOps({out->op}))
        if (op->tag == tag::kReduceLanes || op->tag == tag::kReduceTree) found.push_back(op);
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
    te::Tensor product = reduceRowTree(
        {1, bs[0]}, bs[1], lanes, ReduceOp::Sum,
        [&](const std::vector<te::Expr>& i, te::Expr k) { return a({i[0], k}) * b({i[1], k}); },
        epilogue ? name + "_matmul" : name);
    return gemmEpilogue(product, c, params, name);
}

te::Tensor globalPoolLanes(const te::Tensor& data, PoolType type, int64_t lanes, const std::string& name) {
    if (data.ndim() != 4) throw CompileError("globalPoolLanes needs NCHW data");
    const auto xs = staticShape(data);
    const int64_t w = xs[3], count = xs[2] * xs[3];
    const bool avg = type == PoolType::Avg;
    te::Tensor r = reduceRowTree(
        {xs[0], xs[1], 1, 1}, count, lanes, avg ? ReduceOp::Sum : ReduceOp::Max,
        [&](const std::vector<te::Expr>& i, te::Expr k) {
            return data({i[0], i[1], tir::floordiv(k, intImm(w)), tir::floormod(k, intImm(w))});
        },
        avg ? name + "_sum" : name);
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
    // The partials of every output (its shape and the lanes), a power of two of them.
    std::vector<int64_t> shape = staticShape(lanes.output(0));
    const int64_t L = shape.back();
    shape.pop_back();
    if (L < 2 || (L & (L - 1)) != 0 || L > 1024 || staticShape(outputs[0]) != shape) return false;
    // Its levels: log2(L) stages over the same outputs, then injective stages only.
    const std::vector<te::Operation> tree = treeStages(outputs[0]);
    int64_t levels = 0;
    for (auto& op : tree) {
        if (op->tag != tag::kReduceTree) continue;
        std::vector<int64_t> ls = staticShape(op.output(0));
        ls.pop_back();
        if (ls != shape) return false;
        ++levels;
    }
    return (int64_t(1) << levels) == L && injectiveEpilogue(outputs[0], lanes);
}

te::Schedule scheduleLaneReduceGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg) {
    TESSEL_CHECK(laneReduceGpuScheduleApplies(outputs), "GPU lane reduction schedule on unexpected outputs");
    const te::Tensor out = outputs[0];
    te::Schedule s = te::createSchedule({out->op});
    const std::vector<te::Operation> tree = treeStages(out);
    const te::Operation lanesOp = findTagged(outputs, tag::kReduceLanes);
    const std::vector<int64_t> shape = staticShape(out);
    const int64_t L = staticShape(lanesOp.output(0)).back();
    const size_t rows = rowAxis(shape);
    const int64_t R = shape[rows];

    const int64_t defRows = tileDivisor(R, kBlockThreads / L);
    const auto sr = defineSplitKnob(cfg, "tile_rows", R, 2, {R / defRows, defRows},
                                    [&](const std::vector<int64_t>& v) { return v[1] * L <= 1024; });
    if (sr[1] * L > 1024)
        throw CompileError("lane reduction GPU schedule: " + std::to_string(sr[1] * L) +
                           " threads per block; a block has at most 1024");

    // Partials and levels in shared memory, one copy per block; a thread's
    // partial accumulates in a register first (in shared memory every step
    // would need a barrier: thread-sync cannot tell that each thread touches
    // only its own word). The copies out, the inputs' views, the tree's root
    // and the epilogue are inlined into the output, and so is the last level
    // (one lane): the output's writer adds the two lanes before it, with no
    // barrier of its own.
    std::vector<te::Operation> shared, local; // local[i]: shared[i]'s accumulator, or none
    for (auto& op : tree) {
        if (op->tag == tag::kReduceTree && staticShape(op.output(0)).back() == 1) continue;
        const te::Tensor sh = s.cacheWrite(op.output(0), "shared");
        shared.push_back(sh->op);
        local.push_back(op->tag == tag::kReduceLanes ? s.cacheWrite(sh, "local")->op : te::Operation());
    }
    inlineEpilogue(s, shared);

    // The output: the rows in blocks of sr[1] (blockIdx.x, threadIdx.y), the
    // other axes on blockIdx.y. One writer per output: an axis of extent 1
    // (a GEMV's row, a pooling's height or width; the tree's root reads it
    // at 0, so its loop widens nothing the output reads) split by the lanes
    // and bound to threadIdx.x like every other stage of the kernel (one
    // extent per tag), its guard leaving lane 0. Without one, every lane of
    // a row stores the same value.
    te::Stage o = s[out];
    const auto& oax = computeOf(o.op())->axis;
    std::optional<size_t> writer;
    for (size_t j = 0; j < oax.size(); ++j)
        if (j != rows && shape[j] == 1) writer = j;
    auto [bx, ty] = o.split(oax[rows], intImm(sr[1]));
    std::vector<IterVar> others;
    for (size_t j = 0; j < oax.size(); ++j)
        if (j != rows && j != writer) others.push_back(oax[j]);
    std::vector<IterVar> order = others;
    order.insert(order.end(), {bx, ty});
    if (writer) {
        auto [unusedOuter, tx] = o.split(oax[*writer], intImm(L));
        order.insert(order.end(), {unusedOuter, tx});
        o.reorder(order);
        o.bind(tx, te::threadAxis("threadIdx.x"));
    } else {
        o.reorder(order);
    }
    fuseAndBind(o, others, "blockIdx.y");
    bindLoops(o, {{bx, "blockIdx.x"}, {ty, "threadIdx.y"}});

    // Each tree stage over the block's rows (threadIdx.y), its lanes on
    // threadIdx.x: a level of `half` lanes leaves the threads from `half`
    // on idle (a guard); thread-sync puts a barrier before each level.
    for (size_t i = 0; i < shared.size(); ++i) {
        te::Stage st = s[shared[i]];
        st.computeAt(o, bx);
        const auto& ax = computeOf(st.op())->axis;
        auto [outer, inner] = st.split(ax.back(), intImm(L));
        (void)outer;
        bindLoops(st, {{ax[rows], "threadIdx.y"}, {inner, "threadIdx.x"}});
        if (local[i].defined()) s[local[i]].computeAt(st, inner);
    }
    return s;
}

} // namespace tessel::topi
