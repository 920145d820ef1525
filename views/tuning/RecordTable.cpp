#include "tuning/RecordTable.h"

namespace tessel::views {

RecordTable::RecordTable(QObject* parent) : QAbstractTableModel(parent) {}

bool RecordTable::load(const QString& path, const QString& key, const QString& filter) {
    beginResetModel();
    rows_.clear();
    total_ = 0;
    bool ok = true;
    try {
        const tune::Records records = driver::readTuningHistory(path.toStdString());
        for (const tune::Record* r : records.forWorkload(key.toStdString())) {
            ++total_;
            const QString result = r->ok() ? QStringLiteral("ok") : QString::fromUtf8(runtime::measureErrorName(r->error));
            if (filter.isEmpty() || filter == result) rows_.push_back(*r);
        }
    } catch (const std::exception&) {
        ok = false;
    }
    endResetModel();
    return ok;
}

const tune::Record* RecordTable::record(int row) const {
    return row >= 0 && row < int(rows_.size()) ? &rows_[size_t(row)] : nullptr;
}

QString RecordTable::valuesText(const tune::Record& r) {
    QStringList parts;
    for (auto& [k, v] : r.values) parts << QStringLiteral("%1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
    return parts.join(QStringLiteral(", "));
}

int RecordTable::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int RecordTable::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RecordTable::data(const QModelIndex& index, int role) const {
    const tune::Record* r = record(index.row());
    if (!r) return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Trial: return qlonglong(r->trial);
        case Gflops: return r->ok() ? QString::number(r->gflops(), 'f', 2) : QString();
        case Result:
            if (!r->ok()) return QString::fromUtf8(runtime::measureErrorName(r->error));
            return r->isDefault ? tr("ok (default)") : tr("ok");
        case Configuration: return valuesText(*r);
        case Message: return QString::fromStdString(r->message).simplified();
        }
    } else if (role == Qt::UserRole) {
        // What the explorer sorts by: numbers as numbers, failed trials below every measured one.
        switch (index.column()) {
        case Trial: return qlonglong(r->trial);
        case Gflops: return r->ok() ? r->gflops() : -1.0;
        default: return data(index, Qt::DisplayRole);
        }
    } else if (role == Qt::ToolTipRole && (index.column() == Message || index.column() == Configuration)) {
        return index.column() == Message ? QString::fromStdString(r->message) : valuesText(*r);
    } else if (role == Qt::TextAlignmentRole && (index.column() == Trial || index.column() == Gflops)) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant RecordTable::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Trial: return tr("Trial");
    case Gflops: return tr("GFLOP/s");
    case Result: return tr("Result");
    case Configuration: return tr("Configuration");
    case Message: return tr("Message");
    }
    return {};
}

} // namespace tessel::views
