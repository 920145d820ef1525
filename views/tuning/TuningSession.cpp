#include "tuning/TuningSession.h"

#include "common/DeviceChoice.h"
#include "common/Session.h"
#include "driver/Context.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelTasks.h"
#include "driver/TuneTasks.h"
#include "driver/TuningLoop.h"
#include "driver/TuningRecords.h"
#include "ir/Diagnostic.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <numeric>

namespace tessel::views {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

QString duration(double s) {
    if (!std::isfinite(s) || s < 0) return QStringLiteral("?");
    const long t = std::lround(s);
    if (t >= 3600) return QStringLiteral("%1h%2m").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0'));
    if (t >= 60) return QStringLiteral("%1m%2s").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(t);
}

std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
        const double mean = (double(i) + double(j)) / 2 + 1;
        for (size_t k = i; k <= j; ++k) r[order[k]] = mean;
        i = j + 1;
    }
    return r;
}

} // namespace

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
    const size_t n = std::min(x.size(), y.size());
    if (n < 2) return std::numeric_limits<double>::quiet_NaN();
    const auto rx = ranks({x.begin(), x.begin() + long(n)}), ry = ranks({y.begin(), y.begin() + long(n)});
    const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / double(n);
    const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    if (sxx == 0 || syy == 0) return std::numeric_limits<double>::quiet_NaN();
    return sxy / std::sqrt(sxx * syy);
}

TuningSession::TuningSession(Session* session, QObject* parent)
    : QObject(parent), session_(session), tuner_(defaultTuner()) {
    qRegisterMetaType<TrialPoint>();
    connect(this, &TuningSession::workerTrial, this, &TuningSession::onTrial, Qt::QueuedConnection);
    connect(this, &TuningSession::workerTask, this, &TuningSession::onTask, Qt::QueuedConnection);
    connect(this, &TuningSession::workerEnded, this, &TuningSession::onEnded, Qt::QueuedConnection);
    auto follow = [this] {
        if (!running_) reload();
    };
    connect(session_, &Session::modelChanged, this, follow);
    connect(session_, &Session::scriptChanged, this, [this, follow] {
        // The schedule editor showing one configuration of the template is not a new template.
        if (!configScriptPath_.isEmpty() && session_->sourcePath() == configScriptPath_) return;
        follow();
    });
    connect(session_, &Session::cleared, this, follow);
    connect(session_, &Session::targetChanged, this, follow);
    reload();
}

TuningSession::~TuningSession() {
    if (control_) control_->stop();
    if (worker_.joinable()) worker_.join();
}

QStringList TuningSession::availableTuners() {
    QStringList out;
    for (auto& t : driver::availableTuners(driver::Context::builtin().costModels())) out << q(t);
    return out;
}

QString TuningSession::defaultTuner() {
    return availableTuners().contains(QStringLiteral("xgb")) ? QStringLiteral("xgb") : QStringLiteral("random");
}

QString TuningSession::defaultRecordsPath(const QString& sourcePath) {
    if (sourcePath.isEmpty()) return QDir::temp().filePath(QStringLiteral("tessel-tuning.records.jsonl"));
    return sourcePath + QStringLiteral(".records.jsonl");
}

void TuningSession::setRecordsPath(const QString& path) {
    customRecordsPath_ = !path.isEmpty();
    recordsPath_ = path.isEmpty() ? defaultRecordsPath(session_->sourcePath()) : path;
    if (!running_) {
        for (auto& t : tasks_) {
            t.points.clear();
            t.done = t.failed = 0;
            t.bestGflops = t.defaultGflops = 0;
            t.state = TuningTask::State::Pending;
        }
        loadHistory();
        emit tasksChanged();
    }
}

void TuningSession::setWorkload(const QString& workload) {
    if (workload == workload_) return;
    workload_ = workload;
    if (!running_ && session_->kind() == Session::Kind::Script) reload();
}

