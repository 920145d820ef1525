#include "tune/Tuner.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace tessel::tune {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool isModelTuner(const std::string& t) { return t == "xgb" || t == "xgb-reg"; }

} // namespace

const std::vector<std::string>& tunerNames() {
    static const std::vector<std::string> names = {"xgb", "xgb-reg", "ga", "random", "grid"};
    return names;
}

bool TuneControl::waitWhilePaused() const {
    while (pause_ && !stop_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return !stop_;
}

Tuner::Tuner(const Task& task, const CostModelRegistry& models, TuneOptions options)
    : task_(task), options_(std::move(options)), space_(task.knobs()) {
    const int threads = options_.threads > 0 ? options_.threads : std::max(1, int(std::thread::hardware_concurrency()));
    options_.batchSize = std::max(1, options_.batchSize);
    const std::string& t = options_.tuner;
    if (!options_.costModel.empty() && !isModelTuner(t))
        throw std::invalid_argument("a cost model applies to the model-based tuners (xgb, xgb-reg), not to '" + t + "'");
    if (isModelTuner(t)) {
        const std::string modelName = options_.costModel.empty() ? "xgb" : options_.costModel;
        if (!models.find(modelName)) {
            std::string known;
            for (auto& r : models.records()) known += (known.empty() ? "" : ", ") + r.name;
            std::string why = "tuner '" + t + "' needs the cost model '" + modelName + "', which is not loaded";
            if (modelName == "xgb")
                why += ": it comes from the XGBoost plugin (plugins/costmodel-xgboost; `tesselc plugins` lists what "
                       "is loaded and why a plugin was refused)";
            why += ". Cost models loaded: " + (known.empty() ? std::string("none") : known) +
                   ". Tuners that need no model: ga, random, grid";
            throw std::invalid_argument(why);
        }
        CostModelOptions mo;
        mo.seed = options_.seed;
        mo.threads = threads;
        mo.options = options_.modelOptions;
        if (modelName == "xgb" && !mo.options.count("objective")) mo.options["objective"] = t == "xgb" ? "rank" : "reg";
        features_ = std::make_unique<FeatureCache>(task_, space_, options_.features, threads, options_.featureOptions);
        ModelSearchOptions so;
        so.batchSize = options_.batchSize;
        so.epsilon = options_.epsilon;
        so.diversity = options_.diversity;
        so.annealing = options_.annealing;
        auto search = std::make_unique<ModelSearch>(space_, visited_, *features_, models.make(modelName, mo), so,
                                                    options_.seed);
        model_ = search.get();
        search_ = std::move(search);
    } else if (t == "ga") {
        GeneticOptions go = options_.genetic;
        if (go.populationSize <= 0) go.populationSize = std::clamp(options_.trials / 4, 8, 100);
        search_ = std::make_unique<GeneticSearch>(space_, visited_, options_.seed, go);
    } else if (t == "random") {
        search_ = std::make_unique<RandomSearch>(space_, visited_, options_.seed);
    } else if (t == "grid") {
        search_ = std::make_unique<GridSearch>(space_, visited_);
    } else {
        std::string known;
        for (auto& n : tunerNames()) known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown tuner '" + t + "' (tuners: " + known + ")");
    }
}

Tuner::~Tuner() = default;

void Tuner::account(int64_t index, double gflops, bool ok, bool isDefault, int trial) {
    if (ok && gflops > bestGflops_) {
        bestGflops_ = gflops;
        bestTrial_ = trial;
        bestIndex_ = index;
    }
    if (ok && isDefault) defaultGflops_ = std::max(defaultGflops_, gflops);
}

int Tuner::resume(const Records& records) {
    std::vector<Trial> trials;
    for (const Record* r : records.forWorkload(task_.workload().key)) {
        int64_t index;
        try {
            index = space_.index(r->config);
        } catch (const std::invalid_argument&) {
            continue; // a configuration of an older version of the template
        }
        visited_.insert(index);
        const double g = r->gflops();
        account(index, g, r->ok(), r->isDefault || index == space_.defaultIndex(), done_);
        if (!r->ok()) ++errors_[r->error];
        ++done_;
        trials.push_back({index, r->ok() ? g : 0.0});
    }
    if (!trials.empty()) search_->update(trials);
    return int(trials.size());
}

int Tuner::transfer(const Records& records) {
    if (!model_) return 0;
    int used = 0;
    for (const std::string& key : records.workloads()) {
        if (key == task_.workload().key) continue;
        auto rs = records.forWorkload(key);
        if (rs.empty() || rs.front()->workload.op != task_.workload().op) continue;
        std::unique_ptr<Task> other = task_.forWorkload(rs.front()->workload.json);
        if (!other) continue;
        FeatureMatrix rows;
        rows.cols = features_->cols();
        std::vector<double> gflops;
        for (const Record* r : rs) {
            std::vector<float> row = features_->foreignRow(*other, r->config);
            if (row.size() != rows.cols) continue;
            rows.values.insert(rows.values.end(), row.begin(), row.end());
            gflops.push_back(r->ok() ? r->gflops() : 0.0);
        }
        if (gflops.empty()) continue;
        used += int(gflops.size());
        model_->addTransfer(std::move(rows), std::move(gflops));
    }
    return used;
}

std::vector<int64_t> Tuner::propose(int n) {
    std::vector<int64_t> batch;
    const int64_t def = space_.defaultIndex();
    if (n > 0 && options_.measureDefault && !visited_.count(def) && space_.valid(def)) {
        visited_.insert(def);
        batch.push_back(def);
    }
    if (int(batch.size()) < n)
        for (int64_t i : search_->nextBatch(n - int(batch.size()))) batch.push_back(i);
    return batch;
}

Record Tuner::recordOf(int64_t index, const MeasureResult& m, int trial) const {
    Record r;
    r.workload = task_.workload();
    r.target = task_.target();
    r.config = m.config;
    r.values = space_.describe(index);
    r.isDefault = index == space_.defaultIndex();
    r.costs = m.costs;
    r.error = m.error;
    r.message = m.message;
    r.flops = task_.flops();
    r.threads = m.threads;
    r.tuner = options_.tuner;
    r.trial = trial;
    r.timestamp = m.timestamp;
    r.version = tesselVersion();
    return r;
}

TuneResult Tuner::run(Measurer& measurer, RecordWriter* writer, const std::function<void(const TrialEvent&)>& onTrial,
                      const TuneControl* control) {
    TuneResult result;
    const auto t0 = std::chrono::steady_clock::now();
    const int budget = options_.trials;
    auto stopNow = [&] {
        if (!control) return false;
        if (!control->waitWhilePaused()) {
            result.stopped = true;
            return true;
        }
        return false;
    };
    auto earlyStop = [&] {
        if (options_.earlyStopping > 0 && bestTrial_ >= 0 && done_ - 1 - bestTrial_ >= options_.earlyStopping) {
            result.earlyStopped = true;
            return true;
        }
        return false;
    };

    while (done_ < budget && !stopNow() && !earlyStop()) {
        const int n = std::min(options_.batchSize, budget - done_);
        const int64_t def = space_.defaultIndex();
        const std::vector<int64_t> batch = propose(n);
        if (batch.empty()) {
            result.exhausted = true;
            break;
        }
        std::vector<Config> configs;
        for (int64_t i : batch) configs.push_back(space_.config(i));

        std::vector<Trial> learned;
        const SearchTime planned = search_->last();
        const auto tMeasure = std::chrono::steady_clock::now();
        bool halted = false;
        measurer.measure(task_, configs, [&](size_t k, const MeasureResult& m) {
            const int64_t index = batch[k];
            const bool isDefault = index == def;
            const double g = m.gflops();
            const int trial = done_++;
            ++result.trials;
            if (!m.ok()) {
                ++result.failed;
                ++errors_[m.error];
            }
            account(index, g, m.ok(), isDefault, trial);
            learned.push_back({index, m.ok() ? g : 0.0});

            if (writer) writer->write(recordOf(index, m, trial));
            if (onTrial) {
                TrialEvent e;
                e.trial = trial;
                e.budget = budget;
                e.index = index;
                e.config = m.config;
                e.values = space_.describe(index);
                e.isDefault = isDefault;
                e.error = m.error;
                e.message = m.message;
                e.gflops = g;
                e.seconds = m.seconds();
                e.bestGflops = bestGflops_;
                e.bestTrial = bestTrial_;
                e.defaultGflops = defaultGflops_;
                e.predicted = search_->predicted(index);
                e.fitSeconds = planned.fit;
                e.searchSeconds = planned.search;
                e.elapsedSeconds = since(t0);
                onTrial(e);
            }
            if (stopNow() || earlyStop()) {
                halted = true;
                return false;
            }
            return true;
        });
        result.measureSeconds += since(tMeasure);
        search_->update(learned);
        if (halted) break;
    }

    result.totalTrials = done_;
    result.errors = errors_;
    result.bestGflops = bestGflops_;
    result.defaultGflops = defaultGflops_;
    if (bestIndex_ >= 0) {
        result.bestConfig = space_.config(bestIndex_);
        result.bestSeconds = bestGflops_ > 0 ? task_.flops() / bestGflops_ / 1e9 : result.bestSeconds;
    }
    result.searchTime = search_->total();
    result.wallSeconds = since(t0);
    return result;
}

} // namespace tessel::tune
