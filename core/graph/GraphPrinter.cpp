#include "graph/GraphPrinter.h"

namespace tessel::graph {

std::string valueRef(const Value& v) {
    if (!v.defined()) return "none";
    const Node* p = v.producer();
    std::string s = "%";
    if (p->kind != NodeKind::Op) return s.append(p->name);
    s.append(std::to_string(p->id));
    if (v.index() > 0) s.append(".").append(std::to_string(v.index()));
    return s;
}

std::string printNode(const Node& node, const GraphPrintOptions& options) {
    switch (node.kind) {
    case NodeKind::Input:
        return "%" + node.name + ": " + node.outputTypes[0].str();
    case NodeKind::Constant: {
        std::string s = "%" + node.name + " = constant ";
        const Constant& c = *node.constant;
        if (c.numElements() <= options.maxConstantElements &&
            !(c.dtype.isFloat() && c.dtype.bits() == 16)) {
            if (c.dtype.isFloat())
                s += attrValueStr(AttrValue(c.toDoubles())) + " ";
            else
                s += attrValueStr(AttrValue(c.toInts())) + " ";
        }
        return s + ": " + c.type().str();
    }
    case NodeKind::Op:
        break;
    }
    std::string s;
    for (int i = 0; i < node.numOutputs(); ++i)
        s += (i ? ", " : "") + valueRef(node.output(i));
    s += " = " + node.op + "(";
    for (size_t i = 0; i < node.inputs.size(); ++i)
        s += (i ? ", " : "") + valueRef(node.inputs[i]);
    s += ")";
    if (!node.attrs.empty()) s.append(" ").append(node.attrs.str());
    s += " : ";
    for (int i = 0; i < node.numOutputs(); ++i)
        s += (i ? ", " : "") + node.outputTypes[static_cast<size_t>(i)].str();
    if (!node.name.empty()) s += "  # " + node.name;
    return s;
}

AnnotatedText printGraph(const Graph& g, const GraphPrintOptions& options) {
    AnnotatedText out;
    auto line = [&](const std::string& text, const Node* node) {
        out.text += text + "\n";
        out.lineNode.push_back(node);
        if (node) out.nodeLine.emplace(node, static_cast<int>(out.lineNode.size()));
    };
    std::string header = "graph " + g.name() + "(";
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        header += (i ? ", " : "") + printNode(*g.inputs()[i], options);
        out.nodeLine.emplace(g.inputs()[i].get(), 1);
    }
    line(header + ") {", nullptr);
    for (const auto& c : g.constants())
        line("  " + printNode(*c, options), c.get());
    for (const auto& n : g.nodes())
        line("  " + printNode(*n, options), n.get());
    std::string ret = "  return";
    for (size_t i = 0; i < g.outputs().size(); ++i)
        ret += (i ? ", " : " ") + valueRef(g.outputs()[i]);
    line(ret, nullptr);
    line("}", nullptr);
    return out;
}

} // namespace tessel::graph
