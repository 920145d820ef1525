/// \file
/// The graph view: the open model's graph as imported, after each graph pass,
/// and fused (the optimised graph with its fused functions as clusters).
///
/// A toolbar picks the stage, searches boxes by name or operator (Enter goes
/// to the next match), zooms and exports (SVG, PNG, DOT). Layout runs as the
/// job "graph-layout" on the session's workers; a layout for a stage the user
/// has already left is dropped. Clicking a box selects it (its properties are
/// shown by NodeProperties, see follow()); clicking a box of a fused function
/// or a cluster's label selects that function in the session, so every other
/// view follows; and a function selected elsewhere is outlined and centred.
#pragma once

#include "graph/GraphDocument.h"
#include "graph/GraphLayout.h"

#include <QSet>
#include <QWidget>

#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QToolBar;

namespace tessel::views {

class Session;
struct KernelTime;
class GraphScene;
struct GraphFold;
class GraphView;

class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(Session* session, QWidget* parent = nullptr);
    ~GraphPanel() override;

    Session* session() const { return session_; }
    GraphScene* scene() const { return scene_; }
    GraphView* view() const { return view_; }

    /// The stages that can be shown, in pipeline order ("fused" last).
    const std::vector<GraphStageEntry>& stages() const { return stages_; }
    int currentStage() const;
    /// Shows stage `index` (lays it out in the background).
    void setStage(int index);
    /// Shows the stage whose pass is `pass` ("import", "fold-constant", "fused"); false if none.
    bool setStageByPass(const QString& pass);
    /// True while a layout for the current stage is running.
    bool layoutPending() const { return pending_; }
    /// The toolbar's stage box (never narrower than the stage it shows).
    QComboBox* stageBox() const { return stageBox_; }

    /// Whether the drawing is all there is to see of the open model (one
    /// that cannot be compiled: no functions, no code).
    bool drawingIsAll() const;
    /// The whole drawing's size at 100 % in the view (with its frame).
    QSize drawingSize() const;

    /// The document on screen (null before the first layout).
    std::shared_ptr<const GraphDocument> document() const;
    GraphSelection selection() const;
    /// Selects box `index` of document() and centres on it, as a click would
    /// (so its fused function is selected in the session too).
    void selectNode(int index);

    // ---- subgraphs (If's branches, a Loop's or Scan's body) collapsed to one box
    /// Whether subgraph cluster `cluster` (of document()) is drawn collapsed.
    bool isCollapsed(int cluster) const;
    /// Collapses subgraph cluster `cluster` to one box with its node count,
    /// or expands it again; the drawing is laid out again (on a worker) and
    /// the selection kept (a box inside a collapsed subgraph: its box).
    void setCollapsed(int cluster, bool collapsed);
    /// Collapses (expands) every subgraph of the drawing.
    void setAllCollapsed(bool collapsed);
    /// Whether the drawing has subgraphs to collapse.
    bool hasSubgraphs() const;

    /// Highlights boxes matching `text` (name, operator or function) and
    /// centres on the first; returns how many matched.
    int search(const QString& text);
    /// Centres on the next match (wrapping); -1 when there are none, else the box index.
    int nextMatch();
    const std::vector<int>& matches() const { return matches_; }

    void zoomIn();
    void zoomOut();
    void fitToView();

    enum class Heat { Time, Roofline };
    /// What the profile colours (the toolbar's "Colour" box).
    void setHeat(Heat heat);
    Heat heat() const;

    /// Write the drawing; on failure the session reports why.
    bool exportSvg(const QString& path);
    bool exportPng(const QString& path);
    bool exportDot(const QString& path);

signals:
    /// A box (its graph node id; -1 for a graph output box) or cluster was selected or cleared.
    void selectionChanged();
    void nodeSelected(qint64 nodeId);
    /// A layout was applied to the scene.
    void layoutFinished();
    /// A new model's drawing is all there is to see (drawingIsAll()): the
    /// window may give the graph room (ViewRecord::asksForRoom).
    void roomWanted();

private:
    void rebuildStages();
    /// The stage box at least as wide as the stage it shows (the toolbar squeezes it).
    void fitStageBox();
    void relayout();
    /// Lays `doc` out as the collapsed subgraphs say (a job); `reveal`: the
    /// document cluster to show after it (-1: none).
    void layoutDocument(std::shared_ptr<const GraphDocument> doc, int reveal = -1);
    void applyLayout(std::shared_ptr<const GraphDocument> doc, LayoutInput input,
                     LayoutResult layout, GraphFold fold, int reveal);
    void showContextMenu(const QPoint& pos);
    void keepSelectionForRefold();
    /// The collapsed subgraphs of `doc` as cluster indices.
    std::vector<int> collapsedIn(const GraphDocument& doc) const;
    void onSceneSelection();
    void onFunctionChanged(const QString& name);
    /// Colours every cluster by its function's share of the last profiled
    /// run (Session::profile), or by how far it stays below its roofline
    /// (heatBox_), with its time and roofline share in the label and tooltip.
    void applyProfile();
    double heatOf(const KernelTime& k, double share) const;
    QString tooltipOf(const QString& function, const KernelTime& k, double share) const;
    void updateSearch(bool reveal);
    void revealMatch();
    void exportWithDialog(const QString& format);

    Session* session_;
    GraphScene* scene_;
    GraphView* view_;
    QToolBar* toolBar_;
    QComboBox* stageBox_;
    /// What the profile colours: the share of the model's time, or the
    /// distance to each function's roofline (1 - its roofline share).
    QComboBox* heatBox_;
    QLineEdit* searchEdit_;
    QLabel* matchLabel_;
    QProgressBar* busy_;
    QAction *heatAction_ = nullptr, *heatSeparator_ = nullptr; ///< shown with a profile
    QAction* subgraphsAction_ = nullptr; ///< the toolbar's Subgraphs menu (shown with subgraphs)
    /// The subgraphs drawn collapsed, by GraphDocCluster::key (names repeat:
    /// two unnamed Ifs), for the model they are of.
    QSet<QString> collapsed_;
    const void* collapsedModel_ = nullptr;
    /// The selection to take over into a new fold of the same document, and
    /// the box whose collapsed subgraph's box was selected in its place.
    int refoldNode_ = -1, refoldCluster_ = -1, selectedInside_ = -1;
    std::vector<GraphStageEntry> stages_;
    std::vector<int> matches_;
    int currentMatch_ = -1;
    quint64 generation_ = 0;
    bool pending_ = false;
    bool fitNext_ = true;
    /// Set while this panel selects a function, so its own echo does not recentre.
    bool selectingFunction_ = false;
    /// Set while a layout re-selects the node that was selected before it.
    bool restoringSelection_ = false;
    /// The graph node id to select again after a stage switch.
    int64_t keepNodeId_ = -1;
};

} // namespace tessel::views
