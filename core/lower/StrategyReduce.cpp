// Strategies of the reductions, softmax and the normalisations.
#include "lower/Strategy.h"

#include "topi/Elementwise.h"
#include "topi/Reduce.h"
#include "topi/RowReduceGpu.h"
#include "topi/ScheduleGpu.h"

namespace tessel::lower {

namespace {

using te::Tensor;
using Tensors = std::vector<Tensor>;

OpStrategy reduceOp(std::string op, topi::ReduceOp kind) {
    return {std::move(op), "topi::reduce", [kind](const OpContext& ctx) {
                topi::ReduceParams p;
                // Axes are an input from opset 13 (ReduceSum) or 18 (the others), an attribute before.
                p.axes = ctx.hasInput(1) ? ctx.constInts(1) : ctx.attrs().getInts("axes", {});
                p.keepDims = ctx.attrs().getInt("keepdims", 1) != 0;
                p.noopWithEmptyAxes = ctx.attrs().getInt("noop_with_empty_axes", 0) != 0;
                return Tensors{topi::reduce(ctx.input(0), kind, p, ctx.name())};
            }};
}

/// `t` as node output `k`: the same tensor when its type matches, else a cast.
Tensor asOutput(const OpContext& ctx, const Tensor& t, int k, const std::string& suffix) {
    DataType want = ctx.outputType(k).dtype;
    if (t->dtype == want) return t;
    return topi::cast(t, want, ctx.name() + suffix);
}

/// `treeLanes` > 0: the GPU's reduction trees (LayerNormParams::treeLanes).
Tensors layerNorm(const OpContext& ctx, int64_t treeLanes) {
    topi::nn::LayerNormParams p;
    p.treeLanes = treeLanes;
    p.axis = ctx.attrs().getInt("axis", -1);
    p.epsilon = ctx.attrs().getFloat("epsilon", 1e-5);
    // stash_type: the precision of the statistics (float32 by default).
    auto stash = graph::dataTypeFromOnnx(ctx.attrs().getInt("stash_type", 1));
    if (!stash || !stash->isFloat()) ctx.fail("stash_type must be a floating-point type");
    p.stashType = *stash;
    auto r = topi::nn::layerNorm(ctx.input(0), ctx.input(1), ctx.optionalInput(2), p, ctx.name());
    Tensors out{r.output};
    if (ctx.numOutputs() > 1) out.push_back(asOutput(ctx, r.mean, 1, "_mean_out"));
    if (ctx.numOutputs() > 2) out.push_back(asOutput(ctx, r.invStdDev, 2, "_inv_std_out"));
    return out;
}

/// Attribute `axis` (default -1) names the innermost of two or more axes
/// of a float input: rows a GPU block reduces with a tree.
bool innermostRowsApply(const OpContext& ctx) {
    const auto& t = ctx.inputType(0).logical();
    const int64_t rank = t.rank(), axis = ctx.attrs().getInt("axis", -1);
    return rank >= 2 && t.dtype.isFloat() && ctx.numOutputs() == 1 && (axis == -1 || axis == rank - 1);
}

te::Schedule scheduleRowReduceCuda(const std::vector<te::Tensor>& outputs, const topi::ScheduleOptions&,
                                   te::ConfigSpace&) {
    return topi::rowReduceGpuScheduleApplies(outputs) ? topi::scheduleRowReduceGpu(outputs)
                                                      : topi::scheduleFusedGpu(outputs);
}

/// Softmax on a GPU: the row's max and sum as reduction trees.
Tensors softmaxCuda(const OpContext& c) {
    const int64_t lanes = topi::defineRowThreadsKnob(c.config(), c.inputType(0).logical().shape.back());
    return {topi::nn::softmax(c.input(0), -1, c.name(), lanes)};
}

/// LogSoftmax on a GPU: the same trees, then x - max - log(sum) (the NVPTX
/// codegen's log and exp are the approximate PTX instructions).
Tensors logSoftmaxCuda(const OpContext& c) {
    const int64_t lanes = topi::defineRowThreadsKnob(c.config(), c.inputType(0).logical().shape.back());
    return {topi::nn::logSoftmax(c.input(0), -1, c.name(), lanes)};
}

} // namespace

void addReduceStrategies(std::vector<OpStrategy>& s) {
    s.push_back(reduceOp("ReduceSum", topi::ReduceOp::Sum));
    s.push_back(reduceOp("ReduceMean", topi::ReduceOp::Mean));
    s.push_back(reduceOp("ReduceMax", topi::ReduceOp::Max));
    s.push_back(reduceOp("ReduceMin", topi::ReduceOp::Min));
    s.push_back(reduceOp("ReduceProd", topi::ReduceOp::Prod));
    s.push_back(reduceOp("ReduceL1", topi::ReduceOp::L1));
    s.push_back(reduceOp("ReduceL2", topi::ReduceOp::L2));
    s.push_back(reduceOp("ReduceLogSum", topi::ReduceOp::LogSum));
    s.push_back(reduceOp("ReduceLogSumExp", topi::ReduceOp::LogSumExp));
    s.push_back(reduceOp("ReduceSumSquare", topi::ReduceOp::SumSquare));
    for (bool isMax : {true, false})
        s.push_back({isMax ? "ArgMax" : "ArgMin", "topi::argReduce", [isMax](const OpContext& c) {
                         topi::ArgReduceParams p;
                         p.axis = c.attrs().getInt("axis", 0);
                         p.keepDims = c.attrs().getInt("keepdims", 1) != 0;
                         p.selectLastIndex = c.attrs().getInt("select_last_index", 0) != 0;
                         p.isMax = isMax;
                         return Tensors{topi::argReduce(c.input(0), p, c.name())};
                     }});
    s.push_back({"LRN", "topi::nn::lrn", [](const OpContext& c) {
                     return Tensors{topi::nn::lrn(c.input(0), c.attrs().getInt("size", 0), c.attrs().getFloat("alpha", 1e-4),
                                                  c.attrs().getFloat("beta", 0.75), c.attrs().getFloat("bias", 1.0),
                                                  c.name())};
                 }});
    s.push_back({"MeanVarianceNormalization", "topi::nn::meanVarianceNormalization", [](const OpContext& c) {
                     return Tensors{topi::nn::meanVarianceNormalization(c.input(0), c.attrs().getInts("axes", {0, 2, 3}),
                                                                        c.name())};
                 }});
    s.push_back({"Hardmax", "topi::hardmax", [](const OpContext& c) {
                     return Tensors{topi::hardmax(c.input(0), c.attrs().getInt("axis", -1), c.name())};
                 }});
    s.push_back({"CumSum", "topi::cumsum", [](const OpContext& c) {
                     return Tensors{topi::cumsum(c.input(0), c.constInts(1).at(0), c.attrs().getInt("exclusive", 0) != 0,
                                                 c.attrs().getInt("reverse", 0) != 0, c.name())};
                 }});
    s.push_back({.op = "Softmax",
                 .compute = "topi::nn::softmax",
                 .apply = softmaxCuda,
                 .name = "softmax_cuda",
                 .priority = 10,
                 .when = innermostRowsApply,
                 .condition = "along the innermost axis, float (a block per row, max and sum as trees in shared "
                              "memory)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleRowReduceCuda});
    s.push_back({"Softmax", "topi::nn::softmax", [](const OpContext& c) {
                     return Tensors{topi::nn::softmax(c.input(0), c.attrs().getInt("axis", -1), c.name())};
                 }});
    s.push_back({.op = "LogSoftmax",
                 .compute = "topi::nn::logSoftmax",
                 .apply = logSoftmaxCuda,
                 .name = "log_softmax_cuda",
                 .priority = 10,
                 .when = innermostRowsApply,
                 .condition = "along the innermost axis, float (a block per row, max and sum as trees in shared "
                              "memory)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleRowReduceCuda});
    s.push_back({"LogSoftmax", "topi::nn::logSoftmax", [](const OpContext& c) {
                     return Tensors{topi::nn::logSoftmax(c.input(0), c.attrs().getInt("axis", -1), c.name())};
                 }});
    s.push_back({.op = "LayerNormalization",
                 .compute = "topi::nn::layerNorm",
                 .apply = [](const OpContext& c) {
                     return layerNorm(c, topi::defineRowThreadsKnob(c.config(), c.inputType(0).logical().shape.back()));
                 },
                 .name = "layer_norm_cuda",
                 .priority = 10,
                 .when = innermostRowsApply,
                 .condition = "over the innermost axis alone, float, one output (a block per row, the sums as "
                              "trees in shared memory)",
                 .targets = kGpuKinds,
                 .tunable = true,
                 .schedule = scheduleRowReduceCuda});
    s.push_back({"LayerNormalization", "topi::nn::layerNorm", [](const OpContext& c) { return layerNorm(c, 0); }});
    s.push_back({"InstanceNormalization", "topi::nn::instanceNorm", [](const OpContext& c) {
                     return Tensors{topi::nn::instanceNorm(c.input(0), c.input(1), c.input(2),
                                                           c.attrs().getFloat("epsilon", 1e-5), c.name())};
                 }});
}

} // namespace tessel::lower
