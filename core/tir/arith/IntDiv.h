/// \file
/// Integer division that rounds toward negative infinity, on int64 values.
///
/// TIR's FloorDiv/FloorMod (and Python's `//` and `%`) round toward negative
/// infinity, C++'s `/` and `%` toward zero. These are the one set of helpers
/// that constant folding, bounds, the simplifier and the passes use. Every
/// function requires `b != 0`; like C++ division, `INT64_MIN / -1` overflows.
#pragma once

#include <cstdint>

namespace tessel::tir::arith {

/// floor(a / b).
constexpr int64_t floorDivInt(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// a - b * floor(a / b): the remainder with the sign of `b`.
constexpr int64_t floorModInt(int64_t a, int64_t b) {
    return a - floorDivInt(a, b) * b;
}

/// ceil(a / b).
constexpr int64_t ceilDivInt(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

} // namespace tessel::tir::arith
