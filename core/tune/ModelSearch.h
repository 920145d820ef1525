/// \file
/// The model-based search (AutoTVM's ModelBasedTuner): a cost model learns
/// from the measured trials which configurations run fast, simulated
/// annealing over the model finds the ones it predicts best, and each batch
/// is chosen from them epsilon-greedily and with diversity.
///
/// A round: once a batch of trials is measured (batchSize of them), the model
/// is trained again from scratch on every trial so far (features from the
/// FeatureCache, scores = GFLOP/s normalised by the best, a failed trial 0;
/// one rank group per workload), and simulated annealing finds
/// batchSize x diversity candidates that are not visited. The plan for the
/// next round takes batchSize of them greedily by predicted score plus a
/// bonus for knob choices the plan does not have yet (AutoTVM's
/// submodular_pick), then gives its last epsilon x batchSize places to
/// random configurations, so the search keeps exploring where the model is
/// wrong. Before the model has data the plan is random.
///
/// Transfer learning: rows and scores of other workloads of the same
/// operator (earlier records) are added to every fit, each workload its own
/// group, and train the model before this workload has a trial of its own,
/// so the first plan already comes from the model (warm start).
#pragma once

#include "tune/CostModel.h"
#include "tune/FeatureCache.h"
#include "tune/Search.h"
#include "tune/SimulatedAnnealing.h"

#include <memory>

namespace tessel::tune {

struct ModelSearchOptions {
    /// Trials per round: the model is retrained and the plan made again after each.
    int batchSize = 16;
    /// Share of each plan given to random configurations.
    double epsilon = 0.05;
    /// Candidates per planned place that annealing finds before the diverse
    /// pick (1: no diversity, the top predictions).
    double diversity = 2.0;
    /// Weight of the diversity bonus against the normalised score.
    double knobWeight = 1.0;
    AnnealingOptions annealing;
};

class ModelSearch : public Search {
public:
    ModelSearch(const Space& space, Visited& visited, FeatureCache& features, std::unique_ptr<CostModel> model,
                ModelSearchOptions options, uint64_t seed);
    std::string name() const override { return "model:" + model_->name(); }
    std::vector<int64_t> nextBatch(int n) override;
    void update(const std::vector<Trial>& trials) override;
    float predicted(int64_t index) const override;
    SearchTime total() const override { return total_; }
    SearchTime last() const override { return last_; }

    /// Adds the trials of another workload (rows from FeatureCache::foreignRow,
    /// scores in GFLOP/s); the next plan comes from a model trained with them.
    void addTransfer(FeatureMatrix rows, std::vector<double> gflops);
    /// Rows of other workloads added.
    size_t transferRows() const { return transferY_.size(); }
    const CostModel& model() const { return *model_; }

private:
    void replan();

    const Space& space_;
    Visited& visited_;
    FeatureCache& features_;
    std::unique_ptr<CostModel> model_;
    ModelSearchOptions options_;
    Rng rng_;
    SimulatedAnnealing annealing_;

    std::vector<int64_t> xs_;
    std::vector<double> ys_;
    FeatureMatrix transferX_;
    std::vector<float> transferY_;
    std::vector<unsigned> transferGroups_;
    size_t sinceFit_ = 0;
    bool planStale_ = false;

    std::vector<int64_t> plan_;
    size_t planPosition_ = 0;
    std::unordered_map<int64_t, float> predicted_;
    SearchTime total_, last_;
};

} // namespace tessel::tune
