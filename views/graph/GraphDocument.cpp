#include "graph/GraphDocument.h"

#include "driver/ModelCompiler.h"
#include "graph/GraphPrinter.h"

#include <cmath>

namespace tessel::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString typeText(const graph::Node& n) {
    return n.outputTypes.empty() ? QString() : qs(n.outputTypes.front().str());
}

QString tensorText(const graph::Value& v) {
    return v.name().empty() ? qs(graph::valueRef(v)) : qs(v.name());
}

} // namespace

std::vector<GraphStageEntry>
graphStagesOf(const std::shared_ptr<const driver::CompiledModel>& model) {
    std::vector<GraphStageEntry> out;
    if (!model) return out;
    for (const auto& s : model->graphStages) {
        const graph::Graph* g = s.irAs<graph::Graph>();
        if (!g) continue;
        GraphStageEntry e;
        e.pass = qs(s.pass);
        e.changed = s.changed;
        e.graph = std::shared_ptr<const graph::Graph>(model, g); // lives as long as the model
        if (s.pass == "import")
            e.title = GraphDocument::tr("imported");
        else if (s.changed)
            e.title = GraphDocument::tr("after %1").arg(e.pass);
        else
            e.title = GraphDocument::tr("after %1 (unchanged)").arg(e.pass);
        out.push_back(std::move(e));
    }
    GraphStageEntry fused;
    fused.title = GraphDocument::tr("fused");
    fused.pass = QStringLiteral("fused");
    fused.fused = true;
    fused.graph = std::shared_ptr<const graph::Graph>(model, &model->graph);
    out.push_back(std::move(fused));
    return out;
}

std::shared_ptr<const GraphDocument>
GraphDocument::fromGraph(std::shared_ptr<const graph::Graph> graph, const QString& title) {
    GraphStageEntry e;
    e.title = title.isEmpty() ? tr("graph") : title;
    e.pass = QStringLiteral("graph");
    e.graph = std::move(graph);
    return build(e, nullptr);
}

std::shared_ptr<const GraphDocument>
GraphDocument::build(const GraphStageEntry& stage,
                     std::shared_ptr<const driver::CompiledModel> model) {
    auto doc = std::make_shared<GraphDocument>();
    doc->stage = stage;
    doc->graph = stage.graph;
    doc->model = std::move(model);
    if (!doc->graph) return doc;
    const graph::Graph& g = *doc->graph;
    const graph::FusionPlan* plan = doc->model ? &doc->model->fusion : nullptr;
    // Fusion membership is by node id, valid for nodes that survive into the
    // compiled graph (passes keep ids when they remake a node).
    auto functionOf = [&](int64_t id) -> QString {
        if (!plan || !doc->model->graph.findNode(id)) return {};
        const graph::FusionGroup* grp = plan->groupOfNode(id);
        return grp ? qs(grp->name) : QString();
    };

    auto& nodes = doc->nodes;
    nodes.reserve(g.inputs().size() + g.nodes().size() + g.outputs().size());
    for (const auto& in : g.inputs()) {
        GraphDocNode n;
        n.kind = GraphDocNode::Kind::Input;
        n.id = in->id;
        n.node = in.get();
        n.op = tr("input");
        n.name = qs(in->name);
        n.type = typeText(*in);
        doc->indexOfId_[n.id] = int(nodes.size());
        nodes.push_back(std::move(n));
    }
    for (const auto& op : g.nodes()) {
        GraphDocNode n;
        n.id = op->id;
        n.node = op.get();
        n.op = qs(op->op);
        n.name = qs(op->name);
        n.type = typeText(*op);
        const graph::OpInfo* info = graph::findOp(op->op);
        n.pattern = info ? info->pattern : graph::OpPattern::Opaque;
        n.function = functionOf(op->id);
        doc->indexOfId_[n.id] = int(nodes.size());
        nodes.push_back(std::move(n));
    }
    auto edgeFrom = [&](const graph::Value& v, int to) {
        if (!v.defined() || v.isConstant()) return;
        int from = doc->indexOfNode(v.producer()->id);
        if (from < 0) return;
        doc->edges.push_back({from, to, tensorText(v), qs(v.type().str())});
    };
    for (const auto& op : g.nodes()) {
        int to = doc->indexOfNode(op->id);
        for (const auto& v : op->inputs)
            edgeFrom(v, to);
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
        const graph::Value& v = g.outputs()[i];
        GraphDocNode n;
        n.kind = GraphDocNode::Kind::Output;
        n.output = int(i);
        n.op = tr("output");
        n.name = tensorText(v);
        n.type = v.defined() ? qs(v.type().str()) : QString();
        nodes.push_back(std::move(n));
        edgeFrom(v, int(nodes.size()) - 1);
    }

    if (stage.fused && plan) {
        for (const auto& grp : plan->groups) {
            if (grp.members.size() < 2) continue;
            GraphDocCluster c;
            c.group = grp.index;
            c.name = qs(grp.name);
            c.color = groupColor(int(doc->clusters.size()));
            for (int64_t id : grp.members) {
                int i = doc->indexOfNode(id);
                if (i < 0) continue;
                nodes[size_t(i)].cluster = int(doc->clusters.size());
                c.members.push_back(i);
            }
            if (!c.members.empty()) doc->clusters.push_back(std::move(c));
        }
    }
    return doc;
}

