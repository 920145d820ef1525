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

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    const GraphFonts& fonts() const { return fonts_; }
    /// The layout problem of `doc`: every box measured with fonts(), edges,
    /// clusters, and labels and colours for the DOT export.
    LayoutInput layoutInput(const GraphDocument& doc) const;
    /// The lines a box shows: the operator (or the input's/output's name) and its type.
    static QStringList labelLines(const GraphDocNode& node);

    /// Replaces the drawing with `doc` laid out as `layout` (from `input`).
    void setGraph(std::shared_ptr<const GraphDocument> doc, LayoutInput input, LayoutResult layout);
    /// Replaces the drawing with `text` ("The graph is empty."); document()
    /// stays (setGraph(nullptr, ...) first to drop it too).
    void showMessage(const QString& text);

    std::shared_ptr<const GraphDocument> document() const { return doc_; }
    const LayoutInput& layoutInputUsed() const { return input_; }
    const LayoutResult& layout() const { return layout_; }

    /// Items by document index (null when out of range).
    NodeItem* nodeItem(int index) const;
    EdgeItem* edgeItem(int index) const;
    ClusterItem* clusterItem(int index) const;
    int nodeItemCount() const { return int(nodes_.size()); }
    int edgeItemCount() const { return int(edges_.size()); }
    int clusterItemCount() const { return int(clusters_.size()); }

    /// Marks search matches (document node indices); `current` is an index into `matches`.
    void setMatches(const std::vector<int>& matches, int current);
    /// Outlines the cluster (or, in a stage without clusters, the boxes) of
    /// fused function `name`; returns the area to centre on (null when none).
    QRectF highlightFunction(const QString& name);

    /// The selected box's document index, or -1.
    int selectedNode() const;
    /// The selected cluster's index, or -1.
    int selectedCluster() const;
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
};

} // namespace tessel::views
