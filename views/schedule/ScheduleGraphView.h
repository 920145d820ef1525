/// \file
/// TEDD's three pictures of the schedule being edited (te/ScheduleGraphs.h):
/// the dataflow graph, the schedule tree and the itervar relationship graph,
/// one at a time (a chooser above the picture), laid out by Graphviz dot on a
/// worker (GraphLayout) and drawn in a zoomable GraphView.
///
/// The editor gives it each new lowering's schedule; a picture out of sight
/// is only marked stale and laid out when it is shown, so typing costs
/// nothing while the pictures are behind their tab. Clicking a stage or a
/// loop asks for the script line that made it (lineActivated).
#pragma once

#include "te/ScheduleGraphs.h"

#include <QImage>
#include <QVector>
#include <QWidget>

#include <memory>

class QComboBox;
class QGraphicsItem;
class QGraphicsScene;
class QLabel;

namespace tessel::driver {
struct FunctionArtifacts;
}

namespace tessel::views {

class GraphView;
class Jobs;

class ScheduleGraphView : public QWidget {
    Q_OBJECT
public:
    enum Picture { Dataflow, ScheduleTree, IterVars };

    /// Layouts run as jobs of `jobs` (key "schedule-pictures").
    explicit ScheduleGraphView(Jobs* jobs, QWidget* parent = nullptr);
    ~ScheduleGraphView() override;

    /// The schedule of `artifacts` (null: none) is what the pictures show.
    void setArtifacts(std::shared_ptr<const driver::FunctionArtifacts> artifacts);
    Picture picture() const { return picture_; }
    void setPicture(Picture p);

    /// The graph of the picture shown (empty before a schedule arrives).
    const te::ScheduleGraph& graph() const { return graph_; }
    /// True when the scene shows the current schedule's current picture.
    bool isUpToDate() const { return !stale_ && !pending_; }
    QGraphicsScene* scene() const { return scene_; }
    GraphView* view() const { return view_; }
    QComboBox* chooser() const { return chooser_; }
    /// The scene item of graph node `index` (for tests), or null.
    QGraphicsItem* nodeItem(int index) const;
    /// The picture as an image at scale 1 (what an export or a test looks at).
    QImage render() const;

signals:
    /// A stage or loop was clicked: the first script line (1-based) that made it.
    void lineActivated(int line);
    /// The scene shows the current picture (after every layout).
    void pictureReady();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();
    void onSelection();

    Jobs* jobs_;
    QComboBox* chooser_;
    GraphView* view_;
    QGraphicsScene* scene_;
    QLabel* note_;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    Picture picture_ = ScheduleTree;
    te::ScheduleGraph graph_;
    QVector<QGraphicsItem*> nodeItems_;
    bool stale_ = true;   ///< the scene is not of the current schedule/picture
    bool pending_ = false; ///< a layout is running
    quint64 epoch_ = 0;   ///< bumps with every new schedule or picture
};

} // namespace tessel::views
