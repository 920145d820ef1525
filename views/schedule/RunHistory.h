/// \file
/// The schedule editor's measurements: one RunRecord per Run, kept per
/// document (a script, or one fused function of a model) so that switching
/// functions and coming back finds the comparison where it was, and shown as
/// a table model (number, time, what changed, latency, GFLOP/s, share of
/// peak, correctness or why it failed, and the device it ran on). Double-clicking a row in the editor puts that run's
/// script back.
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace tessel::views {

/// One measurement of a schedule, as the history shows it.
struct RunRecord {
    int number = 0; ///< 1, 2, ... per document
    QDateTime time;
    QString label;  ///< what changed since the previous run, or "run N"
    QString script; ///< the script that was measured
    QString function;
    double latencyMs = 0;
    double gflops = 0;
    double peakShare = 0; ///< gflops / this CPU's peak (0 when unknown)
    double maxAbsErr = 0, maxRelErr = 0;
    bool correct = false; ///< outputs match the default schedule's
    int threads = 0;
    QString error; ///< why it is not correct (or why it failed)
    /// Why it failed (measureFailureName: "device unreachable", "crashed",
    /// "wrong result", …); empty when it ran and was correct. A run that did
    /// not measure anything has no latency, never "0.000 ms".
    QString failure;
    bool measured = false; ///< latencyMs and gflops are a measurement
    QString device;        ///< where it ran (DeviceChoice::label)
};

/// "L31: s[CC].split(k, factor=8)": the first line of `after` that differs
/// from `before` (a removed line with "−"), or "run N" when nothing changed.
QString changeLabel(const QString& before, const QString& after, int number);

class RunHistory : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, Time, Change, Latency, Gflops, PeakShare, Correct, Device, ColumnCount };
    /// Runs kept per document; the oldest go first.
    static constexpr int kLimit = 10;

    explicit RunHistory(QObject* parent = nullptr);

    /// Shows the runs of document `key` (resets the model).
    void showDocument(const QString& key);
    QString document() const { return shown_; }
    /// Document `from` is now called `to` (a script saved under another name):
    /// its runs and numbering go with it.
    void renameDocument(const QString& from, const QString& to);
    /// Numbers and labels `record` within the history of document `key`,
    /// keeps it and returns it as kept.
    RunRecord add(const QString& key, RunRecord record);
    /// The shown document's runs, oldest first.
    QList<RunRecord> runs() const { return runs_.value(shown_); }
    const RunRecord& at(int row) const { return runs_[shown_].at(row); }
    /// The tooltip of the "% of peak" column: how the peak was estimated.
    void setPeakExplanation(const QString& text) { peakExplanation_ = text; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QHash<QString, QList<RunRecord>> runs_;
    QHash<QString, int> count_;
    QString shown_;
    QString peakExplanation_;
};

} // namespace tessel::views

Q_DECLARE_METATYPE(tessel::views::RunRecord)
