/// \file
/// split-host-device: a GPU function as kernels and the launches that run them.
///
/// After lowering for a GPU, every statement of a function runs under loops
/// bound to blockIdx/threadIdx (tir/passes/VerifyGPUCode.h checks that).
/// Each outermost bound nest becomes one kernel: a PrimFunc over the buffers
/// it uses, wrapped in the "shared" and "local" allocations it needs, with
/// its grid and block sizes (the largest extent of each tag's loops). The
/// host side is what remains: the global buffers the function allocates
/// (workspaces the runtime allocates on the device) and the kernels in order
/// (TVM's SplitHostDevice, where the host side is a list, not code).
#pragma once

#include "tir/IR.h"

#include <array>
#include <string>
#include <vector>

namespace tessel::tir {

struct KernelLaunch {
    /// The kernel: its parameters are the buffers it reads and writes.
    PrimFunc kernel;
    /// Per parameter of `kernel`: index into the function's parameters, or
    /// parameters.size() + i for workspace i.
    std::vector<size_t> args;
    /// blockIdx.x/y/z and threadIdx.x/y/z extents (1 where unbound).
    std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
    /// Bytes of "shared" buffers one block uses.
    int64_t sharedBytes = 0;
    /// Resident blocks per SM the kernel asks for (launchMinBlocks); 0: none.
    int64_t minBlocksPerSM = 0;
};

/// The loop annotation by which te's launch_bounds(min_blocks=n) reaches
/// codegen: lowering puts it on the stage's loops bound to blockIdx and
/// threadIdx (one of them survives any simplification but a 1 x 1 launch).
inline constexpr const char* kLaunchMinBlocks = "launch_min_blocks";

/// The largest kLaunchMinBlocks of the loops in `kernel`; 0 when none asks.
int64_t launchMinBlocks(const Stmt& kernel);

struct DeviceSplit {
    /// Global buffers the function allocates besides its parameters.
    std::vector<Buffer> workspaces;
    std::vector<KernelLaunch> kernels;
};

/// Splits lowered (flattened) `f`. Throws CompileError naming the buffer when
/// a statement runs outside every bound loop or a thread extent is not constant.
DeviceSplit splitHostDevice(const PrimFunc& f);

} // namespace tessel::tir
