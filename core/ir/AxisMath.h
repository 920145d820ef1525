/// \file
/// Integer helpers on axes and shapes that the graph's shape inference and the
/// operator library's computes share, so that both read ONNX's rules the same
/// way: normalising a possibly negative axis, the elements a Slice takes,
/// and the axes an Einsum equation names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel {

/// `a * b` for non-negative `a` and `b` (dimensions, element counts),
/// INT64_MAX when the product does not fit in 64 bits: shape arithmetic on
/// numbers a model gives saturates instead of overflowing, and a count that
/// saturated is larger than any limit it is checked against.
inline int64_t saturatingMul(int64_t a, int64_t b) {
    int64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

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

/// An Einsum equation with one letter per axis: an ellipsis is spelled out
/// as upper-case letters 'A', 'B' ... (aligned to the right across the
/// operands, as numpy broadcasts it), and an implicit output (no "->") is
/// the ellipsis then the letters used once, in alphabetical order.
struct EinsumTerms {
    std::vector<std::string> inputs;
    std::string output;
    std::string error; ///< non-empty when the equation does not fit the ranks
};
/// Parses `equation` for operands of the given ranks.
EinsumTerms parseEinsum(const std::string& equation, const std::vector<int64_t>& ranks);

} // namespace tessel
