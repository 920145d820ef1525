#include "compare/CompareView.h"

#include "common/Session.h"
#include "compare/CompareChart.h"
#include "compare/CompareSession.h"
#include "compare/CompareTable.h"
#include "devices/DeviceList.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

namespace tessel::views {

namespace {

/// The schedules combo's entries, in order.
constexpr CompareSideChoice::Schedules kSchedules[] = {
    CompareSideChoice::Schedules::Untuned, CompareSideChoice::Schedules::SessionRecords,
    CompareSideChoice::Schedules::TuningRecords, CompareSideChoice::Schedules::RecordsFile};
constexpr int kScheduleCount = int(std::size(kSchedules));

int scheduleIndex(CompareSideChoice::Schedules s) {
    return int(std::find(std::begin(kSchedules), std::end(kSchedules), s) - std::begin(kSchedules));
}

} // namespace

CompareView::CompareView(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), compare_(new CompareSession(session, this)), table_(new CompareTable(this)) {
    setObjectName(QStringLiteral("CompareView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(3);
    grid->addWidget(new QLabel(tr("Schedules"), this), 0, 1);
    grid->addWidget(new QLabel(tr("Records file"), this), 0, 2);
    grid->addWidget(new QLabel(tr("Runs on"), this), 0, 4);
    grid->addWidget(new QLabel(tr("Threads"), this), 0, 5);
    buildSide(0, grid);
    buildSide(1, grid);
    grid->setColumnStretch(2, 3);
    grid->setColumnStretch(4, 2);
    layout->addLayout(grid);

    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Rounds:"), this));
    rounds_ = new QSpinBox(this);
    rounds_->setObjectName(QStringLiteral("CompareRounds"));
    rounds_->setRange(1, 1000);
    rounds_->setValue(compare_->rounds());
    rounds_->setToolTip(tr("Rounds of A then B, each timed whole and per function; the figures are medians."));
    row->addWidget(rounds_);
    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName(QStringLiteral("CompareRun"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("CompareCancel"));
    row->addWidget(run_);
    row->addWidget(cancel_);
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("CompareProgress"));
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    progress_->setFormat(QString());
    row->addWidget(progress_, 1);
    exportPng_ = new QPushButton(tr("PNG…"), this);
    exportPdf_ = new QPushButton(tr("PDF…"), this);
    exportCsv_ = new QPushButton(tr("CSV…"), this);
    exportPng_->setToolTip(tr("Export the chart as a PNG image"));
    exportPdf_->setToolTip(tr("Export the chart as a PDF document"));
    exportCsv_->setToolTip(tr("Export the figures as CSV, at full precision"));
    row->addWidget(new QLabel(tr("Export:"), this));
    row->addWidget(exportPng_);
    row->addWidget(exportPdf_);
    row->addWidget(exportCsv_);
    layout->addLayout(row);

    auto* split = new QSplitter(Qt::Vertical, this);
    chartArea_ = new QScrollArea(split);
    chartArea_->setWidgetResizable(true);
    chartArea_->setFrameShape(QFrame::NoFrame);
    chart_ = new CompareChart(chartArea_);
    chartArea_->setWidget(chart_);
    split->addWidget(chartArea_);
    tableView_ = new QTableView(split);
    tableView_->setObjectName(QStringLiteral("CompareTable"));
    tableView_->setModel(table_);
    tableView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tableView_->verticalHeader()->hide();
    tableView_->horizontalHeader()->setSectionResizeMode(CompareTable::Function, QHeaderView::Stretch);
    split->addWidget(tableView_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({3000, 2000}); // the chart first: three fifths
    layout->addWidget(split, 1);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("CompareStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);

    connect(rounds_, &QSpinBox::valueChanged, this, [this](int n) { compare_->setRounds(n); });
    connect(run_, &QPushButton::clicked, compare_, &CompareSession::start);
    connect(cancel_, &QPushButton::clicked, compare_, &CompareSession::cancel);
    connect(exportPng_, &QPushButton::clicked, this,
            [this] { exportWithDialog(tr("PNG images (*.png)"), QStringLiteral("png"), &CompareView::exportPng); });
    connect(exportPdf_, &QPushButton::clicked, this,
            [this] { exportWithDialog(tr("PDF documents (*.pdf)"), QStringLiteral("pdf"), &CompareView::exportPdf); });
    connect(exportCsv_, &QPushButton::clicked, this,
            [this] { exportWithDialog(tr("CSV files (*.csv)"), QStringLiteral("csv"), &CompareView::exportCsv); });
    connect(compare_, &CompareSession::sidesChanged, this, &CompareView::syncControls);
    connect(compare_, &CompareSession::runningChanged, this, [this](bool running) {
        if (running) {
            progress_->setValue(0);
            progress_->setFormat(tr("starting…"));
        } else {
            progress_->setValue(compare_->result() ? 1000 : 0);
            progress_->setFormat(QString());
        }
        syncControls();
    });
    connect(compare_, &CompareSession::progressChanged, this, [this](double f, const QString& stage) {
        progress_->setValue(int(f * 1000));
        progress_->setFormat(QStringLiteral("%p% — ") + stage);
    });
    connect(compare_, &CompareSession::statusChanged, this, [this](const QString& text) { status_->setText(text); });
    connect(compare_, &CompareSession::resultChanged, this, &CompareView::showResult);
    connect(session_, &Session::deviceChanged, this, &CompareView::refreshDevices);
    connect(session_, &Session::modelChanged, this, &CompareView::syncControls);
    connect(session_, &Session::cleared, this, &CompareView::syncControls);
    connect(session_, &Session::recordsChanged, this, &CompareView::syncControls);
    refreshDevices();
    syncControls();
    status_->setText(tr("Choose what A and B are, then Run: both are measured in one run, interleaved."));
}

void CompareView::buildSide(int index, QGridLayout* grid) {
    SideControls& c = sides_[index];
    const QString side = index == 0 ? QStringLiteral("A") : QStringLiteral("B");
    const int row = index + 1;
    auto* name = new QLabel(QStringLiteral("<b>%1</b>").arg(side), this);
    grid->addWidget(name, row, 0);
    c.schedules = new QComboBox(this);
    c.schedules->setObjectName(QStringLiteral("CompareSchedules") + side);
    c.schedules->addItem(tr("Untuned (default schedules)"));
    c.schedules->addItem(tr("Tuned: Run > Tuned Configurations"));
    c.schedules->addItem(tr("Tuned: the Tuning view's records"));
    c.schedules->addItem(tr("Tuned: a records file"));
    grid->addWidget(c.schedules, row, 1);
    c.records = new QLineEdit(this);
    c.records->setObjectName(QStringLiteral("CompareRecords") + side);
    c.records->setPlaceholderText(tr("a .jsonl records file"));
    grid->addWidget(c.records, row, 2);
    c.browse = new QPushButton(tr("Browse…"), this);
    grid->addWidget(c.browse, row, 3);
    c.device = new QComboBox(this);
    c.device->setObjectName(QStringLiteral("CompareDevice") + side);
    c.device->setToolTip(tr("This machine, or a server or tracker key of the Devices panel"));
    grid->addWidget(c.device, row, 4);
    c.threads = new QSpinBox(this);
    c.threads->setRange(0, 1024);
    c.threads->setSpecialValueText(tr("default"));
    grid->addWidget(c.threads, row, 5);

    connect(c.schedules, &QComboBox::currentIndexChanged, this, [this, index](int i) {
        if (syncing_) return;
        if (kSchedules[i] == CompareSideChoice::Schedules::RecordsFile && sides_[index].records->text().isEmpty())
            chooseRecords(index); // a file is what this choice needs
        applyControls(index);
    });
    connect(c.records, &QLineEdit::editingFinished, this, [this, index] { applyControls(index); });
    connect(c.browse, &QPushButton::clicked, this, [this, index] { chooseRecords(index); });
    connect(c.device, &QComboBox::currentIndexChanged, this, [this, index] { applyControls(index); });
    connect(c.threads, &QSpinBox::valueChanged, this, [this, index] { applyControls(index); });
}

void CompareView::chooseRecords(int index) {
    const QString start = sides_[index].records->text().isEmpty() ? QFileInfo(session_->sourcePath()).path()
                                                                   : sides_[index].records->text();
    const QString file = QFileDialog::getOpenFileName(this, tr("Records file for side %1").arg(index ? "B" : "A"), start,
                                                      tr("Tuning records (*.jsonl *.json);;All files (*)"));
    if (file.isEmpty()) return;
    {
        const QSignalBlocker block(sides_[index].schedules);
        sides_[index].schedules->setCurrentIndex(scheduleIndex(CompareSideChoice::Schedules::RecordsFile));
    }
    sides_[index].records->setText(file);
    applyControls(index);
}

void CompareView::applyControls(int index) {
    if (syncing_) return;
    const SideControls& c = sides_[index];
    CompareSideChoice s = compare_->side(index);
    s.schedules = kSchedules[std::clamp(c.schedules->currentIndex(), 0, kScheduleCount - 1)];
    if (s.schedules == CompareSideChoice::Schedules::RecordsFile) s.recordsPath = c.records->text().trimmed();
    const int d = c.device->currentIndex();
    if (d >= 0 && d < devices_.size()) s.device = devices_[d];
    s.threads = c.threads->value();
    compare_->setSide(index, s);
    syncControls();
}

void CompareView::syncControls() {
    syncing_ = true;
    const bool running = compare_->isRunning();
    for (int i = 0; i < 2; ++i) {
        SideControls& c = sides_[i];
        const CompareSideChoice s = compare_->side(i);
        c.schedules->setCurrentIndex(scheduleIndex(s.schedules));
        const bool file = s.schedules == CompareSideChoice::Schedules::RecordsFile;
        const QString path = compare_->recordsPath(i);
        if (!c.records->hasFocus()) c.records->setText(path);
        c.records->setReadOnly(!file);
        c.records->setEnabled(s.schedules != CompareSideChoice::Schedules::Untuned);
        c.records->setToolTip(path);
        c.device->setCurrentIndex(std::max(0, int(devices_.indexOf(s.device))));
        c.threads->setValue(s.threads);
        for (QWidget* w : {static_cast<QWidget*>(c.schedules), static_cast<QWidget*>(c.records),
                           static_cast<QWidget*>(c.browse), static_cast<QWidget*>(c.device),
                           static_cast<QWidget*>(c.threads)})
            w->setEnabled(!running && (w != c.records || s.schedules != CompareSideChoice::Schedules::Untuned));
    }
    rounds_->setValue(compare_->rounds());
    rounds_->setEnabled(!running);
    const bool model = session_->kind() == Session::Kind::Model && session_->model();
    run_->setEnabled(!running && model);
    run_->setToolTip(model ? tr("Compile both sides and measure them in one run") : tr("Open a model first"));
    cancel_->setEnabled(running);
    const bool figures = compare_->result() != nullptr;
    exportPng_->setEnabled(figures);
    exportPdf_->setEnabled(figures);
    exportCsv_->setEnabled(figures);
    syncing_ = false;
}

void CompareView::followDevices(DeviceList* devices) {
    deviceList_ = devices;
    if (!devices) return;
    connect(devices, &QAbstractItemModel::rowsInserted, this, &CompareView::refreshDevices);
    connect(devices, &QAbstractItemModel::rowsRemoved, this, &CompareView::refreshDevices);
    connect(devices, &QAbstractItemModel::modelReset, this, &CompareView::refreshDevices);
    refreshDevices();
}

void CompareView::refreshDevices() {
    QList<DeviceChoice> list{DeviceChoice{}};
    auto add = [&](const DeviceChoice& d) {
        if (!list.contains(d)) list << d;
    };
    if (deviceList_) {
        for (int e = 0; e < deviceList_->endpoints().size(); ++e) {
            const Endpoint& endpoint = deviceList_->endpoints()[e];
            DeviceChoice d;
            d.host = endpoint.host;
            d.port = endpoint.port;
            d.tokenFile = endpoint.tokenFile;
            if (endpoint.kind == Endpoint::Kind::Server) {
                d.kind = DeviceChoice::Kind::Server;
                add(d);
                continue;
            }
            // A tracker: each of its keys.
            const QStandardItem* tracker = deviceList_->item(e, DeviceList::Name);
            for (int k = 0; tracker && k < tracker->rowCount(); ++k) {
                const QStandardItem* key = tracker->child(k, DeviceList::Name);
                if (!key || key->data(DeviceList::KindRole).toInt() != int(DeviceList::RowKind::Key)) continue;
                d.kind = DeviceChoice::Kind::TrackerKey;
                d.key = key->text();
                add(d);
            }
        }
    }
    add(session_->device());
    // A side's choice stays offered even when its device left the panel.
    for (int i = 0; i < 2; ++i) add(compare_->side(i).device);
    if (list == devices_) return;
    devices_ = list;
    syncing_ = true;
    for (SideControls& c : sides_) {
        c.device->clear();
        for (const DeviceChoice& d : devices_)
            c.device->addItem(d.isLocal() ? tr("This machine") : d.label());
    }
    syncing_ = false;
    syncControls();
}

void CompareView::showResult() {
    auto result = compare_->result();
    table_->setResult(result);
    chart_->setResult(result);
    chart_->setMinimumHeight(chart_->preferredHeight());
    tableView_->resizeColumnsToContents();
    tableView_->horizontalHeader()->setSectionResizeMode(CompareTable::Function, QHeaderView::Stretch);
    syncControls();
}

QString CompareView::statusText() const { return status_->text(); }

bool CompareView::exportPng(const QString& path) {
    if (!compare_->result() || !chart_->exportPng(path)) {
        status_->setText(tr("Cannot write %1.").arg(path));
        return false;
    }
    status_->setText(tr("Wrote %1.").arg(path));
    return true;
}

bool CompareView::exportPdf(const QString& path) {
    if (!compare_->result() || !chart_->exportPdf(path)) {
        status_->setText(tr("Cannot write %1.").arg(path));
        return false;
    }
    status_->setText(tr("Wrote %1.").arg(path));
    return true;
}

bool CompareView::exportCsv(const QString& path) { return compare_->exportCsv(path); }

void CompareView::exportWithDialog(const QString& filter, const QString& suffix,
                                   bool (CompareView::*save)(const QString&)) {
    const QString base = session_->sourcePath().isEmpty() ? QStringLiteral("compare")
                                                          : session_->sourcePath() + QStringLiteral(".compare");
    QString file = QFileDialog::getSaveFileName(this, tr("Export the comparison"), base + QLatin1Char('.') + suffix, filter);
    if (file.isEmpty()) return;
    if (QFileInfo(file).suffix().isEmpty()) file += QLatin1Char('.') + suffix;
    (this->*save)(file);
}

} // namespace tessel::views
