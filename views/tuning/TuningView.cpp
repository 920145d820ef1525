#include "tuning/TuningView.h"

#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/TeDriver.h"
#include "driver/TuneTasks.h"
#include "ir/Diagnostic.h"
#include "te/ConfigSpace.h"
#include "te/script/ScriptPrinter.h"
#include "tuning/RecordTable.h"
#include "tuning/TaskTable.h"
#include "tuning/TuningSession.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace tessel::views {

namespace {

QCustomPlot* makePlot(QWidget* parent, const QString& name, const QString& x, const QString& y) {
    auto* plot = new QCustomPlot(parent);
    plot->setObjectName(name);
    plot->setMinimumSize(240, 180);
    QFont small = plot->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    plot->xAxis->setLabel(x);
    plot->yAxis->setLabel(y);
    plot->xAxis->setLabelFont(small);
    plot->yAxis->setLabelFont(small);
    plot->xAxis->setTickLabelFont(small);
    plot->yAxis->setTickLabelFont(small);
    plot->plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(plot, QString(), small);
    plot->plotLayout()->addElement(0, 0, title);
    plot->legend->setFont(small);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setBorderPen(Qt::NoPen);
    // The legend in a row of its own under the title, its entries side by
    // side: inside the axis rect it covered the points.
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->axisRect()->insetLayout()->simplify();
    plot->plotLayout()->insertRow(1);
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setMargins(QMargins(4, 0, 4, 0));
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    return plot;
}

/// Widens an axis by `fraction` of its range on both sides (at least `least`
/// in all), so points on its edges are drawn whole, not cut by the axis.
void pad(QCPAxis* axis, double fraction, double least) {
    const QCPRange r = axis->range();
    const double margin = std::max(r.size() * fraction, least / 2);
    axis->setRange(r.lower - margin, r.upper + margin);
}

QCPTextElement* titleOf(QCustomPlot* plot) { return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)); }

/// A task's name as a chart title: a model task's name ("Conv float32[...]
/// -> float32[...]") is wider than a chart beside another, so the result
/// type goes on a line of its own.
QString chartTitle(const QString& taskName) {
    QString t = taskName;
    return t.replace(QStringLiteral(" -> "), QStringLiteral("\n→ "));
}

QCPGraph* scatter(QCustomPlot* plot, const QString& name, QCPScatterStyle style) {
    QCPGraph* g = plot->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    return g;
}

} // namespace

