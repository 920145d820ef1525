/// \file
/// Reductions too long for one thread on an NVIDIA GPU, split across a
/// block's threads: a GEMV-shaped dense layer (a classifier's [1, 512] x
/// [512, 1000]) and a global pooling ([1, 512, 7, 7] to [1, 512, 1, 1]).
/// One thread per output, as the GPU's default schedule has it, leaves
/// 1000 threads (a few blocks of a 132-multiprocessor GPU) each walking a
/// row of 512 on its own, with neighbouring threads 2 KiB apart.
///
/// The compute keeps `lanes` partial results per output (topi::reduceRowLanes,
/// tag reduce_lanes): lane l sums positions l, l + lanes, … . The schedule
/// gives a block `rows` outputs x `lanes` threads (threadIdx.y, threadIdx.x):
/// each thread accumulates its partial in shared memory, neighbouring lanes
/// reading neighbouring elements (coalesced); after a barrier the threads of
/// each row add the row's partials, reading the same shared words (a
/// broadcast), and write the output through the fused epilogue (bias,
/// the average's division, ReLU …). The output stage is bound to
/// threadIdx.y only: every lane of a row computes the same sum and stores
/// the same value, which is how a reduction across threads is written
/// without a cross-thread primitive.
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
/// (tag reduce_lanes) and their sum (tag dense); the epilogue (alpha, beta,
/// C) is gemm's. Where gemvLanesApplies.
te::Tensor gemvLanes(const te::Tensor& a, const te::Tensor& b, const te::Tensor& c, const GemmParams& params,
                     int64_t lanes, const std::string& name = "gemv");

/// globalPool() of plain 2-d NCHW data with the spatial sum or maximum as
/// `lanes` partials per channel (tag reduce_lanes) and their reduction (tag
/// pool); the average's division follows (tag elemwise).
te::Tensor globalPoolLanes(const te::Tensor& data, PoolType type, int64_t lanes,
                           const std::string& name = "global_pool");

} // namespace nn

/// True when `outputs` (a fused function's) are one output whose single
/// lane reduction (reduce_lanes and the stage reducing it) is followed by
/// injective stages only, of the output's shape.
bool laneReduceGpuScheduleApplies(const std::vector<te::Tensor>& outputs);

/// The schedule above; its knobs go into `cfg`.
te::Schedule scheduleLaneReduceGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg);

} // namespace tessel::topi
