#include "graph/FreezeInputs.h"

#include "ir/Diagnostic.h"

#include <unordered_map>

namespace tessel::graph {

Graph freezeInputs(const Graph& g, const std::map<std::string, Ref<Constant>>& values) {
    for (auto& [name, v] : values)
        if (!g.findInput(name).defined()) throw CompileError("cannot freeze '" + name + "': the graph has no such input");
    Graph out(g.name());
    std::unordered_map<const Node*, Ref<Node>> replaced;
    for (auto& in : g.inputs()) {
        auto it = values.find(in->name);
        if (it == values.end()) {
            out.append(in);
            continue;
        }
        const TensorType& want = in->outputTypes[0];
        const Constant& c = *it->second;
        bool fits = c.dtype == want.dtype && static_cast<int>(c.shape.size()) == want.rank();
        for (size_t i = 0; fits && i < c.shape.size(); ++i) fits = want.shape[i] < 0 || want.shape[i] == c.shape[i];
        if (!fits)
            throw CompileError("cannot freeze input '" + in->name + "' of type " + want.str() + " to a value of type " +
                               c.type().str());
        Ref<Node> k = Node::makeConstant(in->id, in->name, it->second);
        replaced[in.get()] = k;
        out.append(k);
    }
    for (auto& c : g.constants()) out.append(c);
    auto remap = [&](const Value& v) -> Value {
        if (!v.defined()) return v;
        auto it = replaced.find(v.producer());
        return it == replaced.end() ? v : Value(it->second, v.index());
    };
    for (auto& n : g.nodes()) {
        std::vector<Value> ins;
        for (auto& v : n->inputs) ins.push_back(remap(v));
        Ref<Node> m = ins == n->inputs ? n : n->withInputs(std::move(ins));
        if (!m.sameAs(n)) replaced[n.get()] = m;
        out.append(m);
    }
    std::vector<Value> outs;
    for (auto& v : g.outputs()) outs.push_back(remap(v));
    out.setOutputs(std::move(outs));
    return out;
}

} // namespace tessel::graph
