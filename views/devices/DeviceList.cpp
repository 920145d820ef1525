#include "devices/DeviceList.h"

#include "runtime/DeviceInfo.h"

#include <QSettings>

#include <functional>

namespace tessel::views {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString ago(int64_t ms) { return DeviceList::tr("%1 s ago").arg(ms / 1000.0, 0, 'f', 1); }

/// The row's items, column Name first; all read-only.
QList<QStandardItem*> makeRow(DeviceList::RowKind kind) {
    QList<QStandardItem*> row;
    for (int c = 0; c < DeviceList::ColumnCount; ++c) {
        auto* item = new QStandardItem;
        item->setEditable(false);
        row << item;
    }
    row[0]->setData(static_cast<int>(kind), DeviceList::KindRole);
    return row;
}

void setText(QStandardItem* parent, int row, int column, const QString& text) {
    QStandardItem* item = parent ? parent->child(row, column) : nullptr;
    if (item && item->text() != text) item->setText(text);
}

/// The child row of `parent` whose Name item has `value` in `role`; -1 when none.
int childRow(QStandardItem* parent, int role, const QVariant& value) {
    for (int r = 0; r < parent->rowCount(); ++r)
        if (parent->child(r)->data(role) == value) return r;
    return -1;
}

} // namespace

QString deviceSummary(const std::string& deviceJson) {
    if (deviceJson.empty()) return {};
    try {
        const runtime::DeviceInfo d = runtime::DeviceInfo::fromJson(deviceJson);
        QStringList parts{q(d.triple), q(d.cpuName), d.cores == 1 ? DeviceList::tr("1 core") : DeviceList::tr("%1 cores").arg(d.cores)};
        if (!d.isa.empty()) parts << q(d.isa);
        return parts.join(QStringLiteral(", "));
    } catch (const std::exception&) {
        return {};
    }
}

DeviceList::DeviceList(QObject* parent) : QStandardItemModel(0, ColumnCount, parent) {
    setHorizontalHeaderLabels({tr("Name"), tr("Address"), tr("State"), tr("Total / free / pending"), tr("Device"),
                               tr("Round trip"), tr("Last heartbeat"), tr("Message")});
}

bool DeviceList::addEndpoint(const Endpoint& endpoint) {
    if (endpoints_.contains(endpoint)) return false;
    endpoints_ << endpoint;
    reachable_ << false;
    QList<QStandardItem*> row = makeRow(RowKind::Endpoint);
    row[Name]->setText(endpoint.kind == Endpoint::Kind::Tracker ? tr("Tracker") : tr("Server"));
    row[Address]->setText(endpoint.address());
    row[State]->setText(tr("connecting…"));
    row[Name]->setData(endpoint.host, HostRole);
    row[Name]->setData(endpoint.port, PortRole);
    appendRow(row);
    markChosen();
    return true;
}

void DeviceList::removeEndpoint(int index) {
    if (index < 0 || index >= endpoints_.size()) return;
    endpoints_.removeAt(index);
    reachable_.removeAt(index);
    removeRow(index);
}

int DeviceList::endpointOf(const QModelIndex& index) const {
    if (!index.isValid()) return -1;
    QModelIndex top = index;
    while (top.parent().isValid()) top = top.parent();
    return top.row();
}

QString DeviceList::message(int index) const {
    QStandardItem* it = item(index, Message);
    return it ? it->text() : QString();
}

bool DeviceList::reachable(int index) const { return reachable_.value(index, false); }

void DeviceList::apply(int index, const ProbeResult& result) {
    if (index < 0 || index >= endpoints_.size()) return;
    QStandardItem* root = invisibleRootItem();
    QStandardItem* endpoint = item(index, Name);
    reachable_[index] = result.ok;
    if (!result.ok) {
        setText(root, index, State, tr("unreachable"));
        setText(root, index, Message, result.message);
        setText(root, index, RoundTrip, QString());
        item(index, Message)->setToolTip(result.message);
        item(index, State)->setForeground(QColor(0xc0, 0x30, 0x30));
        if (endpoints_[index].kind == Endpoint::Kind::Tracker) markTrackerUnknown(endpoint);
        markChosen();
        return;
    }
    item(index, State)->setForeground(QBrush());
    setText(root, index, State, tr("online"));
    setText(root, index, Message, QString());
    item(index, Message)->setToolTip(QString());
    setText(root, index, RoundTrip, tr("%1 ms").arg(result.roundTripMs, 0, 'f', 1));
    setText(root, index, Heartbeat, result.when.toString(QStringLiteral("HH:mm:ss")));
    if (result.tracker) {
        applyTracker(endpoint, *result.tracker);
    } else {
        setText(root, index, Device, deviceSummary(result.deviceJson));
        endpoint->setData(q(result.deviceJson), DeviceJsonRole);
    }
    markChosen();
}

