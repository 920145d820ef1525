/// \file
/// The properties of the box or cluster selected in a graph view: operator,
/// name, attributes, inputs and outputs with their types, pattern kind, the
/// fused function it belongs to and why it fused or did not. With nothing
/// selected, the open model as a whole.
///
/// A separate widget, so the main window can dock it beside the graph; it
/// shows what a GraphPanel selects once connected with follow(), or any
/// GraphSelection given to showSelection(). Clicking the fused function's
/// row selects that function in the session.
#pragma once

#include "graph/GraphDocument.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace tessel::driver {
struct CompiledModel;
}

namespace tessel::views {

class Session;
class GraphPanel;

class NodeProperties : public QWidget {
    Q_OBJECT
public:
    explicit NodeProperties(Session* session, QWidget* parent = nullptr);

    /// Shows `panel`'s selection from now on (and the current one).
    void follow(GraphPanel* panel);
    void showSelection(const GraphSelection& selection);
    void clear();

    const GraphSelection& selection() const { return selection_; }
    /// Everything shown, as plain text ("Operator: Conv", one row a line,
    /// children indented); for copying and tests.
    QString text() const;
    /// The value shown for top-level row `property` ("Operator", "Fused function" ...), or empty.
    QString value(const QString& property) const;
    QTreeWidget* tree() const { return tree_; }

private:
    /// With nothing selected: the open model as a whole (name, operators by
    /// kind, subgraphs, inputs, outputs, functions, what cannot compile and why).
    void showModel(const driver::CompiledModel& model);
    void showNode(const GraphDocument& doc, int index);
    void showCluster(const GraphDocument& doc, int index);
    QTreeWidgetItem* addRow(const QString& property, const QString& value,
                            QTreeWidgetItem* parent = nullptr);
    void onItemClicked(QTreeWidgetItem* item);
    /// "Time" and "Throughput" of `function` in the last profiled run, when there is one.
    void addTimeRows(const QString& function);

    Session* session_;
    QPointer<GraphPanel> panel_;
    QMetaObject::Connection panelConnection_;
    GraphSelection selection_;
    QLabel* title_;
    QLabel* reason_;
    QTreeWidget* tree_;
};

} // namespace tessel::views
