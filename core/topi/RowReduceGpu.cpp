#include "topi/RowReduceGpu.h"

#include "ir/Check.h"
#include "tir/IROperators.h"
#include "topi/GpuTiles.h"
#include "topi/Knobs.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi {

namespace {

/// The stages of a reduction tree (lanes and levels) reachable from `out`.
std::vector<te::Operation> treeStages(const te::Tensor& out) {
    std::vector<te::Operation> found;
    for (auto& op : te::postOrderOps({out->op}))
        if (op->tag == tag::kReduceLanes || op->tag == tag::kReduceTree) found.push_back(op);
    return found;
}

int64_t product(const std::vector<int64_t>& v, size_t end) {
    int64_t p = 1;
    for (size_t i = 0; i < end; ++i) p *= v[i];
    return p;
}

} // namespace

int64_t defineRowThreadsKnob(te::ConfigSpace* cfg, int64_t length) {
    std::vector<te::KnobValue> choices;
    int64_t def = 16;
    for (int64_t l = 16; l <= 512; l *= 2)
        if (l < 2 * length || l == 16) {
            choices.emplace_back(l);
            if (l <= std::min<int64_t>(length, 256)) def = l;
        }
    if (!cfg) return def;
    return defineChoiceKnob(*cfg, "row_threads", choices, te::KnobValue(def)).asInt();
}

bool rowReduceGpuScheduleApplies(const std::vector<te::Tensor>& outputs) {
    if (outputs.size() != 1 || outputs[0].ndim() < 2) return false;
    const std::vector<int64_t> shape = staticShape(outputs[0]);
    const int64_t rows = product(shape, shape.size() - 1);
    int64_t lanes = 0;
    bool anyLanes = false;
    for (auto& op : te::postOrderOps({outputs[0]->op})) {
        const te::ComputeOpNode* c = computeOf(op);
        if (!c) continue;
        const bool isLanes = op->tag == tag::kReduceLanes;
        if (!c->reduceAxis.empty() && !isLanes) return false;
        if (!isLanes) continue;
        // The partials of every row of the output, one lane count for all.
        const std::vector<int64_t> ps = staticShape(op.output(0));
        if (c->reduceAxis.size() != 1 || product(ps, ps.size() - 1) != rows) return false;
        if (anyLanes && ps.back() != lanes) return false;
        lanes = ps.back();
        anyLanes = true;
    }
    return anyLanes && lanes >= 2 && (lanes & (lanes - 1)) == 0 && lanes <= 1024;
}

te::Schedule scheduleRowReduceGpu(const std::vector<te::Tensor>& outputs) {
    TESSEL_CHECK(rowReduceGpuScheduleApplies(outputs), "GPU row reduction schedule on unexpected outputs");
    const te::Tensor out = outputs[0];
    te::Schedule s = te::createSchedule({out->op});
    const std::vector<te::Operation> tree = treeStages(out);
    // Every partial stage has the same lanes (applies): the first one's.
    const auto first = std::find_if(tree.begin(), tree.end(), [](auto& op) { return op->tag == tag::kReduceLanes; });
    const int64_t lanes = staticShape(first->output(0)).back();

    // Partials and levels live in shared memory, one copy per block (row);
    // the statistics' views, the copies out and the element-wise work inline.
    // A thread's partial accumulates in a register: accumulating in shared
    // memory would take a barrier per step (thread-sync cannot tell that each
    // thread touches only its own word).
    std::vector<te::Operation> shared, local; // local[i]: shared[i]'s accumulator, or none
    for (auto& op : tree) {
        const te::Tensor sh = s.cacheWrite(op.output(0), "shared");
        shared.push_back(sh->op);
        local.push_back(op->tag == tag::kReduceLanes ? s.cacheWrite(sh, "local")->op : te::Operation());
    }
    inlineEpilogue(s, shared);

    te::Stage o = s[out];
    const std::vector<te::IterVar> axes = computeOf(o.op())->axis;
    const std::vector<te::IterVar> rowAxes(axes.begin(), axes.end() - 1);
    auto [rounds, tx] = o.split(axes.back(), intImm(lanes));
    te::IterVar row = rowAxes[0];
    for (size_t j = 1; j < rowAxes.size(); ++j) row = o.fuse(row, rowAxes[j]);
    o.reorder({row, tx, rounds});
    bindLoops(o, {{row, "blockIdx.x"}, {tx, "threadIdx.x"}});

    // Each stage over the block's row, its lanes on the threads: a level of
    // `half` lanes leaves the threads from `half` on idle (a guard).
    for (size_t i = 0; i < shared.size(); ++i) {
        te::Stage st = s[shared[i]];
        st.computeAt(o, row);
        auto [outer, inner] = st.split(computeOf(st.op())->axis.back(), intImm(lanes));
        (void)outer;
        st.bind(inner, te::threadAxis("threadIdx.x"));
        if (local[i].defined()) s[local[i]].computeAt(st, inner);
    }
    return s;
}

} // namespace tessel::topi
