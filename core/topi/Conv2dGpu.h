/// \file
/// The direct NCHW convolution on an NVIDIA GPU (TVM's conv2d_nchw CUDA
/// schedule): each block computes a tile of output
/// channels x rows x columns, each thread a small sub-tile of it in
/// registers over the whole reduction; per chunk of input channels the
/// block's threads copy the padded input window and the weights it needs
/// into shared memory together, then every thread multiplies out of shared
/// memory. The fused epilogue (bias, residual add, ReLU …) is applied as
/// each thread writes its outputs: one kernel, no intermediate in global
/// memory.
///
/// A depthwise convolution (tag depthwise_conv2d) takes the same schedule:
/// threads along the rows, each thread's taps read from the shared window
/// (its halo loaded once for the block), one channel per thread by default
/// since a channel's outputs share nothing with another's (its tile_rc has
/// the one choice [1, 1]: no input channels to chunk).
///
/// Knobs (defaults read the workload: 14-16 threads along a row for
/// coalesced stores, ~256 threads per block, up to 8 channels per thread,
/// fewer where that leaves under 128 blocks):
///   tile_f, tile_y, tile_x  [blocks, threads, per thread] of the output
///                           channels, rows and columns
///   tile_rc                 [chunks, channels per chunk] of the input channels
///   vthread_x               1 or 2 virtual threads along the row: a thread's
///                           tile_x columns as that many groups a row of
///                           threads apart (TVM's vx; it must divide them)
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "te/Tensor.h"

#include <vector>

namespace tessel::topi {

/// True when `outputs` (a fused function's) hold exactly one NCHW 2-d
/// convolution of one group (tag conv2d) or one depthwise convolution (tag
/// depthwise_conv2d) whose result feeds only injective stages up to the
/// single output.
bool conv2dGpuScheduleApplies(const std::vector<te::Tensor>& outputs);

/// The schedule above; its knobs go into `cfg`.
te::Schedule scheduleConv2dGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg);

} // namespace tessel::topi
