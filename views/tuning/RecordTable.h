/// \file
/// The Tuning view's record explorer: the records of one workload read from a
/// records file (tune::Records), filtered by result ("ok" or an error kind),
/// with their knob values decoded, GFLOP/s and error message.
#pragma once

#include "driver/TuningRecords.h"

#include <QAbstractTableModel>

#include <vector>

namespace tessel::views {

class RecordTable : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Trial, Gflops, Result, Configuration, Message, ColumnCount };

    explicit RecordTable(QObject* parent = nullptr);

    /// Reads `path` and keeps the records of workload `key` whose result is
    /// `filter` (empty: all; "ok"; or a runtime::measureErrorName). False
    /// (and no rows) when the file cannot be read.
    bool load(const QString& path, const QString& key, const QString& filter = {});
    /// The records of the workload before filtering.
    int total() const { return total_; }
    /// The record shown in `row`, or null.
    const tune::Record* record(int row) const;
    /// "tile_x=[16, 4, 16], unroll_k=True".
    static QString valuesText(const tune::Record& r);
    /// Qt::UserRole holds what a column sorts by (trial and GFLOP/s as numbers).

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<tune::Record> rows_;
    int total_ = 0;
};

} // namespace tessel::views
