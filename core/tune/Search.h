/// \file
/// How a tuner chooses what to measure next (AutoTVM's Tuner subclasses):
/// a Search proposes batches of configurations (space indices) and learns
/// from their measurements. The tuner's loop (tune/Tuner.h) is the same for
/// all of them.
///
/// - "grid": every index in order (GridSearchTuner).
/// - "random": uniformly random indices (RandomTuner).
/// - "ga": a genetic algorithm over the knob choices (GATuner): a population
///   measured in turn, then the next generation from the best (elites kept,
///   parents drawn by throughput, one-point crossover, mutation).
/// - model-based ("xgb", "xgb-reg", or any registry model): ModelSearch
///   (tune/ModelSearch.h).
///
/// Every search shares one `visited` set with the tuner: an index is put in
/// it when proposed (or found in the records of an earlier run), and no
/// search proposes a visited index again.
#pragma once

#include "tune/Space.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessel::tune {

using Visited = std::unordered_set<int64_t>;

/// A measured configuration as a search learns from it.
struct Trial {
    int64_t index = -1;
    /// Throughput; 0 for a failed trial.
    double gflops = 0;
};

/// Seconds a search spent thinking (the rest of a run is measuring).
struct SearchTime {
    /// Training the cost model.
    double fit = 0;
    /// Finding candidates: simulated annealing, with the features it computed.
    double search = 0;
    /// Of `search`: computing feature rows.
    double features = 0;
};

class Search {
public:
    virtual ~Search() = default;
    virtual std::string name() const = 0;
    /// Up to `n` indices not visited yet (each put into the visited set);
    /// fewer or none when the space is used up.
    virtual std::vector<int64_t> nextBatch(int n) = 0;
    /// Learns from measured trials (of this run or, on resume, of the records).
    virtual void update(const std::vector<Trial>& trials) = 0;
    /// The model's score for an index it planned; NaN for others.
    virtual float predicted(int64_t index) const { return std::numeric_limits<float>::quiet_NaN(); }
    /// Time spent so far, in total and in the last planning round.
    virtual SearchTime total() const { return {}; }
    virtual SearchTime last() const { return {}; }
};

/// Every index in order, skipping visited and filtered ones.
class GridSearch : public Search {
public:
    GridSearch(const Space& space, Visited& visited) : space_(space), visited_(visited) {}
    std::string name() const override { return "grid"; }
    std::vector<int64_t> nextBatch(int n) override;
    void update(const std::vector<Trial>&) override {}

private:
    const Space& space_;
    Visited& visited_;
    int64_t next_ = 0;
};

/// Uniformly random unvisited indices.
class RandomSearch : public Search {
public:
    RandomSearch(const Space& space, Visited& visited, uint64_t seed) : space_(space), visited_(visited), rng_(seed) {}
    std::string name() const override { return "random"; }
    std::vector<int64_t> nextBatch(int n) override;
    void update(const std::vector<Trial>&) override {}

private:
    const Space& space_;
    Visited& visited_;
    Rng rng_;
};

struct GeneticOptions {
    /// Configurations per generation (at most the space's size); 0: a
    /// quarter of the trial budget, between 8 and AutoTVM's 100, so that a
    /// small budget still sees several generations.
    int populationSize = 0;
    /// The best of a generation kept as they are in the next.
    int elites = 3;
    /// The chance that a child's knob takes a random choice.
    double mutationProbability = 0.1;
};

class GeneticSearch : public Search {
public:
    GeneticSearch(const Space& space, Visited& visited, uint64_t seed, GeneticOptions options = {});
    std::string name() const override { return "ga"; }
    std::vector<int64_t> nextBatch(int n) override;
    void update(const std::vector<Trial>& trials) override;

private:
    void evolve();

    const Space& space_;
    Visited& visited_;
    Rng rng_;
    GeneticOptions options_;
    std::vector<int64_t> population_;
    size_t position_ = 0;
    std::unordered_map<int64_t, double> scores_;
};

} // namespace tessel::tune
