#include "schedule/RunHistory.h"

#include <QColor>
#include <QStringList>

namespace tessel::views {

QString changeLabel(const QString& before, const QString& after, int number) {
    if (before.isEmpty() || before == after) return RunHistory::tr("run %1").arg(number);
    const QStringList a = before.split(QLatin1Char('\n')), b = after.split(QLatin1Char('\n'));
    int i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        ++i;
    // Lines added shift the rest: a line of the new script that the old lacks says what changed.
    QString line;
    if (i < b.size() && (b.size() >= a.size() || !a.mid(i).contains(b[i])))
        line = b[i].trimmed();
    else if (i < a.size())
        line = QStringLiteral("− ") + a[i].trimmed();
    if (line.size() > 48) line = line.left(47) + QStringLiteral("…");
    return QStringLiteral("L%1: %2").arg(i + 1).arg(line);
}

RunHistory::RunHistory(QObject* parent) : QAbstractTableModel(parent) {
    qRegisterMetaType<RunRecord>();
}

void RunHistory::showDocument(const QString& key) {
    beginResetModel();
    shown_ = key;
    endResetModel();
}

void RunHistory::renameDocument(const QString& from, const QString& to) {
    if (from == to) return;
    if (runs_.contains(from)) runs_.insert(to, runs_.take(from));
    if (count_.contains(from)) count_.insert(to, count_.take(from));
    if (shown_ == from) shown_ = to;
}

RunRecord RunHistory::add(const QString& key, RunRecord record) {
    QList<RunRecord>& list = runs_[key];
    record.number = ++count_[key];
    record.label =
        changeLabel(list.isEmpty() ? QString() : list.back().script, record.script, record.number);
    const bool shown = key == shown_;
    if (list.size() >= kLimit) {
        if (shown) beginRemoveRows({}, 0, 0);
        list.removeFirst();
        if (shown) endRemoveRows();
    }
    if (shown) beginInsertRows({}, int(list.size()), int(list.size()));
    list.append(record);
    if (shown) endInsertRows();
    return record;
}

int RunHistory::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(runs_.value(shown_).size());
}

int RunHistory::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunHistory::data(const QModelIndex& index, int role) const {
    const auto it = runs_.constFind(shown_);
    if (!index.isValid() || it == runs_.constEnd() || index.row() >= it->size()) return {};
    const RunRecord& r = it->at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Number:
            return QString::number(r.number);
        case Time:
            return r.time.toString(QStringLiteral("HH:mm:ss"));
        case Change:
            return r.label;
        case Latency:
            return r.measured ? QString::number(r.latencyMs, 'f', 3) : QStringLiteral("—");
        case Gflops:
            return r.measured ? QString::number(r.gflops, 'f', 1) : QStringLiteral("—");
        case PeakShare:
            return r.measured && r.peakShare > 0 ? QString::number(r.peakShare * 100, 'f', 1)
                                                 : QStringLiteral("—");
        case Correct:
            return r.correct ? tr("ok") : r.failure.isEmpty() ? tr("FAIL") : r.failure;
        case Device:
            return r.device;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (column == Change || column == Device) return int(Qt::AlignLeft | Qt::AlignVCenter);
        if (column == Correct) return int(Qt::AlignCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == Time) return r.time.toString(Qt::ISODate);
        if (column == Change) return tr("%1 threads").arg(r.threads);
        if (column == Correct)
            return r.correct
                       ? tr("max abs error %1, max rel error %2").arg(r.maxAbsErr).arg(r.maxRelErr)
                       : r.error;
        if (column == Device) return r.device;
        return {};
    case Qt::ForegroundRole:
        if (column == Correct) return r.correct ? QColor(56, 142, 60) : QColor(220, 50, 47);
        return {};
    default:
        return {};
    }
}

QVariant RunHistory::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == PeakShare) return peakExplanation_;
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Number:
        return tr("#");
    case Time:
        return tr("Time");
    case Change:
        return tr("Change");
    case Latency:
        return tr("Latency (ms)");
    case Gflops:
        return tr("GFLOP/s");
    case PeakShare:
        return tr("% of peak");
    case Correct:
        return tr("Correct");
    case Device:
        return tr("Device");
    default:
        return {};
    }
}

} // namespace tessel::views
