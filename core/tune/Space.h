/// \file
/// The search space of a task: its knobs (te::Knob, each with its choices)
/// as one numbered set of configurations (AutoTVM's ConfigSpace as the
/// tuners see it).
///
/// A configuration is one choice per knob. Its index is the mixed-radix
/// number whose digits are the choices, the FIRST knob the LEAST significant
/// digit (AutoTVM's order):
///
///     index = c[0] + n[0] * (c[1] + n[1] * (c[2] + ...))
///
/// where c[i] is knob i's choice and n[i] its number of choices, knobs in the
/// order the template defines them. The mapping depends on nothing else, so
/// an index means the same configuration in every run, every process and on
/// every machine for the same template and workload (tests/tune/tst_space.cpp
/// pins it). Records store configurations by knob name, not by index, so a
/// template that gains a knob still reads its old records.
///
/// Filters drop configurations a tuner must not try (beyond the choices a
/// knob's own filter already removed): sampling, neighbours and grid order
/// skip them.
#pragma once

#include "te/ConfigSpace.h"
#include "tune/Task.h"

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tessel::tune {

/// The tuner's random generator: seeded, so a run with a seed repeats.
using Rng = std::mt19937_64;

class Space {
public:
    /// The choices of one configuration, one per knob, in knob order.
    using Choices = std::vector<int64_t>;
    /// True for the configurations to keep.
    using Filter = std::function<bool(const Choices&)>;

    Space() = default;
    /// Throws std::invalid_argument when a knob has no choices or the number
    /// of configurations does not fit int64_t.
    explicit Space(std::vector<te::Knob> knobs);

    const std::vector<te::Knob>& knobs() const { return knobs_; }
    /// The number of configurations (1 with no knobs), filtered or not.
    int64_t size() const { return size_; }
    /// The position of knob `name`, or -1.
    int knobPosition(std::string_view name) const;

    Choices choices(int64_t index) const;
    int64_t index(const Choices& choices) const;
    /// Knobs the config does not name take their default. Throws
    /// std::invalid_argument for a name the space has not or an index out of range.
    int64_t index(const Config& config) const;
    /// Every knob by name with its choice.
    Config config(int64_t index) const;
    /// The index of the configuration of all defaults (the untuned schedule).
    int64_t defaultIndex() const { return defaultIndex_; }
    /// Knob name -> the chosen value in words ("[4, 256]", "True").
    std::map<std::string, std::string> describe(int64_t index) const;

    void addFilter(Filter filter) { filters_.push_back(std::move(filter)); }
    /// In range and kept by every filter.
    bool valid(int64_t index) const;

    /// A uniformly random valid index that `skip` does not reject; -1 when
    /// there is none. Tries at random first, then scans from a random start.
    int64_t sample(Rng& rng, const std::function<bool(int64_t)>& skip = {}) const;
    /// A random valid index that differs from `index` in one knob's choice
    /// (a step of simulated annealing or a mutation); `index` itself when no
    /// knob has another valid choice.
    int64_t randomNeighbour(int64_t index, Rng& rng) const;
    /// Every valid index one knob's choice away from `index`.
    std::vector<int64_t> neighbours(int64_t index) const;

private:
    std::vector<te::Knob> knobs_;
    std::vector<int64_t> radix_;
    int64_t size_ = 1;
    int64_t defaultIndex_ = 0;
    std::vector<Filter> filters_;
};

} // namespace tessel::tune
