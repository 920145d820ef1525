/// \file
/// Integer helpers on axes and shapes that the graph's shape inference and the
/// operator library's computes share, so that both read ONNX's rules the same
/// way: normalising a possibly negative axis, and the elements a Slice takes.
#pragma once

#include <cstdint>
#include <optional>

namespace tessel {

/// An axis in [-rank, rank) made non-negative; nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// The elements one axis of ONNX's Slice takes: `count` elements from
/// `start`, `step` apart.
struct SliceRange {
    int64_t start = 0;
    int64_t step = 1;
    int64_t count = 0;
};
/// Slice's clamping on an axis of size `dim` (ONNX, opset 10+): negative
/// starts and ends count from the end; then for a positive step both are
/// clamped to [0, dim], for a negative one start to [0, dim - 1] and end to
/// [-1, dim - 1]. `step` must not be 0.
SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step);

} // namespace tessel