void TuningSession::reload() {
    tasks_.clear();
    tasksError_.clear();
    scriptText_.clear();
    scriptPath_.clear();
    templateDefaults_.clear();
    if (!customRecordsPath_) recordsPath_ = defaultRecordsPath(session_->sourcePath());
    try {
        const driver::CompileRequest request = session_->request();
        if (session_->kind() == Session::Kind::Model && session_->model()) {
            driver::CompileOptions options;
            options.request = request;
            for (auto& mt : driver::extractTasks(*session_->model(), options)) {
                TuningTask t;
                t.task = mt.task;
                t.name = q(mt.task->name());
                t.key = q(mt.task->workload().key);
                t.weight = mt.weight;
                for (auto& f : mt.functions) t.functions << q(f);
                tasks_.push_back(std::move(t));
            }
            if (tasks_.empty()) tasksError_ = tr("The model has no function with a tunable schedule.");
        } else if (session_->kind() == Session::Kind::Script) {
            scriptText_ = session_->scriptText();
            scriptPath_ = session_->sourcePath();
            driver::ScriptTaskOptions so;
            so.fileName = QFileInfo(scriptPath_.isEmpty() ? QStringLiteral("script.te") : scriptPath_)
                              .fileName()
                              .toStdString();
            so.target = request.target;
            if (!workload_.trimmed().isEmpty()) so.workload = driver::parseWorkload(workload_.trimmed().toStdString());
            auto task = std::make_shared<driver::ScriptTask>(scriptText_.toStdString(), so);
            QStringList defaults;
            for (const auto& param : task->workloadParams())
                defaults << QStringLiteral("%1=%2").arg(q(param.name)).arg(param.defaultValue);
            templateDefaults_ = defaults.join(QLatin1Char(','));
            if (task->knobs().empty()) {
                tasksError_ = tr("The script defines no knobs (cfg.define_split, define_knob …): nothing to tune.");
            } else {
                TuningTask t;
                t.name = q(task->name());
                t.key = q(task->workload().key);
                t.task = std::move(task);
                tasks_.push_back(std::move(t));
            }
        } else {
            tasksError_ = tr("Open a model or a TE script template to tune it.");
        }
    } catch (const CompileError& e) {
        tasks_.clear();
        tasksError_ = tr("Cannot make tuning tasks: %1").arg(q(e.diagnostic().message));
    } catch (const std::exception& e) {
        tasks_.clear();
        tasksError_ = tr("Cannot make tuning tasks: %1").arg(q(e.what()));
    }
    loadHistory();
    setStatus(tasksError_.isEmpty() ? tr("%n task(s); records: %1", nullptr, int(tasks_.size())).arg(recordsPath_)
                                    : tasksError_);
    emit tasksChanged();
}

void TuningSession::loadHistory() {
    if (tasks_.empty()) return;
    tune::Records history;
    try {
        history = driver::readTuningHistory(recordsPath_.toStdString());
    } catch (const std::exception& e) {
        setStatus(tr("Cannot read %1: %2").arg(recordsPath_, q(e.what())));
        return;
    }
    for (auto& t : tasks_) {
        t.budget = std::max(trials_, 0);
        double best = 0;
        int trial = 0;
        for (const tune::Record* r : history.forWorkload(t.key.toStdString())) {
            TrialPoint p;
            p.trial = trial++;
            p.gflops = r->gflops();
            p.failed = !r->ok();
            best = std::max(best, p.gflops);
            p.bestGflops = best;
            p.resumed = true;
            t.points.push_back(p);
            t.failed += p.failed;
            if (r->isDefault && r->ok()) t.defaultGflops = std::max(t.defaultGflops, p.gflops);
        }
        t.done = trial;
        t.bestGflops = best;
        if (t.done >= t.budget && t.done > 0) t.state = TuningTask::State::Done;
    }
}

