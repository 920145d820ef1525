/// \file
/// The TIR simplifier: canonical integer arithmetic, bound-based proofs, and
/// the statement clean-ups they enable.
///
/// Expressions (Analyzer::simplify, arith::simplify):
/// - constants fold (integers wrap to their type; floats fold only when both
///   operands are literals and only exact identities apply: x*1, x/1, x-0, so
///   float results never change and float arithmetic is never reassociated);
/// - signed integer Add/Sub/Mul become a canonical linear form (LinearForm.h):
///   like terms collect, `(x + 1)*2 - 2` is `x*2`, `x*32 + y - (x*32 + y)` is `0`;
/// - floordiv/floormod by a positive constant split off the multiple of the
///   divisor and decide the rest from bounds: with xi in [0, 32),
///   `(xo*32 + xi) // 32` is `xo` and `(xo*32 + xi) % 32` is `xi`; truncating
///   Div/Mod become floor ones when both sides are provably non-negative;
/// - min/max, comparisons, and/or/not and select fold when bounds decide them;
///   comparisons are put in a canonical form (constants on one side);
/// - vectors: Broadcast op Broadcast, Ramp +-* Broadcast, Ramp + Ramp, and
///   floordiv/floormod of a Ramp whose lanes stay within one block.
/// Expression types never change.
///
/// Statements (simplify(Stmt), simplify(PrimFunc)) simplify every expression
/// with loop variables bound to [min, min + extent) and let variables to their
/// values; an `if` whose condition is provable goes away (the guard of a split
/// whose factor divides the extent), a loop of extent 1 becomes its body with
/// the loop variable replaced by min, a loop of extent <= 0 a no-op, and
/// sequences drop no-ops. In the then branch of an `if`, simple conditions on
/// a variable (`x < c`, `c <= x`, `x == c`, conjunctions) narrow its bound.
#pragma once

#include "tir/IR.h"

namespace tessel::tir::arith {

class Analyzer;

Expr simplify(const Expr& e);
Stmt simplify(const Stmt& s);
/// Simplifies `s` starting from the facts already in `an`.
Stmt simplify(const Stmt& s, Analyzer& an);
PrimFunc simplify(const PrimFunc& f);

} // namespace tessel::tir::arith
