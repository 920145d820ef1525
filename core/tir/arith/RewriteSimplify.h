/// \file
/// Internal to the arith library: one bottom-up rewriting pass of the
/// expression simplifier. Analyzer::simplify repeats it to a fixed point;
/// other code should call that (or arith::simplify) instead.
#pragma once

#include "tir/IR.h"

namespace tessel::tir::arith {

class Analyzer;

/// The most rule applications one Analyzer::simplify call may make; past it
/// the rewriter only rebuilds nodes, so pathological inputs still terminate.
inline constexpr int kMaxRewriteSteps = 100000;

/// Rewrites every node of `e` bottom-up with the simplification rules, using
/// the facts in `an`. `steps` counts rule applications across calls.
Expr rewriteOnce(const Expr& e, Analyzer& an, int& steps);

} // namespace tessel::tir::arith
