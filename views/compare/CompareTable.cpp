#include "compare/CompareTable.h"

#include "driver/ModelCompare.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessel::views {

std::vector<int> compareRowOrder(const driver::CompareResult& result) {
    std::vector<int> order(result.rows.size());
    std::iota(order.begin(), order.end(), 0);
    auto key = [&](int i) {
        const auto& r = result.rows[size_t(i)];
        // Rows A has first; NaN-free keys so the sort is well defined.
        return std::pair<int, double>(r.inA() ? 0 : 1, -(r.inA() ? (std::isfinite(r.msA) ? r.msA : 0)
                                                                  : (std::isfinite(r.msB) ? r.msB : 0)));
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    return order;
}

CompareTable::CompareTable(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTable::setResult(std::shared_ptr<const driver::CompareResult> result) {
    beginResetModel();
    result_ = std::move(result);
    order_ = result_ ? compareRowOrder(*result_) : std::vector<int>{};
    endResetModel();
}

int CompareTable::resultRow(int row) const {
    if (!result_ || row <= 0 || row > int(order_.size())) return -1;
    return order_[size_t(row - 1)];
}

int CompareTable::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !result_) return 0;
    return int(order_.size()) + 1;
}

int CompareTable::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {

QVariant number(double v) { return std::isfinite(v) ? QVariant(v) : QVariant(); }

QString text(double v, int precision, char format = 'g') {
    return std::isfinite(v) ? QString::number(v, format, precision) : QStringLiteral("–");
}

} // namespace

QVariant CompareTable::data(const QModelIndex& index, int role) const {
    if (!result_ || !index.isValid()) return {};
    const driver::CompareResult& r = *result_;
    const int resultIndex = resultRow(index.row());
    const bool endToEnd = index.row() == 0;
    const driver::CompareRow* row = endToEnd ? nullptr : &r.rows[size_t(resultIndex)];
    const int column = index.column();
    if (role == Qt::UserRole) {
        switch (column) {
        case Function: return endToEnd ? QString::fromLatin1(driver::kEndToEnd) : QString::fromStdString(row->function);
        case MsA: return number(endToEnd ? r.latencyA : row->msA);
        case MsB: return number(endToEnd ? r.latencyB : row->msB);
        case GflopsA: return endToEnd || !row->inA() ? QVariant() : QVariant(row->gflopsA);
        case GflopsB: return endToEnd || !row->inB() ? QVariant() : QVariant(row->gflopsB);
        case Ratio: return number(endToEnd ? r.ratio : row->ratio);
        case Calls: return endToEnd ? QVariant() : QVariant(row->callsA > 0 ? row->callsA : row->callsB);
        case Tuned: return endToEnd ? QVariant() : QVariant(int(row->tunedA) | int(row->tunedB) << 1);
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case Function: return endToEnd ? tr("end to end") : QString::fromStdString(row->function);
        case Calls:
            if (endToEnd) return QString();
            if (row->inA() && row->inB() && row->callsA == row->callsB) return row->callsA;
            return QStringLiteral("%1 / %2").arg(row->callsA).arg(row->callsB);
        case MsA: return text(endToEnd ? r.latencyA : row->msA, 4);
        case MsB: return text(endToEnd ? r.latencyB : row->msB, 4);
        case GflopsA: return endToEnd || row->gflopsA <= 0 ? QString() : text(row->gflopsA, 1, 'f');
        case GflopsB: return endToEnd || row->gflopsB <= 0 ? QString() : text(row->gflopsB, 1, 'f');
        case Ratio: return text(endToEnd ? r.ratio : row->ratio, 3, 'f');
        case Tuned: {
            if (endToEnd) return QString();
            QStringList parts;
            if (row->tunedA) parts << QStringLiteral("A");
            if (row->tunedB) parts << QStringLiteral("B");
            if (!row->inA()) parts << tr("only on B");
            if (!row->inB()) parts << tr("only on A");
            return parts.join(QStringLiteral(", "));
        }
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && column != Function && column != Tuned)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Ratio) {
        const double ratio = endToEnd ? r.ratio : row->ratio;
        if (std::isfinite(ratio) && ratio < 1) return QBrush(QColor(20, 120, 40));
        if (std::isfinite(ratio) && ratio > 1) return QBrush(QColor(170, 40, 30));
    }
    if (role == Qt::FontRole && endToEnd) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole && column == Ratio)
        return tr("B's time divided by A's: below 1, B is faster.");
    return {};
}

QVariant CompareTable::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Function: return tr("Function");
    case Calls: return tr("Calls");
    case MsA: return tr("A (ms)");
    case MsB: return tr("B (ms)");
    case GflopsA: return tr("A GFLOP/s");
    case GflopsB: return tr("B GFLOP/s");
    case Ratio: return tr("B / A");
    case Tuned: return tr("Tuned");
    default: return {};
    }
}

} // namespace tessel::views