TuningView::TuningView(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), tuning_(new TuningSession(session, this)),
      taskTable_(new TaskTable(tuning_, this)), records_(new RecordTable(this)) {
    setObjectName(QStringLiteral("TuningView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildControls();

    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(split);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    taskView_ = new QTableView(top);
    taskView_->setObjectName(QStringLiteral("TuningTasks"));
    taskView_->setModel(taskTable_);
    taskView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    taskView_->setSelectionMode(QAbstractItemView::SingleSelection);
    taskView_->verticalHeader()->hide();
    taskView_->horizontalHeader()->setSectionResizeMode(TaskTable::Workload, QHeaderView::Stretch);
    taskView_->setMinimumHeight(60);
    topLayout->addWidget(taskView_);
    progress_ = new QProgressBar(top);
    progress_->setTextVisible(true);
    topLayout->addWidget(progress_);
    split->addWidget(top);

    auto* plots = new QSplitter(Qt::Horizontal, split);
    trialPlot_ = makePlot(plots, QStringLiteral("TuningTrialPlot"), tr("trial"), tr("GFLOP/s"));
    {
        QCPGraph* trials = scatter(trialPlot_, tr("trial"), QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(70, 130, 200), 5));
        trials->setPen(QPen(QColor(70, 130, 200)));
        QCPGraph* failed = scatter(trialPlot_, tr("failed"), QCPScatterStyle(QCPScatterStyle::ssCross, QColor(200, 50, 50), 7));
        failed->setPen(QPen(QColor(200, 50, 50)));
        QCPGraph* best = trialPlot_->addGraph();
        best->setName(tr("best"));
        best->setLineStyle(QCPGraph::lsStepLeft);
        best->setPen(QPen(QColor(230, 120, 20), 2));
        trialPlot_->legend->setVisible(true);
    }
    modelPlot_ = makePlot(plots, QStringLiteral("TuningModelPlot"), tr("measured GFLOP/s"), tr("predicted score"));
    scatter(modelPlot_, tr("planned trial"), QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(60, 150, 80), 6))
        ->setPen(QPen(QColor(60, 150, 80)));
    plots->addWidget(trialPlot_);
    plots->addWidget(modelPlot_);
    // The two charts share the width: the trial curve is the one watched.
    plots->setStretchFactor(0, 1);
    plots->setStretchFactor(1, 1);
    plots->setSizes({1000, 1000});
    split->addWidget(plots);

    auto* recordsBox = new QWidget(split);
    auto* recordsLayout = new QVBoxLayout(recordsBox);
    recordsLayout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Records:"), recordsBox));
    filter_ = new QComboBox(recordsBox);
    filter_->setObjectName(QStringLiteral("TuningRecordFilter"));
    filter_->addItem(tr("all"), QString());
    filter_->addItem(tr("ok"), QStringLiteral("ok"));
    for (auto e : {runtime::MeasureError::Build, runtime::MeasureError::Load, runtime::MeasureError::Runtime,
                   runtime::MeasureError::Crash, runtime::MeasureError::Timeout, runtime::MeasureError::WrongResult,
                   runtime::MeasureError::Cancelled, runtime::MeasureError::Device}) {
        const QString name = QString::fromUtf8(runtime::measureErrorName(e));
        filter_->addItem(name, name);
    }
    filterRow->addWidget(filter_);
    filterRow->addStretch(1);
    recordsLayout->addLayout(filterRow);
    recordView_ = new QTableView(recordsBox);
    recordView_->setObjectName(QStringLiteral("TuningRecords"));
    // Sorted by any column (a click on its header): the proxy keeps the
    // records' order in the model, which openRecord() takes rows of.
    recordSort_ = new QSortFilterProxyModel(this);
    recordSort_->setSourceModel(records_);
    recordSort_->setSortRole(Qt::UserRole);
    recordView_->setModel(recordSort_);
    recordView_->setSortingEnabled(true);
    recordView_->sortByColumn(-1, Qt::AscendingOrder); // the file's order until a header is clicked
    recordView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    recordView_->verticalHeader()->hide();
    recordView_->horizontalHeader()->setSectionResizeMode(RecordTable::Configuration, QHeaderView::Stretch);
    recordView_->setToolTip(tr("Double-click a record to open its configuration"));
    recordsLayout->addWidget(recordView_);
    split->addWidget(recordsBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 4);
    split->setStretchFactor(2, 2);
    // The charts first: a quarter for the tasks, half for the curves, a quarter for the records.
    split->setSizes({1000, 2000, 1000});
    layout->addWidget(split, 1);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("TuningStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    layout->addWidget(status_);

    connect(filter_, &QComboBox::currentIndexChanged, this, [this] { refreshRecords(); });
    connect(recordView_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { openRecord(recordSort_->mapToSource(i).row()); });
    connect(taskView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        refreshPlots();
        refreshRecords();
    });
    connect(tuning_, &TuningSession::tasksChanged, this, [this] {
        if (currentTask() < 0 && !tuning_->tasks().empty()) selectTask(0);
        syncControls();
        refreshPlots();
        refreshRecords();
    });
    connect(tuning_, &TuningSession::trialAdded, this, &TuningView::addPoint);
    connect(tuning_, &TuningSession::taskChanged, this, [this](int task) {
        const auto& t = tuning_->tasks()[size_t(task)];
        // Follow the run: the task being tuned is the one to watch.
        if (t.state == TuningTask::State::Running && currentTask() != task) selectTask(task);
        syncControls();
    });
    connect(tuning_, &TuningSession::statusChanged, this, [this] {
        recordMessage_.clear();
        status_->setText(statusText());
    });
    connect(tuning_, &TuningSession::runningChanged, this, [this](bool running) {
        syncControls();
        if (!running) refreshRecords();
    });
    connect(tuning_, &TuningSession::pausedChanged, this, [this] { syncControls(); });
    if (!tuning_->tasks().empty()) selectTask(0);
    syncControls();
    refreshPlots();
    refreshRecords();
    status_->setText(statusText());
}

