/// \file
/// The C ABI between generated code and the runtime's thread pool.
///
/// Codegen outlines the body of every `parallel` loop into a function of type
/// TesselParallelLambda and calls TesselParallelLaunch with a closure holding
/// the captured values. Each task computes its own chunk of the loop range
/// from (taskId, numTasks). The same ABI serves JIT code (the symbol is given
/// to the JIT explicitly) and exported shared libraries (resolved when the
/// runtime loads them).
#pragma once

#include <cstdint>

extern "C" {

/// Runs task `taskId` of `numTasks`; returns 0 on success.
typedef int32_t (*TesselParallelLambda)(int32_t taskId, int32_t numTasks, void* closure);

/// Runs `f` for every task 0..numTasks-1 on the runtime thread pool and waits
/// for all of them. numTasks <= 0 means one task per pool thread. Nested calls
/// (from inside a task) run serially on the calling thread. Returns 0 when
/// every task returned 0, else the first non-zero value.
int32_t TesselParallelLaunch(TesselParallelLambda f, void* closure, int32_t numTasks);

/// The number of threads the pool runs tasks on (what numTasks <= 0 means).
int32_t TesselParallelNumThreads();

/// Scratch memory for a kernel's heap allocations (large or dynamic Allocates):
/// 64-byte aligned, nullptr only when memory is exhausted. Freed blocks stay in
/// a small per-thread cache and are handed out again, so a kernel that
/// allocates the same buffer on every call (or in every parallel task) does not
/// pay for fresh pages and their faults each time. Free on the thread that
/// allocated (as generated code does: allocation and free bracket one scope).
void* TesselWorkspaceAlloc(uint64_t nbytes);
void TesselWorkspaceFree(void* ptr);
}
