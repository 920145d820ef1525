/// \file
/// Softmax and layer normalisation along the innermost axis on an NVIDIA GPU:
/// one block per row. The GPU's default schedule gives every statistic (a
/// row's max, sum, mean, variance) one thread walking the whole row alone,
/// as a kernel of its own, and then one thread per output element.
///
/// The compute (nn::softmax, nn::layerNorm with `treeLanes`) reduces each row
/// with topi::reduceRowTree: `lanes` partials (thread t of the block sums
/// positions t, t + lanes, …, neighbouring threads reading neighbouring
/// elements), then log2(lanes) levels in shared memory, each behind a
/// barrier, in which thread t combines lanes t and t + half while the other
/// threads wait; the last level's one lane is the row's statistic. Every
/// thread then reads the statistics from shared memory (a broadcast) and
/// writes its outputs of the row, `lanes` apart (coalesced), through the
/// inlined element-wise work. The whole function is one kernel.
///
/// Knob `row_threads` (compute: the lanes, a power of two from 16 to 512
/// below twice the row; by default the row's length up to 256).
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "te/Tensor.h"

#include <vector>

namespace tessel::topi {

/// The `row_threads` knob of a reduction tree over rows of `length`; the
/// default only when `cfg` is null.
int64_t defineRowThreadsKnob(te::ConfigSpace* cfg, int64_t length);

/// True when `outputs` (a fused function's) are one output of rank 2 or
/// more whose reductions are all reduceRowTree()s of one lane count over
/// rows of the output's innermost axis, the rest injective.
bool rowReduceGpuScheduleApplies(const std::vector<te::Tensor>& outputs);

/// The schedule above (its knob belongs to the compute).
te::Schedule scheduleRowReduceGpu(const std::vector<te::Tensor>& outputs);

} // namespace tessel::topi