void TuningView::buildControls() {
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Tuner:"), this));
    tuner_ = new QComboBox(this);
    tuner_->setObjectName(QStringLiteral("TuningTuner"));
    tuner_->addItems(TuningSession::availableTuners());
    tuner_->setCurrentText(tuning_->tuner());
    row->addWidget(tuner_);
    row->addWidget(new QLabel(tr("Trials:"), this));
    trials_ = new QSpinBox(this);
    trials_->setObjectName(QStringLiteral("TuningTrials"));
    trials_->setRange(1, 100000);
    trials_->setValue(tuning_->trials());
    row->addWidget(trials_);
    row->addWidget(new QLabel(tr("Early stop:"), this));
    earlyStopping_ = new QSpinBox(this);
    earlyStopping_->setRange(0, 100000);
    earlyStopping_->setSpecialValueText(tr("off"));
    earlyStopping_->setToolTip(tr("End a task after this many trials without a faster one"));
    row->addWidget(earlyStopping_);
    workloadLabel_ = new QLabel(tr("Workload:"), this);
    row->addWidget(workloadLabel_);
    workload_ = new QLineEdit(this);
    // The template's own workload, once its task is made (syncControls).
    workload_->setPlaceholderText(tr("the template's"));
    workload_->setToolTip(tr("The template's workload parameters, NAME=VALUE,…"));
    row->addWidget(workload_, 1);
    order_ = new QComboBox(this);
    order_->addItem(tr("table order"));
    order_->addItem(tr("heaviest first"));
    row->addWidget(order_);
    start_ = new QPushButton(tr("Start"), this);
    pause_ = new QPushButton(tr("Pause"), this);
    resume_ = new QPushButton(tr("Resume"), this);
    stop_ = new QPushButton(tr("Stop"), this);
    start_->setObjectName(QStringLiteral("TuningStart"));
    pause_->setObjectName(QStringLiteral("TuningPause"));
    resume_->setObjectName(QStringLiteral("TuningResume"));
    stop_->setObjectName(QStringLiteral("TuningStop"));
    for (auto* b : {start_, pause_, resume_, stop_}) row->addWidget(b);
    static_cast<QVBoxLayout*>(layout())->addLayout(row);

    // The settings the session keeps (a rebuild of the views, the project):
    // what differs from these defaults.
    defaults_ = {tuning_->tuner(), tuning_->trials(), tuning_->earlyStopping()};
    applySettings();
    connect(session_, &Session::tuningSettingsChanged, this, &TuningView::applySettings);

    connect(tuner_, &QComboBox::currentTextChanged, this, [this](const QString& t) {
        tuning_->setTuner(t);
        keepSettings();
    });
    connect(trials_, &QSpinBox::valueChanged, this, [this](int n) {
        tuning_->setTrials(n);
        keepSettings();
    });
    connect(earlyStopping_, &QSpinBox::valueChanged, this, [this](int n) {
        tuning_->setEarlyStopping(n);
        keepSettings();
    });
    connect(workload_, &QLineEdit::editingFinished, this, [this] {
        tuning_->setWorkload(workload_->text());
        keepSettings();
    });
    connect(order_, &QComboBox::currentIndexChanged, this, [this](int i) {
        tuning_->setOrder(i == 1 ? TuningSession::Order::Weight : TuningSession::Order::Table);
        keepSettings();
    });
    connect(start_, &QPushButton::clicked, tuning_, &TuningSession::start);
    connect(pause_, &QPushButton::clicked, tuning_, &TuningSession::pause);
    connect(resume_, &QPushButton::clicked, tuning_, &TuningSession::resume);
    connect(stop_, &QPushButton::clicked, tuning_, &TuningSession::stop);
}

