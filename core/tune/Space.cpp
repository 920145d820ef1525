#include "tune/Space.h"

#include <limits>
#include <stdexcept>

namespace tessel::tune {

Space::Space(std::vector<te::Knob> knobs) : knobs_(std::move(knobs)) {
    Choices defaults;
    for (auto& k : knobs_) {
        if (k.size() < 1) throw std::invalid_argument("knob '" + k.name + "' has no choices");
        if (size_ > std::numeric_limits<int64_t>::max() / k.size())
            throw std::invalid_argument("the space has more than 2^63 configurations");
        radix_.push_back(k.size());
        size_ *= k.size();
        defaults.push_back(k.defaultIndex);
    }
    defaultIndex_ = index(defaults);
}

int Space::knobPosition(std::string_view name) const {
    for (size_t i = 0; i < knobs_.size(); ++i)
        if (knobs_[i].name == name) return int(i);
    return -1;
}

Space::Choices Space::choices(int64_t index) const {
    if (index < 0 || index >= size_)
        throw std::invalid_argument("configuration index " + std::to_string(index) + " is outside the space of " +
                                    std::to_string(size_));
    Choices c(knobs_.size());
    for (size_t i = 0; i < knobs_.size(); ++i) {
        c[i] = index % radix_[i];
        index /= radix_[i];
    }
    return c;
}

int64_t Space::index(const Choices& choices) const {
    if (choices.size() != knobs_.size())
        throw std::invalid_argument(std::to_string(choices.size()) + " choices for " + std::to_string(knobs_.size()) +
                                    " knobs");
    int64_t index = 0;
    for (size_t i = knobs_.size(); i-- > 0;) {
        if (choices[i] < 0 || choices[i] >= radix_[i])
            throw std::invalid_argument("knob '" + knobs_[i].name + "' has no choice " + std::to_string(choices[i]) +
                                        " (it has " + std::to_string(radix_[i]) + ")");
        index = index * radix_[i] + choices[i];
    }
    return index;
}

int64_t Space::index(const Config& config) const {
    Choices c;
    for (auto& k : knobs_) c.push_back(k.defaultIndex);
    for (auto& [name, choice] : config) {
        int p = knobPosition(name);
        if (p < 0) throw std::invalid_argument("the space has no knob '" + name + "'");
        c[size_t(p)] = choice;
    }
    return index(c);
}

Config Space::config(int64_t index) const {
    Choices c = choices(index);
    Config out;
    for (size_t i = 0; i < knobs_.size(); ++i) out[knobs_[i].name] = c[i];
    return out;
}

std::map<std::string, std::string> Space::describe(int64_t index) const {
    Choices c = choices(index);
    std::map<std::string, std::string> out;
    for (size_t i = 0; i < knobs_.size(); ++i) out[knobs_[i].name] = knobs_[i].choiceText(c[i]);
    return out;
}

bool Space::valid(int64_t index) const {
    if (index < 0 || index >= size_) return false;
    if (filters_.empty()) return true;
    Choices c = choices(index);
    for (auto& f : filters_)
        if (!f(c)) return false;
    return true;
}

int64_t Space::sample(Rng& rng, const std::function<bool(int64_t)>& skip) const {
    std::uniform_int_distribution<int64_t> u(0, size_ - 1);
    auto ok = [&](int64_t i) { return valid(i) && !(skip && skip(i)); };
    for (int tries = 0; tries < 64; ++tries) {
        int64_t i = u(rng);
        if (ok(i)) return i;
    }
    // Most of the space is skipped (late in a grid of a small space): scan
    // from a random start so that what is left is still found.
    const int64_t start = u(rng);
    for (int64_t n = 0; n < size_; ++n) {
        int64_t i = (start + n) % size_;
        if (ok(i)) return i;
    }
    return -1;
}

int64_t Space::randomNeighbour(int64_t index, Rng& rng) const {
    Choices c = choices(index);
    std::vector<size_t> movable;
    for (size_t i = 0; i < knobs_.size(); ++i)
        if (radix_[i] > 1) movable.push_back(i);
    for (int tries = 0; tries < 32 && !movable.empty(); ++tries) {
        size_t k = movable[std::uniform_int_distribution<size_t>(0, movable.size() - 1)(rng)];
        Choices d = c;
        // Any other choice of knob k, uniformly.
        int64_t v = std::uniform_int_distribution<int64_t>(0, radix_[k] - 2)(rng);
        d[k] = v >= c[k] ? v + 1 : v;
        int64_t j = this->index(d);
        if (valid(j)) return j;
    }
    // Filters reject most steps: pick among the valid neighbours, if any.
    std::vector<int64_t> all = neighbours(index);
    if (all.empty()) return index;
    return all[std::uniform_int_distribution<size_t>(0, all.size() - 1)(rng)];
}

std::vector<int64_t> Space::neighbours(int64_t index) const {
    Choices c = choices(index);
    std::vector<int64_t> out;
    for (size_t k = 0; k < knobs_.size(); ++k)
        for (int64_t v = 0; v < radix_[k]; ++v) {
            if (v == c[k]) continue;
            Choices d = c;
            d[k] = v;
            int64_t j = this->index(d);
            if (valid(j)) out.push_back(j);
        }
    return out;
}

} // namespace tessel::tune