int GraphDocument::indexOfNode(int64_t id) const {
    auto it = indexOfId_.find(id);
    return it == indexOfId_.end() ? -1 : it->second;
}

int GraphDocument::clusterOfFunction(const QString& name) const {
    for (size_t i = 0; i < clusters.size(); ++i)
        if (clusters[i].name == name) return int(i);
    return -1;
}

std::vector<int> GraphDocument::nodesOfFunction(const QString& name) const {
    std::vector<int> out;
    if (name.isEmpty()) return out;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].function == name) out.push_back(int(i));
    return out;
}

std::vector<int> GraphDocument::search(const QString& text) const {
    std::vector<int> out;
    QString t = text.trimmed();
    if (t.isEmpty()) return out;
    auto has = [&](const QString& s) { return s.contains(t, Qt::CaseInsensitive); };
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        // A function's name finds its members only when typed in full
        // ("conv" should find convolutions, not every Relu fused into one).
        bool match = has(n.op) || has(n.name) || n.function.compare(t, Qt::CaseInsensitive) == 0;
        if (!match && n.node)
            for (const auto& o : n.node->outputNames)
                if (has(qs(o))) {
                    match = true;
                    break;
                }
        if (match) out.push_back(int(i));
    }
    return out;
}

QString GraphDocument::fusionReason(int index) const {
    if (index < 0 || index >= int(nodes.size())) return {};
    const auto& n = nodes[size_t(index)];
    if (n.kind == GraphDocNode::Kind::Output)
        return tr("Graph output: written by the function that computes it.");
    if (model) {
        bool inFinal = n.kind == GraphDocNode::Kind::Input
                           ? bool(model->graph.findInput(n.name.toStdString()).defined())
                           : model->graph.findNode(n.id) != nullptr;
        if (inFinal) {
            std::string r = model->fusion.reason(n.id);
            if (!r.empty()) return qs(r);
        } else {
            // Find the pass after which the node is gone.
            bool seen = false;
            for (const auto& s : model->graphStages) {
                const graph::Graph* g = s.irAs<graph::Graph>();
                if (!g) continue;
                if (g->findNode(n.id)) {
                    seen = true;
                } else if (seen) {
                    return tr("Removed by %1: it is not in the compiled model.").arg(qs(s.pass));
                }
            }
            return tr("Not in the compiled model (a graph pass removed or replaced it).");
        }
    }
    // No plan sentence: explain from the pattern kind (FuseOps.cpp's rules).
    if (n.kind == GraphDocNode::Kind::Input)
        return tr("Graph input: never fused; a parameter of the functions that read it.");
    switch (n.pattern) {
    case graph::OpPattern::ElementWise:
    case graph::OpPattern::Broadcast:
        return tr("%1 is %2: it fuses into the output of a convolution or dense operator, "
                  "with other element-wise operators, or into a following injective operator or "
                  "reduction.")
            .arg(n.op, patternText(n.pattern));
    case graph::OpPattern::Injective:
        return tr("%1 is injective: it fuses with other injective and element-wise operators.")
            .arg(n.op);
    case graph::OpPattern::CommReduce:
        return tr("%1 is a reduction: element-wise operators before it fuse as its inputs, "
                  "and element-wise operators after it.")
            .arg(n.op);
    case graph::OpPattern::OutEWiseFusable:
        return tr("%1 is out-element-wise-fusable: it starts a function and takes the "
                  "element-wise operators after it.")
            .arg(n.op);
    case graph::OpPattern::Opaque:
        return tr("%1 is opaque: it starts its own function and nothing fuses with it.").arg(n.op);
    }
    return {};
}

QString GraphDocument::patternText(graph::OpPattern p) {
    switch (p) {
    case graph::OpPattern::ElementWise:
        return tr("element-wise");
    case graph::OpPattern::Broadcast:
        return tr("broadcast");
    case graph::OpPattern::Injective:
        return tr("injective");
    case graph::OpPattern::CommReduce:
        return tr("reduction");
    case graph::OpPattern::OutEWiseFusable:
        return tr("out-element-wise-fusable");
    case graph::OpPattern::Opaque:
        return tr("opaque");
    }
    return tr("opaque");
}

QColor GraphDocument::patternColor(graph::OpPattern p) {
    switch (p) {
    case graph::OpPattern::ElementWise:
        return QColor(0xd9, 0xf2, 0xd0); // green
    case graph::OpPattern::Broadcast:
        return QColor(0xc8, 0xeb, 0xe3); // teal
    case graph::OpPattern::Injective:
        return QColor(0xfa, 0xef, 0xc2); // yellow
    case graph::OpPattern::CommReduce:
        return QColor(0xfb, 0xdc, 0xc0); // orange
    case graph::OpPattern::OutEWiseFusable:
        return QColor(0xcd, 0xdf, 0xfa); // blue
    case graph::OpPattern::Opaque:
        return QColor(0xe6, 0xdc, 0xf2); // lilac
    }
    return QColor(Qt::white);
}

QColor GraphDocument::groupColor(int i) {
    // Golden-ratio hue steps: neighbouring groups get clearly different hues.
    double hue = std::fmod(0.11 + i * 0.618033988749895, 1.0);
    return QColor::fromHsvF(float(hue), 0.16f, 0.98f);
}

} // namespace tessel::views
