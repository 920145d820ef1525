#include "runtime/TimeEvaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace tessel::runtime {

std::vector<double> TimeEvaluator::measure(const std::function<void()>& f) const {
    using Clock = std::chrono::steady_clock;
    for (int i = 0; i < warmup; ++i)
        f();
    const int repeats = std::max(1, repeat);
    int64_t calls = std::max(1, number);
    std::vector<double> result;
    result.reserve(repeats);
    for (int r = 0; r < repeats; ++r) {
        double seconds = 0;
        for (;;) {
            const auto start = Clock::now();
            for (int64_t i = 0; i < calls; ++i)
                f();
            seconds = std::chrono::duration<double>(Clock::now() - start).count();
            if (seconds * 1e3 >= minRepeatMs) break;
            // Too short: grow as TVM does, by the golden ratio at least, and
            // to what would fill minRepeatMs at the rate just seen.
            const double perCallMs = std::max(seconds * 1e3 / calls, 1e-9);
            const double wanted = std::max(minRepeatMs / perCallMs + 1, calls * 1.618);
            calls = static_cast<int64_t>(std::min(wanted, double(std::numeric_limits<int>::max())));
        }
        result.push_back(seconds / calls);
    }
    return result;
}

double median(std::vector<double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    if (values.size() % 2) return values[mid];
    const double upper = values[mid];
    const double lower = *std::max_element(values.begin(), values.begin() + mid);
    return (lower + upper) / 2;
}

} // namespace tessel::runtime
