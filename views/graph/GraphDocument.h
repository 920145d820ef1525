/// \file
/// What the graph view draws: one stage's graph as boxes, edges and fused
/// clusters, a plain value built from core's graph (graph/Graph.h) and the
/// compiled model's fusion plan (graph/passes/FuseOps.h).
///
/// The scene, the properties panel, search and the exports all read the same
/// GraphDocument, so they agree on what node N is. A document keeps the graph
/// and the model it came from alive (shared pointers), so it can be handed to
/// a worker or kept by the properties panel after the stage changed.
///
/// Constants (weights, shape tensors) are not boxes: they are listed as a
/// node's inputs in the properties panel, which keeps a ResNet readable.
/// Graph inputs and outputs are boxes of their own.
///
/// A model Tessel cannot compile is drawn all the same: opaque nodes
/// (graph::Node::unsupported) carry their reason, and the subgraphs of
/// control-flow nodes (If's branches, a Loop's body) are drawn as clusters of
/// their own, nested like the subgraphs, each with its inputs and outputs.
#pragma once

#include "graph/Graph.h"
#include "graph/OpRegistry.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <memory>
#include <unordered_map>
#include <vector>

namespace tessel::driver {
struct CompiledModel;
}

namespace tessel::views {

/// One graph the view can show: the imported graph, the graph after a pass,
/// or the optimised graph with its fused groups.
struct GraphStageEntry {
    QString title; ///< "imported", "after fold-constant (unchanged)", "fused"
    QString pass;  ///< the pass name ("import" for the imported graph, "fused")
    bool changed = true;
    bool fused = false; ///< draw the fusion plan's groups as clusters
    std::shared_ptr<const graph::Graph> graph;
};

/// The stages of `model`: the imported graph and the graph after every pass
/// (when the model kept them, CompileOptions::trace), then "fused". Stages
/// without a graph are left out.
std::vector<GraphStageEntry>
graphStagesOf(const std::shared_ptr<const driver::CompiledModel>& model);

/// One box.
struct GraphDocNode {
    enum class Kind { Input, Op, Output };
    Kind kind = Kind::Op;
    /// The graph node's id (inputs and operators); -1 for an output box.
    int64_t id = -1;
    /// The graph output's index (output boxes); -1 otherwise.
    int output = -1;
    /// The node in GraphDocument::graph (null for output boxes).
    const graph::Node* node = nullptr;
    QString op;   ///< "Conv"; "input" / "output" for the others
    QString name; ///< the node's or tensor's name
    QString type; ///< its (first) output type, "float32[1, 64, 56, 56]"
    graph::OpPattern pattern = graph::OpPattern::Opaque;
    /// Index into GraphDocument::clusters, or -1.
    int cluster = -1;
    /// The fused function that computes this node in the compiled model (by
    /// node id, so also for earlier stages), or empty.
    QString function;
    /// Why the node cannot be compiled (an opaque node or an input of a type
    /// Tessel cannot hold), or empty.
    QString unsupported;
    /// Index into GraphDocument::clusters of the subgraph this box belongs
    /// to, or -1 for the model's own graph. (Subgraph boxes have id -1.)
    int subgraph = -1;
};

/// A data edge: a non-constant value from its producer's box to a reader.
struct GraphDocEdge {
    int from = 0;
    int to = 0;
    QString tensor; ///< the value's name (or %id)
    QString type;   ///< its type
};

/// A fused group of two or more operators (the "fused" stage only), or a
/// subgraph of a control-flow node.
struct GraphDocCluster {
    enum class Kind { Fused, Subgraph };
    Kind kind = Kind::Fused;
    int group = -1;           ///< index into FusionPlan::groups
    QString name;             ///< the fused function's name
    QColor color;             ///< pastel background
    std::vector<int> members; ///< node indices (a subgraph's own, not its nested ones')
    /// A subgraph's: the box of the node that holds it, and the cluster it
    /// is nested in (-1: at the top level).
    int owner = -1;
    int parent = -1;
    QString attr; ///< the subgraph's attribute ("else_branch")
    /// A subgraph's identity in the graph, unique where names are not (two
    /// unnamed Ifs are both "If / then_branch"): the ids of the nodes that
    /// hold it, outermost first, with their attributes ("%7/then_branch");
    /// the same in every stage that keeps those nodes (passes keep ids).
    QString key;
};

class GraphDocument {
    Q_DECLARE_TR_FUNCTIONS(tessel::views::GraphDocument)
public:
    /// The document of `stage` of `model` (model may be null: a bare graph).
    static std::shared_ptr<const GraphDocument>
    build(const GraphStageEntry& stage, std::shared_ptr<const driver::CompiledModel> model);
    /// The document of a bare graph (no fusion information), for tests and tools.
    static std::shared_ptr<const GraphDocument> fromGraph(std::shared_ptr<const graph::Graph> graph,
                                                          const QString& title = {});

    GraphStageEntry stage;
    std::shared_ptr<const graph::Graph> graph;
    std::shared_ptr<const driver::CompiledModel> model; ///< may be null
    std::vector<GraphDocNode> nodes;
    std::vector<GraphDocEdge> edges;
    std::vector<GraphDocCluster> clusters;

    /// The box of graph node `id`, or -1.
    int indexOfNode(int64_t id) const;
    /// The cluster drawn for fused function `name`, or -1.
    int clusterOfFunction(const QString& name) const;
    /// Box indices of the nodes computed by fused function `name` (any stage).
    std::vector<int> nodesOfFunction(const QString& name) const;
    /// Boxes whose operator, name or output tensor names contain `text`, or
    /// whose fused function is called `text` (case-insensitive), in order.
    std::vector<int> search(const QString& text) const;

    /// Why node `index` fused (or did not): the fusion plan's sentence, or an
    /// explanation from its pattern kind following TVM's rules; for a node
    /// that a pass removed, which pass.
    QString fusionReason(int index) const;
    /// "element-wise", "out-element-wise-fusable" ... (translated).
    static QString patternText(graph::OpPattern p);
    /// The fill colour of an operator with this pattern kind.
    static QColor patternColor(graph::OpPattern p);
    /// The pastel background of fused group number `i`.
    static QColor groupColor(int i);

private:
    std::unordered_map<int64_t, int> indexOfId_;
};

/// What is selected in a graph view: a box or a cluster of a document.
struct GraphSelection {
    std::shared_ptr<const GraphDocument> doc;
    int node = -1;    ///< index into doc->nodes, or -1
    int cluster = -1; ///< index into doc->clusters, or -1
    bool empty() const { return !doc || (node < 0 && cluster < 0); }
};

} // namespace tessel::views
