#include "topi/GpuTiles.h"

#include "tir/IROperators.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi {

int64_t tileDivisor(int64_t n, int64_t cap) { return largestDivisorAtMost(n, std::max<int64_t>(cap, 1)); }

const te::ComputeOpNode* computeOf(const te::Operation& op) {
    return dynamic_cast<const te::ComputeOpNode*>(op.get());
}

te::Operation findTagged(const std::vector<te::Tensor>& outputs, const char* tag) {
    std::vector<te::Operation> roots;
    for (auto& t : outputs) roots.push_back(t->op);
    te::Operation found;
    for (auto& op : te::postOrderOps(roots)) {
        if (op->tag != tag) continue;
        if (found.defined()) return {};
        found = op;
    }
    return found;
}

bool injectiveEpilogue(const te::Tensor& out, const te::Operation& anchor,
                       const std::vector<te::Operation>& alsoAllowed) {
    for (auto& op : te::postOrderOps({out->op})) {
        if (op.get() == anchor.get() || op->opKind() != te::OpKind::Compute) continue;
        if (std::any_of(alsoAllowed.begin(), alsoAllowed.end(), [&](auto& a) { return a.get() == op.get(); }))
            continue;
        if (!computeOf(op)->reduceAxis.empty()) return false;
    }
    return true;
}

void inlineEpilogue(te::Schedule& s, const std::vector<te::Operation>& keep) {
    for (te::Stage st : s.stages()) {
        const te::Operation& op = st.op();
        const bool kept = std::any_of(keep.begin(), keep.end(), [&](auto& k) { return k.get() == op.get(); });
        if (!st.data().isOutput && !kept && op->opKind() == te::OpKind::Compute && computeOf(op)->reduceAxis.empty() &&
            st.data().attach != te::AttachKind::Inline)
            st.computeInline();
    }
}

void bindLoops(te::Stage st, const std::vector<std::pair<te::IterVar, const char*>>& loops) {
    for (auto& [iv, tag] : loops) st.bind(iv, te::threadAxis(tag));
}

void fuseAndBind(te::Stage st, const std::vector<te::IterVar>& axes, const char* tag) {
    if (axes.empty()) return;
    te::IterVar fused = axes[0];
    for (size_t j = 1; j < axes.size(); ++j) fused = st.fuse(fused, axes[j]);
    st.bind(fused, te::threadAxis(tag));
}

void cooperativeFetch(te::Stage st, const std::vector<std::pair<std::string, int64_t>>& threads) {
    const std::vector<te::IterVar> axes = st.data().leafIterVars; // a copy: fusing changes the leaves
    te::IterVar fused = axes.front();
    for (size_t i = 1; i < axes.size(); ++i) fused = st.fuse(fused, axes[i]);
    int64_t all = 1;
    for (auto& t : threads) all *= t.second;
    auto [rounds, rest] = st.split(fused, intImm(all));
    (void)rounds;
    for (size_t i = 0; i + 1 < threads.size(); ++i) {
        auto [outer, inner] = st.splitByNParts(rest, intImm(threads[i].second));
        st.bind(outer, te::threadAxis(threads[i].first));
        rest = inner;
    }
    st.bind(rest, te::threadAxis(threads.back().first));
}

} // namespace tessel::topi
