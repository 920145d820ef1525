#include "ir/AxisMath.h"

#include <algorithm>

namespace tessel {

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
    if (axis < -rank || axis >= rank) return std::nullopt;
    return axis < 0 ? axis + rank : axis;
}

SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step) {
    SliceRange r;
    r.step = step;
    if (dim <= 0) return r;
    // Adding dim to a negative value cannot overflow; INT64_MAX ("to the end") is never shifted.
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    // A step longer than the axis takes at most one element: clamping it keeps
    // the count and keeps -step from overflowing.
    const int64_t s = std::clamp(step, -dim - 1, dim + 1);
    if (step > 0) {
        r.start = std::clamp(start, int64_t(0), dim);
        end = std::clamp(end, int64_t(0), dim);
        r.count = end > r.start ? (end - r.start + s - 1) / s : 0;
    } else {
        r.start = std::clamp(start, int64_t(0), dim - 1);
        end = std::clamp(end, int64_t(-1), dim - 1);
        r.count = r.start > end ? (r.start - end - s - 1) / -s : 0;
    }
    return r;
}

} // namespace tessel