bool TuningSession::start() {
    if (running_) return false;
    if (tasks_.empty()) {
        setStatus(tasksError_.isEmpty() ? tr("Nothing to tune.") : tasksError_);
        return false;
    }
    if (trials_ <= 0) {
        setStatus(tr("The trial budget must be at least 1."));
        return false;
    }
    const std::string tuner = tuner_.toStdString();
    if (!driver::isTunerName(tuner)) {
        setStatus(tr("Unknown tuner '%1'.").arg(tuner_));
        return false;
    }

    // What the worker tunes, in order; the table keeps the GUI's copy.
    struct Job {
        int index;
        std::shared_ptr<const tune::Task> task;
    };
    std::vector<Job> jobs;
    runBudget_ = 0;
    for (int i = 0; i < int(tasks_.size()); ++i) {
        auto& t = tasks_[size_t(i)];
        t.budget = trials_;
        t.error.clear();
        t.state = TuningTask::State::Pending;
        jobs.push_back({i, t.task});
        runBudget_ += std::max(0, trials_ - t.done);
    }
    if (order_ == Order::Weight)
        std::stable_sort(jobs.begin(), jobs.end(), [this](const Job& a, const Job& b) {
            return tasks_[size_t(a.index)].weight > tasks_[size_t(b.index)].weight;
        });

    tune::TuneOptions to;
    to.tuner = tuner;
    to.trials = trials_;
    to.earlyStopping = earlyStopping_;
    to.batchSize = std::max(1, batchSize_);
    const driver::CompileRequest request = session_->request();
    const DeviceChoice device = session_->device();
    const std::string records = recordsPath_.toStdString();
    control_ = std::make_shared<tune::TuneControl>();
    if (worker_.joinable()) worker_.join();

    running_ = true;
    paused_ = false;
    runTrials_ = 0;
    runStart_ = now();
    pausedSeconds_ = 0;
    currentTask_ = -1;
    emit runningChanged(true);
    emit tasksChanged();
    updateStatus();

    worker_ = std::thread([this, jobs, to, request, device, records, control = control_] {
        try {
            DeviceRunners runners(device);
            // The driver's loop, as tesselc tune runs it: resumed from the file, the
            // cost model warm-started from other workloads' records, the same seed.
            driver::TuningLoopOptions o;
            o.tune = to;
            o.records = records;
            std::vector<driver::TuningJob> loopJobs;
            for (const Job& job : jobs) loopJobs.push_back({job.task, 1});
            driver::TuningEvents ev;
            ev.onStart = [&](size_t j, const tune::Tuner&, int, int) {
                emit workerTask(jobs[j].index, int(TuningTask::State::Running), {});
            };
            ev.onTrial = [&](size_t j, const tune::TrialEvent& e) {
                TrialPoint p;
                p.trial = e.trial;
                p.failed = e.error != runtime::MeasureError::None;
                p.gflops = p.failed ? 0 : e.gflops;
                p.bestGflops = e.bestGflops;
                p.predicted = double(e.predicted);
                emit workerTrial(jobs[j].index, p, e.trial + 1, e.budget, e.bestGflops, e.defaultGflops, p.failed);
            };
            ev.onDone = [&](size_t j, const tune::TuneResult& r) {
                emit workerTask(jobs[j].index, int(r.stopped ? TuningTask::State::Stopped : TuningTask::State::Done),
                                {});
            };
            ev.onFailed = [&](size_t j, const std::string& error) {
                emit workerTask(jobs[j].index, int(TuningTask::State::Failed), q(error));
            };
            driver::runTuningLoopOn(runners, request, loopJobs, o, driver::Context::builtin().costModels(), ev,
                                    control.get());
        } catch (const std::exception& e) {
            emit workerTask(-1, int(TuningTask::State::Failed), q(e.what()));
        }
        emit workerEnded();
    });
    return true;
}

void TuningSession::pause() {
    if (!running_ || paused_) return;
    control_->setPaused(true);
    paused_ = true;
    pausedAt_ = now();
    if (currentTask_ >= 0 && tasks_[size_t(currentTask_)].state == TuningTask::State::Running) {
        tasks_[size_t(currentTask_)].state = TuningTask::State::Paused;
        emit taskChanged(currentTask_);
    }
    emit pausedChanged(true);
    updateStatus();
}

