/// \file
/// inject-double-buffer: two copies of a shared tile, the next one loaded
/// while this one is read (TVM's InjectDoubleBuffer).
///
/// A stage marked by `s[S].double_buffer()` is filled by a statement that
/// lowering wraps in `T.attr("double_buffer_write", S)`. In a serial loop
/// whose body fills only such buffers (the k-loop of a GPU GEMM: load the A
/// and B tiles, barrier, compute, barrier), the buffers get twice their size
/// and the loop becomes: fill half 0 for the first iteration, barrier; then
/// per iteration v, fill the other half for v + 1 (when there is one),
/// compute from half v % 2, one barrier. The loads of the next tile are
/// issued before the arithmetic on this one, so they overlap; the barrier
/// that separated load and compute goes (what is written is never what is
/// read in the same iteration). Runs after thread-sync, whose barriers of
/// that loop it replaces. Loops that also write other shared buffers are
/// left as they are, and so is everything on a CPU (no marks there matter:
/// one thread runs the block).
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

struct InjectDoubleBufferOptions {};

Stmt injectDoubleBuffer(const Stmt& s, const InjectDoubleBufferOptions& options = {});
PrimFunc injectDoubleBuffer(const PrimFunc& f, const InjectDoubleBufferOptions& options = {});

} // namespace tessel::tir
