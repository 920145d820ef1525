/// \file
/// What the GPU's tiled schedules (Conv2dGpu, DenseGpu, LaneReduceGpu) share:
/// finding the function's anchor stage, inlining its epilogue into the
/// output, and the cooperative copy of a shared tile by all of a block's
/// threads.
#pragma once

#include "te/Schedule.h"
#include "te/Tensor.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessel::topi {

/// Blocks the default tiles aim for at least: an H100 has 132
/// multiprocessors, and a grid of fewer blocks leaves some idle.
inline constexpr int64_t kMinGpuBlocks = 128;

/// The largest divisor of `n` that is at most `cap` (1 when `cap` < 1): a
/// tile that covers `n` without a guard.
int64_t tileDivisor(int64_t n, int64_t cap);

/// The compute node of `op`, or null (a placeholder).
const te::ComputeOpNode* computeOf(const te::Operation& op);

/// The one stage of `outputs`' operations tagged `tag` (null when there
/// are none or several).
te::Operation findTagged(const std::vector<te::Tensor>& outputs, const char* tag);

/// True when every compute stage reachable from `out` other than `anchor`
/// (and the stages in `alsoAllowed`) has no reduction: the anchor's
/// consumers up to the output are an injective epilogue.
bool injectiveEpilogue(const te::Tensor& out, const te::Operation& anchor,
                       const std::vector<te::Operation>& alsoAllowed = {});

/// Inlines every compute stage that is not an output, has no reduction and
/// is not in `keep`: the anchor's copy out of its cache_write and the
/// injective stages up to the output, which then reads the accumulators.
void inlineEpilogue(te::Schedule& s, const std::vector<te::Operation>& keep);

/// Binds each loop of `st` to its tag ({{by, "blockIdx.y"}, {tx, "threadIdx.x"}}).
void bindLoops(te::Stage st, const std::vector<std::pair<te::IterVar, const char*>>& loops);

/// Fuses `axes` (outermost first) into one loop bound to `tag`; nothing when empty.
void fuseAndBind(te::Stage st, const std::vector<te::IterVar>& axes, const char* tag);

/// Splits the fused loops of `st` (a "shared" stage computed inside a block)
/// over the block's threads, outermost tag first ({{"threadIdx.y", 8},
/// {"threadIdx.x", 32}}): each thread copies every n-th element, as many
/// rounds as the tile needs, neighbouring threads neighbouring elements.
void cooperativeFetch(te::Stage st, const std::vector<std::pair<std::string, int64_t>>& threads);

} // namespace tessel::topi
