/// \file
/// AutoTVM's cost model as a Tessel plugin: gradient-boosted trees from
/// XGBoost's C API, trained on the tuner's feature rows with a rank loss
/// (rank:pairwise, the default: only the order of configurations within a
/// task matters) or as a regression (reg:squarederror), and predicting a
/// score per row, higher meaning faster.
///
/// Options (tune::CostModelOptions::options; keys it does not read are
/// ignored, bad values are std::invalid_argument):
///   objective          "rank" (default) or "reg"
///   rounds             boosting rounds per fit, default 40
///   max_depth          tree depth, default 3 (AutoTVM's)
///   eta                learning rate, default 0.3 (AutoTVM's)
///   min_child_weight   default 1 (AutoTVM's)
///   gamma              minimum loss reduction to split, default 0.0001 (AutoTVM's)
///   tree_method        "hist" (default), "exact" (AutoTVM's, XGBoost's choice for
///                      small data) or "approx"; hist trains about 4x faster here
///                      (2,000 rows x 100 features, 40 rounds: 0.14 s against 0.48 s)
/// plus CostModelOptions::seed (XGBoost's "seed") and threads ("nthread";
/// 0 lets XGBoost use every core). Missing features are NaN, which XGBoost
/// treats as missing. Rows are grouped for the rank loss by the `groups`
/// fit() is given (one group when none).
///
/// fit() and predict() may be called from several threads: predictions run
/// concurrently (XGBoost's in-place prediction keeps its buffers per
/// thread), a fit excludes them while it swaps the trained booster in.
#pragma once

#include "tune/CostModel.h"

#include <shared_mutex>
#include <string>

namespace tessel::xgb {

/// The model's settings, read from CostModelOptions and checked.
struct XgbOptions {
    enum class Objective { Rank, Reg };
    Objective objective = Objective::Rank;
    int rounds = 40;
    int maxDepth = 3;
    double eta = 0.3;
    double minChildWeight = 1.0;
    double gamma = 1e-4;
    std::string treeMethod = "hist";
    uint64_t seed = 0;
    int threads = 1;

    /// Reads the options this model knows; std::invalid_argument naming the
    /// option and what it accepts when a value is wrong.
    static XgbOptions parse(const tune::CostModelOptions& options);
    /// XGBoost's name of the objective ("rank:pairwise", "reg:squarederror").
    const char* xgbObjective() const;
};

class XgbCostModel final : public tune::CostModel {
public:
    /// The registry name.
    static constexpr const char* kName = "xgb";
    /// The registry summary: one line with every option and its default.
    static const char* summary();

    /// Throws std::invalid_argument when an option's value is wrong.
    explicit XgbCostModel(const tune::CostModelOptions& options);
    ~XgbCostModel() override;
    XgbCostModel(const XgbCostModel&) = delete;
    XgbCostModel& operator=(const XgbCostModel&) = delete;

    std::string name() const override { return kName; }
    /// Trains a new booster for `rounds` rounds and swaps it in. Rows with
    /// no groups form one group; zero-sized groups are dropped. Wrong sizes
    /// are std::invalid_argument, an XGBoost failure std::runtime_error with
    /// XGBoost's message; either way the previous booster stays. No rows:
    /// back to untrained.
    void fit(const tune::FeatureMatrix& x, const std::vector<float>& y,
             const std::vector<unsigned>& groups = {}) override;
    /// The booster's score per row; all 0 before a fit. A row width other
    /// than the one trained on is std::invalid_argument.
    std::vector<float> predict(const tune::FeatureMatrix& x) const override;
    bool trained() const override;

    const XgbOptions& options() const { return options_; }

private:
    XgbOptions options_;
    mutable std::shared_mutex mutex_;
    void* booster_ = nullptr; ///< BoosterHandle; null until trained
    size_t cols_ = 0;         ///< the feature count it was trained on
};

} // namespace tessel::xgb
