/// \file
/// Feature rows of a task's configurations, computed once each and kept
/// (AutoTVM's feature cache): simulated annealing asks for the same points
/// again and again, and the loop features need a lowering each.
///
/// Rows of the lowering kinds (itervar, curve) are computed on `threads`
/// threads (Task::featureFunction is thread-safe). A configuration that
/// cannot be lowered gets a row of NaN and is marked invalid, so the search
/// can leave it alone; knob rows are always valid.
#pragma once

#include "tune/CostModel.h"
#include "tune/Features.h"
#include "tune/Space.h"
#include "tune/Task.h"

#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace tessel::tune {

class FeatureCache {
public:
    FeatureCache(const Task& task, const Space& space, FeatureKind kind, int threads = 1,
                 FeatureOptions options = {});

    FeatureKind kind() const { return kind_; }
    /// The length of every row.
    size_t cols() const { return cols_; }
    /// The rows of `indices`, in order, computing those not cached yet.
    FeatureMatrix rows(const std::vector<int64_t>& indices);
    /// One row.
    std::vector<float> row(int64_t index);
    /// True when `index` was computed and could not be lowered.
    bool invalid(int64_t index) const;
    /// Rows computed so far, and the seconds spent computing them.
    size_t computed() const;
    double seconds() const;

    /// The row of a configuration of `other` (a task of another workload with
    /// the same knobs), padded or cut to cols(): for transfer learning.
    /// Empty when it cannot be lowered.
    std::vector<float> foreignRow(const Task& other, const Config& config) const;

private:
    std::vector<float> compute(const Task& task, const std::vector<te::Knob>& knobs, const Config& config,
                               bool& ok) const;

    const Task& task_;
    const Space& space_;
    FeatureKind kind_;
    int threads_;
    FeatureOptions options_;
    size_t cols_ = 0;
    mutable std::mutex m_;
    std::unordered_map<int64_t, std::vector<float>> rows_;
    std::unordered_set<int64_t> invalid_;
    double seconds_ = 0;
};

} // namespace tessel::tune
