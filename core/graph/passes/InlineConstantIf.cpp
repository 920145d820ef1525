#include "graph/passes/InlineConstantIf.h"

#include "graph/passes/GraphRewrite.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"

#include <unordered_map>

namespace tessel::graph {

namespace {

/// The branch an If with a constant condition takes, or null.
const Subgraph* takenBranch(const Node& node, const std::vector<Value>& inputs) {
    if (node.op != "If" || node.opaque() || inputs.empty()) return nullptr;
    Ref<Constant> cond = inputs[0].constant();
    if (!cond || cond->numElements() != 1) return nullptr;
    const std::string attr = cond->toDoubles()[0] != 0 ? "then_branch" : "else_branch";
    for (const auto& s : node.subgraphs)
        if (s.attr == attr && s.graph) return &s;
    return nullptr;
}

/// Copies `branch` (whose outer values are `outer`) into `out`; its outputs there.
std::vector<Value> inlineBranch(const Node& node, const Subgraph& branch,
                                const std::vector<Value>& outer, Graph& out) {
    const Graph& b = *branch.graph;
    std::unordered_map<Value, Value, ValueHash> map;
    const size_t own = b.inputs().size() - outer.size();
    TESSEL_CHECK(own == 0, "an If branch with inputs of its own");
    for (size_t i = 0; i < outer.size(); ++i)
        map[b.inputs()[i]->output()] = outer[i];
    const std::string prefix =
        (node.name.empty() ? "if" + std::to_string(node.id) : node.name) + "/";
    for (const auto& c : b.constants())
        map[c->output()] = out.addConstant(detail::uniqueName(out, prefix + c->name), c->constant);
    auto mapped = [&](const Value& v) {
        if (!v.defined()) return v;
        auto it = map.find(v);
        TESSEL_CHECK(it != map.end(), "If branch value defined outside the branch");
        return it->second;
    };
    for (const auto& n : b.nodes()) {
        std::vector<Value> ins;
        for (const auto& in : n->inputs)
            ins.push_back(mapped(in));
        Ref<Node> copy = n->withInputs(std::move(ins));
        Ref<Node> fresh =
            Node::makeOp(out.newId(), copy->op, copy->inputs, copy->attrs, copy->numOutputs(),
                         copy->name, copy->outputTypes, copy->outputNames);
        if (!copy->subgraphs.empty()) {
            fresh = Node::makeControlFlow(fresh->id, copy->op, copy->inputs, copy->attrs,
                                          copy->subgraphs, copy->name, copy->outputNames)
                        ->withOutputTypes(copy->outputTypes);
        }
        out.append(fresh);
        for (int i = 0; i < n->numOutputs(); ++i)
            map[n->output(i)] = fresh->output(i);
    }
    std::vector<Value> results;
    for (const auto& o : b.outputs())
        results.push_back(mapped(o));
    return results;
}

} // namespace

Graph inlineConstantIf(const Graph& g) {
    bool any = false;
    for (const auto& n : g.nodes())
        any = any || takenBranch(*n, n->inputs);
    if (!any) return g;
    Graph out = detail::rewriteNodes(
        g,
        [](const Node& node, const std::vector<Value>& inputs,
           Graph& o) -> std::optional<std::vector<Value>> {
            const Subgraph* branch = takenBranch(node, inputs);
            if (!branch) return std::nullopt;
            // The branch's outer values are the If's inputs after the condition,
            // subgraph by subgraph (Node::makeControlFlow).
            size_t at = static_cast<size_t>(node.numOwnInputs());
            for (const auto& s : node.subgraphs) {
                if (&s == branch) break;
                at += s.outer.size();
            }
            std::vector<Value> outer(inputs.begin() + static_cast<long>(at),
                                     inputs.begin() + static_cast<long>(at + branch->outer.size()));
            return inlineBranch(node, *branch, outer, o);
        });
    return detail::dropConstantsNoLongerUsed(g, out);
}

} // namespace tessel::graph
