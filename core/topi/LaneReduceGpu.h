/// \file
/// Reductions too long for one thread on an NVIDIA GPU, split across a
/// block's threads: a GEMV-shaped dense layer (a classifier's [1, 512] x
/// [512, 1000]) and a global pooling ([1, 512, 7, 7] to [1, 512, 1, 1]).
/// One thread per output, as the GPU's default schedule has it, leaves
/// 1000 threads (a few blocks of a 132-multiprocessor GPU) each walking a
/// row of 512 on its own, with neighbouring threads 2 KiB apart.
///
/// The compute keeps `lanes` partial results per output and sums them as a
/// tree (topi::reduceRowTree: tag reduce_lanes, then log2(lanes) levels
/// tagged reduce_tree): lane l sums positions l, l + lanes, … . The schedule
/// gives a block `rows` outputs x `lanes` threads (threadIdx.y, threadIdx.x):
/// each thread accumulates its partial in a register, neighbouring lanes
/// reading neighbouring elements (coalesced), and stores it in shared
/// memory; then each level down to two lanes, behind a barrier, has lane t
/// of every row add lanes t and t + half of the level before (the lanes
/// from half on idle), and after the last barrier lane 0 of each row adds
/// the last two and writes the output through the fused epilogue (bias,
/// the average's division, ReLU …): one writer per output, log2(lanes)
/// barriers and shared reads on the longest path where every lane used to
/// read all `lanes` partials.
/// (The writer is chosen by an output axis of extent 1 split over the
/// lanes, which a GEMV's [1, N] and a pooling's [N, C, 1, 1] have; an
/// output without one has every lane of a row store the same value.)
///
/// Knobs: `lanes` (compute: 32, a warp, by default; 64, 128, 16) and
/// `tile_rows` [blocks, rows per block] (default: 256 threads a block).
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "te/Tensor.h"
#include "topi/Nn.h"

#include <vector>

namespace tessel::topi {

/// The `lanes` knob of a lane reduction of a row of `length`: 32 by
/// default, a choice of 16, 32, 64 and 128 below twice the row.
int64_t defineLanesKnob(te::ConfigSpace* cfg, int64_t length);

namespace nn {

/// True when gemm(a, b, …, params) is GEMV-shaped and reads B along rows
/// the lanes can share: one output row (M = 1), A not transposed, B laid
/// out [N, K] (transB), float32, and a reduction of 64 or more.
bool gemvLanesApplies(const te::Tensor& a, const te::Tensor& b, const GemmParams& params);

/// gemm() with the product as `lanes` partial dot products per output
/// summed as a tree (reduceRowTree); the epilogue (alpha, beta, C) is
/// gemm's. Where gemvLanesApplies.
te::Tensor gemvLanes(const te::Tensor& a, const te::Tensor& b, const te::Tensor& c, const GemmParams& params,
                     int64_t lanes, const std::string& name = "gemv");

/// globalPool() of plain 2-d NCHW data with the spatial sum or maximum as
/// `lanes` partials per channel reduced as a tree (reduceRowTree); the
/// average's division follows (tag elemwise).
te::Tensor globalPoolLanes(const te::Tensor& data, PoolType type, int64_t lanes,
                           const std::string& name = "global_pool");

} // namespace nn

/// True when `outputs` (a fused function's) are one output whose single
/// reduceRowTree() (its reduce_lanes stage of a power of two of lanes and
/// the log2(lanes) levels, over the output's shape) is followed by
/// injective stages only.
bool laneReduceGpuScheduleApplies(const std::vector<te::Tensor>& outputs);

/// The schedule above; its knobs go into `cfg`.
te::Schedule scheduleLaneReduceGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg);

} // namespace tessel::topi
