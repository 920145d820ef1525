#include "graph/passes/GraphPassManager.h"

#include "graph/GraphPrinter.h"

namespace tessel::pass {

bool IRTraits<graph::Graph>::sameNodes(const graph::Graph& a, const graph::Graph& b) {
    auto same = [](const std::vector<Ref<graph::Node>>& x, const std::vector<Ref<graph::Node>>& y) {
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i].get() != y[i].get()) return false;
        return true;
    };
    return a.name() == b.name() && same(a.inputs(), b.inputs()) && same(a.constants(), b.constants()) &&
           same(a.nodes(), b.nodes()) && a.outputs() == b.outputs();
}

AnnotatedText IRTraits<graph::Graph>::print(const graph::Graph& g) { return graph::printGraph(g); }

} // namespace tessel::pass
