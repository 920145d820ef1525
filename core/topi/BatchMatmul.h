/// \file
/// The matrix product of two activations (attention's Q x K^T and P x V, a
/// Gemm or MatMul whose B is computed): the general dense compute (Nn.h,
/// tag dense) of any rank, with broadcast batch axes, scheduled in register
/// blocks.
///
/// A task computes a block of tile_y rows x tile_x columns of one batch
/// index: the block's accumulators stay in registers across the whole
/// reduction (cache_write), one row of A broadcast per FMA against tile_x / 16
/// vectors of B's row, which is contiguous along the output's last axis for
/// numpy's layout [..., K, N]. A B laid out [N, K] (Gemm with transB) is
/// first copied into that layout inside the function (transposedCopy).
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// The 2-d transpose of `b` as a materialised stage (`name`, tag opaque):
/// the layout the batched schedule reads B in, for a Gemm with transB.
te::Tensor transposedCopy(const te::Tensor& b, const std::string& name);

} // namespace nn

/// Whether scheduleMatmul applies to the dense stage `mm` with the fused
/// function's output `out`: float32 or int32, rank 2 or more, and `out` (when it is
/// another stage: the fused element-wise operators) of the same shape.
bool matmulScheduleApplies(const te::Tensor& mm, const te::Tensor& out);

/// Schedules the dense stage `mm` and the output `out` (mm itself or its
/// element-wise epilogue). Knobs: tile_y (rows of a block: the split of M),
/// tile_x (columns of a block: the split of N, whole vectors when N has
/// them); an empty config gives the heuristic blocks (4 rows, up to 64
/// columns).
void scheduleMatmul(te::Schedule& s, const te::Tensor& mm, const te::Tensor& out, const ScheduleOptions& options,
                    te::ConfigSpace& cfg);

} // namespace tessel::topi
