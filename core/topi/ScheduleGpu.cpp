#include "topi/ScheduleGpu.h"

#include "ir/Diagnostic.h"
#include "tir/IROperators.h"

namespace tessel::topi {

te::Schedule scheduleFusedGpu(const std::vector<te::Tensor>& outputs, int threadsPerBlock) {
    std::vector<te::Operation> ops;
    for (auto& t : outputs) ops.push_back(t->op);
    te::Schedule s = te::createSchedule(ops);
    for (te::Stage st : s.stages()) {
        if (st.op()->opKind() != te::OpKind::Compute) continue;
        auto* c = static_cast<const te::ComputeOpNode*>(st.op().get());
        if (!st.data().isOutput && c->reduceAxis.empty()) {
            st.computeInline();
            continue;
        }
        std::vector<tir::IterVar> axes;
        for (auto& iv : st.data().leafIterVars)
            if (iv->kind != tir::IterVarKind::CommReduce) axes.push_back(iv);
        if (axes.empty())
            throw CompileError("stage '" + st.op()->name + "' has no data-parallel axis to run on GPU threads");
        tir::IterVar fused = axes[0];
        for (size_t i = 1; i < axes.size(); ++i) fused = st.fuse(fused, axes[i]);
        int64_t extent = 1;
        for (auto& iv : axes) extent *= tir::asConstInt(iv->dom.extent).value_or(threadsPerBlock);
        const int64_t threads = std::min<int64_t>(threadsPerBlock, std::max<int64_t>(1, extent));
        auto [block, thread] = st.split(fused, tir::Expr(static_cast<int>(threads)));
        st.bind(block, te::threadAxis("blockIdx.x"));
        st.bind(thread, te::threadAxis("threadIdx.x"));
    }
    return s;
}

} // namespace tessel::topi
