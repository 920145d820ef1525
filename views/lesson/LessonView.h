/// \file
/// Lesson mode: the GEMM ladder as a guided sequence for students. Each step
/// shows what it does and why (the comment block its script starts with), its
/// script, what changed from the step before (a line diff), its TIR and
/// assembly, and — on request — its time measured on this machine next to the
/// figure the tutorial it follows (TVM's "How to optimize GEMM on CPU")
/// printed. "Open in editor" hands the step to the schedule editor. Narrow
/// (a dock beside the graph) the steps sit over the texts; wide (chosen, with
/// room) beside them, so the code gets the lesson's full height.
///
/// Two ladders are offered (the lesson chooser): the CPU's and the GPU's
/// (resources/examples/gemm-gpu, TVM's "How to optimize convolution on GPU"
/// ideas on a GEMM). A lesson whose lesson.json names a target is lowered for
/// it (the GPU ladder: its kernels' TIR and PTX), opening one of its steps in
/// the editor selects that target, and where its kernels cannot run here (no
/// GPU) the lesson says so instead of measuring.
///
/// Lowering and measuring run as jobs ("lesson-artifacts", "lesson-measure");
/// the baseline takes seconds to measure, so a measurement shows that it is
/// busy and can be cancelled. All steps compute the same C = A x B from the
/// same seeded inputs, so the slow reference is computed once for the ladder.
#pragma once

#include "driver/CompileRequest.h"
#include "driver/Measure.h"
#include "lesson/LessonSteps.h"
#include "lesson/LessonTimes.h"
#include "lesson/UnifiedDiff.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTreeView;

namespace tessel::driver {
struct FunctionArtifacts;
}

namespace tessel::views {

class CodeEditor;
class LessonChart;
class Session;

class LessonView : public QWidget {
    Q_OBJECT
public:
    explicit LessonView(Session* session, QWidget* parent = nullptr);
    ~LessonView() override;

    /// Loads the lesson in `dir` (the constructor loads resourcesDir()/examples/gemm).
    bool loadLesson(const QString& dir);
    /// The lessons offered: the CPU GEMM ladder, the GPU's.
    QComboBox* lessonChooser() const { return chooser_; }
    /// Why this lesson's steps cannot be measured here; empty: they can.
    QString cannotMeasure() const { return times_->cannotTime(); }
    const Lesson& lesson() const { return times_->lesson(); }

    /// The steps with their times (step, time here, tutorial's time), as the
    /// step list and the chart show them.
    LessonTimes* times() const { return times_; }
    QTreeView* stepList() const { return steps_; }
    /// The times as bars: this machine's next to the tutorial's.
    LessonChart* chart() const { return chart_; }
    int stepCount() const { return times_->stepCount(); }
    int currentStep() const { return current_; }
    void selectStep(int index);

    CodeEditor* scriptView() const { return script_; }
    CodeEditor* diffView() const { return diff_; }
    CodeEditor* tirView() const { return tir_; }
    CodeEditor* assemblyView() const { return assembly_; }
    QTabWidget* tabs() const { return tabs_; }
    /// The current step's explanation, tutorial figure and measurement as shown.
    QString explanationText() const;
    QString publishedText() const;
    QString measuredText() const;
    /// The current step against the previous one (code only, not the comments).
    const LineDiffResult& currentDiff() const { return diffResult_; }

    QPushButton* measureButton() const { return measure_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* openButton() const { return open_; }
    bool isMeasuring() const;

public slots:
    /// Measures the current step on this machine (latency, GFLOP/s, correctness).
    void measure();
    void cancelMeasure();
    /// Puts the current step's script into the session for the schedule editor.
    void openInEditor();

signals:
    /// The TIR and assembly of `step` are shown.
    void artifactsReady(int step);
    void measured(int step, double latencyMs, double gflops, bool correct);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showStep(int index);
    void requestArtifacts(int index);
    void showArtifacts(int index);
    void updateFigures();
    void setMeasuring(bool on);

    /// The session's request for lowering or measuring, for the lesson's target.
    driver::CompileRequest requestFor(driver::CompileMode mode) const;

    Session* session_;
    LessonTimes* times_;
    QComboBox* chooser_;
    QTreeView* steps_;
    LessonChart* chart_;
    QLabel* source_;
    QLabel* explanation_;
    QLabel* published_;
    QLabel* measuredLabel_;
    QPushButton* measure_;
    QPushButton* cancel_;
    QPushButton* open_;
    QProgressBar* progress_;
    QTabWidget* tabs_;
    QSplitter* split_;         ///< the steps and the step's texts
    QSplitter* stepsAndChart_; ///< the step list and the chart
    CodeEditor* script_;
    CodeEditor* diff_;
    CodeEditor* tir_;
    CodeEditor* assembly_;
    int current_ = -1;
    int lowering_ = -1;
    LineDiffResult diffResult_;
    QHash<int, std::shared_ptr<const driver::FunctionArtifacts>> artifacts_;
    QHash<int, QString> errors_;
    std::shared_ptr<driver::ReferenceStore> references_;
};

} // namespace tessel::views
