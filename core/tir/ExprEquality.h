/// \file
/// Structural equality and hashing of TIR expressions.
///
/// Two expressions are deeply equal when they have the same tree shape, node
/// kinds, types and literal values. Variables, buffers, producers and reduce
/// axes compare by identity (the node's address), never by name, so `x + 1`
/// built twice from the same `Var` is equal and two different vars both named
/// `x` are not. Float literals compare by bit pattern: `0.0` and `-0.0` differ,
/// a NaN equals the same NaN. `structuralHash` agrees with `deepEqual`.
#pragma once

#include "tir/IR.h"

#include <cstddef>

namespace tessel::tir {

/// True when `a` and `b` are the same expression tree (see the file comment).
/// Two undefined expressions are equal; an undefined and a defined one are not.
bool deepEqual(const Expr& a, const Expr& b);

/// A hash consistent with deepEqual: deeply equal expressions hash the same.
size_t structuralHash(const Expr& e);

/// Functors for unordered containers keyed by expression structure.
struct StructuralHash {
    size_t operator()(const Expr& e) const { return structuralHash(e); }
};
struct StructuralEqual {
    bool operator()(const Expr& a, const Expr& b) const { return deepEqual(a, b); }
};

} // namespace tessel::tir