void TuningView::applySettings() {
    if (applying_) return;
    applying_ = true;
    const QVariantMap kept = session_->tuningSettings();
    tuner_->setCurrentText(kept.value(QStringLiteral("tuner"), defaults_.tuner).toString());
    trials_->setValue(kept.value(QStringLiteral("trials"), defaults_.trials).toInt());
    earlyStopping_->setValue(kept.value(QStringLiteral("earlyStopping"), defaults_.earlyStopping).toInt());
    workload_->setText(kept.value(QStringLiteral("workload")).toString());
    order_->setCurrentIndex(kept.value(QStringLiteral("order")).toString() == QLatin1String("weight") ? 1 : 0);
    tuning_->setTuner(tuner_->currentText());
    tuning_->setTrials(trials_->value());
    tuning_->setEarlyStopping(earlyStopping_->value());
    tuning_->setWorkload(workload_->text().trimmed());
    tuning_->setOrder(order_->currentIndex() == 1 ? TuningSession::Order::Weight : TuningSession::Order::Table);
    applying_ = false;
}

void TuningView::keepSettings() {
    if (applying_) return;
    QVariantMap m;
    if (tuner_->currentText() != defaults_.tuner) m.insert(QStringLiteral("tuner"), tuner_->currentText());
    if (trials_->value() != defaults_.trials) m.insert(QStringLiteral("trials"), trials_->value());
    if (earlyStopping_->value() != defaults_.earlyStopping)
        m.insert(QStringLiteral("earlyStopping"), earlyStopping_->value());
    if (!workload_->text().trimmed().isEmpty()) m.insert(QStringLiteral("workload"), workload_->text().trimmed());
    if (order_->currentIndex() == 1) m.insert(QStringLiteral("order"), QStringLiteral("weight"));
    session_->setTuningSettings(m);
}

void TuningView::syncControls() {
    const bool running = tuning_->isRunning(), paused = tuning_->isPaused();
    const bool script = session_->kind() == Session::Kind::Script;
    start_->setEnabled(!running && !tuning_->tasks().empty());
    pause_->setEnabled(running && !paused);
    resume_->setEnabled(running && paused);
    stop_->setEnabled(running);
    for (QWidget* w : {static_cast<QWidget*>(tuner_), static_cast<QWidget*>(trials_),
                       static_cast<QWidget*>(earlyStopping_), static_cast<QWidget*>(workload_),
                       static_cast<QWidget*>(order_)})
        w->setEnabled(!running);
    if (trials_->value() != tuning_->trials()) {
        const QSignalBlocker block(trials_);
        trials_->setValue(tuning_->trials());
    }
    workload_->setVisible(script);
    const QString defaults = tuning_->templateDefaults();
    workload_->setPlaceholderText(defaults.isEmpty() ? tr("the template's") : tr("the template's: %1").arg(defaults));
    workloadLabel_->setVisible(script);
    order_->setVisible(!script);

    int done = 0, budget = 0;
    for (auto& t : tuning_->tasks()) {
        done += std::min(t.done, t.budget);
        budget += t.budget;
    }
    progress_->setRange(0, std::max(1, budget));
    progress_->setValue(done);
    progress_->setFormat(tr("%1 of %2 trials").arg(done).arg(budget));
}

QString TuningView::statusText() const {
    return recordMessage_.isEmpty() ? tuning_->statusText() : recordMessage_;
}

