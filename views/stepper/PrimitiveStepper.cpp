#include "stepper/PrimitiveStepper.h"

#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/LineDiff.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/TeDriver.h"
#include "ir/Diagnostic.h"
#include "stepper/ScheduleSteps.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QVBoxLayout>

#include <memory>

namespace tessel::views {

namespace {

const QString kJob = QStringLiteral("primitive-steps");

} // namespace

PrimitiveStepper::PrimitiveStepper(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), list_(new QListWidget), tir_(new CodeEditor), status_(new QLabel) {
    setObjectName(QStringLiteral("PrimitiveStepper"));
    list_->setObjectName(QStringLiteral("PrimitiveSteps"));
    list_->setToolTip(tr("The schedule's primitives in order: choose one to see the TIR after it"));
    tir_->setLanguage(Language::Tir);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(list_);
    split->addWidget(tir_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addWidget(status_);
    connect(list_, &QListWidget::currentRowChanged, this, &PrimitiveStepper::showStep);
    connect(session_, &Session::artifactsChanged, this, &PrimitiveStepper::followSession);
    status_->setText(tr("Open a TE script or select a fused function: its schedule is stepped through here."));
    followSession();
}

QList<PrimitiveStepper::Step> PrimitiveStepper::lowerSteps(const QString& script, const QString& fileName,
                                                           const QString& function,
                                                           const driver::CompileRequest& request) {
    QList<Step> out;
    const QList<ScheduleStep> primitives = scheduleSteps(script);
    driver::ScriptOptions so;
    so.fileName = fileName.toStdString();
    so.target = request.target;
    for (int k = 0; k <= primitives.size(); ++k) {
        Step step;
        if (k == 0) {
            step.label = tr("the default schedule");
        } else {
            const ScheduleStep& p = primitives[k - 1];
            step.line = p.firstLine;
            step.label = QStringLiteral("L%1: %2").arg(p.firstLine).arg(p.text.section(QLatin1Char('\n'), 0, 0).trimmed());
        }
        try {
            const auto functions = driver::lowerScript(scriptWithSteps(script, k).toStdString(), so);
            const driver::LoweredFunction* f = functions.empty() ? nullptr : &functions.front();
            for (const auto& g : functions)
                if (QString::fromStdString(g.name) == function) f = &g;
            if (!f) throw CompileError("the script builds no function");
            step.tir = QString::fromStdString(tir::toString(f->lowered));
        } catch (const CompileError& e) {
            step.error = QString::fromStdString(te::script::formatDiagnostic(e.diagnostic(), so.fileName));
        } catch (const std::exception& e) {
            step.error = QString::fromStdString(e.what());
        }
        out << step;
    }
    return out;
}

void PrimitiveStepper::followSession() {
    const auto a = session_->artifacts();
    if (!a || a->script.empty()) return; // keep what is shown until a script is lowered
    const QString script = QString::fromStdString(a->script);
    const QString function = QString::fromStdString(a->name);
    const QString file = session_->kind() == Session::Kind::Script && !session_->sourcePath().isEmpty()
                             ? QFileInfo(session_->sourcePath()).fileName()
                             : function + QStringLiteral(".te");
    if (script == script_ && function == function_) return;
    if (!isVisible()) {
        // Lowered when it comes on screen: each step is a lowering.
        script_ = script;
        fileName_ = file;
        function_ = function;
        pending_ = true;
        return;
    }
    stepThrough(script, file, function);
}

void PrimitiveStepper::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (pending_) {
        pending_ = false;
        stepThrough(script_, fileName_, function_);
    }
}

void PrimitiveStepper::stepThrough(const QString& script, const QString& fileName, const QString& function) {
    script_ = script;
    fileName_ = fileName;
    function_ = function;
    pending_ = false;
    busy_ = true;
    status_->setText(tr("Lowering the schedule step by step…"));
    const int keep = currentStep();
    session_->jobs()->run<std::shared_ptr<QList<Step>>>(
        kJob, tr("Stepping through the schedule of %1").arg(function.isEmpty() ? fileName : function),
        [script, fileName, function, request = session_->request(driver::CompileMode::Interactive)](const CancelToken&) {
            return std::make_shared<QList<Step>>(lowerSteps(script, fileName, function, request));
        },
        this,
        [this, keep](std::shared_ptr<QList<Step>> steps) {
            busy_ = false;
            steps_ = *steps;
            const QSignalBlocker block(list_);
            list_->clear();
            for (int k = 0; k < steps_.size(); ++k) {
                auto* item = new QListWidgetItem(QStringLiteral("%1  %2").arg(k).arg(steps_[k].label), list_);
                item->setToolTip(steps_[k].error.isEmpty() ? steps_[k].label : steps_[k].error);
                if (!steps_[k].error.isEmpty()) item->setForeground(QColor(0xdc, 0x32, 0x2f));
            }
            // The same step as before where there is one, else the whole schedule.
            const int show = keep >= 0 && keep < steps_.size() ? keep : int(steps_.size()) - 1;
            list_->setCurrentRow(show);
            showStep(show);
            emit stepsReady();
        },
        [this](const QString& message) {
            busy_ = false;
            status_->setText(tr("Cannot step through the schedule: %1").arg(message));
        });
}

int PrimitiveStepper::currentStep() const { return steps_.isEmpty() ? -1 : list_->currentRow(); }

void PrimitiveStepper::setCurrentStep(int step) {
    if (step >= 0 && step < steps_.size()) list_->setCurrentRow(step);
}

void PrimitiveStepper::showStep(int k) {
    changed_.clear();
    if (k < 0 || k >= steps_.size()) return;
    const Step& step = steps_[k];
    if (!step.error.isEmpty()) {
        tir_->setCode(QString());
        tir_->clearLineColors();
        status_->setText(tr("Step %1 of %2 does not lower: %3").arg(k).arg(steps_.size() - 1).arg(step.error));
        return;
    }
    tir_->setCode(step.tir);
    // What this primitive changed: the TIR lines that are new since the step before.
    QMap<int, QColor> lit;
    if (k > 0 && steps_[k - 1].error.isEmpty()) {
        const std::string before = steps_[k - 1].tir.toStdString(), after = step.tir.toStdString();
        for (const DiffLine& d : diffLines(splitLines(before), splitLines(after)))
            if (d.kind == DiffLine::Added) {
                lit.insert(d.right + 1, QColor(0xd5, 0xf0, 0xd0));
                changed_ << d.right + 1;
            }
    }
    tir_->setLineColors(lit);
    if (!changed_.isEmpty()) tir_->revealLine(changed_.front());
    status_->setText(k == 0 ? tr("Step 0 of %1: the default schedule (no primitive yet).").arg(steps_.size() - 1)
                            : tr("Step %1 of %2: %3 — %n TIR line(s) new", nullptr, int(changed_.size()))
                                  .arg(k)
                                  .arg(steps_.size() - 1)
                                  .arg(step.label));
}

QString PrimitiveStepper::statusText() const { return status_->text(); }

} // namespace tessel::views
