/// \file
/// The schedule editor's document and view-model, with no widget: the TE
/// script of the selected fused function (or of the open .te file), its
/// re-lowering policy, the last lowering's artifacts and outline, measuring,
/// and the run history as an item model. ScheduleEditor is a thin widget over
/// it; a test or a benchmark can drive it without one.
///
/// It is the producer of the session's artifacts while a function is shown:
/// each successful lowering is set on the session (the code and stage views
/// follow). An edit after a pause is lowered at once (leading edge); edits
/// that follow each other within debounceMs() are lowered together when they
/// pause (trailing edge). Lowering runs as the job "relower", one at a time
/// (LLVM cannot be interrupted; the newest text is lowered when the running
/// one ends), and a generation counter keeps an older result from ever
/// replacing a newer one; a result for another document is dropped. An error
/// leaves the previous artifacts in place and becomes diagnostic(). A model
/// function whose script differs from its default schedule is recorded in the
/// session's edited schedules, which compiling the whole model uses; a
/// script's edited text is kept in the session as it is typed.
#pragma once

#include "common/DeviceChoice.h"

#include "driver/CompileRequest.h"
#include "schedule/LoopOutline.h"
#include "schedule/RunHistory.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace tessel::driver {
class ArtifactCache;
struct CompiledModel;
struct ArtifactOptions;
struct FunctionArtifacts;
struct LoweredFunction;
struct RunReport;
} // namespace tessel::driver

namespace tessel::views {

class Session;

/// Where the lowering of the current text failed.
struct ScriptDiagnostic {
    int line = 0;   ///< 1-based; 0 when the error has no location
    int column = 0; ///< 1-based; 0 when unknown
    QString message;
};

class ScheduleDocument : public QObject {
    Q_OBJECT
public:
    /// What is being edited: nothing, a .te script, a model function's
    /// schedule, or a model function whose schedule has no script (read-only).
    enum class Source { None, Script, ModelFunction, ReadOnly };

    explicit ScheduleDocument(Session* session, QObject* parent = nullptr);
    ~ScheduleDocument() override;

    Session* session() const { return session_; }
    /// Loads what the session has open now; a widget calls it once it
    /// listens to loaded() (later changes follow the session's signals).
    void openCurrent();

    // ---- the document
    Source source() const { return source_; }
    bool isEditable() const {
        return source_ == Source::Script || source_ == Source::ModelFunction;
    }
    /// The text being edited.
    QString text() const { return text_; }
    /// "gemm.te", or "<function>.te" for a model function.
    QString fileName() const { return fileName_; }
    QString function() const { return function_; }
    /// The user changed the text (the widget calls this on every edit).
    void edit(const QString& text);
    /// Every edit gets the next generation.
    quint64 generation() const { return generation_; }

    // ---- lowering
    /// The pause in typing that ends a burst, in milliseconds (default 30).
    int debounceMs() const { return debounceMs_; }
    void setDebounceMs(int ms) { debounceMs_ = ms; }
    /// True while an edit waits for or is in re-lowering.
    bool isRelowering() const;
    /// Re-lowers now, without waiting for a burst to end.
    void relowerNow();
    /// True while the assembly of the artifacts shown is being made: a
    /// lowering shows its TIR and LLVM IR at once, with no assembly
    /// (FunctionArtifacts::hasAssembly false), and replaces them with the same
    /// texts and the assembly when that is done (assemblyReady).
    bool isMakingAssembly() const;
    /// The last successful lowering (what the session shows), and its outline.
    std::shared_ptr<const driver::FunctionArtifacts> artifacts() const { return artifacts_; }
    const ScheduleOutline& outline() const { return outline_; }
    /// The newest text's error, if its lowering failed.
    const std::optional<ScriptDiagnostic>& diagnostic() const { return diagnostic_; }
    /// The line under the editor: "Lowered in X ms", the error, a run's result.
    QString statusText() const { return statusText_; }
    bool statusIsError() const { return statusError_; }
    void setStatus(const QString& text, bool error);
    /// The texts of recent lowerings by TIR: an edit that leaves the TIR as it
    /// was (a comment, a rename, an undo) costs no LLVM run. Null disables it
    /// (bench_ide_edit measures cold edits that way).
    void setArtifactCache(std::shared_ptr<driver::ArtifactCache> cache) {
        artifactCache_ = std::move(cache);
    }
    std::shared_ptr<driver::ArtifactCache> artifactCache() const { return artifactCache_; }

