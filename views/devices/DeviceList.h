/// \file
/// The device panel's model: a tree of the endpoints the user added
/// (trackers and servers), a tracker's keys under it and each key's servers
/// under the key. Probe results (DeviceProbe) update the rows in place, so a
/// selection survives the live refresh. The endpoint list is remembered in
/// the application's QSettings ("devices/endpoints").
#pragma once

#include "common/DeviceChoice.h"
#include "devices/DeviceProbe.h"

#include <QList>
#include <QStandardItemModel>

namespace tessel::views {

class DeviceList : public QStandardItemModel {
    Q_OBJECT
public:
    enum Column { Name, Address, State, Keys, Device, RoundTrip, Heartbeat, Message, ColumnCount };
    /// What a row of column Name is (Qt::UserRole).
    enum class RowKind { Endpoint = 1, Key, Server };
    static constexpr int KindRole = Qt::UserRole;
    /// A server row's DeviceInfo JSON; a key row's: that of its first server.
    static constexpr int DeviceJsonRole = Qt::UserRole + 1;
    /// A server row's tracker id.
    static constexpr int ServerIdRole = Qt::UserRole + 2;
    /// A row's reachable server address (server rows).
    static constexpr int HostRole = Qt::UserRole + 3;
    static constexpr int PortRole = Qt::UserRole + 4;
    /// True on the row of the device Run and Measure use (setChosen).
    static constexpr int ChosenRole = Qt::UserRole + 5;

    explicit DeviceList(QObject* parent = nullptr);

    const QList<Endpoint>& endpoints() const { return endpoints_; }
    /// Adds a row for `endpoint`; false when it is listed already.
    bool addEndpoint(const Endpoint& endpoint);
    void removeEndpoint(int index);
    /// The endpoint a row belongs to (-1 for an invalid index).
    int endpointOf(const QModelIndex& index) const;

    /// Shows what a probe of endpoint `index` found.
    void apply(int index, const ProbeResult& result);
    /// The last probe's message for endpoint `index` (empty when it answered).
    QString message(int index) const;
    /// Whether endpoint `index` answered its last probe (false before the first).
    bool reachable(int index) const;

    /// Marks the row of `device` (a server by address, a tracker's key) as
    /// the one Run and Measure use: bold, tinted, ChosenRole; with
    /// `unreachable` set, its state says so (the chosen device's own health
    /// check failed, whatever a tracker still lists).
    void setChosen(const DeviceChoice& device, const QString& unreachable = {});
    /// The row of the chosen device, column Name; invalid when it is not listed.
    QModelIndex chosenIndex() const;

    /// Reads and writes the list in QSettings.
    void load();
    void save() const;

private:
    void applyTracker(QStandardItem* endpoint, const rpc::TrackerStatus& status);
    /// A tracker that no longer answers: what it listed is not known now.
    void markTrackerUnknown(QStandardItem* endpoint);
    bool isChosen(const QStandardItem* nameItem) const;
    void markChosen();
    QList<Endpoint> endpoints_;
    QList<bool> reachable_;
    DeviceChoice chosen_;
    QString chosenTrouble_;
};

/// "aarch64-unknown-linux-gnu, cortex-a72, 4 cores, neon" from DeviceInfo JSON
/// (empty when it cannot be read).
QString deviceSummary(const std::string& deviceJson);

} // namespace tessel::views
