/// \file
/// thread-sync: insert the barriers that make shared memory correct on a GPU.
///
/// The threads of a block share a "shared" buffer; one thread's write is
/// visible to another only after a barrier (`T.tvm_storage_sync("shared")`,
/// CUDA's __syncthreads). Inside a kernel (under a loop bound to blockIdx or
/// threadIdx), for every sequence of statements the pass puts a barrier
/// before a statement that reads a shared buffer written since the last
/// barrier, or writes one read or written since then. A serial loop whose
/// body writes and reads the same shared buffer also gets one at the end of
/// its body, so the next iteration's write waits for this iteration's reads
/// (the load-tile / compute-tile loop of a GEMM). Statements under an `if`
/// count as one statement: a barrier some threads skip would hang the block.
/// Code outside kernels is left alone; on a CPU the barrier is a no-op.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

/// thread-sync has no options; the struct keeps the pass signature uniform.
struct ThreadSyncOptions {};

/// The barrier statement the pass inserts.
Stmt storageSync();

Stmt threadSync(const Stmt& s, const ThreadSyncOptions& options = {});
PrimFunc threadSync(const PrimFunc& f, const ThreadSyncOptions& options = {});

} // namespace tessel::tir