int TuningView::currentTask() const {
    const QModelIndex i = taskView_->selectionModel()->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void TuningView::selectTask(int row) {
    taskView_->selectionModel()->setCurrentIndex(taskTable_->index(row, 0),
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void TuningView::setRecordFilter(const QString& filter) {
    const int i = filter_->findData(filter);
    if (i >= 0) filter_->setCurrentIndex(i);
}

void TuningView::refreshPlots() {
    for (int g = 0; g < trialPlot_->graphCount(); ++g) trialPlot_->graph(g)->data()->clear();
    modelPlot_->graph(0)->data()->clear();
    const int row = currentTask();
    titleOf(trialPlot_)->setText(tr("Trials"));
    titleOf(modelPlot_)->setText(tr("Cost model"));
    if (row >= 0 && row < int(tuning_->tasks().size())) {
        const TuningTask& t = tuning_->tasks()[size_t(row)];
        titleOf(trialPlot_)->setText(chartTitle(t.name));
        for (const TrialPoint& p : t.points) addPoint(-1, p);
    }
    addPoint(-1, TrialPoint{-1}); // rescale and title
}

void TuningView::addPoint(int task, const TrialPoint& p) {
    if (task >= 0) {
        // A trial of the run: only the selected task's curves change.
        syncControls();
        if (task != currentTask()) return;
        if (currentTask() >= 0 && tuning_->tasks()[size_t(task)].points.size() == 1) titleOf(trialPlot_)->setText(chartTitle(tuning_->tasks()[size_t(task)].name));
    }
    if (p.trial >= 0) {
        if (p.failed) trialPlot_->graph(1)->addData(p.trial, 0);
        else trialPlot_->graph(0)->addData(p.trial, p.gflops);
        trialPlot_->graph(2)->addData(p.trial, p.bestGflops);
        if (!p.failed && std::isfinite(p.predicted)) modelPlot_->graph(0)->addData(p.gflops, p.predicted);
        if (task < 0) return; // refreshPlots adds many, then rescales once
    }
    trialPlot_->rescaleAxes();
    trialPlot_->xAxis->setRange(-0.5, std::max(8.0, trialPlot_->xAxis->range().upper + 0.5));
    trialPlot_->yAxis->setRange(0, std::max(1.0, trialPlot_->yAxis->range().upper * 1.1));
    // Spearman's rho of the planned trials: does the model rank them as measured?
    std::vector<double> measured, predicted;
    for (auto it = modelPlot_->graph(0)->data()->constBegin(); it != modelPlot_->graph(0)->data()->constEnd(); ++it) {
        measured.push_back(it->key);
        predicted.push_back(it->value);
    }
    const double rho = spearman(measured, predicted);
    titleOf(modelPlot_)->setText(std::isfinite(rho)
                                     ? tr("Predicted vs measured: Spearman ρ = %1 (%n trial(s))", nullptr,
                                          int(measured.size()))
                                           .arg(rho, 0, 'f', 2)
                                     : tr("Predicted vs measured (%n planned trial(s))", nullptr, int(measured.size())));
    modelPlot_->rescaleAxes();
    pad(modelPlot_->xAxis, 0.06, 0.1);
    pad(modelPlot_->yAxis, 0.06, 0.1);
    trialPlot_->replot(QCustomPlot::rpQueuedReplot);
    modelPlot_->replot(QCustomPlot::rpQueuedReplot);
    if (task >= 0 && !tuning_->isPaused()) refreshRecords();
}

void TuningView::refreshRecords() {
    const int row = currentTask();
    if (row < 0 || row >= int(tuning_->tasks().size())) {
        records_->load(QString(), QString());
        return;
    }
    records_->load(tuning_->recordsPath(), tuning_->tasks()[size_t(row)].key, filter_->currentData().toString());
}

void TuningView::openRecord(int row) {
    const tune::Record* r = records_->record(row);
    const int task = currentTask();
    if (!r || task < 0) return;
    const TuningTask& t = tuning_->tasks()[size_t(task)];
    const QString config = QString::fromStdString(te::formatConfig(r->config));
    if (t.functions.isEmpty()) {
        openScriptRecord(*r);
        return;
    }
    // A model task: the session takes the configuration for this workload
    // (over the records'), the model compiles again with it, and the function
    // stays selected, so the schedule editor shows its schedule under it.
    session_->selectFunction(t.functions.front());
    if (r->ok() && !r->workload.key.empty()) session_->setChosenConfig(r->workload.key, r->config);
    // The knobs by name and value, as the table shows them.
    recordMessage_ = tr("%1, trial %2: %3").arg(t.functions.front()).arg(r->trial).arg(RecordTable::valuesText(*r));
    status_->setText(recordMessage_);
    emit recordOpened(config);
}

void TuningView::openScriptRecord(const tune::Record& r) {
    const QString text = tuning_->scriptText();
    const QString path = tuning_->scriptPath();
    const QString config = QString::fromStdString(te::formatConfig(r.config));
    const QFileInfo info(path.isEmpty() ? QStringLiteral("template.te") : path);
    // Beside the template, never written: the editor's Save asks where.
    const QString target = info.dir().filePath(QStringLiteral("%1.trial%2.te").arg(info.completeBaseName()).arg(r.trial));
    std::map<std::string, int64_t> workload;
    const auto& tasks = tuning_->tasks();
    if (!tasks.empty())
        if (auto* st = dynamic_cast<const driver::ScriptTask*>(tasks.front().task.get()))
            for (auto& p : st->workloadParams()) workload[p.name] = p.value;
    const driver::CompileRequest request = session_->request();
    const std::string fileName = info.fileName().toStdString();
    const QString header = tr("# %1, trial %2 of the tuning records: --config %3\n# %4\n")
                               .arg(info.fileName())
                               .arg(r.trial)
                               .arg(config, RecordTable::valuesText(r));
    recordMessage_ = tr("Opening trial %1 (%2)…").arg(r.trial).arg(RecordTable::valuesText(r));
    status_->setText(recordMessage_);
    session_->jobs()->run<QString>(
        QStringLiteral("tuning-open-record"), tr("Opening a tuned configuration"),
        [text, fileName, config = r.config, workload, request](const CancelToken&) {
            driver::ScriptOptions so;
            so.fileName = fileName;
            so.config = config;
            so.workload = workload;
            so.target = request.target;
            auto fns = driver::lowerScript(text.toStdString(), so);
            if (fns.empty()) throw std::runtime_error("the template builds no function");
            const auto& f = fns.front();
            try {
                return QString::fromStdString(te::script::printScript(f.schedule, f.args, f.name));
            } catch (const CompileError& e) {
                // What the script language cannot say: the template itself,
                // whose knobs then take their defaults (the header names the choice).
                return QStringLiteral("# %1\n%2").arg(QString::fromStdString(e.diagnostic().message), text);
            }
        },
        this,
        [this, target, header, config, values = RecordTable::valuesText(r), trial = r.trial](QString script) {
            tuning_->setConfigScriptPath(target);
            // Not written until saved: the title marks it modified, and closing asks.
            QString onDisk;
            if (QFile f(target); f.open(QIODevice::ReadOnly)) onDisk = QString::fromUtf8(f.readAll());
            session_->setScript(target, header + script, onDisk);
            recordMessage_ = tr("Trial %1 (%2) is open in the schedule editor as %3").arg(trial).arg(values, QFileInfo(target).fileName());
            status_->setText(recordMessage_);
            emit recordOpened(config);
        },
        [this](const QString& message) {
            recordMessage_ = tr("Cannot open the configuration: %1").arg(message);
            status_->setText(recordMessage_);
            session_->report(recordMessage_, true);
        });
}

} // namespace tessel::views
