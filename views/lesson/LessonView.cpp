#include "lesson/LessonView.h"

#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "common/Resources.h"
#include "driver/Devices.h"
#include "driver/Measure.h"
#include "lesson/LessonChart.h"
#include "te/script/Script.h"

#include "ir/Diagnostic.h"

#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace tessel::views {

namespace {

/// All steps compute C = A x B from the same seeded A and B: one reference.
const std::string kLadderKey = "gemm-ladder";
/// The lessons under resources/examples, in the chooser's order.
const char* const kLessons[] = {"gemm", "gemm-gpu"};

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

LessonView::LessonView(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), times_(new LessonTimes(this)), chooser_(new QComboBox), steps_(new QTreeView),
      chart_(new LessonChart(times_)), source_(new QLabel), explanation_(new QLabel),
      published_(new QLabel), measuredLabel_(new QLabel), measure_(new QPushButton(tr("Measure"))),
      cancel_(new QPushButton(tr("Cancel"))), open_(new QPushButton(tr("Open in editor"))),
      progress_(new QProgressBar), tabs_(new QTabWidget), script_(new CodeEditor), diff_(new CodeEditor),
      tir_(new CodeEditor), assembly_(new CodeEditor), references_(std::make_shared<driver::ReferenceStore>()) {
    setObjectName(QStringLiteral("LessonView"));
    steps_->setModel(times_);
    steps_->setRootIsDecorated(false);
    steps_->setUniformRowHeights(true);
    steps_->setAllColumnsShowFocus(true);
    steps_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    steps_->header()->setSectionResizeMode(LessonTimes::Step, QHeaderView::Stretch);
    steps_->header()->setStretchLastSection(false);
    source_->setWordWrap(true);
    source_->setOpenExternalLinks(true);
    source_->setTextFormat(Qt::RichText);
    // The steps and their times as a list and as bars, side by side.
    stepsAndChart_ = new QSplitter(Qt::Horizontal);
    stepsAndChart_->addWidget(steps_);
    stepsAndChart_->addWidget(chart_);
    stepsAndChart_->setStretchFactor(0, 3);
    stepsAndChart_->setStretchFactor(1, 2);
    stepsAndChart_->setSizes({600, 400});
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    // The ladders offered, by their titles.
    for (const char* name : kLessons) {
        const QString dir = resourcePath(QStringLiteral("examples/") + QLatin1String(name));
        const Lesson l = views::loadLesson(dir);
        if (!l.steps.isEmpty()) chooser_->addItem(l.title.isEmpty() ? QLatin1String(name) : l.title, dir);
    }
    chooser_->setToolTip(tr("The ladder to follow: GEMM on this CPU, or on an NVIDIA GPU (PTX)"));
    connect(chooser_, &QComboBox::activated, this,
            [this](int index) { loadLesson(chooser_->itemData(index).toString()); });
    leftLayout->addWidget(chooser_);
    leftLayout->addWidget(stepsAndChart_, 1);
    leftLayout->addWidget(source_);

    explanation_->setWordWrap(true);
    explanation_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    explanation_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* scroll = new QScrollArea;
    scroll->setWidget(explanation_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMaximumHeight(120);

    measure_->setToolTip(tr("Run this step on this machine and check it against the default schedule"));
    open_->setToolTip(tr("Edit this step's schedule in the schedule editor"));
    cancel_->setEnabled(false);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(140);
    progress_->setVisible(false);
    measuredLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    measuredLabel_->setWordWrap(true); // a reason why a step cannot be timed is a sentence
    published_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* figures = new QHBoxLayout;
    figures->addWidget(measure_);
    figures->addWidget(cancel_);
    figures->addWidget(progress_);
    figures->addWidget(measuredLabel_, 1);
    figures->addWidget(open_);
    auto* figures2 = new QHBoxLayout;
    figures2->addWidget(published_, 1);

    script_->setLanguage(Language::Te);
    diff_->setLanguage(Language::Diff);
    tir_->setLanguage(Language::Tir);
    assembly_->setLanguage(Language::Assembly);
    tabs_->addTab(script_, tr("Script"));
    tabs_->addTab(diff_, tr("Changes"));
    tabs_->addTab(tir_, tr("TIR"));
    tabs_->addTab(assembly_, tr("Assembly"));

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(scroll);
    rightLayout->addLayout(figures);
    rightLayout->addLayout(figures2);
    rightLayout->addWidget(tabs_, 1);

    // Stacked: the steps (with both timings side by side) over the step's
    // texts, which suits the dock next to the graph; side by side when the
    // lesson is chosen and wide (resizeEvent).
    split_ = new QSplitter(Qt::Vertical);
    split_->addWidget(left);
    split_->addWidget(right);
    split_->setStretchFactor(0, 3);
    split_->setStretchFactor(1, 4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split_);

    connect(steps_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid()) showStep(current.row());
            });
    connect(chart_, &LessonChart::stepClicked, this, &LessonView::selectStep);
    connect(measure_, &QPushButton::clicked, this, &LessonView::measure);
    connect(cancel_, &QPushButton::clicked, this, &LessonView::cancelMeasure);
    connect(open_, &QPushButton::clicked, this, &LessonView::openInEditor);
    connect(session_->jobs(), &Jobs::finished, this, [this](const QString& key, bool) {
        if (key == QLatin1String("lesson-measure")) setMeasuring(false);
    });

