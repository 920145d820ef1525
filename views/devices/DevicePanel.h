/// \file
/// The device panel: the trackers and servers the user added, refreshed live
/// on workers (every ~2 s: a tracker's keys and servers, a server's facts and
/// round trip), a readable message with what to check when one cannot be
/// reached, and "Use for runs", which makes a server or a tracker's key the
/// session's device (Session::setDevice) and its target the session's target,
/// so the code view shows that triple's code and Run / Measure run there.
/// The chosen device is checked with every refresh (a server by its own
/// get-device call, a tracker's key by the tracker's list): its row is
/// marked in the tree, and the "Run and Measure use" line says when it does
/// not answer and what to check, whatever a tracker still lists.
#pragma once

#include "devices/DeviceList.h"

#include <QSet>
#include <QThreadPool>
#include <QWidget>

class QAction;
class QLabel;
class QTimer;
class QTreeView;

namespace tessel::views {

class Session;

class DevicePanel : public QWidget {
    Q_OBJECT
public:
    explicit DevicePanel(Session* session, QWidget* parent = nullptr);
    ~DevicePanel() override;

    DeviceList* list() const { return list_; }
    QTreeView* tree() const { return tree_; }
    /// Adds (and remembers) an endpoint and probes it at once; false when listed already.
    bool addEndpoint(const Endpoint& endpoint);
    /// Removes (and forgets) endpoint `index`.
    void removeEndpoint(int index);
    /// Probes every endpoint that is not being probed already (on workers).
    void refresh();
    /// Makes the server or tracker key at `index` the session's device and
    /// its target the session's; false (with the reason in the status line)
    /// when the row is no device or its facts are not known yet.
    bool useForRuns(const QModelIndex& index);
    /// Back to this machine (target "host").
    void useLocal();
    /// The line under the list: the chosen device, or why a choice failed.
    QString statusText() const;
    /// The chosen device's last health check: empty when it answered (or
    /// none was made yet), else what went wrong and what to check.
    QString chosenTrouble() const { return chosenTrouble_; }
    /// Whether the chosen device was checked since it was chosen.
    bool isChosenChecked() const { return chosenChecked_; }
    /// Probe timeout (ms); tests shorten it.
    void setTimeoutMs(int ms) { timeoutMs_ = ms; }

signals:
    /// A probe result was shown (tests wait on it).
    void refreshed(int endpoint);
    /// The chosen device's health check ended (chosenTrouble()).
    void chosenChecked();

private:
    void addDialog(Endpoint::Kind kind);
    void showDevice();
    void updateActions();
    /// Probes the session's device (not this machine) on a worker.
    void checkChosen();
    /// Widens the columns whose contents grew (a user's widths stay otherwise).
    void fitColumns();

    Session* session_;
    DeviceList* list_;
    QTreeView* tree_;
    QLabel* status_;
    QAction* remove_;
    QAction* use_;
    QTimer* timer_;
    QThreadPool pool_;
    /// Endpoints (by value) with a probe under way.
    QList<Endpoint> inFlight_;
    int timeoutMs_ = 3000;
    bool chosenInFlight_ = false;
    bool chosenChecked_ = false;
    QString chosenTrouble_;
};

} // namespace tessel::views
