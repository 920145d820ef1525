/// \file
/// remove-no-op: delete statements that do nothing.
///
/// Removes loops whose body does nothing or that run zero times, `if`s whose
/// branches do nothing (or whose condition is a constant), stores of a value
/// loaded from the very same location, evaluations of constants, and lets,
/// attributes and allocations around nothing. Sequences drop the statements
/// that became no-ops.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

/// remove-no-op has no options yet; the struct keeps the pass signature uniform.
struct RemoveNoOpOptions {};

/// Removes the statements of `s` that do nothing.
Stmt removeNoOp(const Stmt& s, const RemoveNoOpOptions& options = {});
PrimFunc removeNoOp(const PrimFunc& f, const RemoveNoOpOptions& options = {});

} // namespace tessel::tir