    loadLesson(resourcePath(QStringLiteral("examples/gemm")));
}

LessonView::~LessonView() = default;

bool LessonView::loadLesson(const QString& dir) {
    QString error;
    const Lesson loaded = views::loadLesson(dir, &error);
    // The other lesson's texts and its lowering in flight (its result would land on this one's step).
    session_->jobs()->cancel(QStringLiteral("lesson-artifacts"));
    lowering_ = -1;
    artifacts_.clear();
    errors_.clear();
    references_->clear();
    current_ = -1;
    times_->setLesson(loaded);
    if (int at = chooser_->findData(dir); at >= 0) chooser_->setCurrentIndex(at);
    // A lesson for a GPU: its kernels' PTX, and no timing where they cannot run.
    QString why;
    bool gpu = false;
    if (!loaded.target.isEmpty()) {
        try {
            const Target target = driver::CompileRequest::forTarget(loaded.target.toStdString()).target;
            gpu = target.isGPU();
            why = q(driver::whyCannotRun(target));
        } catch (const CompileError& e) {
            why = q(e.diagnostic().message);
        }
    }
    times_->setCannotTime(why);
    measure_->setEnabled(why.isEmpty());
    measure_->setToolTip(why.isEmpty() ? tr("Run this step on this machine and check it against the default schedule")
                                       : tr("Cannot be timed here: %1").arg(why));
    tabs_->setTabText(3, gpu ? tr("PTX") : tr("Assembly"));
    if (!loaded.sourceUrl.isEmpty())
        source_->setText(tr("Tutorial figures: <a href=\"%1\">%2</a> by %3 (docs %4).")
                             .arg(loaded.sourceUrl.toHtmlEscaped(), loaded.sourceTitle.toHtmlEscaped(),
                                  loaded.sourceAuthors.toHtmlEscaped(), loaded.docsVersion.toHtmlEscaped()));
    else
        source_->clear();
    source_->setToolTip(QStringList{loaded.machine, loaded.figures, loaded.retrieved}.join(QStringLiteral("\n\n")));
    if (loaded.steps.isEmpty()) {
        explanation_->setText(error);
        session_->report(error, true);
        return false;
    }
    steps_->setCurrentIndex(times_->index(0, LessonTimes::Step));
    return true;
}

void LessonView::selectStep(int index) {
    if (index < 0 || index >= stepCount()) return;
    steps_->setCurrentIndex(times_->index(index, LessonTimes::Step));
}

QString LessonView::explanationText() const { return explanation_->text(); }
QString LessonView::publishedText() const { return published_->text(); }
QString LessonView::measuredText() const { return measuredLabel_->text(); }
bool LessonView::isMeasuring() const { return session_->jobs()->isRunning(QStringLiteral("lesson-measure")); }

void LessonView::showStep(int index) {
    if (index < 0 || index >= stepCount() || index == current_) return;
    current_ = index;
    const LessonStep& step = lesson().steps[index];
    explanation_->setText(step.explanation);
    script_->setCode(step.script);
    diffResult_ = lineDiff(index > 0 ? lesson().steps[index - 1].code : QString(), step.code);
    diff_->setCode(diffResult_.text());
    tabs_->setTabText(1, index > 0 ? tr("Changes (+%1 −%2)").arg(diffResult_.added).arg(diffResult_.removed)
                                   : tr("Changes"));
    updateFigures();
    if (artifacts_.contains(index) || errors_.contains(index)) {
        showArtifacts(index);
        return;
    }
    tir_->setCode(tr("# Lowering…"));
    assembly_->setCode(tr("# Lowering…"));
    // Lowered when seen: a lesson docked but hidden costs nothing.
    if (isVisible()) requestArtifacts(index);
}

