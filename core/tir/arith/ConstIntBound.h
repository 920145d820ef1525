/// \file
/// Constant interval bounds of integer expressions, and the conditions they decide.
///
/// This is the one bounds analysis of the compiler: the simplifier, the
/// Analyzer, loop-partition and TE bound checks all ask it.
///
/// `constIntBound(e, vars)` returns an interval [min, max] that contains every
/// value `e` can take when each variable lies in the interval `vars` gives it
/// (a variable not in `vars` ranges over its type). The analysis is a bottom-up
/// interval evaluation through Add, Sub, Mul, FloorDiv, FloorMod, Div and Mod
/// (truncating), Min, Max, Select, Cast, Let, Ramp and Broadcast (a vector's
/// bound covers all of its lanes); comparisons and logic are [0, 1], `likely(c)`
/// is the bound of `c`, anything else (loads, calls) is the range of its type.
/// Infinite ends are kNegInf / kPosInf, and arithmetic on them saturates.
///
/// Soundness: every result is clipped to the range of the expression's type,
/// i.e. the analysis assumes that no integer expression overflows its type (as
/// TVM's does); under that assumption the interval always holds every value.
/// Division and modulo assume a non-zero divisor.
///
/// Tightness: the result is exact for a single occurrence of each variable
/// combined with +, - and multiplication by constants, for floordiv by a
/// positive constant, and for floormod by a positive constant when the dividend
/// stays within one block (`(x + 9) % 8` with x in [0, 1] is [1, 2]). It is not
/// exact when a variable occurs twice (`x - x` is [min - max, max - min]):
/// `differenceBound` and `decideCondition` first cancel common terms through
/// the linear form (LinearForm.h), which makes them exact for linear
/// comparisons; what is still undecided needs the rewrite simplifier
/// (Analyzer::canProve).
#pragma once

#include "tir/IR.h"

#include <cstdint>
#include <limits>
#include <optional>
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

/// The interval of `a - b` (integers of one type, `a` and `b` scalar). For signed
/// integers the difference is taken in linear form first, so common terms cancel:
/// `(x*4 + y + 3) - (x*4 + y)` is exactly 3 whatever x and y are. For unsigned
/// integers it is [min a - max b, max a - min b], not wrapped.
ConstIntBound differenceBound(const Expr& a, const Expr& b, const VarBoundMap& vars = {});

/// Whether `a k b` holds given that `a - b` lies in `diff` (k is LT, LE, GT, GE,
/// EQ or NE): true when it holds for every value of `diff`, false when for none,
/// nullopt when it depends (or k is not a comparison).
std::optional<bool> decideComparison(NodeKind k, const ConstIntBound& diff);

/// Tries to decide a scalar condition from bounds alone: integer literals,
/// integer comparisons (through differenceBound), `&&`, `||`, `!` and
/// `likely(c)`. True or false when the condition has that value for every value
/// of the variables in `vars`; nullopt when it is undecided (a float comparison,
/// a load, a vector, or bounds too wide). Cheaper and more predictable than
/// Analyzer::canProve, which rewrites first: the passes use this to remove the
/// guards that loop ranges decide.
std::optional<bool> decideCondition(const Expr& cond, const VarBoundMap& vars = {});

} // namespace tessel::tir::arith
