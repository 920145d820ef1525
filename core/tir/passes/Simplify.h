/// \file
/// simplify: the arithmetic simplifier as a pipeline pass.
///
/// Wraps arith::simplify (tir/arith/Simplify.h, which documents the rules):
/// index arithmetic in canonical form, conditions decided from loop bounds
/// (the guards of splits that divide go away), loops of extent one replaced by
/// their body, no-ops dropped.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

/// simplify has no options yet; the struct keeps the pass signature uniform.
struct SimplifyOptions {};

/// Named simplifyPass so it is never confused with arith::simplify on expressions.
PrimFunc simplifyPass(const PrimFunc& f, const SimplifyOptions& options = {});

} // namespace tessel::tir