void LessonView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Wide enough for the texts to keep kReadableColumns beside the steps:
    // the steps over the chart on the left, the step's text and code on the
    // right at the lesson's full height. Otherwise the steps beside the chart
    // over the texts.
    const bool wide = width() >= 2 * script_->widthForColumns(kReadableColumns);
    const Qt::Orientation outer = wide ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() == outer) return;
    split_->setOrientation(outer);
    stepsAndChart_->setOrientation(wide ? Qt::Vertical : Qt::Horizontal);
    if (wide) {
        split_->setSizes({width() * 2 / 5, width() * 3 / 5});
        stepsAndChart_->setSizes({height() / 2, height() / 2});
    } else {
        split_->setSizes({height() * 3 / 7, height() * 4 / 7});
        stepsAndChart_->setSizes({width() * 3 / 5, width() * 2 / 5});
    }
}

void LessonView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (current_ >= 0 && !artifacts_.contains(current_) && !errors_.contains(current_)) requestArtifacts(current_);
}

void LessonView::requestArtifacts(int index) {
    if (lowering_ == index && session_->jobs()->isRunning(QStringLiteral("lesson-artifacts"))) return;
    lowering_ = index;
    const LessonStep& step = lesson().steps[index];
    const std::string script = step.script.toStdString(), file = step.fileName.toStdString();
    session_->jobs()->run<std::shared_ptr<const driver::FunctionArtifacts>>(
        QStringLiteral("lesson-artifacts"), tr("Lowering %1").arg(step.fileName),
        [script, file, request = requestFor(driver::CompileMode::Interactive)](const CancelToken&) {
            driver::ArtifactOptions options;
            options.request = request;
            options.snapshots = false; // the lesson shows the final TIR and the assembly only
            options.emitC = false;
            try {
                return std::make_shared<const driver::FunctionArtifacts>(
                    driver::compileScriptArtifacts(script, file, {}, options));
            } catch (const CompileError& e) {
                throw std::runtime_error(te::script::formatDiagnostic(e.diagnostic(), file));
            }
        },
        this,
        [this, index](std::shared_ptr<const driver::FunctionArtifacts> a) {
            artifacts_.insert(index, std::move(a));
            if (index == current_) showArtifacts(index);
        },
        [this, index](const QString& message) {
            errors_.insert(index, message);
            if (index == current_) showArtifacts(index);
            session_->report(message, true);
        });
}

void LessonView::showArtifacts(int index) {
    if (auto a = artifacts_.value(index)) {
        tir_->setCode(q(a->build.tir));
        assembly_->setCode(q(a->build.assembly));
    } else {
        const QString error = QStringLiteral("# ") + errors_.value(index);
        tir_->setCode(error);
        assembly_->setCode(error);
    }
    emit artifactsReady(index);
}

void LessonView::updateFigures() {
    if (current_ < 0) return;
    const LessonStep& step = lesson().steps[current_];
    if (step.publishedSeconds) {
        QString text = tr("Tutorial (%1): %2").arg(step.tutorialStep, formatMs(*step.publishedSeconds * 1e3));
        const auto& base = lesson().steps.front().publishedSeconds;
        if (current_ > 0 && base) text += tr(", %1× the baseline").arg(*base / *step.publishedSeconds, 0, 'f', 1);
        published_->setText(text);
    } else if (!step.tutorialStep.isEmpty()) {
        published_->setText(tr("Tutorial (%1): no figure for this step").arg(step.tutorialStep));
    } else {
        published_->setText(tr("Tutorial: no figure (%1)").arg(step.note.isEmpty() ? tr("not in the tutorial") : step.note));
    }
    published_->setToolTip(lesson().machine);
    if (const auto m = times_->measurement(current_)) {
        QString text = tr("%1, %2 GFLOP/s, %3")
                           .arg(formatMs(m->latencyMs))
                           .arg(m->gflops, 0, 'f', 1)
                           .arg(m->correct ? tr("correct") : tr("WRONG: %1").arg(m->error));
        if (const auto base = times_->measurement(0); current_ > 0 && base && m->latencyMs > 0)
            text += tr(", %1× the baseline").arg(base->latencyMs / m->latencyMs, 0, 'f', 1);
        // Where it ran: this machine, or the device panel's device.
        text = m->device.isEmpty() ? tr("This machine: %1").arg(text) : QStringLiteral("%1: %2").arg(m->device, text);
        measuredLabel_->setText(text);
    } else if (times_->measuring() == current_) {
        measuredLabel_->setText(tr("This machine: measuring…"));
    } else if (!times_->cannotTime().isEmpty()) {
        // Never an emulation on the CPU passed off as the step's time.
        measuredLabel_->setText(tr("Not timed here, the step is for a GPU: %1. Its TIR and PTX are below; "
                                   "scripts/gpu-check.sh times the ladder on a GPU host.")
                                    .arg(times_->cannotTime()));
    } else {
        measuredLabel_->setText(tr("This machine: not measured yet"));
    }
}

