#include "tune/SimulatedAnnealing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_set>

namespace tessel::tune {

SimulatedAnnealing::SimulatedAnnealing(const Space& space, AnnealingOptions options, uint64_t seed)
    : space_(space), options_(options), rng_(seed) {}

std::vector<SimulatedAnnealing::Point> SimulatedAnnealing::findMaximums(const BatchScore& score, int num,
                                                                        const std::function<bool(int64_t)>& exclude) {
    lastIterations_ = 0;
    lastPoints_ = 0;
    if (num <= 0) return {};
    const int chains = std::max(1, options_.parallelSize);
    if (!options_.persistent || int(chains_.size()) != chains) {
        chains_.clear();
        for (int i = 0; i < chains; ++i) {
            int64_t p = space_.sample(rng_);
            if (p < 0) return {};
            chains_.push_back(p);
        }
    }

    // The best `num` points: ordered by (score, index) so ties break the same
    // way in every run.
    auto better = [](const Point& a, const Point& b) {
        return a.score != b.score ? a.score > b.score : a.index < b.index;
    };
    std::set<Point, decltype(better)> heap(better);
    std::unordered_set<int64_t> inHeap, scored;
    bool changed = false;
    auto offer = [&](int64_t index, float s) {
        if (inHeap.count(index) || (exclude && exclude(index)) || !space_.valid(index)) return;
        if (int(heap.size()) >= num) {
            auto worst = std::prev(heap.end());
            if (!better(Point{index, s}, *worst)) return;
            inHeap.erase(worst->index);
            heap.erase(worst);
        }
        heap.insert({index, s});
        inHeap.insert(index);
        changed = true;
    };
    auto scoreAll = [&](const std::vector<int64_t>& points) {
        std::vector<float> s = score(points);
        s.resize(points.size(), -std::numeric_limits<float>::infinity());
        for (auto& v : s)
            if (std::isnan(v)) v = -std::numeric_limits<float>::infinity(); // keeps the heap's order strict
        for (int64_t p : points) scored.insert(p);
        return s;
    };

    std::vector<float> current = scoreAll(chains_);
    for (size_t i = 0; i < chains_.size(); ++i) offer(chains_[i], current[i]);

    const int iterations = std::max(1, options_.maxIterations);
    const double cool = (options_.temperatureStart - options_.temperatureEnd) / iterations;
    double t = options_.temperatureStart;
    int sinceChange = 0;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    int k = 0;
    for (; k < iterations; ++k) {
        if (options_.maxPoints > 0 && int64_t(scored.size()) >= options_.maxPoints) break;
        std::vector<int64_t> next(chains_.size());
        for (size_t i = 0; i < chains_.size(); ++i) next[i] = space_.randomNeighbour(chains_[i], rng_);
        std::vector<float> nextScores = scoreAll(next);
        changed = false;
        for (size_t i = 0; i < next.size(); ++i) {
            offer(next[i], nextScores[i]);
            const double delta = double(nextScores[i]) - double(current[i]);
            const double accept = std::exp(std::min(delta / (t + 1e-5), 1.0));
            if (std::isnan(accept) ? false : u(rng_) < accept) {
                chains_[i] = next[i];
                current[i] = nextScores[i];
            }
        }
        sinceChange = changed ? 0 : sinceChange + 1;
        if (sinceChange >= options_.earlyStop) {
            ++k;
            break;
        }
        t = std::max(options_.temperatureEnd, t - cool);
    }
    lastIterations_ = k;
    lastPoints_ = int64_t(scored.size());
    // Too few points outside `exclude` were seen (a small space, mostly
    // measured): fill with the unseen rest, in random order.
    if (int(heap.size()) < num) {
        std::vector<int64_t> extra;
        for (int tries = 0; int(heap.size() + extra.size()) < num && tries < 4 * num; ++tries) {
            int64_t p = space_.sample(rng_, [&](int64_t i) {
                return inHeap.count(i) || (exclude && exclude(i)) ||
                       std::find(extra.begin(), extra.end(), i) != extra.end();
            });
            if (p < 0) break;
            extra.push_back(p);
        }
        if (!extra.empty()) {
            std::vector<float> s = scoreAll(extra);
            for (size_t i = 0; i < extra.size(); ++i) offer(extra[i], s[i]);
        }
    }
    return {heap.begin(), heap.end()};
}

} // namespace tessel::tune
