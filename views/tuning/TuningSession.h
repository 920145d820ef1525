/// \file
/// The Tuning view's controller (no widgets): the tuning tasks of what the
/// Session has open, and a tuning run over them on a worker thread.
///
/// For an open model the tasks are driver::extractTasks's (identical
/// workloads are one task, weighted by their calls); for an open TE script
/// template, one driver::ScriptTask. start() tunes them in turn (the table's
/// order, or heaviest first) in the driver's tuning loop (the one `tesselc
/// tune` runs: driver::runTuningLoopOn) on the device panel's device
/// (DeviceRunners: this machine's warm tessel-rpc server by default), appending every trial to the records file and resuming
/// from the trials it already holds. Each trial crosses to the GUI thread by a
/// queued signal; pause() lets the trial in flight end and starts no other
/// until resume(); stop() ends the run after the trial in flight.
#pragma once

#include "driver/TuningLoop.h"
#include "driver/TuningRecords.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

namespace tessel::tune {
class TuneControl;
}

namespace tessel::views {

class Session;

/// One ended trial as the curves draw it.
struct TrialPoint {
    int trial = 0;
    double gflops = 0;
    double bestGflops = 0;
    bool failed = false;
    /// The cost model's score when the model planned the trial; NaN otherwise.
    double predicted = std::numeric_limits<double>::quiet_NaN();
    /// From the records file (an earlier run), not measured by this one.
    bool resumed = false;
};

/// One task of the table.
struct TuningTask {
    enum class State { Pending, Running, Paused, Done, Stopped, Failed };
    std::shared_ptr<const tune::Task> task;
    QString name;
    /// The workload key (tune::Workload::key): its records' key.
    QString key;
    int weight = 1;
    /// The model's fused functions that share it (empty for a script).
    QStringList functions;
    int done = 0;
    int budget = 0;
    int failed = 0;
    double bestGflops = 0;
    double defaultGflops = 0;
    State state = State::Pending;
    /// Why it failed (State::Failed).
    QString error;
    std::vector<TrialPoint> points;

    double speedup() const { return defaultGflops > 0 && bestGflops > 0 ? bestGflops / defaultGflops : 0; }
};

/// Spearman's rank correlation of paired samples (average ranks on ties);
/// NaN with fewer than two pairs or a constant side.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

class TuningSession : public QObject {
    Q_OBJECT
public:
    enum class Order { Table, Weight };

    explicit TuningSession(Session* session, QObject* parent = nullptr);
    ~TuningSession() override;

    Session* session() const { return session_; }

    /// The tuners the user can choose (tune::tunerNames() whose cost model
    /// the registry has), and the default: "xgb" when its plugin is loaded,
    /// else "random".
    static QStringList availableTuners();
    static QString defaultTuner();

    QString tuner() const { return tuner_; }
    void setTuner(const QString& tuner) { tuner_ = tuner; }
    /// The trial budget of every task (counting resumed trials).
    int trials() const { return trials_; }
    void setTrials(int trials) { trials_ = trials; }
    /// Trials without a faster one before a task ends (0: never).
    int earlyStopping() const { return earlyStopping_; }
    void setEarlyStopping(int trials) { earlyStopping_ = trials; }
    /// Trials measured per round (tune::TuneOptions::batchSize).
    int batchSize() const { return batchSize_; }
    void setBatchSize(int size) { batchSize_ = size; }
    Order order() const { return order_; }
    void setOrder(Order order) { order_ = order; }
    /// Where trials are appended; by default beside the open file
    /// ("<model or script>.records.jsonl"). Changing it reloads the tasks' history.
    QString recordsPath() const { return recordsPath_; }
    void setRecordsPath(const QString& path);
    static QString defaultRecordsPath(const QString& sourcePath);
    /// A script template's workload ("M=64,N=64,K=64"; empty: its defaults).
    QString workload() const { return workload_; }
    /// The open template's own workload, as it declares it ("M=1024,N=1024,K=1024");
    /// empty when no template is open.
    QString templateDefaults() const { return templateDefaults_; }
    void setWorkload(const QString& workload);
    /// The file the schedule editor shows a configuration under: a script
    /// opened there is not a new template to tune.
    void setConfigScriptPath(const QString& path) { configScriptPath_ = path; }

    /// The tasks of what the session has open (reloaded when it changes,
    /// unless a run is going on); empty, with tasksError() saying why, when
    /// nothing tunable is open.
    const std::vector<TuningTask>& tasks() const { return tasks_; }
    QString tasksError() const { return tasksError_; }
    /// The template's text and file for a script task (the schedule editor
    /// opens a configuration of it).
    QString scriptText() const { return scriptText_; }
    QString scriptPath() const { return scriptPath_; }
    /// Takes the tasks from the session again (and their trials from the records file).
    void reload();

    bool isRunning() const { return running_; }
    bool isPaused() const { return paused_; }
    /// Trials this run has measured so far, and the seconds it has run.
    int runTrials() const { return runTrials_; }
    /// The run's status in words, with an ETA.
    QString statusText() const { return status_; }
    /// Seconds the run still needs at its pace so far (negative: unknown).
    double etaSeconds() const;

public slots:
    /// Starts tuning every task (false, with a status, when nothing can be tuned or a run is going on).
    bool start();
    void pause();
    void resume();
    void stop();

signals:
    void tasksChanged();
    void taskChanged(int task);
    /// A trial ended; the task's points and counters already include it.
    void trialAdded(int task, const tessel::views::TrialPoint& point);
    void runningChanged(bool running);
    void pausedChanged(bool paused);
    void statusChanged(const QString& text);
    /// The run ended (budget spent, stopped, or failed).
    void finished();

    // From the worker thread; connected queued to the handlers below.
    void workerTrial(int task, const tessel::views::TrialPoint& point, int done, int budget, double best,
                     double def, bool failed);
    void workerTask(int task, int state, const QString& error);
    void workerEnded();

private:
    void onTrial(int task, const TrialPoint& point, int done, int budget, double best, double def, bool failed);
    void onTask(int task, int state, const QString& error);
    void onEnded();
    void loadHistory();
    void setStatus(const QString& text);
    void updateStatus();

    Session* session_;
    QString tuner_;
    int trials_ = 64;
    int earlyStopping_ = 0;
    int batchSize_ = 16;
    Order order_ = Order::Table;
    QString recordsPath_;
    QString workload_;
    QString configScriptPath_;
    bool customRecordsPath_ = false;
    std::vector<TuningTask> tasks_;
    QString tasksError_;
    QString scriptText_, scriptPath_;
    QString templateDefaults_;
    bool running_ = false;
    bool paused_ = false;
    int runTrials_ = 0;
    int runBudget_ = 0;
    double runStart_ = 0;
    double pausedSeconds_ = 0, pausedAt_ = 0;
    int currentTask_ = -1;
    QString status_;
    std::shared_ptr<tune::TuneControl> control_;
    std::thread worker_;
};

} // namespace tessel::views

Q_DECLARE_METATYPE(tessel::views::TrialPoint)
