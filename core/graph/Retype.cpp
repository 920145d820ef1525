#include "graph/Retype.h"

#include "ir/Check.h"

#include <unordered_map>

namespace tessel::graph {

Graph withInputTypes(const Graph& g, const std::vector<TensorType>& types) {
    TESSEL_CHECK(types.size() == g.inputs().size(), "one type per input of graph " + g.name());
    Graph out(g.name());
    std::unordered_map<Value, Value, ValueHash> map;
    for (size_t i = 0; i < types.size(); ++i) {
        const Node& in = *g.inputs()[i];
        map[in.output()] = out.addInputNode(Node::makeInput(in.id, in.name, types[i]));
    }
    for (const auto& c : g.constants())
        out.append(c);
    auto mapped = [&](const Value& v) {
        auto it = v.defined() ? map.find(v) : map.end();
        return it == map.end() ? v : it->second;
    };
    for (const auto& n : g.nodes()) {
        std::vector<Value> ins;
        for (const auto& in : n->inputs)
            ins.push_back(mapped(in));
        Ref<Node> m = n->with(std::move(ins), std::vector<TensorType>(size_t(n->numOutputs())));
        out.append(m);
        for (int i = 0; i < n->numOutputs(); ++i)
            map[n->output(i)] = m->output(i);
    }
    std::vector<Value> outs;
    for (const auto& v : g.outputs())
        outs.push_back(mapped(v));
    out.setOutputs(std::move(outs));
    return out;
}

} // namespace tessel::graph
