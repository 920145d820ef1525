/// \file
/// The Tuning view's task table: one row per tuning task of the
/// TuningSession (workload, weight, trials done of the budget, best GFLOP/s,
/// speed-up over the default schedule, state), updated as trials end.
#pragma once

#include <QAbstractTableModel>

namespace tessel::views {

class TuningSession;

class TaskTable : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Workload, Weight, Trials, Best, Speedup, State, ColumnCount };

    explicit TaskTable(TuningSession* tuning, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The state in words ("pending", "running" ...).
    static QString stateText(int state);

private:
    TuningSession* tuning_;
};

} // namespace tessel::views
