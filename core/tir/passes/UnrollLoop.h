/// \file
/// unroll-loop: replace unrolled loops by copies of their body.
///
/// A `T.unroll` loop with a constant extent becomes its body repeated once per
/// iteration, with the loop variable replaced by the iteration's value (and
/// the index arithmetic that becomes constant folded). A loop is unrolled only
/// when the result counts at most `maxSteps` statements (TVM's step count: a
/// plain statement is 1, a sequence the sum of its parts, an unrolled loop its
/// extent times its body, a loop left in place 1); otherwise it stays a
/// `T.unroll` loop (LLVM may still unroll it). With
/// `autoMaxStep` > 0, small innermost serial loops of constant extent are
/// unrolled as well.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

struct UnrollLoopOptions {
    /// Most statements one unrolled loop may expand to.
    int maxSteps = 512;
    /// Also unroll serial loops with no loop left inside that expand to at
    /// most this many statements; 0 turns it off.
    int autoMaxStep = 0;
};

/// Unrolls the `T.unroll` loops of `s` (and small serial ones with autoMaxStep).
Stmt unrollLoops(const Stmt& s, const UnrollLoopOptions& options = {});
PrimFunc unrollLoops(const PrimFunc& f, const UnrollLoopOptions& options = {});

} // namespace tessel::tir
