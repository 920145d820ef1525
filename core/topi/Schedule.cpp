#include "topi/Schedule.h"

#include "ir/Check.h"

#include "topi/BatchMatmul.h"
#include "topi/Conv2dNCHWc.h"
#include "topi/ConvTransposeNCHWc.h"
#include "topi/DensePacked.h"
#include "topi/DepthwiseNCHWc.h"
#include "topi/Knobs.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

namespace tessel::topi {

using namespace tir;

namespace {

int64_t extentOf(const IterVar& iv) { return extentOr(iv, -1); }

/// Parallel over the fused outer data-parallel loops of a root stage whose
/// leaves are still its axes (then its reduce axes).
void parallelOuter(te::Stage stage, const ScheduleOptions& options, size_t numDataAxes) {
    const auto& axes = stage.data().leafIterVars;
    if (numDataAxes == 0) return;
    int64_t total = 1;
    for (size_t i = 0; i < numDataAxes; ++i) total *= std::max<int64_t>(extentOf(axes[i]), 1);
    if (total < 2) return;
    // Fuse the outer axes until there is enough parallel work (a few tasks
    // per thread) without fusing the innermost data axis, which is the one
    // LLVM vectorizes.
    IterVar outer = axes[0];
    int64_t work = extentOf(outer);
    // After each fuse the next data axis is leaf 1 again.
    for (size_t fused = 1; work < 64 && fused + 1 < numDataAxes; ++fused) {
        IterVar next = stage.data().leafIterVars[1];
        work *= extentOf(next);
        outer = stage.fuse(outer, next);
    }
    (void)options;
    stage.parallel(outer);
}

/// A kReduceLanes stage: the reduction outside its partial results, which
/// are vectors (two independent ones where the partials span two).
void scheduleReduceLanes(te::Stage stage, const ScheduleOptions& options) {
    const auto leaves = stage.data().leafIterVars;
    if (leaves.size() < 2) return;
    IterVar lane = leaves[leaves.size() - 2], ro = leaves.back();
    const int64_t lanes = extentOf(lane);
    std::vector<IterVar> order(leaves.begin(), leaves.end() - 2);
    order.push_back(ro);
    if (lanes > options.vectorLanes && lanes % options.vectorLanes == 0) {
        auto [lo, li] = stage.split(lane, intImm(options.vectorLanes));
        order.push_back(lo);
        order.push_back(li);
        stage.reorder(order);
        stage.unroll(lo);
        stage.vectorize(li);
        return;
    }
    order.push_back(lane);
    stage.reorder(order);
    if (lanes == options.vectorLanes) stage.vectorize(lane);
}

/// A pooling of channel blocks (topi's NCHW[x]c pooling, block axis "cc"
/// last): the window (or, for a global pooling, the plane) is reduced outside
/// the block, which is one vector per tap; tasks over the images, channel
/// blocks and (for a window) output rows. Left as loops, each lane was a
/// scalar chain striding over the block: global average pooling in
/// EfficientNet's squeeze-excitation ran at 1 GFLOP/s, and ResNet's 3x3
/// MaxPool was scalar `maxss` with a branch per tap (0.8 ms, 2 GFLOP/s).
bool scheduleBlockedPool(te::Stage stage, const ScheduleOptions& options) {
    auto* op = dynamic_cast<const te::ComputeOpNode*>(stage.op().get());
    if (!op || op->tag != tag::kPool || op->reduceAxis.empty() || op->axis.size() < 4) return false;
    const IterVar block = op->axis.back();
    if (block->var.name() != "cc" || extentOf(block) % options.vectorLanes) return false;
    std::vector<IterVar> order(op->axis.begin(), op->axis.end() - 1);
    order.insert(order.end(), op->reduceAxis.begin(), op->reduceAxis.end());
    auto [bo, bi] = stage.split(block, intImm(options.vectorLanes));
    order.push_back(bo);
    order.push_back(bi);
    stage.reorder(order);
    stage.vectorize(bi);
    // Images and channel blocks, and the first spatial axis too when the
    // output has one (a window pooling): enough tasks on a batch of one.
    IterVar task = stage.fuse(op->axis[0], op->axis[1]);
    int64_t tasks = extentOf(op->axis[0]) * extentOf(op->axis[1]);
    if (op->axis.size() > 4 && extentOf(op->axis[2]) > 1) {
        task = stage.fuse(task, op->axis[2]);
        tasks *= extentOf(op->axis[2]);
    }
    if (tasks > 1) stage.parallel(task);
    return true;
}

} // namespace

void scheduleInjective(te::Stage stage, const ScheduleOptions& options) {
    auto* op = dynamic_cast<const te::ComputeOpNode*>(stage.op().get());
    if (!op || op->axis.empty()) return;
    int64_t total = 1;
    for (auto& iv : op->axis) total *= std::max<int64_t>(extentOf(iv), 1);
    std::vector<IterVar> axes(op->axis.begin(), op->axis.end());
    IterVar inner = axes.back();
    int64_t innerExtent = extentOf(inner);
    bool isFloat = op->body[0].type().isFloat();
    if (isFloat && innerExtent > 0 && innerExtent % options.vectorLanes == 0 && op->reduceAxis.empty()) {
        auto [io, ii] = stage.split(inner, intImm(options.vectorLanes));
        stage.vectorize(ii);
        axes.back() = io;
    }
    if (total < options.minParallelElements || axes.size() < 1) return;
    // Fuse outer axes into one parallel loop until it has enough tasks (a few
    // per thread); the axes inside stay loops of their own, so that their
    // addresses are affine and the innermost (vector or contiguous) loop has
    // a body worth a task. (Fusing every outer axis gave a channel-blocked
    // tensor one vector per task with three divisions for its address:
    // EfficientNet's SiLU ran at a fifth of the memory bandwidth.) An
    // innermost loop of one iteration (the axis is exactly one vector) does
    // not count as the contiguous loop: the axis outside it is kept too.
    const size_t keep = axes.size() >= 3 && extentOf(axes.back()) == 1 ? 2 : 1;
    IterVar fused = axes[0];
    int64_t work = std::max<int64_t>(extentOf(axes[0]), 1);
    for (size_t i = 1; i + keep < axes.size() && work < 256; ++i) {
        fused = stage.fuse(fused, axes[i]);
        work *= std::max<int64_t>(extentOf(axes[i]), 1);
    }
    if (axes.size() == 1) {
        // One axis only: split it into parallel chunks.
        auto [o, in] = stage.splitByNParts(fused, intImm(std::min<int64_t>(64, std::max<int64_t>(extentOf(fused), 1))));
        stage.parallel(o);
        return;
    }
    stage.parallel(fused);
}

te::Schedule scheduleFused(const std::vector<te::Tensor>& outputs, const ScheduleOptions& options,
                           te::ConfigSpace* cfg) {
    te::ConfigSpace defaults;
    te::ConfigSpace& knobs = cfg ? *cfg : defaults;
    std::vector<te::Operation> ops;
    for (auto& t : outputs) ops.push_back(t->op);
    te::Schedule s = te::createSchedule(ops);
    // A blocked convolution with one output (its NCHW stage and the fused
    // element-wise operators) gets its own schedule.
    // So does a packed dense layer.
    te::Tensor blockedConv, packedDense, depthwise, matmul, convTranspose, depthwiseBlocked;
    for (te::Stage stage : s.stages()) {
        if (stage.op()->tag == tag::kDepthwiseNCHWc) depthwiseBlocked = stage.op().output(0);
        if (stage.op()->tag == tag::kConv2dNCHWc) blockedConv = stage.op().output(0);
        if (stage.op()->tag == tag::kDensePacked) packedDense = stage.op().output(0);
        if (stage.op()->tag == tag::kDepthwise) depthwise = stage.op().output(0);
        if (stage.op()->tag == tag::kDense) matmul = stage.op().output(0);
        if (stage.op()->tag == tag::kConvTransposeNCHWc) convTranspose = stage.op().output(0);
    }
    te::Tensor anchor = blockedConv.defined()        ? blockedConv
                        : depthwiseBlocked.defined() ? depthwiseBlocked
                        : packedDense.defined()      ? packedDense
                                                     : depthwise;
    // The anchor's own schedule needs the output stage in NCHW (or, for the
    // blocked convolution, in NCHW[x]c blocks) and not the anchor itself.
    const int outRank = outputs.empty() ? 0 : outputs[0].ndim();
    bool convScheduled = anchor.defined() && outputs.size() == 1 &&
                         (packedDense.defined() ? outRank >= 2
                          : depthwiseBlocked.defined()
                              ? outRank == 5
                              : outRank == 4 || (blockedConv.defined() && outRank == 5)) &&
                         !outputs[0]->op.sameAs(anchor->op);
    // A matrix product of two activations (its output may be the product itself).
    const bool matmulScheduled = !anchor.defined() && matmul.defined() && outputs.size() == 1 &&
                                 matmulScheduleApplies(matmul, outputs[0]);
    const bool convTransposeScheduled = convTranspose.defined() && outputs.size() == 1 &&
                                        (outputs[0].ndim() == 4 || outputs[0].ndim() == 5) &&
                                        !outputs[0]->op.sameAs(convTranspose->op);
    convScheduled = convScheduled || matmulScheduled || convTransposeScheduled;
    for (te::Stage stage : s.stages()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(stage.op().get());
        if (!op) continue;
        if (convScheduled && !stage.data().isOutput && tag::isInjectiveTag(op->tag)) {
            stage.computeInline();
            continue;
        }
        if (convScheduled) continue; // scheduled below
        bool isOutput = stage.data().isOutput;
        if (!isOutput && tag::isInjectiveTag(op->tag)) {
            stage.computeInline();
            continue;
        }
        if (tag::isInjectiveTag(op->tag)) {
            scheduleInjective(stage, options);
            continue;
        }
        if (scheduleBlockedPool(stage, options)) continue;
        int64_t total = 1;
        for (auto& iv : op->axis) total *= std::max<int64_t>(extentOf(iv), 1);
        if (total * std::max<int64_t>(static_cast<int64_t>(op->reduceAxis.size()), 1) >= options.minParallelElements / 4)
            parallelOuter(stage, options, op->axis.size());
        if (op->tag == tag::kReduceLanes) scheduleReduceLanes(stage, options);
    }
    if (matmulScheduled) scheduleMatmul(s, matmul, outputs[0], options, knobs);
    else if (convTransposeScheduled) scheduleConvTransposeNCHWc(s, convTranspose, outputs[0], options, knobs);
    else if (convScheduled && blockedConv.defined()) scheduleConv2dNCHWc(s, blockedConv, outputs[0], options, knobs);
    else if (convScheduled && depthwiseBlocked.defined())
        scheduleDepthwiseNCHWc(s, depthwiseBlocked, outputs[0], options, knobs);
    else if (convScheduled && packedDense.defined()) scheduleDensePacked(s, packedDense, outputs[0], options, knobs);
    else if (convScheduled) scheduleDepthwiseNCHW(s, depthwise, outputs[0], options, knobs);
    return s;
}

void scheduleDepthwiseNCHW(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                           const ScheduleOptions& options, te::ConfigSpace& cfg) {
    auto* outOp = dynamic_cast<const te::ComputeOpNode*>(out->op.get());
    auto* convOp = dynamic_cast<const te::ComputeOpNode*>(conv->op.get());
    TESSEL_CHECK(outOp && convOp && outOp->axis.size() == 4 && convOp->axis.size() == 4,
                 "depthwise schedule on unexpected stages");
    te::Stage o = s[out];
    const auto& ax = outOp->axis;
    // A task per channel plane when there are enough of them, so that tasks
    // write whole planes; per output row otherwise.
    const bool manyPlanes = extentOf(ax[0]) * extentOf(ax[1]) >= options.minParallelPlanes;
    const te::KnobValue planes(std::string("planes")), rows(std::string("rows"));
    const bool byPlane = defineChoiceKnob(cfg, "parallel", {planes, rows}, manyPlanes ? planes : rows) == planes;
    const bool unrollKw =
        defineChoiceKnob(cfg, "unroll_kw", {te::KnobValue(false), te::KnobValue(true)}, te::KnobValue(false)).asBool();
    IterVar plane = o.fuse(ax[0], ax[1]);
    IterVar at = ax[2];
    if (byPlane) {
        o.parallel(plane);
    } else {
        at = o.fuse(plane, ax[2]);
        o.parallel(at);
    }
    // One output row of the convolution at a time, taps outside the columns.
    te::Stage d = s[conv];
    d.computeAt(o, at);
    std::vector<IterVar> order(convOp->reduceAxis.begin(), convOp->reduceAxis.end());
    order.push_back(convOp->axis[3]);
    d.reorder(order);
    if (unrollKw && order.size() >= 3) d.unroll(order[order.size() - 2]);
    // The padded input: every plane in parallel.
    for (auto& t : convOp->inputTensors()) {
        auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
        if (op && op->tag == tag::kPad && op->axis.size() == 4) s[t].parallel(s[t].fuse(op->axis[0], op->axis[1]));
    }
}

} // namespace tessel::topi
