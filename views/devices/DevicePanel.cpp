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
    connect(session_, &Session::deviceChanged, this, &DevicePanel::showDevice);
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
    status_->setText(tr("Run and Measure use: %1 (target %2).").arg(d.label(), session_->target()));
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
