/// \file
/// verify-gpu-code: what a GPU would refuse or get wrong, found before codegen.
///
/// TVM's VerifyGPUCode. In each kernel (an outermost nest of loops bound to
/// blockIdx/threadIdx): the threads per block and per dimension within the
/// device's limits; loops bound to the same tag of the same extent (threads
/// are launched once per kernel, a shorter loop would leave threads idle
/// without a guard the schedule did not ask for); no blockIdx loop inside a
/// threadIdx loop; no CPU-parallel loop; no vthread loop of no constant extent
/// (inject-virtual-thread left it a serial loop); no store outside every kernel; the "shared" buffers of a block
/// within the shared memory per block. Each issue names the loop or buffer
/// it is about, so that the driver can point at the schedule line.
#pragma once

#include "tir/IR.h"

#include <string>
#include <vector>

namespace tessel::tir {

struct GpuLimits {
    int64_t maxThreadsPerBlock = 1024;
    /// Static shared memory per block (CUDA's 48 KiB without opt-in).
    int64_t maxSharedBytesPerBlock = 48 * 1024;
};

struct GpuIssue {
    std::string message;
    /// The loop (its variable) or buffer (its data variable) it is about; may be null.
    const VarNode* loop = nullptr;
    const VarNode* buffer = nullptr;
};

/// The issues of lowered `f` for a GPU with `limits`; empty when it is fine.
std::vector<GpuIssue> verifyGpuCode(const PrimFunc& f, const GpuLimits& limits = {});

} // namespace tessel::tir
