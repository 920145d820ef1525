/// \file
/// storage-rewrite: plan the memory of intermediate buffers.
///
/// Runs on flattened TIR (Allocate nodes). Three rewrites, in order:
///  - an Allocate whose buffer is never read or written is removed;
///  - Allocates of constant size are hoisted out of serial, vectorized and
///    unrolled loops (and out of the statements of a sequence) to the top of
///    their region: the function body, or the body of a parallel loop, whose
///    iterations each need their own copy;
///  - in each region, buffers of the same scope and element type whose live
///    ranges over the region's statement sequence (first to last statement
///    that touches them) do not overlap share one allocation, as large as the
///    largest of them.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

struct StorageRewriteOptions {
    /// Let buffers with disjoint live ranges share memory.
    bool reuse = true;
    /// Hoist constant-size allocations out of loops.
    bool hoist = true;
};

/// Plans the allocations of `s` (see the file comment).
Stmt storageRewrite(const Stmt& s, const StorageRewriteOptions& options = {});
PrimFunc storageRewrite(const PrimFunc& f, const StorageRewriteOptions& options = {});

} // namespace tessel::tir
