#include "graph/passes/CommonSubexpressionElimination.h"

#include "graph/passes/GraphRewrite.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessel::graph {

namespace {

/// A key that equal nodes share (it does not look at attributes).
std::string nodeKey(const Node& n, const std::vector<Value>& inputs) {
    std::string key = n.op;
    key.append("/").append(std::to_string(n.numOutputs()));
    for (const auto& in : inputs) {
        key.append(",").append(std::to_string(reinterpret_cast<uintptr_t>(in.producer())));
        key.append(".").append(std::to_string(in.index()));
    }
    return key;
}

} // namespace

Graph commonSubexpressionElimination(const Graph& g,
                                     const CommonSubexpressionEliminationOptions& options) {
    Graph sorted = g.clone();
    sorted.sortTopologically();

    // Constants: the first of each group of equal tensors stands for all of them.
    std::unordered_map<Value, Value, ValueHash> constantFor;
    std::vector<Ref<Node>> keptConstants;
    for (const auto& c : sorted.constants()) {
        const Node* same = nullptr;
        if (options.mergeConstants)
            for (const auto& k : keptConstants)
                if (k->constant->dtype == c->constant->dtype &&
                    k->constant->shape == c->constant->shape &&
                    k->constant->bytes == c->constant->bytes &&
                    k->constant->layout == c->constant->layout) {
                    same = k.get();
                    break;
                }
        if (same)
            constantFor[c->output(0)] = same->output(0);
        else
            keptConstants.push_back(c);
    }

    std::map<std::string, std::vector<Ref<Node>>> seen;
    bool changed = !constantFor.empty();
    Graph out =
        detail::rewriteNodes(sorted,
                             [&](const Node& n, const std::vector<Value>& mappedInputs,
                                 Graph& target) -> std::optional<std::vector<Value>> {
                                 std::vector<Value> inputs = mappedInputs;
                                 for (auto& in : inputs)
                                     if (auto it = constantFor.find(in); it != constantFor.end())
                                         in = it->second;
                                 std::string key = nodeKey(n, inputs);
                                 for (const auto& earlier : seen[key])
                                     if (earlier->attrs == n.attrs) {
                                         changed = true;
                                         return earlier->outputs();
                                     }
                                 Ref<Node> kept =
                                     inputs == n.inputs ? Ref<Node>(&n) : n.withInputs(inputs);
                                 target.append(kept);
                                 seen[key].push_back(kept);
                                 return kept->outputs();
                             });
    if (!changed) return g;
    std::vector<Value> outputs = out.outputs();
    for (auto& v : outputs)
        if (auto it = constantFor.find(v); it != constantFor.end()) v = it->second;
    out.setOutputs(std::move(outputs));
    return detail::dropConstantsNoLongerUsed(sorted, out);
}

} // namespace tessel::graph
