/// \file
/// The light fold: constant folding that keeps an expression's shape.
///
/// `foldConstants` rebuilds integer arithmetic, comparisons and logic bottom-up
/// through IROperators, so the folding they do when an expression is built
/// happens again after its operands changed: `2 * 4 + i` becomes `8 + i`,
/// `i + 0` becomes `i`, `3 < 4` becomes true. Nothing is reordered or
/// collected (`i + 8 - 8` stays), float arithmetic is never touched, and a node
/// nothing folds in is returned as it was, so printed IR stays close to what
/// the pass produced. The rewrite simplifier (Simplify.h) is the full tool; the
/// passes that copy a body with a loop variable set to a constant (unroll-loop,
/// the one-iteration parts of loop-partition, vectorize of one lane) use this,
/// and the pipeline's simplify pass canonicalizes afterwards.
#pragma once

#include "tir/IR.h"
#include "tir/Substitute.h"

namespace tessel::tir::arith {

/// `e` (or every expression in `s`) with constant operands folded (see the file comment).
Expr foldConstants(const Expr& e);
Stmt foldConstants(const Stmt& s);

/// substitute(s, map) with the rewritten parts folded as foldConstants does,
/// in one walk; unchanged parts keep their nodes. Meant for lowered TIR: unlike
/// substitute, it leaves the domains of a Reduce's axes alone.
Stmt substituteAndFold(const Stmt& s, const VarMap& map);
Expr substituteAndFold(const Expr& e, const VarMap& map);

} // namespace tessel::tir::arith
