/// \file
/// A comparison's figures as a table model: the end-to-end line first, then
/// every fused function, slowest on side A first (compareRowOrder, the order
/// the Compare view's chart draws its bars in), with calls, both sides'
/// milliseconds and GFLOP/s, the ratio B / A and which side a records file
/// tuned. Qt::DisplayRole is the text shown; Qt::UserRole the number itself.
#pragma once

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace tessel::driver {
struct CompareResult;
}

namespace tessel::views {

/// Indices into result.rows, slowest on side A first (functions only side B
/// runs after them, slowest first).
std::vector<int> compareRowOrder(const driver::CompareResult& result);

class CompareTable : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Function, Calls, MsA, MsB, GflopsA, GflopsB, Ratio, Tuned, ColumnCount };

    explicit CompareTable(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const driver::CompareResult> result);
    std::shared_ptr<const driver::CompareResult> result() const { return result_; }
    /// The result row shown on table row `row` (-1: the end-to-end line or none).
    int resultRow(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const driver::CompareResult> result_;
    std::vector<int> order_;
};

} // namespace tessel::views
