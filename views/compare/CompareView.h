/// \file
/// The Compare view: the open model two ways, per fused function and end to
/// end, measured in one run (CompareSession on a worker).
///
/// Top: per side (A, B) its schedules (untuned, the Tuning view's records
/// file, or a records file chosen with a file dialog), where it runs (this
/// machine, or a server or tracker key of the device panel) and its threads;
/// the rounds; Run, Cancel and a progress bar; Export PNG, PDF and CSV. Then
/// the chart (CompareChart: A and B bars per function with the ratio, the
/// end-to-end pair at the top) over a table with the same figures
/// (CompareTable), and a status line.
#pragma once

#include <QList>
#include <QWidget>

#include "common/DeviceChoice.h"

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTableView;

namespace tessel::views {

class CompareChart;
class CompareSession;
class CompareTable;
class DeviceList;
class Session;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(Session* session, QWidget* parent = nullptr);

    CompareSession* compare() const { return compare_; }
    CompareChart* chart() const { return chart_; }
    CompareTable* table() const { return table_; }
    QTableView* tableView() const { return tableView_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString statusText() const;

    /// Offers the device panel's servers and tracker keys as places to run a side.
    void followDevices(DeviceList* devices);
    /// The places a side can run (this machine first).
    const QList<DeviceChoice>& devices() const { return devices_; }

    /// Exports the chart / the figures; false (and a status) when it fails.
    bool exportPng(const QString& path);
    bool exportPdf(const QString& path);
    bool exportCsv(const QString& path);

private:
    struct SideControls {
        QComboBox* schedules = nullptr;
        QLineEdit* records = nullptr;
        QPushButton* browse = nullptr;
        QComboBox* device = nullptr;
        QSpinBox* threads = nullptr;
    };
    void buildSide(int index, QGridLayout* grid);
    void chooseRecords(int index);
    void syncControls();
    void applyControls(int index);
    void refreshDevices();
    void showResult();
    void exportWithDialog(const QString& filter, const QString& suffix, bool (CompareView::*save)(const QString&));

    Session* session_;
    CompareSession* compare_;
    CompareTable* table_;
    CompareChart* chart_ = nullptr;
    QScrollArea* chartArea_ = nullptr;
    QTableView* tableView_ = nullptr;
    SideControls sides_[2];
    QSpinBox* rounds_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* exportPng_ = nullptr;
    QPushButton* exportPdf_ = nullptr;
    QPushButton* exportCsv_ = nullptr;
    QLabel* status_ = nullptr;
    DeviceList* deviceList_ = nullptr;
    QList<DeviceChoice> devices_;
    bool syncing_ = false;
};

} // namespace tessel::views
