#include "tuning/TaskTable.h"

#include "tuning/TuningSession.h"

namespace tessel::views {

TaskTable::TaskTable(TuningSession* tuning, QObject* parent) : QAbstractTableModel(parent), tuning_(tuning) {
    connect(tuning_, &TuningSession::tasksChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(tuning_, &TuningSession::taskChanged, this,
            [this](int row) { emit dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
}

int TaskTable::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(tuning_->tasks().size());
}

int TaskTable::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString TaskTable::stateText(int state) {
    switch (TuningTask::State(state)) {
    case TuningTask::State::Pending: return tr("pending");
    case TuningTask::State::Running: return tr("running");
    case TuningTask::State::Paused: return tr("paused");
    case TuningTask::State::Done: return tr("done");
    case TuningTask::State::Stopped: return tr("stopped");
    case TuningTask::State::Failed: return tr("failed");
    }
    return {};
}

QVariant TaskTable::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const TuningTask& t = tuning_->tasks()[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Workload: return t.name;
        case Weight: return t.weight;
        case Trials:
            return t.failed > 0 ? tr("%1/%2 (%3 failed)").arg(t.done).arg(t.budget).arg(t.failed)
                                : QStringLiteral("%1/%2").arg(t.done).arg(t.budget);
        case Best: return t.bestGflops > 0 ? QString::number(t.bestGflops, 'f', 2) : QString();
        case Speedup: return t.speedup() > 0 ? QStringLiteral("%1×").arg(t.speedup(), 0, 'f', 2) : QString();
        case State: return stateText(int(t.state));
        }
    } else if (role == Qt::ToolTipRole) {
        QString tip = t.key;
        if (!t.functions.isEmpty()) tip += QLatin1Char('\n') + tr("Functions: %1").arg(t.functions.join(QStringLiteral(", ")));
        if (!t.error.isEmpty()) tip += QLatin1Char('\n') + t.error;
        return tip;
    } else if (role == Qt::TextAlignmentRole && index.column() != Workload && index.column() != State) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::UserRole && index.column() == Trials) {
        // The progress the delegate draws: done / budget.
        return t.budget > 0 ? double(t.done) / t.budget : 0.0;
    }
    return {};
}

QVariant TaskTable::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Workload: return tr("Workload");
    case Weight: return tr("Weight");
    case Trials: return tr("Trials");
    case Best: return tr("Best GFLOP/s");
    case Speedup: return tr("Speed-up");
    case State: return tr("State");
    }
    return {};
}

} // namespace tessel::views
