/// \file
/// Structural equality and hashing of TIR expressions: the one equality that
/// passes, the simplifier, the parser and the script printer compare
/// expressions with.
///
/// Two expressions are structurally equal when they have the same tree shape,
/// node kinds, types (a cast's target type included) and literal values.
/// Variables, buffers, producers and reduce axes compare by identity (the
/// node's address), never by name, so `x + 1` built twice from the same `Var`
/// is equal and two different vars both named `x` are not. Float literals
/// compare by bit pattern: `0.0` and `-0.0` differ (they behave differently
/// under division and min/max), a NaN equals the same NaN (so that equality
/// stays reflexive and agrees with the hash). Reductions compare combiner,
/// axes, source and condition. `structuralHash` agrees with `structuralEqual`.
#pragma once

#include "tir/IR.h"

#include <cstddef>

namespace tessel::tir {

/// True when `a` and `b` are the same expression tree (see the file comment).
/// Two undefined expressions are equal; an undefined and a defined one are not.
bool structuralEqual(const Expr& a, const Expr& b);

/// A hash consistent with structuralEqual: equal expressions hash the same.
size_t structuralHash(const Expr& e);

/// Functors for unordered containers keyed by expression structure.
struct StructuralHash {
    size_t operator()(const Expr& e) const { return structuralHash(e); }
};
struct StructuralEqual {
    bool operator()(const Expr& a, const Expr& b) const { return structuralEqual(a, b); }
};

} // namespace tessel::tir
