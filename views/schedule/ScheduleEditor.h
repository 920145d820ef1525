/// \file
/// The schedule editor: the TE script of the selected fused function (or of
/// the open .te file), re-lowered in the background after every edit, with a
/// loop-nest outline whose context menu writes schedule lines, and a Run that
/// measures the schedule and keeps a short history to compare edits.
///
/// It is the producer of the session's artifacts while a function is shown:
/// each successful lowering is set on the session (the code and stage views
/// follow), whether the editor is visible or not. An edit after a pause starts
/// lowering at once; edits that follow each other within debounceMs() are
/// lowered together when they pause. Lowering runs as the job "relower", one at
/// a time (the newest text follows a running one), and a generation counter keeps an older result
/// from ever replacing a newer one. An error leaves the previous artifacts in
/// place and marks the line the diagnostic points at. A model function whose
/// script differs from its default schedule is recorded in the session's
/// edited schedules, which compiling the whole model uses.
#pragma once

#include "schedule/LoopOutline.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QMetaType>
#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QLabel;
class QProgressBar;
class QSplitter;
class QTableWidget;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace tessel::runtime {
class ReferenceStore;
} // namespace tessel::runtime

namespace tessel::driver {
class ArtifactCache;
struct CompiledModel;
struct FunctionArtifacts;
} // namespace tessel::driver

namespace tessel::views {

class CodeEditor;
class ScriptEdit;
class Session;

/// One measurement of a schedule, as the history shows it.
struct RunRecord {
    int number = 0;               ///< 1, 2, ... per document
    QDateTime time;
    QString label;                ///< what changed since the previous run, or "run N"
    QString script;               ///< the script that was measured
    QString function;
    double latencyMs = 0;
    double gflops = 0;
    double peakShare = 0;         ///< gflops / this CPU's peak (0 when unknown)
    double maxAbsErr = 0, maxRelErr = 0;
    bool correct = false;         ///< outputs match the default schedule's
    int threads = 0;
    QString error;                ///< why it is not correct (or why it failed)
};

class ScheduleEditor : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleEditor(Session* session, QWidget* parent = nullptr);
    ~ScheduleEditor() override;

    /// The script pane (editable, TE colouring, completion, undo/redo).
    CodeEditor* editor() const;
    /// The loop-nest outline: stages -> loops (text: loop, extent, kind).
    QTreeWidget* outline() const { return outline_; }
    /// The run history (newest last).
    QTableWidget* historyTable() const { return history_; }
    /// The line under the editor: "Lowered in X ms" or the error.
    QString statusText() const;
    /// The text being edited.
    QString script() const;

    /// The pause in typing before re-lowering, in milliseconds (default 50).
    int debounceMs() const { return debounceMs_; }
    void setDebounceMs(int ms) { debounceMs_ = ms; }

    /// The last successful lowering (what the session shows), and its outline.
    std::shared_ptr<const driver::FunctionArtifacts> artifacts() const { return artifacts_; }
    const ScheduleOutline& scheduleOutline() const { return outlineModel_; }
    /// True while an edit waits for or is in re-lowering.
    bool isRelowering() const;

    /// The outline item of stage `stage` (operation or tensor name) or, with
    /// `loop`, of that loop (script or TIR name); null when there is none.
    QTreeWidgetItem* findItem(const QString& stage, const QString& loop = {}) const;
    /// Applies a context-menu action to an outline item. What `args` leaves
    /// unset (factor 0, no order, no target) is asked for in a dialog. Inserts
    /// the line as one undoable edit, re-lowers at once and returns the line;
    /// returns an empty string (and says why in the status line) otherwise.
    QString applyOutlineAction(QTreeWidgetItem* item, LoopAction action, const LoopActionArgs& args = {});

    /// The measurements of the current document, oldest first (at most 10).
    QList<RunRecord> runs() const;
    std::optional<RunRecord> lastRun() const;
    bool isRunning() const;
    /// Puts the script of history row `row` back into the editor (one undoable edit).
    /// The texts of recent lowerings by TIR: an edit that leaves the TIR as it
    /// was (a comment, a rename, an undo) costs no LLVM run. Null disables it
    /// (bench_ide_edit measures cold edits that way).
    void setArtifactCache(std::shared_ptr<driver::ArtifactCache> cache) { artifactCache_ = std::move(cache); }
    std::shared_ptr<driver::ArtifactCache> artifactCache() const { return artifactCache_; }
    void restoreRun(int row);

public slots:
    /// Measures the current schedule (latency, GFLOP/s, share of peak,
    /// correctness against the default schedule). An edit not yet lowered is
    /// lowered first.
    void run();
    void cancelRun();
    /// Re-lowers now, without waiting for the debounce.
    void relowerNow();

protected:
    void resizeEvent(QResizeEvent* event) override;

signals:
    /// The debounce ended and re-lowering of edit `generation` started.
    void relowerStarted(quint64 generation);
    /// A lowering result was applied: new artifacts (ok) or an error mark.
    void relowered(bool ok);
    void runFinished(const tessel::views::RunRecord& record);

private:
    enum class Source { None, Script, ModelFunction, ReadOnly };
    struct Relowered;

    void onScriptChanged();
    void onFunctionChanged(const QString& name);
    void onTextChanged();
    void load(const QString& text, Source source, const QString& fileName, const QString& function,
              const QString& defaultScript);
    void clearDocument(const QString& status, bool dropArtifacts = false);
    void startRelower();
    void onRelowerFinished(const QString& key);
    void applyRelowered(const Relowered& r);
    void rebuildOutline();
    void showOutlineMenu(const QPoint& pos);
    void startRun();
    void finishRun(RunRecord record, const QString& key);
    void setBusy(bool busy);
    void setStatus(const QString& text, bool error);
    void addHistoryRow(const RunRecord& record);
    void refreshHistory();
    QString documentKey() const;
    const driver::CompiledModel* modelOf() const;

    Session* session_;
    ScriptEdit* edit_;
    QLabel* status_;
    QTreeWidget* outline_;
    QTableWidget* history_;
    QLabel* runSummary_;
    QProgressBar* busy_;
    QAction* undo_;
    QAction* redo_;
    QAction* run_;
    QAction* cancel_;
    QTimer* debounce_;

    Source source_ = Source::None;
    QString fileName_, function_, defaultScript_, lastText_;
    int debounceMs_ = 30;
    QElapsedTimer sinceEdit_; ///< since the last edit: a burst of keys is lowered once
    bool relowerAgain_ = false; ///< the text changed while a lowering ran
    bool loading_ = false;
    bool runPending_ = false;
    /// Every edit gets the next generation; results of older ones never replace newer.
    quint64 generation_ = 0, applied_ = 0, loadEpoch_ = 0;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    ScheduleOutline outlineModel_;
    QString statusText_;
    QSplitter* outerSplit_ = nullptr;
    QSplitter* innerSplit_ = nullptr;
    std::shared_ptr<runtime::ReferenceStore> references_;
    std::shared_ptr<driver::ArtifactCache> artifactCache_;
    QHash<QString, QList<RunRecord>> runs_;
    QHash<QString, int> runCount_;
};

} // namespace tessel::views

Q_DECLARE_METATYPE(tessel::views::RunRecord)
