/// \file
/// The Compare view's controller (no widgets): the two sides the user chose,
/// and a comparison of the open model on a worker thread
/// (driver::compareModels: compiled once per side, measured interleaved).
///
/// A side is its schedules (untuned: the default schedules; the session's
/// tuned configurations, Run > Tuned Configurations; the Tuning view's
/// current records file; or a records file's best configurations), where it
/// runs (this machine's warm tessel-rpc server, or a device of the device
/// panel; each side gets a session of its own) and its threads. The model is
/// the Session's, imported again from its file with the Session's input
/// shapes (hand-edited schedules are not part of either side). Progress and
/// the result cross to the GUI thread queued; cancel() stops at the next
/// step and keeps the rounds completed.
#pragma once

#include "common/DeviceChoice.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

namespace tessel::driver {
struct CompareResult;
}

namespace tessel::views {

class Session;

/// What one side of a comparison is.
struct CompareSideChoice {
    enum class Schedules {
        Untuned,
        /// What every compile of the session applies (Session::recordsPath, a
        /// file or a folder such as the bundled records, and the
        /// configurations chosen in the Tuning view over them).
        SessionRecords,
        TuningRecords,
        RecordsFile
    };
    Schedules schedules = Schedules::Untuned;
    /// The records file (Schedules::RecordsFile).
    QString recordsPath;
    DeviceChoice device;
    /// Threads while it runs; 0: the default of where it runs.
    int threads = 0;

    bool operator==(const CompareSideChoice&) const = default;
};

class CompareSession : public QObject {
    Q_OBJECT
public:
    explicit CompareSession(Session* session, QObject* parent = nullptr);
    ~CompareSession() override;

    Session* session() const { return session_; }

    /// Side 0 (A) or 1 (B). By default A is untuned and B tuned, both on this
    /// machine: the session's tuned configurations when it has some (the
    /// example opens with the bundled records), else the Tuning view's records
    /// file; B follows the session that way until the user sets it.
    CompareSideChoice side(int index) const { return sides_[index & 1]; }
    void setSide(int index, const CompareSideChoice& side);
    /// The side in words, for legends and messages: "untuned",
    /// "resnet18.records.jsonl on server 10.0.0.2:9090, 2 threads".
    QString sideLabel(int index) const;
    /// Interleaved rounds (driver::CompareOptions::rounds).
    int rounds() const { return rounds_; }
    void setRounds(int rounds) { rounds_ = qMax(1, rounds); }

    /// Where Schedules::TuningRecords reads: the Tuning view's records file
    /// when the shell linked one, else its default beside the open model.
    void setTuningRecordsSource(std::function<QString()> source) { tuningRecords_ = std::move(source); }
    QString tuningRecordsPath() const;
    /// The records file (or folder) side `index` uses (empty when untuned).
    QString recordsPath(int index) const;

    bool isRunning() const { return running_; }
    /// The last comparison (null before the first); kept while a new one runs.
    std::shared_ptr<const driver::CompareResult> result() const { return result_; }
    QString statusText() const { return status_; }
    /// The run's fraction done, in [0, 1].
    double progress() const { return progress_; }

    /// Writes the result as CSV (driver::compareCsv); false, with the reason
    /// in the status, when there is no result or the file cannot be written.
    bool exportCsv(const QString& path);

public slots:
    /// Starts comparing the open model (false, with a status, when no model
    /// is open, a run is going on, or a side's records file cannot be read).
    bool start();
    /// Stops the run at its next step; the rounds completed are shown.
    void cancel();

signals:
    void sidesChanged();
    void runningChanged(bool running);
    void progressChanged(double fraction, const QString& stage);
    void statusChanged(const QString& text);
    /// A comparison ended with figures (complete, cancelled or failed mid-run).
    void resultChanged();
    /// A run ended, whatever the outcome.
    void finished();

private:
    void onProgress(double fraction, const QString& stage);
    void onDone(std::shared_ptr<const driver::CompareResult> result, const QString& error);
    void setStatus(const QString& text);
    void followSession();

    Session* session_;
    CompareSideChoice sides_[2];
    /// B is still the default (follows the session's tuned configurations).
    bool defaultB_ = true;
    int rounds_ = 10;
    std::function<QString()> tuningRecords_;
    bool running_ = false;
    double progress_ = 0;
    QString status_;
    std::shared_ptr<const driver::CompareResult> result_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::thread worker_;
};

} // namespace tessel::views
