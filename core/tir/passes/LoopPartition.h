/// \file
/// loop-partition: split loops so that guards become provably true.
///
/// A split whose factor does not divide the extent leaves a guard such as
/// `if likely(xo * 4 + xi < 10)` in the loop nest. For a loop with constant
/// bounds whose body holds conditions (IfThenElse, optionally wrapped in
/// `likely`) that are linear in the loop variable, this pass splits the loop
/// range at the point where a condition stops being provably true (or starts
/// being provably false), removes the conditions that are decided in each
/// part, and repeats on the parts and on inner loops, as TVM's LoopPartition
/// does. A part of extent one is replaced by its body with the loop variable
/// substituted, so the inner loops of a tail iteration can be partitioned too.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

struct LoopPartitionOptions {
    /// Only conditions wrapped in `likely(...)` drive partitioning (all
    /// provable conditions are still removed).
    bool onlyLikely = false;
    /// How many times one loop may be split (a guard against code growth).
    int maxSplits = 8;
};

/// Partitions every loop of `s` with constant bounds (see the file comment).
Stmt loopPartition(const Stmt& s, const LoopPartitionOptions& options = {});
PrimFunc loopPartition(const PrimFunc& f, const LoopPartitionOptions& options = {});

} // namespace tessel::tir
