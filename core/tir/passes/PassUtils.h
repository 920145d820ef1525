/// \file
/// Small helpers that several TIR passes share: structural equality of
/// expressions, constant folding after substitution, and constant integer
/// bounds of an expression over known variable ranges.
///
/// These are deliberately light: the full arithmetic analysis lives in
/// tir/arith (Analyzer, simplify). The passes use these helpers where they
/// need a cheap, predictable answer (and printed output that tests can read).
#pragma once

#include "tir/IR.h"
#include "tir/Substitute.h"

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace tessel::tir {

/// True when `a` and `b` are the same expression tree: same kinds, types and
/// fields, variables compared by identity, buffers by identity.
bool structuralEqual(const Expr& a, const Expr& b);

/// Rebuilds integer arithmetic through IROperators so that constant operands
/// fold (`2 * 4 + i` becomes `8 + i`, `i + 0` becomes `i`). Returns the same
/// node when nothing folds.
Expr foldConstants(const Expr& e);
Stmt foldConstants(const Stmt& s);

/// substitute() followed by foldConstants() on the rewritten parts.
Stmt substituteAndFold(const Stmt& s, const VarMap& map);
Expr substituteAndFold(const Expr& e, const VarMap& map);

/// A closed integer interval [lo, hi].
struct IntInterval {
    int64_t lo = 0;
    int64_t hi = 0;
};

/// Known closed ranges of variables (loop variables with constant bounds).
using VarIntervals = std::unordered_map<const VarNode*, IntInterval>;

/// Constant bounds of a scalar integer expression when every variable in it
/// has a range in `env`; nullopt when unknown. Sound but not tight (a
/// variable that appears twice is treated as two independent ones).
std::optional<IntInterval> constBound(const Expr& e, const VarIntervals& env);

/// Tries to decide a boolean condition over `env` (comparisons of integer
/// expressions, `and`, `or`, `not`, `likely`). nullopt when undecided.
std::optional<bool> decideCondition(const Expr& cond, const VarIntervals& env);

/// The argument of `likely(c)`, or `e` itself.
Expr stripLikely(const Expr& e);

/// Floor division and ceiling division of integers (b > 0).
int64_t floorDivide(int64_t a, int64_t b);
int64_t ceilDivide(int64_t a, int64_t b);

} // namespace tessel::tir
