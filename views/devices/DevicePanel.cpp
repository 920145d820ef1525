#include "devices/DevicePanel.h"

#include "codegen/Target.h"
#include "common/Session.h"
#include "runtime/DeviceInfo.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tessel::views {

namespace {

/// Host, port and token file of a new tracker or server.
class EndpointDialog : public QDialog {
public:
    EndpointDialog(Endpoint::Kind kind, QWidget* parent) : QDialog(parent), kind_(kind) {
        setWindowTitle(kind == Endpoint::Kind::Tracker ? DevicePanel::tr("Add Tracker")
                                                       : DevicePanel::tr("Add Server"));
        auto* form = new QFormLayout(this);
        host_ = new QLineEdit(QStringLiteral("127.0.0.1"), this);
        port_ = new QSpinBox(this);
        port_->setRange(1, 65535);
        port_->setValue(kind == Endpoint::Kind::Tracker ? 9190 : 9090);
        token_ = new QLineEdit(this);
        token_->setPlaceholderText(DevicePanel::tr("none"));
        auto* browse = new QPushButton(DevicePanel::tr("Browse…"), this);
        connect(browse, &QPushButton::clicked, this, [this] {
            const QString f = QFileDialog::getOpenFileName(this, DevicePanel::tr("Token File"));
            if (!f.isEmpty()) token_->setText(f);
        });
        auto* tokenRow = new QHBoxLayout;
        tokenRow->addWidget(token_);
        tokenRow->addWidget(browse);
        form->addRow(DevicePanel::tr("Host:"), host_);
        form->addRow(DevicePanel::tr("Port:"), port_);
        form->addRow(DevicePanel::tr("Token file:"), tokenRow);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        form->addRow(buttons);
    }
    Endpoint endpoint() const {
        Endpoint e;
        e.kind = kind_;
        e.host = host_->text().trimmed();
        e.port = static_cast<quint16>(port_->value());
        e.tokenFile = token_->text().trimmed();
        return e;
    }

private:
    Endpoint::Kind kind_;
    QLineEdit* host_;
    QSpinBox* port_;
    QLineEdit* token_;
};

} // namespace

DevicePanel::DevicePanel(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), list_(new DeviceList(this)) {
    pool_.setMaxThreadCount(4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QToolBar(this);
    bar->addAction(tr("Add Tracker…"), this, [this] { addDialog(Endpoint::Kind::Tracker); });
    bar->addAction(tr("Add Server…"), this, [this] { addDialog(Endpoint::Kind::Server); });
    remove_ = bar->addAction(tr("Remove"), this, [this] {
        removeEndpoint(list_->endpointOf(tree_->currentIndex()));
    });
    bar->addSeparator();
    use_ = bar->addAction(tr("Use for Runs"), this, [this] { useForRuns(tree_->currentIndex()); });
    bar->addAction(tr("Use This Machine"), this, &DevicePanel::useLocal);
    layout->addWidget(bar);

    tree_ = new QTreeView(this);
    tree_->setModel(list_);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setStretchLastSection(true);
    tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
    layout->addWidget(tree_, 1);
    connect(tree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) { useForRuns(i); });
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, &DevicePanel::updateActions);
    // A tracker's keys show as they arrive.
    connect(list_, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent) {
        if (!parent.isValid() || !parent.parent().isValid()) tree_->expand(parent);
    });

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);

    list_->load();
    connect(session_, &Session::deviceChanged, this, [this] {
        // A new choice: not checked yet; its check goes first.
        chosenChecked_ = false;
        chosenTrouble_.clear();
        list_->setChosen(session_->device());
        showDevice();
        checkChosen();
    });
    list_->setChosen(session_->device());
    connect(this, &DevicePanel::refreshed, this, &DevicePanel::fitColumns);
    fitColumns(); // the headers whole from the start ("Total / free / pending")
    connect(session_, &Session::targetChanged, this, &DevicePanel::showDevice);
    showDevice();
    updateActions();

    timer_ = new QTimer(this);
    timer_->setInterval(2000);
    connect(timer_, &QTimer::timeout, this, &DevicePanel::refresh);
    timer_->start();
    QTimer::singleShot(0, this, &DevicePanel::refresh);
}

DevicePanel::~DevicePanel() {
    timer_->stop();
    pool_.waitForDone();
}

bool DevicePanel::addEndpoint(const Endpoint& endpoint) {
    if (!list_->addEndpoint(endpoint)) {
        status_->setText(tr("%1 is listed already.").arg(endpoint.address()));
        return false;
    }
    list_->save();
    refresh();
    return true;
}

void DevicePanel::removeEndpoint(int index) {
    if (index < 0 || index >= list_->endpoints().size()) return;
    list_->removeEndpoint(index);
    list_->save();
    updateActions();
}

void DevicePanel::refresh() {
    const QList<Endpoint> endpoints = list_->endpoints();
    for (const Endpoint& e : endpoints) {
        if (inFlight_.contains(e)) continue;
        inFlight_ << e;
        auto* watcher = new QFutureWatcher<ProbeResult>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, e] {
            watcher->deleteLater();
            inFlight_.removeOne(e);
            // The endpoint may have been removed (or moved) meanwhile.
            const int index = list_->endpoints().indexOf(e);
            if (index < 0) return;
            list_->apply(index, watcher->result());
            emit refreshed(index);
        });
        watcher->setFuture(QtConcurrent::run(&pool_, probeEndpoint, e, timeoutMs_));
    }
    checkChosen();
}