void DeviceList::markTrackerUnknown(QStandardItem* endpoint) {
    // Its keys' counts and its servers' states are the last the tracker
    // said, not what is there now.
    const QColor grey(0x80, 0x80, 0x80);
    const int row = endpoint->row();
    setText(invisibleRootItem(), row, Keys, QStringLiteral("—"));
    for (int k = 0; k < endpoint->rowCount(); ++k) {
        setText(endpoint, k, State, tr("unknown: tracker unreachable"));
        setText(endpoint, k, Keys, QStringLiteral("—"));
        endpoint->child(k, State)->setForeground(grey);
        QStandardItem* key = endpoint->child(k);
        for (int r = 0; r < key->rowCount(); ++r) {
            setText(key, r, State, tr("unknown: tracker unreachable"));
            setText(key, r, Heartbeat, QStringLiteral("—"));
            key->child(r, State)->setForeground(grey);
        }
    }
}

bool DeviceList::isChosen(const QStandardItem* name) const {
    if (chosen_.isLocal() || !name) return false;
    const auto kind = static_cast<RowKind>(name->data(KindRole).toInt());
    if (chosen_.kind == DeviceChoice::Kind::TrackerKey) {
        if (kind != RowKind::Key || !name->parent()) return false;
        const Endpoint& e = endpoints_.value(name->parent()->row());
        return e.kind == Endpoint::Kind::Tracker && e.host == chosen_.host && e.port == chosen_.port &&
               name->text() == chosen_.key;
    }
    // A server: a server endpoint, or a tracker's server, at that address.
    if (kind == RowKind::Key) return false;
    if (kind == RowKind::Endpoint && endpoints_.value(name->row()).kind != Endpoint::Kind::Server) return false;
    return name->data(HostRole).toString() == chosen_.host && name->data(PortRole).toUInt() == chosen_.port;
}

void DeviceList::markChosen() {
    const QColor tint(0xdf, 0xf0, 0xd8);
    std::function<void(QStandardItem*)> visit = [&](QStandardItem* parent) {
        for (int r = 0; r < parent->rowCount(); ++r) {
            QStandardItem* name = parent->child(r, Name);
            const bool chosen = isChosen(name);
            if (name->data(ChosenRole).toBool() != chosen || chosen) {
                name->setData(chosen, ChosenRole);
                for (int c = 0; c < ColumnCount; ++c) {
                    QStandardItem* cell = parent->child(r, c);
                    QFont f = cell->font();
                    f.setBold(chosen);
                    cell->setFont(f);
                    cell->setBackground(chosen ? QBrush(tint) : QBrush());
                }
                name->setToolTip(chosen ? tr("Run and Measure use this device") : QString());
                if (chosen && !chosenTrouble_.isEmpty()) {
                    setText(parent, r, State, tr("unreachable"));
                    parent->child(r, State)->setForeground(QColor(0xc0, 0x30, 0x30));
                    parent->child(r, State)->setToolTip(chosenTrouble_);
                }
            }
            visit(name);
        }
    };
    visit(invisibleRootItem());
}

void DeviceList::setChosen(const DeviceChoice& device, const QString& unreachable) {
    chosen_ = device;
    chosenTrouble_ = unreachable;
    markChosen();
}

QModelIndex DeviceList::chosenIndex() const {
    std::function<QModelIndex(const QStandardItem*)> find = [&](const QStandardItem* parent) -> QModelIndex {
        for (int r = 0; r < parent->rowCount(); ++r) {
            const QStandardItem* name = parent->child(r, Name);
            if (name->data(ChosenRole).toBool()) return name->index();
            if (QModelIndex i = find(name); i.isValid()) return i;
        }
        return {};
    };
    return find(invisibleRootItem());
}

