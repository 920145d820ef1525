#include "graph/passes/DeadCodeElimination.h"

#include "graph/passes/GraphRewrite.h"

#include <unordered_set>
#include <vector>

namespace tessel::graph {

Graph deadCodeElimination(const Graph& g, const DeadCodeEliminationOptions& options) {
    std::unordered_set<const Node*> live;
    std::vector<const Node*> work;
    auto reach = [&](const Value& v) {
        if (v.defined() && live.insert(v.producer()).second) work.push_back(v.producer());
    };
    for (const auto& v : g.outputs())
        reach(v);
    while (!work.empty()) {
        const Node* n = work.back();
        work.pop_back();
        for (const auto& in : n->inputs)
            reach(in);
    }
    bool removed = false;
    for (const auto& n : g.nodes())
        if (!live.count(n.get())) removed = true;
    if (options.removeConstants)
        for (const auto& c : g.constants())
            if (!live.count(c.get())) removed = true;
    if (!removed) return g;

    Graph out = detail::emptyLike(g);
    for (const auto& c : g.constants())
        if (!options.removeConstants || live.count(c.get())) out.append(c);
    for (const auto& n : g.nodes())
        if (live.count(n.get())) out.append(n);
    out.setOutputs(g.outputs());
    return out;
}

} // namespace tessel::graph
