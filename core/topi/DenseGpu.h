/// \file
/// The matrix product (tag dense: Gemm, MatMul and batched MatMul of any
/// rank) on an NVIDIA GPU, the GPU GEMM ladder's ideas as a schedule of the
/// general compute: each block computes a tile of rows x columns of one
/// batch index, each thread a register tile of it over the whole reduction;
/// per chunk of the reduction the block's threads copy the A and B tiles it
/// needs into shared memory together, then every thread multiplies out of
/// shared memory. The fused epilogue (bias, GELU, residual add …) is
/// applied as each thread writes its outputs: one kernel.
///
/// The rows are the output's second-to-last axis, or, where that has extent
/// 1 (a [128, 1, 1536] product of attention's input projection), the last
/// axis before it that is longer: the product is then the GEMM of those
/// rows, whose B tile every row shares. The other axes are blockIdx.z.
///
/// Knobs (defaults read the workload: up to 4 x 4 outputs per thread, up to
/// 16 x 16 threads, reduction chunks of up to 16; smaller register tiles
/// where the product would otherwise give under 128 blocks):
///   tile_y, tile_x  [blocks, threads, per thread] of the rows and columns
///   tile_k          [chunks, chunk] of the reduction
/// Tiles are divisors of the extents (1000 columns: 8 x 125), so every
/// shape is covered without guards.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "te/Tensor.h"

#include <vector>

namespace tessel::topi {

/// True when `outputs` (a fused function's) hold exactly one dense stage of
/// rank 2 or more with one reduction over two inputs, whose consumers up to
/// the single output (of its shape) and whose producers are injective.
bool denseGpuScheduleApplies(const std::vector<te::Tensor>& outputs);

/// The schedule above; its knobs go into `cfg`.
te::Schedule scheduleDenseGpu(const std::vector<te::Tensor>& outputs, te::ConfigSpace& cfg);

} // namespace tessel::topi
