/// \file
/// Timing of a function the way TVM's time_evaluator does it, so that the
/// tuner, the schedule editor and the benchmarks agree on what a figure means.
///
/// After `warmup` untimed calls, each of `repeat` repeats times `number`
/// back-to-back calls with steady_clock and records the mean seconds per call.
/// When a repeat takes less than minRepeatMs, `number` grows (to the larger of
/// 1.618 x number and what the last repeat suggests would fill minRepeatMs)
/// and that repeat is timed again; the grown `number` carries over to the
/// repeats that follow.
#pragma once

#include <functional>
#include <vector>

namespace tessel::runtime {

struct TimeEvaluator {
    /// Calls per repeat (at least 1; may grow, see minRepeatMs).
    int number = 1;
    /// Repeats, each giving one figure.
    int repeat = 3;
    /// The shortest repeat, in milliseconds, that counts; 0 takes any.
    double minRepeatMs = 0;
    /// Untimed calls before the first repeat.
    int warmup = 1;

    /// Mean seconds per call of each repeat, in order (`repeat` figures).
    std::vector<double> measure(const std::function<void()>& f) const;
};

/// The median of `values` (the mean of the middle two for an even count);
/// NaN when empty.
double median(std::vector<double> values);

} // namespace tessel::runtime
