/// \file
/// Constant interval bounds of integer expressions.
///
/// `constIntBound(e, vars)` returns an interval [min, max] that contains every
/// value `e` can take when each variable lies in the interval `vars` gives it
/// (variables not in `vars` are unbounded). The analysis is a bottom-up
/// interval evaluation through Add, Sub, Mul, FloorDiv, FloorMod, Div and Mod
/// (truncating), Min, Max, Select, Cast, Let, Ramp and Broadcast (a vector's
/// bound covers all of its lanes); comparisons and logic are [0, 1], anything
/// else (loads, calls) is the range of its type. Every result is clipped to the
/// range of the expression's type, i.e. the analysis assumes no overflow.
/// Infinite ends are kNegInf / kPosInf, and arithmetic on them saturates.
#pragma once

#include "tir/IR.h"

#include <cstdint>
#include <limits>
#include <unordered_map>

namespace tessel::tir::arith {

/// A closed interval of int64 values; kNegInf / kPosInf mark unbounded ends.
struct ConstIntBound {
    int64_t min;
    int64_t max;

    static constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();
    static constexpr int64_t kNegInf = -kPosInf;

    static constexpr ConstIntBound everything() { return {kNegInf, kPosInf}; }
    static constexpr ConstIntBound point(int64_t v) { return {v, v}; }
    /// The values a scalar type can hold ([0, 1] for bool; everything for non-integers).
    static ConstIntBound ofType(DataType t);

    bool isPoint() const { return min == max; }
    bool isEverything() const { return min == kNegInf && max == kPosInf; }
    bool contains(int64_t v) const { return min <= v && v <= max; }
    /// The smallest interval holding both.
    ConstIntBound unionWith(const ConstIntBound& o) const;
    /// The interval holding what both hold (may be empty: min > max).
    ConstIntBound intersect(const ConstIntBound& o) const;
    bool operator==(const ConstIntBound&) const = default;
};

/// Interval of each bound variable, keyed by the variable's node.
using VarBoundMap = std::unordered_map<const VarNode*, ConstIntBound>;

/// The interval of integer expression `e` given the bounds of its variables.
/// Float and handle expressions get everything.
ConstIntBound constIntBound(const Expr& e, const VarBoundMap& vars = {});

} // namespace tessel::tir::arith