    // ---- measuring
    /// Measures the current schedule (latency, GFLOP/s, share of peak,
    /// correctness against the default schedule) as the job "run". An edit
    /// not yet lowered is lowered first.
    void run();
    void cancelRun();
    bool isRunning() const;
    /// A run is running or waits for its lowering.
    bool isBusy() const { return busy_; }
    /// The measurements of the current document (at most RunHistory::kLimit).
    RunHistory* history() const { return history_; }
    QList<RunRecord> runs() const { return history_->runs(); }
    std::optional<RunRecord> lastRun() const;

signals:
    /// Another document was loaded (or none): its text replaces the editor's,
    /// with a fresh undo history.
    void loaded();
    void statusChanged();
    void diagnosticChanged();
    /// New artifacts and outline (or none).
    void outlineChanged();
    void busyChanged(bool busy);
    /// Re-lowering of edit `generation` started.
    void relowerStarted(quint64 generation);
    /// A lowering result was applied: new artifacts (ok) or an error.
    void relowered(bool ok);
    /// The artifacts shown got their assembly (the session has them).
    void assemblyReady();
    void runFinished(const tessel::views::RunRecord& record);

private:
    struct Lowering;
    struct Lowered;

    void onScriptChanged();
    void onFunctionChanged(const QString& name);
    void load(const QString& text, Source source, const QString& fileName, const QString& function,
              const QString& defaultScript);
    void clear(const QString& status, bool dropArtifacts = false);
    void setDiagnostic(std::optional<ScriptDiagnostic> diagnostic);
    void startRelower();
    void onJobFinished(const QString& key);
    void applyLowered(const Lowered& r);
    void startAssembly(const driver::ArtifactOptions& options, double loweredMs);
    void startRun();
    void finishRun(const driver::RunReport& report, const QString& script, const QString& function,
                   const QString& key, const DeviceChoice& device);
    void setBusy(bool busy);
    QString documentKey() const;

    /// Lowers a script (or a model function) to its artifacts and outline, on a worker.
    static std::shared_ptr<Lowered> lower(const Lowering& job);
    /// The one call that measures a lowered function (on a worker): its
    /// latency, GFLOP/s and outputs against the default schedule's, built and
    /// run for `request` (the session's target), the reference kept in `references`.
    static driver::RunReport measure(const driver::LoweredFunction& f, const driver::CompileRequest& request,
                                     driver::ReferenceStore& references,
                                     const std::function<bool()>& cancelled,
                                     const DeviceChoice& device = {});

    Session* session_;
    Source source_ = Source::None;
    QString text_, fileName_, function_, defaultScript_;
    int debounceMs_ = 30;
    QTimer* debounce_;
    QElapsedTimer sinceEdit_;   ///< since the last edit: a burst of keys is lowered once
    bool relowerAgain_ = false; ///< the text changed while a lowering ran
    bool runPending_ = false;   ///< Run waits for the lowering of the text as typed
    bool busy_ = false;
    bool runFailed_ = false;    ///< the status line says the last run failed
    /// Every edit gets the next generation; results of older ones never replace newer.
    quint64 generation_ = 0, applied_ = 0, loadEpoch_ = 0;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    ScheduleOutline outline_;
    std::optional<ScriptDiagnostic> diagnostic_;
    QString statusText_;
    bool statusError_ = false;
    RunHistory* history_;
    std::shared_ptr<driver::ReferenceStore> references_;
    std::shared_ptr<driver::ArtifactCache> artifactCache_;
};

} // namespace tessel::views