void LessonView::measure() {
    if (current_ < 0 || !times_->cannotTime().isEmpty()) return;
    const int index = current_;
    const LessonStep& step = lesson().steps[index];
    const std::string script = step.script.toStdString(), file = step.fileName.toStdString();
    auto cached = artifacts_.value(index);
    auto references = references_;
    times_->setMeasuring(index);
    setMeasuring(true);
    updateFigures();
    session_->jobs()->run<std::shared_ptr<driver::RunReport>>(
        QStringLiteral("lesson-measure"), tr("Measuring %1").arg(step.fileName),
        [script, file, cached, references, request = requestFor(driver::CompileMode::Batch),
         device = session_->device()](const CancelToken& token) {
            driver::LoweredFunction f;
            if (cached) {
                f = cached->lowered;
            } else {
                driver::ScriptOptions so;
                so.fileName = file;
                so.target = request.target;
                try {
                    f = driver::lowerScript(script, so).at(0);
                } catch (const CompileError& e) {
                    throw std::runtime_error(te::script::formatDiagnostic(e.diagnostic(), file));
                }
            }
            driver::RunOptions options;
            // Three timed repeats; a slow step (the baseline) is called once
            // more only, as runAndCheck skips its warm-up.
            options.evaluator = runtime::TimeEvaluator{1, 3, 50, 1};
            options.request = request;
            options.references = references.get();
            options.referenceKey = kLadderKey; // every step computes the same product
            options.cancelled = [token] { return token.cancelled(); };
            // The device panel's device, or the IDE's warm local server: a
            // crashing step cannot take the IDE down.
            return std::make_shared<driver::RunReport>(driver::runAndCheckOn(device.spec(), f, options));
        },
        this,
        [this, index, device = session_->device()](std::shared_ptr<driver::RunReport> rep) {
            if (!rep->ok && rep->errorKind != runtime::MeasureError::WrongResult) {
                // Nothing was measured (no device, a crash, a build error): no time, what to check.
                if (times_->measuring() == index) times_->setMeasuring(-1);
                updateFigures();
                const QString why = explainMeasureFailure(device, rep->errorKind, q(rep->error));
                measuredLabel_->setText(tr("The measurement on %1 failed: %2").arg(device.label(), why));
                session_->report(tr("Measuring %1 on %2 failed: %3")
                                     .arg(lesson().steps[index].fileName, device.label(), why),
                                 true);
                return;
            }
            LessonTimes::Measurement m;
            if (!device.isLocal()) m.device = device.label();
            m.latencyMs = rep->latencyMs;
            m.gflops = rep->gflops;
            m.correct = rep->ok;
            m.error = q(rep->error);
            times_->setMeasurement(index, m);
            updateFigures();
            emit measured(index, m.latencyMs, m.gflops, m.correct);
        },
        [this, index](const QString& message) {
            if (times_->measuring() == index) times_->setMeasuring(-1);
            updateFigures();
            measuredLabel_->setText(tr("This machine: failed: %1").arg(message));
            session_->report(message, true);
        });
}

void LessonView::cancelMeasure() {
    session_->jobs()->cancel(QStringLiteral("lesson-measure"));
    times_->setMeasuring(-1);
    setMeasuring(false);
    updateFigures();
}

void LessonView::setMeasuring(bool on) {
    on = on && (times_->measuring() >= 0 || isMeasuring());
    progress_->setVisible(on);
    cancel_->setEnabled(on);
    measure_->setEnabled(!on && times_->cannotTime().isEmpty());
}

driver::CompileRequest LessonView::requestFor(driver::CompileMode mode) const {
    driver::CompileRequest r = session_->request(mode);
    if (!lesson().target.isEmpty()) r.target = driver::CompileRequest::forTarget(lesson().target.toStdString()).target;
    return r;
}

void LessonView::openInEditor() {
    if (current_ < 0) return;
    const LessonStep& step = lesson().steps[current_];
    // A GPU step is edited for the GPU: the editor lowers it for CUDA, the
    // code view shows its PTX.
    if (!lesson().target.isEmpty()) session_->setTarget(lesson().target);
    session_->setScript(step.path, step.script);
}

} // namespace tessel::views