void DeviceList::applyTracker(QStandardItem* endpoint, const rpc::TrackerStatus& status) {
    int total = 0, free = 0, pending = 0;
    QStringList keys;
    for (const rpc::KeyStatus& k : status.keys) {
        total += k.total, free += k.free, pending += k.pending;
        const QString name = q(k.key);
        keys << name;
        int r = childRow(endpoint, Qt::DisplayRole, name);
        if (r < 0) {
            QList<QStandardItem*> row = makeRow(RowKind::Key);
            row[Name]->setText(name);
            endpoint->appendRow(row);
            r = endpoint->rowCount() - 1;
        }
        setText(endpoint, r, Keys, QStringLiteral("%1 / %2 / %3").arg(k.total).arg(k.free).arg(k.pending));
        setText(endpoint, r, State, k.free > 0 ? tr("free") : k.total > 0 ? tr("all held") : tr("no server"));
        endpoint->child(r, State)->setForeground(QBrush()); // no longer unknown
        QStandardItem* key = endpoint->child(r);
        QList<QVariant> ids;
        for (const rpc::ServerStatus& s : status.servers) {
            if (s.key != k.key) continue;
            const QVariant id = QVariant::fromValue<qulonglong>(s.id);
            ids << id;
            int sr = childRow(key, ServerIdRole, id);
            if (sr < 0) {
                QList<QStandardItem*> row = makeRow(RowKind::Server);
                row[Name]->setData(id, ServerIdRole);
                row[Name]->setText(tr("server #%1").arg(s.id));
                key->appendRow(row);
                sr = key->rowCount() - 1;
            }
            QStandardItem* server = key->child(sr);
            server->setData(q(s.host), HostRole);
            server->setData(s.port, PortRole);
            server->setData(q(s.deviceJson), DeviceJsonRole);
            setText(key, sr, Address, QStringLiteral("%1:%2").arg(q(s.host)).arg(s.port));
            setText(key, sr, State, s.client.empty() ? q(s.state) : QStringLiteral("%1 (%2)").arg(q(s.state), q(s.client)));
            key->child(sr, State)->setForeground(QBrush());
            key->child(sr, State)->setToolTip(QString());
            setText(key, sr, Device, deviceSummary(s.deviceJson));
            setText(key, sr, Heartbeat, ago(s.lastHeartbeatMs));
        }
        for (int sr = key->rowCount() - 1; sr >= 0; --sr)
            if (!ids.contains(key->child(sr)->data(ServerIdRole))) key->removeRow(sr);
        const QString first = key->rowCount() ? key->child(0)->data(DeviceJsonRole).toString() : QString();
        key->setData(first, DeviceJsonRole);
        setText(endpoint, r, Device, deviceSummary(first.toStdString()));
    }
    for (int r = endpoint->rowCount() - 1; r >= 0; --r)
        if (!keys.contains(endpoint->child(r)->text())) endpoint->removeRow(r);
    const int row = endpoint->row();
    setText(invisibleRootItem(), row, Keys, QStringLiteral("%1 / %2 / %3").arg(total).arg(free).arg(pending));
    setText(invisibleRootItem(), row, Device,
            status.servers.size() == 1 ? tr("1 server") : tr("%1 servers").arg(status.servers.size()));
}

void DeviceList::load() {
    QSettings s;
    const int n = s.beginReadArray(QStringLiteral("devices/endpoints"));
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        Endpoint e;
        e.kind = s.value(QStringLiteral("kind")).toString() == QLatin1String("tracker") ? Endpoint::Kind::Tracker
                                                                                         : Endpoint::Kind::Server;
        e.host = s.value(QStringLiteral("host")).toString();
        e.port = static_cast<quint16>(s.value(QStringLiteral("port")).toUInt());
        e.tokenFile = s.value(QStringLiteral("tokenFile")).toString();
        if (!e.host.isEmpty()) addEndpoint(e);
    }
    s.endArray();
}

void DeviceList::save() const {
    QSettings s;
    s.remove(QStringLiteral("devices/endpoints"));
    s.beginWriteArray(QStringLiteral("devices/endpoints"), endpoints_.size());
    for (int i = 0; i < endpoints_.size(); ++i) {
        s.setArrayIndex(i);
        const Endpoint& e = endpoints_[i];
        s.setValue(QStringLiteral("kind"),
                   e.kind == Endpoint::Kind::Tracker ? QStringLiteral("tracker") : QStringLiteral("server"));
        s.setValue(QStringLiteral("host"), e.host);
        s.setValue(QStringLiteral("port"), e.port);
        s.setValue(QStringLiteral("tokenFile"), e.tokenFile);
    }
    s.endArray();
}

} // namespace tessel::views
