/// \file
/// Parallel simulated annealing over a cost model (AutoTVM's
/// SimulatedAnnealingOptimizer): finds the configurations the model scores
/// highest without measuring any.
///
/// A batch of Markov chains (parallelSize points) walks the space together:
/// each iteration moves every chain to a random neighbour (one knob
/// changed), scores all the new points with one call of the model, and
/// accepts a move with probability exp(min((new - old) / T, 1)), so a chain
/// climbs and, while the temperature T is high, sometimes steps down. T falls
/// linearly from temperatureStart to temperatureEnd over maxIterations.
/// Every point seen goes into a heap of the best `num` that are not excluded
/// (already measured, or planned); the search ends early when the heap has
/// not changed for earlyStop iterations. With `persistent` the chains start
/// the next call where this one left them (the model changes a little
/// between rounds, so the good regions stay good).
#pragma once

#include "tune/Space.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tessel::tune {

struct AnnealingOptions {
    /// Markov chains walked together (points scored per model call).
    int parallelSize = 128;
    int maxIterations = 500;
    /// Iterations without a change of the best points before it stops.
    int earlyStop = 50;
    double temperatureStart = 1.0;
    double temperatureEnd = 0.0;
    /// The chains continue from where the last call left them.
    bool persistent = true;
    /// At most this many distinct points scored in one call (0: no limit): a
    /// bound on the features a call computes when they need a lowering each.
    int64_t maxPoints = 0;
};

/// Scores for a batch of points (higher is better); one per index.
using BatchScore = std::function<std::vector<float>(const std::vector<int64_t>&)>;

class SimulatedAnnealing {
public:
    struct Point {
        int64_t index = -1;
        float score = 0;
    };

    SimulatedAnnealing(const Space& space, AnnealingOptions options, uint64_t seed);

    /// The `num` best points found (best first; fewer when the space has
    /// fewer), none for which `exclude` is true or that the space's filters
    /// reject.
    std::vector<Point> findMaximums(const BatchScore& score, int num, const std::function<bool(int64_t)>& exclude);

    /// What the last call did: iterations run and distinct points scored.
    int lastIterations() const { return lastIterations_; }
    int64_t lastPoints() const { return lastPoints_; }

private:
    const Space& space_;
    AnnealingOptions options_;
    Rng rng_;
    std::vector<int64_t> chains_;
    int lastIterations_ = 0;
    int64_t lastPoints_ = 0;
};

} // namespace tessel::tune
