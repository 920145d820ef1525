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
    s += " = " + (node.domain.empty() ? node.op : node.domain + "." + node.op) + "(";
    for (size_t i = 0; i < node.inputs.size(); ++i)
        s += (i ? ", " : "") + valueRef(node.inputs[i]);
    s += ")";
    if (!node.attrs.empty()) s.append(" ").append(node.attrs.str());
    s += " : ";
    for (int i = 0; i < node.numOutputs(); ++i)
        s += (i ? ", " : "") + node.outputTypes[static_cast<size_t>(i)].str();
    if (!node.name.empty()) s += "  # " + node.name;
    if (node.opaque()) s += (node.name.empty() ? "  # " : "; ") + std::string("unsupported: ") + node.unsupported;
    return s;
}

namespace {

/// Prints `g` into `out` with `indent` before every line. The lines of a
/// subgraph map to `owner`, the top-level node that holds it (null: each
/// line maps to its own node).
void printInto(AnnotatedText& out, const Graph& g, const GraphPrintOptions& options,
               const std::string& indent, const std::string& title, const Node* owner) {
    auto line = [&](const std::string& text, const Node* node) {
        out.text += indent + text + "\n";
        out.lineNode.push_back(owner ? owner : node);
        if (node && !owner) out.nodeLine.emplace(node, static_cast<int>(out.lineNode.size()));
    };
    std::string header = title + "graph " + g.name() + "(";
    const int headerLine = static_cast<int>(out.lineNode.size()) + 1;
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        header += (i ? ", " : "") + printNode(*g.inputs()[i], options);
        if (!owner) out.nodeLine.emplace(g.inputs()[i].get(), headerLine);
    }
    line(header + ") {", nullptr);
    if (!g.storedTypes().empty()) {
        // Float16 and bfloat16 tensors are held and computed as float32.
        std::string stored = "  # computed as float32, stored in the model as";
        for (const auto& [tensor, type] : g.storedTypes())
            stored += " " + tensor + ":" + type;
        line(stored, nullptr);
    }
    for (const auto& c : g.constants())
        line("  " + printNode(*c, options), c.get());
    for (const auto& n : g.nodes()) {
        line("  " + printNode(*n, options), n.get());
        for (const auto& s : n->subgraphs)
            if (s.graph)
                printInto(out, *s.graph, options, indent + "    ", s.attr + ": ",
                          owner ? owner : n.get());
    }
    std::string ret = "  return";
    for (size_t i = 0; i < g.outputs().size(); ++i)
        ret += (i ? ", " : " ") + valueRef(g.outputs()[i]);
    line(ret, nullptr);
    line("}", nullptr);
}

} // namespace

AnnotatedText printGraph(const Graph& g, const GraphPrintOptions& options) {
    AnnotatedText out;
    printInto(out, g, options, "", "", nullptr);
    return out;
}

} // namespace tessel::graph