void DevicePanel::checkChosen() {
    const DeviceChoice d = session_->device();
    if (d.isLocal() || chosenInFlight_) return;
    chosenInFlight_ = true;
    Endpoint e;
    e.kind = d.kind == DeviceChoice::Kind::TrackerKey ? Endpoint::Kind::Tracker : Endpoint::Kind::Server;
    e.host = d.host;
    e.port = d.port;
    e.tokenFile = d.tokenFile;
    auto* watcher = new QFutureWatcher<ProbeResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, d] {
        watcher->deleteLater();
        chosenInFlight_ = false;
        if (!(session_->device() == d)) { // chosen again meanwhile: check that one
            checkChosen();
            return;
        }
        const ProbeResult r = watcher->result();
        QString trouble = r.ok ? QString() : r.message;
        if (r.ok && r.tracker) {
            // A tracker that answers: the key needs a server.
            const rpc::KeyStatus* key = nullptr;
            for (const auto& k : r.tracker->keys)
                if (QString::fromStdString(k.key) == d.key) key = &k;
            if (!key || key->total == 0)
                trouble = tr("The tracker has no server of key %1 now: start one with tessel-rpc server --tracker "
                             "%2:%3 --key %1.")
                              .arg(d.key, d.host)
                              .arg(d.port);
        }
        chosenChecked_ = true;
        if (trouble != chosenTrouble_) {
            chosenTrouble_ = trouble;
            list_->setChosen(d, trouble);
            showDevice();
        }
        emit chosenChecked();
    });
    watcher->setFuture(QtConcurrent::run(&pool_, probeEndpoint, e, timeoutMs_));
}

void DevicePanel::fitColumns() {
    QHeaderView* header = tree_->header();
    for (int c = 0; c < DeviceList::Message; ++c) {
        const int wanted = std::max(static_cast<QAbstractItemView*>(tree_)->sizeHintForColumn(c), header->sectionSizeHint(c));
        if (header->sectionSize(c) < wanted) header->resizeSection(c, wanted);
    }
}

bool DevicePanel::useForRuns(const QModelIndex& index) {
    const int e = list_->endpointOf(index);
    if (e < 0) {
        status_->setText(tr("Pick a server or a tracker's key first."));
        return false;
    }
    const Endpoint endpoint = list_->endpoints()[e];
    const QStandardItem* item = list_->itemFromIndex(index.siblingAtColumn(DeviceList::Name));
    const auto kind = static_cast<DeviceList::RowKind>(item->data(DeviceList::KindRole).toInt());
    DeviceChoice choice;
    choice.tokenFile = endpoint.tokenFile;
    if (kind == DeviceList::RowKind::Endpoint && endpoint.kind == Endpoint::Kind::Tracker) {
        status_->setText(tr("Pick one of the tracker's keys or servers."));
        return false;
    }
    if (kind == DeviceList::RowKind::Key) {
        choice.kind = DeviceChoice::Kind::TrackerKey;
        choice.host = endpoint.host;
        choice.port = endpoint.port;
        choice.key = item->text();
    } else {
        choice.kind = DeviceChoice::Kind::Server;
        choice.host = item->data(DeviceList::HostRole).toString();
        choice.port = static_cast<quint16>(item->data(DeviceList::PortRole).toUInt());
    }
    const std::string json = item->data(DeviceList::DeviceJsonRole).toString().toStdString();
    if (json.empty()) {
        status_->setText(tr("%1 has not answered yet: wait for its facts.").arg(choice.label()));
        return false;
    }
    // A server endpoint, or a tracker, that does not answer now: not a device to run on.
    if (!list_->reachable(e)) {
        status_->setText(tr("%1 does not answer: %2").arg(endpoint.address(), list_->message(e)));
        return false;
    }
    QString target;
    try {
        // The same rule as tesselc --rpc (codegen::targetForDevice).
        const runtime::DeviceInfo device = runtime::DeviceInfo::fromJson(json);
        const Target t = codegen::targetForDevice(device);
        target = t == codegen::hostTarget() ? QStringLiteral("host") : QString::fromStdString(t.str());
    } catch (const std::exception& ex) {
        status_->setText(tr("Tessel cannot build for %1: %2").arg(choice.label(), QString::fromUtf8(ex.what())));
        return false;
    }
    if (!session_->setTarget(target)) {
        status_->setText(tr("Tessel cannot build for %1's target %2.").arg(choice.label(), target));
        return false;
    }
    session_->setDevice(choice);
    return true;
}

void DevicePanel::useLocal() {
    session_->setDevice(DeviceChoice{});
    session_->setTarget(QStringLiteral("host"));
}

QString DevicePanel::statusText() const { return status_->text(); }

void DevicePanel::addDialog(Endpoint::Kind kind) {
    EndpointDialog dialog(kind, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const Endpoint e = dialog.endpoint();
    if (e.host.isEmpty()) return;
    addEndpoint(e);
}

void DevicePanel::showDevice() {
    const DeviceChoice d = session_->device();
    QString text = tr("Run and Measure use: %1 (target %2).").arg(d.label(), session_->target());
    const bool trouble = !d.isLocal() && !chosenTrouble_.isEmpty();
    if (trouble)
        text += QLatin1Char(' ') + tr("It does not answer: %1 Runs fail until it does; Use This Machine runs here.")
                                      .arg(chosenTrouble_);
    else if (!d.isLocal() && !chosenChecked_)
        text += QLatin1Char(' ') + tr("Checking that it answers…");
    status_->setText(text);
    status_->setStyleSheet(trouble ? QStringLiteral("color: #c03030;") : QString());
}

void DevicePanel::updateActions() {
    const bool any = tree_->currentIndex().isValid();
    // The selected endpoint's trouble, in full (its Message cell may be cut).
    const QString trouble = list_->message(list_->endpointOf(tree_->currentIndex()));
    if (!trouble.isEmpty()) status_->setText(trouble);
    remove_->setEnabled(any);
    use_->setEnabled(any);
}

} // namespace tessel::views
