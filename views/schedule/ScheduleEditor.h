/// \file
/// The schedule editor: a thin widget over a ScheduleDocument. The script
/// pane (TE colouring, completion, undo/redo, the error mark), a loop-nest
/// outline whose context menu writes schedule lines, Run and Cancel, and the
/// run history (a QTableView over the document's RunHistory; double-click a
/// run to put its script back). The outline shares its place with TEDD's
/// pictures of the schedule (ScheduleGraphView), a tab beside it. What is edited, when it is lowered, what is
/// measured and what is kept is the document's (ScheduleDocument.h).
#pragma once

#include "schedule/LoopOutline.h"
#include "schedule/ScheduleDocument.h"

#include <QWidget>

class QAction;
class QLabel;
class QProgressBar;
class QSplitter;
class QTabWidget;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace tessel::views {

class CodeEditor;
class ScheduleGraphView;
class ScriptEdit;
class Session;

class ScheduleEditor : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleEditor(Session* session, QWidget* parent = nullptr);
    ~ScheduleEditor() override;

    /// The document and view-model: text, lowering, measuring, history.
    ScheduleDocument* document() const { return document_; }
    /// The script pane (editable, TE colouring, completion, undo/redo).
    CodeEditor* editor() const;
    /// The loop-nest outline: stages -> loops (text: loop, extent, kind).
    QTreeWidget* outline() const { return outline_; }
    /// TEDD's pictures of the schedule, in the tab beside the outline.
    ScheduleGraphView* pictures() const { return pictures_; }
    /// The tabs holding the outline (0) and the pictures (1).
    QTabWidget* outlineTabs() const { return outlineTabs_; }
    /// The run history (newest last), over document()->history().
    QTableView* historyView() const { return history_; }

    /// The outline item of stage `stage` (operation or tensor name) or, with
    /// `loop`, of that loop (script or TIR name); null when there is none.
    QTreeWidgetItem* findItem(const QString& stage, const QString& loop = {}) const;
    /// Applies a context-menu action to an outline item. What `args` leaves
    /// unset (factor 0, no order, no target) is asked for in a dialog. Inserts
    /// the line as one undoable edit, re-lowers at once and returns the line;
    /// returns an empty string (and says why in the status line) otherwise.
    QString applyOutlineAction(QTreeWidgetItem* item, LoopAction action, const LoopActionArgs& args = {});
    /// Puts the script of history row `row` back into the editor (one undoable edit).
    void restoreRun(int row);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Puts the outline beside the script or under it, for the widget's size.
    void arrange();
    /// The height the script pane (with its status line) needs for `lines` lines.
    int scriptHeightFor(int lines) const;
    void onLoaded();
    void showStatus();
    void showDiagnostic();
    void rebuildOutline();
    void showOutlineMenu(const QPoint& pos);
    bool askActionArgs(int stage, int loop, LoopAction action, LoopActionArgs& args);
    void showRun(const RunRecord& record);
    void replaceText(const QString& text);

    ScheduleDocument* document_;
    ScriptEdit* edit_;
    QLabel* status_;
    QTreeWidget* outline_;
    ScheduleGraphView* pictures_;
    QTabWidget* outlineTabs_;
    QTableView* history_;
    QLabel* runSummary_;
    QWidget* scriptPane_ = nullptr; ///< the script with its status line and run figures
    QProgressBar* busy_;
    QAction* undo_;
    QAction* redo_;
    QAction* run_;
    QAction* cancel_;
    QSplitter* outerSplit_ = nullptr;
    QSplitter* innerSplit_ = nullptr;
    bool loading_ = false; ///< the document's text is being put into the editor
    bool userSized_ = false; ///< the user dragged the script's handle in this arrangement
};

} // namespace tessel::views