void TuningSession::resume() {
    if (!running_ || !paused_) return;
    pausedSeconds_ += now() - pausedAt_;
    paused_ = false;
    control_->setPaused(false);
    if (currentTask_ >= 0 && tasks_[size_t(currentTask_)].state == TuningTask::State::Paused) {
        tasks_[size_t(currentTask_)].state = TuningTask::State::Running;
        emit taskChanged(currentTask_);
    }
    emit pausedChanged(false);
    updateStatus();
}

void TuningSession::stop() {
    if (!running_) return;
    control_->stop();
    if (paused_) {
        paused_ = false;
        emit pausedChanged(false);
    }
    setStatus(tr("Stopping after the trial in flight…"));
}

void TuningSession::onTrial(int task, const TrialPoint& point, int done, int budget, double best, double def,
                            bool failed) {
    if (task < 0 || task >= int(tasks_.size())) return;
    auto& t = tasks_[size_t(task)];
    t.points.push_back(point);
    t.done = done;
    t.budget = budget;
    t.bestGflops = best;
    t.defaultGflops = def;
    t.failed += failed;
    ++runTrials_;
    emit trialAdded(task, point);
    emit taskChanged(task);
    updateStatus();
}

void TuningSession::onTask(int task, int state, const QString& error) {
    if (task < 0) {
        setStatus(tr("Tuning failed: %1").arg(error));
        session_->report(tr("Tuning failed: %1").arg(error), true);
        return;
    }
    if (task >= int(tasks_.size())) return;
    auto& t = tasks_[size_t(task)];
    t.state = TuningTask::State(state);
    if (t.state == TuningTask::State::Running) {
        currentTask_ = task;
        if (paused_) t.state = TuningTask::State::Paused;
    }
    if (t.state == TuningTask::State::Failed) {
        t.error = error;
        session_->report(tr("Tuning %1 failed: %2").arg(t.name, error), true);
    }
    emit taskChanged(task);
    updateStatus();
}

void TuningSession::onEnded() {
    if (worker_.joinable()) worker_.join();
    const bool stopped = control_ && control_->stopRequested();
    running_ = false;
    if (paused_) {
        paused_ = false;
        emit pausedChanged(false);
    }
    currentTask_ = -1;
    setStatus(stopped ? tr("Stopped after %n trial(s); records: %1", nullptr, runTrials_).arg(recordsPath_)
                      : tr("Finished: %n trial(s) measured; records: %1", nullptr, runTrials_).arg(recordsPath_));
    emit runningChanged(false);
    emit finished();
}

double TuningSession::etaSeconds() const {
    if (!running_ || runTrials_ == 0) return -1;
    const double elapsed = (paused_ ? pausedAt_ : now()) - runStart_ - pausedSeconds_;
    return elapsed / runTrials_ * std::max(0, runBudget_ - runTrials_);
}

void TuningSession::updateStatus() {
    if (!running_) return;
    QString what;
    if (currentTask_ >= 0) {
        const auto& t = tasks_[size_t(currentTask_)];
        what = tr("%1: %2/%3 trials, best %4 GFLOP/s")
                   .arg(t.name)
                   .arg(t.done)
                   .arg(t.budget)
                   .arg(t.bestGflops, 0, 'f', 1);
        if (t.speedup() > 0) what += tr(", %1× over the default").arg(t.speedup(), 0, 'f', 2);
    } else {
        what = tr("Starting the device and the first task…");
    }
    const QString eta = runTrials_ > 0 ? tr("ETA %1").arg(duration(etaSeconds())) : tr("ETA ?");
    setStatus(paused_ ? tr("Paused — %1").arg(what) : QStringLiteral("%1 — %2").arg(what, eta));
}

void TuningSession::setStatus(const QString& text) {
    if (text == status_) return;
    status_ = text;
    emit statusChanged(text);
}

} // namespace tessel::views
