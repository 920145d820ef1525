#include "tune/Search.h"

#include <algorithm>

namespace tessel::tune {

std::vector<int64_t> GridSearch::nextBatch(int n) {
    std::vector<int64_t> out;
    for (; int(out.size()) < n && next_ < space_.size(); ++next_)
        if (space_.valid(next_) && visited_.insert(next_).second) out.push_back(next_);
    return out;
}

std::vector<int64_t> RandomSearch::nextBatch(int n) {
    std::vector<int64_t> out;
    while (int(out.size()) < n) {
        const int64_t i = space_.sample(rng_, [&](int64_t j) { return visited_.count(j) > 0; });
        if (i < 0) break;
        visited_.insert(i);
        out.push_back(i);
    }
    return out;
}

GeneticSearch::GeneticSearch(const Space& space, Visited& visited, uint64_t seed, GeneticOptions options)
    // Its own stream of the seed: the first generation is not the random tuner's first points.
    : space_(space), visited_(visited), rng_(seed ^ 0x6a09e667f3bcc909ull), options_(options) {
    if (options_.populationSize <= 0) options_.populationSize = 100;
    options_.populationSize = int(std::max<int64_t>(1, std::min<int64_t>(options_.populationSize, space_.size())));
    options_.elites = std::clamp(options_.elites, 0, options_.populationSize);
}

std::vector<int64_t> GeneticSearch::nextBatch(int n) {
    std::vector<int64_t> out;
    while (int(out.size()) < n) {
        if (position_ >= population_.size()) {
            evolve();
            const bool anyNew = std::any_of(population_.begin(), population_.end(),
                                            [&](int64_t i) { return !visited_.count(i); });
            if (!anyNew) {
                // Crossover and mutation found nothing new (a space nearly
                // used up): what is left, at random.
                const int64_t i = space_.sample(rng_, [&](int64_t j) { return visited_.count(j) > 0; });
                if (i < 0) break;
                visited_.insert(i);
                out.push_back(i);
                continue;
            }
        }
        const int64_t i = population_[position_++];
        if (visited_.insert(i).second) out.push_back(i);
    }
    return out;
}

void GeneticSearch::update(const std::vector<Trial>& trials) {
    for (auto& t : trials) scores_[t.index] = t.gflops;
}

void GeneticSearch::evolve() {
    const int size = options_.populationSize;
    std::vector<int64_t> next;
    auto unvisitedRandom = [&] { return space_.sample(rng_, [&](int64_t j) { return visited_.count(j) > 0; }); };

    // The generation just measured, with scores (none yet: the first one).
    std::vector<std::pair<double, int64_t>> scored;
    for (int64_t i : population_) {
        auto it = scores_.find(i);
        if (it != scores_.end()) scored.push_back({it->second, i});
    }
    // Points from other runs (resumed records) count as parents too.
    if (scored.empty())
        for (auto& [i, s] : scores_) scored.push_back({s, i});
    std::sort(scored.begin(), scored.end(), [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });

    if (scored.empty()) {
        for (int k = 0; k < size; ++k) {
            const int64_t i = unvisitedRandom();
            if (i < 0) break;
            if (std::find(next.begin(), next.end(), i) == next.end()) next.push_back(i);
        }
    } else {
        for (int e = 0; e < options_.elites && e < int(scored.size()); ++e) next.push_back(scored[size_t(e)].second);
        double total = 0;
        for (auto& s : scored) total += s.first;
        std::uniform_real_distribution<double> u(0.0, 1.0);
        auto parent = [&]() -> int64_t {
            if (total <= 0) return scored[std::uniform_int_distribution<size_t>(0, scored.size() - 1)(rng_)].second;
            double x = u(rng_) * total;
            for (auto& s : scored)
                if ((x -= s.first) <= 0) return s.second;
            return scored.back().second;
        };
        const size_t knobs = space_.knobs().size();
        for (int tries = 0; int(next.size()) < size && tries < 20 * size; ++tries) {
            Space::Choices a = space_.choices(parent()), b = space_.choices(parent());
            const size_t cut = knobs ? std::uniform_int_distribution<size_t>(0, knobs)(rng_) : 0;
            Space::Choices child = a;
            for (size_t k = cut; k < knobs; ++k) child[k] = b[k];
            for (size_t k = 0; k < knobs; ++k)
                if (u(rng_) < options_.mutationProbability)
                    child[k] = std::uniform_int_distribution<int64_t>(0, space_.knobs()[k].size() - 1)(rng_);
            const int64_t i = space_.index(child);
            if (!space_.valid(i) || visited_.count(i) || std::find(next.begin(), next.end(), i) != next.end())
                continue;
            next.push_back(i);
        }
        // Crossover found too little that is new: fill with random points.
        while (int(next.size()) < size) {
            const int64_t i = unvisitedRandom();
            if (i < 0 || std::find(next.begin(), next.end(), i) != next.end()) break;
            next.push_back(i);
        }
    }
    population_ = std::move(next);
    position_ = 0;
}

} // namespace tessel::tune
