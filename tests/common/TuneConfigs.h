/// \file
/// Test data for tuning-related tests: seeded random weights and a
/// configuration that differs from a template's defaults in every knob.
#pragma once

#include "te/ConfigSpace.h"
#include "tune/Task.h"

#include <random>
#include <vector>

namespace tessel::test {

/// n values uniform in [-1, 1), the same for the same seed.
inline std::vector<double> randomValues(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> v(n);
    for (auto& x : v) x = u(rng);
    return v;
}

/// A configuration that differs from the defaults in every knob that has a choice.
inline tune::Config otherThanDefault(const std::vector<te::Knob>& knobs) {
    tune::Config c;
    for (auto& k : knobs)
        if (k.size() > 1) c[k.name] = (k.defaultIndex + 1) % k.size();
    return c;
}

} // namespace tessel::test
