/// \file
/// The drawing of one GraphDocument: boxes, splines and clusters placed where
/// Graphviz put them (GraphLayout.h).
///
/// Building a drawing is two steps with a worker in between: layoutInput()
/// measures every box with the fonts the items will paint with (GUI thread,
/// cheap), computeLayout() runs dot (worker), setGraph() makes the items (GUI
/// thread). The scene also keeps the view state that is not Qt's own item
/// selection: search matches and the highlighted fused function.
#pragma once

#include "graph/GraphDocument.h"
#include "graph/GraphItems.h"
#include "graph/GraphLayout.h"

#include <QGraphicsScene>

#include <memory>
#include <vector>

namespace tessel::views {

/// What is drawn of a document whose subgraph clusters (If's branches, a
/// Loop's body) may be collapsed: each collapsed subgraph is one box in its
/// place (a summary: its name and node count), its boxes, edges and nested
/// subgraphs are not drawn, and the edges into and out of it meet the summary
/// (one per pair of boxes). Layout indices are the drawing's; the document's
/// stay the document's (nodeBox and friends map one to the other).
struct GraphFold {
    /// The fold of `doc` with the subgraph clusters in `collapsed` (document
    /// cluster indices; fused clusters and indices out of range are ignored)
    /// drawn as one box each. Nothing collapsed: the identity.
    static GraphFold of(const GraphDocument& doc, const std::vector<int>& collapsed = {});

    /// Per document box: its layout node, or -1 when inside a collapsed subgraph.
    std::vector<int> nodeBox;
    /// Per document box: the collapsed subgraph it is hidden in (the
    /// outermost), or -1 when drawn.
    std::vector<int> hiddenIn;
    /// Per document cluster: its layout cluster, or -1 (collapsed, or inside one).
    std::vector<int> clusterBox;
    /// Per document cluster: the layout node of its summary box, or -1 (not
    /// collapsed, or inside another collapsed subgraph).
    std::vector<int> summaryBox;
    /// Per document cluster: the operators inside it, its nested subgraphs' included.
    std::vector<int> operators;
    /// Per layout node: the document box it draws, or -1 for a summary.
    std::vector<int> nodeOf;
    /// Per layout node: the collapsed subgraph it summarises, or -1.
    std::vector<int> summaryOf;
    /// Per layout cluster: its document cluster.
    std::vector<int> clusterOf;
    /// Per layout edge: the (first) document edge it stands for.
    std::vector<int> edgeOf;
    /// Per layout edge: its ends as layout nodes.
    std::vector<std::pair<int, int>> edgeEnds;

    /// Whether document cluster `c` is drawn collapsed (a summary box).
    bool isCollapsed(int c) const { return c >= 0 && c < int(summaryBox.size()) && summaryBox[size_t(c)] >= 0; }
    /// Whether anything is collapsed.
    bool any = false;
};

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    const GraphFonts& fonts() const { return fonts_; }
    /// The layout problem of `doc` drawn as `fold` (default: all of it):
    /// every box measured with fonts(), edges, clusters, and labels and
    /// colours for the DOT export.
    LayoutInput layoutInput(const GraphDocument& doc) const;
    LayoutInput layoutInput(const GraphDocument& doc, const GraphFold& fold) const;
    /// The lines a box shows: the operator (or the input's/output's name) and its type.
    static QStringList labelLines(const GraphDocNode& node);
    /// The lines a collapsed subgraph's box shows: its name and node count.
    static QStringList summaryLines(const GraphDocument& doc, const GraphFold& fold, int cluster);

    /// Replaces the drawing with `doc` laid out as `layout` (from `input`,
    /// made for `fold`; default: nothing collapsed).
    void setGraph(std::shared_ptr<const GraphDocument> doc, LayoutInput input, LayoutResult layout);
    void setGraph(std::shared_ptr<const GraphDocument> doc, LayoutInput input, LayoutResult layout,
                  GraphFold fold);
    /// What the drawing leaves out (collapsed subgraphs).
    const GraphFold& fold() const { return fold_; }
    /// Replaces the drawing with `text` ("The graph is empty."); document()
    /// stays (setGraph(nullptr, ...) first to drop it too).
    void showMessage(const QString& text);

    std::shared_ptr<const GraphDocument> document() const { return doc_; }
    const LayoutInput& layoutInputUsed() const { return input_; }
    const LayoutResult& layout() const { return layout_; }

    /// Items by document index (null when out of range, or for a box or
    /// cluster inside a collapsed subgraph, or a collapsed one itself).
    NodeItem* nodeItem(int index) const;
    ClusterItem* clusterItem(int index) const;
    /// The box standing for collapsed subgraph `cluster` (a document
    /// cluster index), or null when it is not drawn collapsed.
    SubgraphItem* summaryItem(int cluster) const;
    /// The document's boxes and clusters (not all drawn when some are collapsed).
    int nodeItemCount() const { return int(nodes_.size()); }
    int clusterItemCount() const { return int(clusters_.size()); }
    /// Edges as drawn (by layout index; EdgeItem::index() is the document's edge).
    EdgeItem* edgeItem(int index) const;
    int edgeItemCount() const { return int(edges_.size()); }
    /// Where box `index` is drawn: its own rectangle, or its collapsed
    /// subgraph's box; null when it is not drawn.
    QRectF boxRect(int index) const;

    /// Marks search matches (document node indices); `current` is an index into `matches`.
    void setMatches(const std::vector<int>& matches, int current);
    /// Outlines the cluster (or, in a stage without clusters, the boxes) of
    /// fused function `name`; returns the area to centre on (null when none).
    QRectF highlightFunction(const QString& name);

    /// The selected box's document index, or -1.
    int selectedNode() const;
    /// The selected cluster's index (a cluster, or a collapsed subgraph's box), or -1.
    int selectedCluster() const;
    /// Selects cluster `index` (its box when collapsed) alone.
    void selectCluster(int index);

signals:
    /// A cluster's label or a collapsed subgraph's box was double-clicked.
    void clusterActivated(int cluster);

protected:
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

public:
    /// Selects box `index` alone (-1: clears the selection).
    void selectNode(int index);

private:
    void onSelectionChanged();

    GraphFonts fonts_;
    std::shared_ptr<const GraphDocument> doc_;
    LayoutInput input_;
    LayoutResult layout_;
    std::vector<NodeItem*> nodes_;
    std::vector<EdgeItem*> edges_;
    std::vector<ClusterItem*> clusters_;
    std::vector<SubgraphItem*> summaries_; ///< by document cluster
    GraphFold fold_;
};

} // namespace tessel::views
