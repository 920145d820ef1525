/// \file
/// The tuner's loop (AutoTVM's Tuner.tune): propose a batch, measure it,
/// record every trial, learn, until the budget is spent, the search stops
/// improving, the space is used up or the caller stops it.
///
///     tune::Tuner tuner(task, context.costModels, options);   // "xgb", "ga", ...
///     tuner.resume(records);        // trials of this workload: not measured again
///     tuner.transfer(records);      // other workloads of the operator: warm start
///     tune::RecordWriter log("gemm.jsonl");
///     tune::TuneResult r = tuner.run(measurer, &log, onTrial, &control);
///
/// The first trial of a workload is its default configuration (the untuned
/// schedule), so the records always hold the speed-up over the default and
/// the best is never worse than it. Each trial is appended to the records as
/// it ends and reported to `onTrial` (TrialEvent: what the IDE's curves
/// draw). TuneControl pauses and stops a run between trials from another
/// thread.
///
/// Tuners: "xgb" (the registry's "xgb" model with the rank:pairwise
/// objective), "xgb-reg" (its regression objective), "ga", "random", "grid".
/// The model-based ones need their model in the CostModelRegistry; "xgb"
/// comes from the plugin plugins/costmodel-xgboost, and without it the
/// constructor says so. TuneOptions::costModel runs the model-based search
/// with another model of the registry (the built-in "random", a third
/// party's plugin).
#pragma once

#include "tune/CostModel.h"
#include "tune/Features.h"
#include "tune/Measure.h"
#include "tune/ModelSearch.h"
#include "tune/Records.h"
#include "tune/Search.h"
#include "tune/Space.h"
#include "tune/Task.h"

#include <atomic>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::tune {

/// The tuners by name: "xgb", "xgb-reg", "ga", "random", "grid".
const std::vector<std::string>& tunerNames();

struct TuneOptions {
    std::string tuner = "xgb";
    /// For the model-based tuners: the registry's model to use (empty: "xgb").
    std::string costModel;
    /// Extra options for the model (CostModelOptions::options).
    std::map<std::string, std::string> modelOptions;
    /// The workload's trial budget, counting trials its records already hold
    /// (a resumed run measures what is left).
    int trials = 200;
    /// Stop after this many trials without a faster one (0: never).
    int earlyStopping = 0;
    uint64_t seed = 1;
    /// Trials per round: measured as one batch (built in parallel), after
    /// which a model is retrained and plans the next round.
    int batchSize = 16;
    /// The random share of a model's round, and its diversity (ModelSearchOptions).
    double epsilon = 0.05;
    double diversity = 2.0;
    FeatureKind features = FeatureKind::Itervar;
    FeatureOptions featureOptions;
    AnnealingOptions annealing;
    GeneticOptions genetic;
    /// Threads computing features and training the model (0: hardware threads).
    int threads = 0;
    /// Measure the default configuration first (unless the records have it).
    bool measureDefault = true;
};

/// One trial, as it ends.
struct TrialEvent {
    /// The trial's number among the workload's trials (0-based, counting
    /// resumed ones), and the budget.
    int trial = 0;
    int budget = 0;
    int64_t index = -1;
    Config config;
    std::map<std::string, std::string> values;
    bool isDefault = false;
    runtime::MeasureError error = runtime::MeasureError::None;
    std::string message;
    /// This trial's throughput and median seconds (0 and +inf when it failed).
    double gflops = 0;
    double seconds = std::numeric_limits<double>::infinity();
    /// The best so far (this trial included) and the default's (0 when unknown).
    double bestGflops = 0;
    int bestTrial = -1;
    double defaultGflops = 0;
    /// The model's score when the model planned it; NaN otherwise.
    float predicted = std::numeric_limits<float>::quiet_NaN();
    /// The model's last round: training, and annealing (with its features).
    double fitSeconds = 0;
    double searchSeconds = 0;
    /// Since the run started.
    double elapsedSeconds = 0;
};

/// Pause and stop from another thread (the IDE's buttons); polled between trials.
class TuneControl {
public:
    void stop() { stop_ = true; }
    void setPaused(bool paused) { pause_ = paused; }
    bool stopRequested() const { return stop_; }
    bool paused() const { return pause_; }
    /// Blocks while paused; false when a stop was requested.
    bool waitWhilePaused() const;

private:
    std::atomic<bool> stop_{false}, pause_{false};
};

struct TuneResult {
    /// Trials measured by this run; all the workload's trials after it.
    int trials = 0;
    int totalTrials = 0;
    int failed = 0;
    std::map<runtime::MeasureError, int> errors;
    /// The best of all the workload's trials (records included).
    Config bestConfig;
    double bestGflops = 0;
    double bestSeconds = std::numeric_limits<double>::infinity();
    double defaultGflops = 0;
    /// Why it ended, when not by the budget.
    bool earlyStopped = false;
    bool stopped = false;
    bool exhausted = false;
    /// Seconds: the whole run, measuring (building included), and the
    /// search's thinking (SearchTime: fit, annealing, its features).
    double wallSeconds = 0;
    double measureSeconds = 0;
    SearchTime searchTime;
};

class Tuner {
public:
    /// Throws std::invalid_argument for an unknown tuner, or a model-based
    /// tuner whose model the registry lacks (saying where "xgb" comes from).
    Tuner(const Task& task, const CostModelRegistry& models, TuneOptions options);
    ~Tuner();

    const Space& space() const { return space_; }
    const Search& search() const { return *search_; }
    const TuneOptions& options() const { return options_; }

    /// Takes this workload's trials from `records` (same workload key):
    /// they are not measured again, count against the budget, set the best
    /// and train the model. Returns how many it took.
    int resume(const Records& records);
    /// Trains the model with records of other workloads of the same
    /// operator (same Workload::op, another key; Task::forWorkload makes
    /// their tasks). Returns how many records it used; a tuner without a
    /// model uses none.
    int transfer(const Records& records);

    /// Runs until the budget is spent (or early stopping, the space's end,
    /// a stop). Every trial goes to `writer` (when given) and `onTrial`.
    TuneResult run(Measurer& measurer, RecordWriter* writer = nullptr,
                   const std::function<void(const TrialEvent&)>& onTrial = {}, const TuneControl* control = nullptr);

    /// The configurations (space indices) the search measures next, at most
    /// n: the default first while it has no trial, then the search's choice.
    /// They count as visited. run() measures these batches; offline trials
    /// (driver/OfflineTrials.h) export them for a device measured elsewhere
    /// and read the results back as records (resume()).
    std::vector<int64_t> propose(int n);
    /// The record of trial number `trial` of configuration `index`, measured as `m`.
    Record recordOf(int64_t index, const MeasureResult& m, int trial) const;

private:
    void account(int64_t index, double gflops, bool ok, bool isDefault, int trial);

    const Task& task_;
    TuneOptions options_;
    Space space_;
    Visited visited_;
    std::unique_ptr<FeatureCache> features_;
    std::unique_ptr<Search> search_;
    ModelSearch* model_ = nullptr; // search_ when it is model-based
    int done_ = 0;           // the workload's trials so far
    double bestGflops_ = 0;
    int bestTrial_ = -1;
    int64_t bestIndex_ = -1;
    double defaultGflops_ = 0;
    std::map<runtime::MeasureError, int> errors_;
};

} // namespace tessel::tune
