/// \file
/// vectorize: turn vectorized loops into vector expressions.
///
/// A `T.vectorized` loop of constant extent n disappears: its variable becomes
/// `T.Ramp(min, 1, n)` and every expression that depends on it is widened to n
/// lanes. Index arithmetic stays in canonical ramp form (`Broadcast(a) +
/// Ramp(b, s)` is built as `Ramp(a + b, s)`, `Ramp(b, s) * c` as `Ramp(b * c,
/// s * c)`), so a contiguous access is a load or store at one Ramp index, while
/// invariant scalars stay scalar and are broadcast only where they meet a
/// vector. Inner serial loops with invariant bounds stay loops with vector
/// bodies; an `if` with a varying condition around a store becomes a Select.
/// What cannot be vectorized (a varying loop extent, an allocation inside, a
/// non-constant extent, an `if` with a varying condition around anything but a
/// store) leaves a serial loop instead: the pass never fails on legal input.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

struct VectorizeOptions {
    /// Loops wider than this stay serial loops.
    int maxLanes = 1024;
    /// Turn `if c: B[i] = v` (c varying, not a `likely` guard) into
    /// `B[i] = select(c, v, B[i])`. Off, such loops stay serial.
    bool selectStores = true;
};

/// Vectorizes every `T.vectorized` loop of `s`, innermost first.
Stmt vectorizeLoops(const Stmt& s, const VectorizeOptions& options = {});
PrimFunc vectorizeLoops(const PrimFunc& f, const VectorizeOptions& options = {});

} // namespace tessel::tir
