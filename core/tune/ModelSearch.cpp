#include "tune/ModelSearch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

namespace tessel::tune {

namespace {
double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

ModelSearch::ModelSearch(const Space& space, Visited& visited, FeatureCache& features, std::unique_ptr<CostModel> model,
                         ModelSearchOptions options, uint64_t seed)
    : space_(space), visited_(visited), features_(features), model_(std::move(model)), options_(options), rng_(seed),
      annealing_(space, options.annealing, seed * 0x9e3779b97f4a7c15ull + 1) {
    options_.batchSize = std::max(1, options_.batchSize);
    transferX_.cols = features_.cols();
}

void ModelSearch::addTransfer(FeatureMatrix rows, std::vector<double> gflops) {
    if (rows.rows() == 0 || rows.cols != transferX_.cols || gflops.size() != rows.rows()) return;
    double best = 0;
    for (double g : gflops) best = std::max(best, g);
    if (best <= 0) return;
    transferX_.values.insert(transferX_.values.end(), rows.values.begin(), rows.values.end());
    for (double g : gflops) transferY_.push_back(float(g / best));
    transferGroups_.push_back(unsigned(gflops.size()));
    planStale_ = true;
}

float ModelSearch::predicted(int64_t index) const {
    auto it = predicted_.find(index);
    return it == predicted_.end() ? std::numeric_limits<float>::quiet_NaN() : it->second;
}

void ModelSearch::update(const std::vector<Trial>& trials) {
    for (auto& t : trials) {
        xs_.push_back(t.index);
        ys_.push_back(t.gflops);
    }
    sinceFit_ += trials.size();
    if (sinceFit_ >= size_t(options_.batchSize)) planStale_ = true;
}

void ModelSearch::replan() {
    planStale_ = false;
    sinceFit_ = 0;
    plan_.clear();
    planPosition_ = 0;
    last_ = {};
    double best = 0;
    for (double y : ys_) best = std::max(best, y);
    // Nothing to learn from yet (no trial ran, or all failed): random plan.
    if (best <= 0 && transferY_.empty()) return;

    const double features0 = features_.seconds();
    FeatureMatrix x = features_.rows(xs_);
    std::vector<float> y;
    for (double v : ys_) y.push_back(best > 0 ? float(v / best) : 0.f);
    std::vector<unsigned> groups = transferGroups_;
    if (!transferY_.empty()) {
        x.values.insert(x.values.begin(), transferX_.values.begin(), transferX_.values.end());
        y.insert(y.begin(), transferY_.begin(), transferY_.end());
    }
    if (!xs_.empty()) groups.push_back(unsigned(xs_.size()));
    if (groups.size() == 1) groups.clear(); // one group: the model's default
    const double featureFit = features_.seconds() - features0;
    const auto tFit = std::chrono::steady_clock::now();
    model_->fit(x, y, groups);
    last_.fit = since(tFit);

    const auto tSearch = std::chrono::steady_clock::now();
    const double features1 = features_.seconds();
    const int want = std::max(options_.batchSize, int(std::ceil(options_.batchSize * std::max(1.0, options_.diversity))));
    auto score = [&](const std::vector<int64_t>& points) {
        std::vector<float> s = model_->predict(features_.rows(points));
        for (size_t i = 0; i < points.size(); ++i)
            if (features_.invalid(points[i])) s[i] = -std::numeric_limits<float>::infinity();
        return s;
    };
    std::vector<SimulatedAnnealing::Point> candidates =
        annealing_.findMaximums(score, want, [&](int64_t i) { return visited_.count(i) > 0 || features_.invalid(i); });

    // The diverse pick: greedily the candidate with the best normalised
    // score plus knobWeight x the share of knobs whose choice the plan lacks.
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (auto& c : candidates)
        if (std::isfinite(c.score)) {
            lo = std::min(lo, c.score);
            hi = std::max(hi, c.score);
        }
    const size_t knobs = space_.knobs().size();
    std::vector<std::set<int64_t>> seen(knobs);
    std::vector<Space::Choices> choices;
    for (auto& c : candidates) choices.push_back(space_.choices(c.index));
    std::vector<char> taken(candidates.size(), 0);
    const size_t planned = size_t(options_.batchSize);
    const double weight = options_.diversity > 1.0 ? options_.knobWeight : 0.0;
    while (plan_.size() < planned) {
        double bestGain = -std::numeric_limits<double>::infinity();
        size_t pick = candidates.size();
        for (size_t i = 0; i < candidates.size(); ++i) {
            if (taken[i]) continue;
            const double s = std::isfinite(candidates[i].score) && hi > lo ? (candidates[i].score - lo) / (hi - lo)
                             : std::isfinite(candidates[i].score)          ? 1.0
                                                                           : 0.0;
            size_t fresh = 0;
            for (size_t k = 0; k < knobs; ++k) fresh += !seen[k].count(choices[i][k]);
            const double gain = s + weight * (knobs ? double(fresh) / double(knobs) : 0.0);
            if (gain > bestGain) {
                bestGain = gain;
                pick = i;
            }
        }
        if (pick == candidates.size()) break;
        taken[pick] = 1;
        for (size_t k = 0; k < knobs; ++k) seen[k].insert(choices[pick][k]);
        plan_.push_back(candidates[pick].index);
        predicted_[candidates[pick].index] = candidates[pick].score;
    }
    last_.search = since(tSearch);
    last_.features = (features_.seconds() - features1) + featureFit;
    last_.search += featureFit; // rows of the measured trials count as search work too
    total_.fit += last_.fit;
    total_.search += last_.search;
    total_.features += last_.features;
}

std::vector<int64_t> ModelSearch::nextBatch(int n) {
    if (planStale_ || (plan_.empty() && !transferY_.empty() && !model_->trained())) replan();
    std::vector<int64_t> out;
    // The last epsilon share of each round's places are random (at least one
    // when epsilon > 0), the rest come from the plan while it lasts.
    const int randomPlaces = options_.epsilon > 0 ? std::max(1, int(std::round(options_.epsilon * options_.batchSize))) : 0;
    const size_t modelPlaces = size_t(std::max(0, options_.batchSize - randomPlaces));
    while (int(out.size()) < n) {
        int64_t i = -1;
        if (planPosition_ < std::min(plan_.size(), modelPlaces)) {
            i = plan_[planPosition_++];
            if (visited_.count(i)) continue;
        } else {
            if (planPosition_ < plan_.size()) ++planPosition_; // a place given to chance
            i = space_.sample(rng_, [&](int64_t j) { return visited_.count(j) > 0; });
            if (i < 0) break;
        }
        visited_.insert(i);
        out.push_back(i);
    }
    return out;
}

} // namespace tessel::tune
