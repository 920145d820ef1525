#include "graph/GraphDocument.h"

#include "driver/ModelCompiler.h"
#include "graph/GraphPrinter.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

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
    if (!model->unsupported.empty()) return out; // shown, not compiled: nothing fused
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
    // A model with control flow has no fusion plan of its own: each region
    // (the top level, every subgraph) was fused on its own, and its
    // functions say which (FusedFunction::region), keyed like the clusters.
    std::map<std::pair<QString, int64_t>, QString> regionFunction;
    if (doc->model && doc->model->program)
        for (const auto& f : doc->model->functions) {
            QString key;
            for (const auto& [holder, attr] : f.region)
                key += (key.isEmpty() ? QString() : QStringLiteral("/")) + QStringLiteral("%%1/").arg(holder) + qs(attr);
            for (int64_t id : f.members) regionFunction.emplace(std::pair(key, id), qs(f.name));
        }
    auto functionIn = [&](const QString& key, int64_t id) -> QString {
        if (regionFunction.empty()) return key.isEmpty() ? functionOf(id) : QString();
        auto it = regionFunction.find({key, id});
        return it == regionFunction.end() ? QString() : it->second;
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
    // Boxes by node (ids repeat between a graph and its subgraphs).
    std::unordered_map<const graph::Node*, int> boxOf;
    for (const auto& in : g.inputs()) {
        boxOf[in.get()] = doc->indexOfNode(in->id);
        nodes[size_t(boxOf[in.get()])].unsupported = qs(in->unsupported);
    }
    auto addOp = [&](const graph::Node& op, int subgraph) {
        GraphDocNode n;
        n.id = subgraph < 0 ? op.id : -1;
        n.node = &op;
        n.op = qs(op.domain.empty() ? op.op : op.domain + "." + op.op);
        n.name = qs(op.name);
        n.type = typeText(op);
        const graph::OpInfo* info = op.opaque() ? nullptr : graph::findOp(op.op);
        n.pattern = info ? info->pattern : graph::OpPattern::Opaque;
        n.function = functionIn(subgraph < 0 ? QString() : doc->clusters[size_t(subgraph)].key, op.id);
        n.unsupported = qs(op.unsupported);
        n.subgraph = subgraph;
        if (subgraph < 0) doc->indexOfId_[n.id] = int(nodes.size());
        boxOf[&op] = int(nodes.size());
        nodes.push_back(std::move(n));
    };
    auto edgeFrom = [&](const graph::Value& v, int to) {
        if (!v.defined() || v.isConstant()) return;
        auto it = boxOf.find(v.producer());
        if (it == boxOf.end()) return;
        doc->edges.push_back({it->second, to, tensorText(v), qs(v.type().str())});
    };
    auto addOutputs = [&](const graph::Graph& graph, int subgraph) {
        std::vector<int> boxes;
        for (size_t i = 0; i < graph.outputs().size(); ++i) {
            const graph::Value& v = graph.outputs()[i];
            GraphDocNode n;
            n.kind = GraphDocNode::Kind::Output;
            n.output = subgraph < 0 ? int(i) : -1;
            n.op = tr("output");
            n.name = tensorText(v);
            n.type = v.defined() ? qs(v.type().str()) : QString();
            n.subgraph = subgraph;
            nodes.push_back(std::move(n));
            boxes.push_back(int(nodes.size()) - 1);
            edgeFrom(v, boxes.back());
        }
        return boxes;
    };
    for (const auto& op : g.nodes())
        addOp(*op, -1);
    // A control-flow node's last inputs are its subgraphs' outer values
    // (Node::makeControlFlow): drawn as edges into the clusters, not into it.
    auto ownInputs = [](const graph::Node& op) {
        return std::vector<graph::Value>(op.inputs.begin(), op.inputs.begin() + op.numOwnInputs());
    };
    for (const auto& op : g.nodes())
        for (const auto& v : ownInputs(*op))
            edgeFrom(v, doc->indexOfNode(op->id));
    addOutputs(g, -1);

    // Subgraphs, nested as they are: a cluster each with its inputs, nodes
    // and outputs; its outputs lead into the node that holds it.
    std::function<void(const graph::Node&, int)> addSubgraphs = [&](const graph::Node& owner,
                                                                     int parent) {
        for (const auto& s : owner.subgraphs) {
            if (!s.graph) continue;
            const graph::Graph& sg = *s.graph;
            const int c = int(doc->clusters.size());
            GraphDocCluster cl;
            cl.kind = GraphDocCluster::Kind::Subgraph;
            cl.owner = boxOf[&owner];
            cl.parent = parent;
            cl.attr = qs(s.attr);
            cl.name = (owner.name.empty() ? qs(owner.op) : qs(owner.name)) + QStringLiteral(" / ") + cl.attr;
            // Ids are unique within one graph only: the path of holders makes it unique.
            cl.key = (parent >= 0 ? doc->clusters[size_t(parent)].key + QLatin1Char('/') : QString()) +
                     QStringLiteral("%%1/").arg(owner.id) + cl.attr;
            cl.color = QColor(0xee, 0xf1, 0xf6);
            doc->clusters.push_back(cl);
            std::vector<int> members;
            const size_t firstOuter = sg.inputs().size() - std::min(sg.inputs().size(), s.outer.size());
            for (const auto& in : sg.inputs()) {
                GraphDocNode n;
                n.kind = GraphDocNode::Kind::Input;
                n.node = in.get();
                n.op = tr("input");
                n.name = qs(in->name);
                n.type = typeText(*in);
                n.unsupported = qs(in->unsupported);
                n.subgraph = c;
                boxOf[in.get()] = int(nodes.size());
                members.push_back(int(nodes.size()));
                nodes.push_back(std::move(n));
                // An outer value the subgraph reads: an edge from where it is made.
                const size_t k = size_t(&in - sg.inputs().data());
                if (k >= firstOuter) edgeFrom(s.outer[k - firstOuter], members.back());
            }
            for (const auto& op : sg.nodes()) {
                members.push_back(int(nodes.size()));
                addOp(*op, c);
            }
            for (const auto& op : sg.nodes())
                for (const auto& v : ownInputs(*op))
                    edgeFrom(v, boxOf[op.get()]);
            for (int b : addOutputs(sg, c)) {
                members.push_back(b);
                doc->edges.push_back({b, cl.owner, nodes[size_t(b)].name, nodes[size_t(b)].type});
            }
            for (int m : members)
                nodes[size_t(m)].cluster = c;
            doc->clusters[size_t(c)].members = std::move(members);
            for (const auto& op : sg.nodes())
                if (!op->subgraphs.empty()) addSubgraphs(*op, c);
        }
    };
    for (const auto& op : g.nodes())
        if (!op->subgraphs.empty()) addSubgraphs(*op, -1);

    if (stage.fused && plan && doc->clusters.empty()) {
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
    if (!n.unsupported.isEmpty())
        return tr("Cannot be compiled: %1.").arg(n.unsupported);
    if (n.subgraph >= 0) {
        const auto& c = clusters[size_t(n.subgraph)];
        return tr("In subgraph %1 of %2: compiled on its own and run by the control-flow executor.")
            .arg(c.attr, c.owner >= 0 ? nodes[size_t(c.owner)].op : QString());
    }
    if (n.kind == GraphDocNode::Kind::Output)
        return tr("Graph output: written by the function that computes it.");
    if (const graph::OpInfo* info = n.node && !n.node->opaque() ? graph::findOp(n.node->op) : nullptr;
        info && info->dataDependent)
        return tr("%1's output shape depends on its input values: it runs on the host executor, and the "
                  "regions that read its outputs are compiled for the shapes each run gives.")
            .arg(n.op);
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
