#include "graph/passes/GraphRewrite.h"

#include "graph/OpRegistry.h"

#include <unordered_map>

namespace tessel::graph::detail {

Graph emptyLike(const Graph& g) {
    Graph out(g.name());
    for (const auto& in : g.inputs())
        out.append(in);
    // Carry the id counter over, so that ids of removed nodes are never reused.
    Graph probe = g;
    const int64_t next = probe.newId();
    while (out.newId() + 1 < next) {
    }
    return out;
}

std::string uniqueName(const Graph& g, const std::string& base) {
    auto taken = [&](const std::string& n) {
        for (const auto* list : {&g.inputs(), &g.constants()})
            for (const auto& node : *list)
                if (node->name == n) return true;
        return false;
    };
    if (!taken(base)) return base;
    for (int k = 2;; ++k) {
        std::string n = base + "_" + std::to_string(k);
        if (!taken(n)) return n;
    }
}

Ref<Node> makeTypedOp(const OpRegistry& ops, int64_t id, const std::string& op, std::vector<Value> inputs,
                      Attributes attrs, const std::string& name,
                      std::vector<std::string> outputNames) {
    Ref<Node> n =
        Node::makeOp(id, op, inputs, std::move(attrs), 1, name, {}, std::move(outputNames));
    for (const auto& in : inputs)
        if (in.defined() && !in.type().known()) return n;
    return n->withOutputTypes(ops.inferOutputTypes(*n, inputs));
}

Graph rewriteNodes(const Graph& g, const NodeRewrite& rewrite) {
    Graph out = emptyLike(g);
    for (const auto& c : g.constants())
        out.append(c);
    std::unordered_map<Value, Value, ValueHash> mapped;
    auto remap = [&](const Value& v) -> Value {
        if (!v.defined()) return v;
        auto it = mapped.find(v);
        return it == mapped.end() ? v : it->second;
    };
    for (const auto& n : g.nodes()) {
        std::vector<Value> inputs;
        inputs.reserve(n->inputs.size());
        for (const auto& in : n->inputs)
            inputs.push_back(remap(in));
        std::optional<std::vector<Value>> replacement = rewrite(*n, inputs, out);
        if (!replacement) {
            Ref<Node> m = inputs == n->inputs ? n : n->withInputs(inputs);
            out.append(m);
            if (!m.sameAs(n))
                for (int i = 0; i < n->numOutputs(); ++i)
                    mapped[n->output(i)] = m->output(i);
            continue;
        }
        for (size_t i = 0; i < replacement->size() && i < size_t(n->numOutputs()); ++i)
            if ((*replacement)[i].defined())
                mapped[n->output(static_cast<int>(i))] = (*replacement)[i];
    }
    std::vector<Value> outputs;
    for (const auto& v : g.outputs())
        outputs.push_back(remap(v));
    out.setOutputs(std::move(outputs));
    return out;
}

std::unordered_set<Value, ValueHash> usedValues(const Graph& g) {
    std::unordered_set<Value, ValueHash> used;
    for (const auto& n : g.nodes())
        for (const auto& in : n->inputs)
            if (in.defined()) used.insert(in);
    for (const auto& v : g.outputs())
        used.insert(v);
    return used;
}

Graph dropConstantsNoLongerUsed(const Graph& before, const Graph& after) {
    auto usedBefore = usedValues(before);
    auto usedAfter = usedValues(after);
    bool drop = false;
    for (const auto& c : after.constants())
        if (usedBefore.count(c->output(0)) && !usedAfter.count(c->output(0))) drop = true;
    if (!drop) return after;
    Graph out = emptyLike(after);
    for (const auto& c : after.constants())
        if (!(usedBefore.count(c->output(0)) && !usedAfter.count(c->output(0)))) out.append(c);
    for (const auto& n : after.nodes())
        out.append(n);
    out.setOutputs(after.outputs());
    return out;
}

} // namespace tessel::graph::detail
