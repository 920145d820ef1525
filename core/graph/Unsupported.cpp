#include "graph/Unsupported.h"

namespace tessel::graph {

std::string UnsupportedConstruct::str() const {
    return (path.empty() ? std::string() : path + " / ") + where + ": " + reason;
}

namespace {

std::string whereOf(const Node& n) {
    if (n.kind != NodeKind::Op || n.domain.empty()) return n.describe();
    const std::string op = n.domain + "." + n.op;
    return n.name.empty() ? "node %" + std::to_string(n.id) + " (" + op + ")"
                          : "node '" + n.name + "' (" + op + ")";
}

void collect(const Graph& g, const std::string& path, int64_t topId,
             std::vector<UnsupportedConstruct>& out) {
    auto add = [&](const Node& n) {
        UnsupportedConstruct c;
        c.nodeId = topId >= 0 ? topId : n.id;
        c.name = n.name;
        c.op = n.op;
        c.domain = n.domain;
        c.path = path;
        c.where = whereOf(n);
        c.reason = n.unsupported;
        out.push_back(std::move(c));
    };
    for (const auto& in : g.inputs())
        if (in->opaque()) add(*in);
    for (const auto& n : g.nodes()) {
        if (n->opaque()) add(*n);
        for (const auto& s : n->subgraphs) {
            if (!s.graph) continue;
            const std::string inner = (path.empty() ? "" : path + " / ") + whereOf(*n) + " / " + s.attr;
            collect(*s.graph, inner, topId >= 0 ? topId : n->id, out);
        }
    }
}

} // namespace

std::vector<UnsupportedConstruct> unsupportedConstructs(const Graph& g) {
    std::vector<UnsupportedConstruct> out;
    collect(g, {}, -1, out);
    return out;
}

std::string describeUnsupported(const std::vector<UnsupportedConstruct>& list) {
    if (list.size() == 1) return list.front().str();
    std::string s = std::to_string(list.size()) + " constructs cannot be compiled:";
    for (const auto& c : list)
        s += "\n  " + c.str();
    return s;
}

} // namespace tessel::graph
