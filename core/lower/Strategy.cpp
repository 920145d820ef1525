#include "lower/Strategy.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

namespace tessel::lower {

const std::vector<OpStrategy>& opStrategies() {
    static const std::vector<OpStrategy> strategies = [] {
        std::vector<OpStrategy> v;
        addElementwiseStrategies(v);
        addNnStrategies(v); // the blocked Conv and packed Gemm before the general ones
        addTransformStrategies(v);
        addReduceStrategies(v);
        return v;
    }();
    return strategies;
}

const OpStrategy* findStrategy(std::string_view op) {
    for (auto& s : opStrategies())
        if (s.op == op) return &s;
    return nullptr;
}

std::vector<te::Tensor> computeNode(const OpContext& ctx, const OpStrategy** used) {
    const auto& node = ctx.node();
    std::vector<te::Tensor> outs;
    const OpStrategy* applied = nullptr;
    for (auto& s : opStrategies()) {
        if (s.op != node.op) continue;
        try {
            outs = s.apply(ctx);
        } catch (const CompileError& e) {
            // topi's messages do not know the node; ctx.fail's already name it.
            const std::string prefix = node.describe() + ": ";
            const auto& d = e.diagnostic();
            if (d.message.compare(0, prefix.size(), prefix) == 0) throw;
            throw CompileError(prefix + d.message, d.loc);
        }
        applied = &s;
        if (!outs.empty()) break;
    }
    if (!applied) ctx.fail("the operator library has no compute for " + node.op);
    if (used) *used = applied;
    TESSEL_CHECK(static_cast<int>(outs.size()) == node.numOutputs(),
                 node.describe() + ": compute made " + std::to_string(outs.size()) + " outputs, node has " +
                     std::to_string(node.numOutputs()));
    for (int i = 0; i < node.numOutputs(); ++i) {
        const auto& want = node.outputTypes[static_cast<size_t>(i)];
        const auto& t = outs[static_cast<size_t>(i)];
        if (!t.defined()) continue; // an output nobody may read (Dropout's mask)
        TESSEL_CHECK(t->dtype == want.dtype && topi::staticShape(t) == want.shape,
                     node.describe() + ": output " + std::to_string(i) + " computed as " + t->dtype.str() +
                         " of the wrong shape; inferred " + want.str());
    }
    return outs;
}

} // namespace tessel::lower
