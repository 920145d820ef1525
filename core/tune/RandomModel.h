/// \file
/// The cost model built into core: "random", which learns nothing and
/// predicts a seeded random score for every row. A model-based tuner with it
/// is a random search that still goes through simulated annealing and the
/// batch selection, which is what tests of the tuner's loop need without
/// XGBoost; it is also the baseline a learned model has to beat.
#pragma once

#include "tune/CostModel.h"

#include <mutex>
#include <random>

namespace tessel::tune {

class RandomModel : public CostModel {
public:
    explicit RandomModel(const CostModelOptions& options);
    std::string name() const override { return "random"; }
    /// Remembers only that it saw rows.
    void fit(const FeatureMatrix& x, const std::vector<float>& y, const std::vector<unsigned>& groups = {}) override;
    /// Uniform scores in [0, 1), from the model's own seeded generator.
    std::vector<float> predict(const FeatureMatrix& x) const override;
    bool trained() const override { return trained_; }

private:
    bool trained_ = false;
    mutable std::mutex m_;
    mutable std::mt19937_64 rng_;
};

/// Adds the cost models core ships ("random") to `registry`; plugins add the
/// others ("xgb", plugins/costmodel-xgboost).
void registerBuiltinCostModels(CostModelRegistry& registry);

} // namespace tessel::tune
