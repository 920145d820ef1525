/// \file
/// The primitive stepper: the schedule of the function the schedule editor
/// shows, one primitive at a time. A list of the script's schedule
/// primitives (ScheduleSteps.h) — the default schedule first — and the TIR
/// after the chosen one, with the lines that primitive changed lit (TVM
/// Explorer's per-primitive snapshots, in the IDE). Every step is the script
/// cut after that primitive, lowered as the editor lowers it (the session's
/// target, driver::lowerScript), all of them in one job on a worker when the
/// editor's script changed and the view is on screen.
#pragma once

#include "driver/CompileRequest.h"

#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QListWidget;

namespace tessel::views {

class CodeEditor;
class Session;

class PrimitiveStepper : public QWidget {
    Q_OBJECT
public:
    explicit PrimitiveStepper(Session* session, QWidget* parent = nullptr);

    /// The TIR after each step of a script: [0] the default schedule, [k]
    /// after its first k primitives; `error` when that cut does not lower.
    struct Step {
        int line = 0;     ///< the primitive's first line (0 for the default schedule)
        QString label;    ///< "L19: s[C].vectorize(yi)"
        QString tir;
        QString error;
    };
    /// Lowers every cut of `script` (no widget; a worker calls it): the
    /// function `function` (empty: the first the script builds), for `request`.
    static QList<Step> lowerSteps(const QString& script, const QString& fileName, const QString& function,
                                  const driver::CompileRequest& request);

    /// Steps through `script` (the editor's own by default, as it lowers it).
    void stepThrough(const QString& script, const QString& fileName, const QString& function);
    QString script() const { return script_; }
    const QList<Step>& steps() const { return steps_; }
    bool isBusy() const { return busy_; }

    QListWidget* stepList() const { return list_; }
    CodeEditor* tirView() const { return tir_; }
    /// The step shown (0: the default schedule), or -1 before the steps are ready.
    int currentStep() const;
    void setCurrentStep(int step);
    /// The TIR lines (1-based) the shown step changed from the one before.
    QList<int> changedLines() const { return changed_; }
    QString statusText() const;

signals:
    /// The steps of the script were lowered (steps() holds them).
    void stepsReady();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void followSession();
    void showStep(int step);

    Session* session_;
    QListWidget* list_;
    CodeEditor* tir_;
    QLabel* status_;
    QString script_, fileName_, function_;
    QList<Step> steps_;
    QList<int> changed_;
    bool busy_ = false;
    bool pending_ = false; ///< the session's script changed while off screen
};

} // namespace tessel::views
