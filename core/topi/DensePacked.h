/// \file
/// The dense layer with constant weights (Gemm with a constant B, as every
/// classifier head has; MatMul of any rank with a constant 2-d B, as every
/// transformer's projections have, its batch axes folded into the rows): B is packed at compile time into [N/16, K, 16]
/// panels so that one AVX-512 register holds 16 outputs of a row and the
/// reduction streams the panel contiguously; the output stage applies alpha,
/// beta * C and the fused element-wise operators.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// Whether gemm(a, b, c, params) can take the packed path: float32 2-d
/// operands and A not transposed.
bool densePackedApplies(const te::Tensor& a, const te::Tensor& b, const GemmParams& params);

/// gemm() with B in 16-column panels (stages `name`_bpack, `name`_dense tagged
/// dense_packed, and `name` with alpha, beta * C); CompileError when
/// densePackedApplies() is false. The panels come from `packer` when it knows
/// B's values, else from a stage (tag opaque).
te::Tensor densePacked(const te::Tensor& a, const te::Tensor& b, const te::Tensor& c = {},
                       const GemmParams& params = {}, const std::string& name = "dense_packed",
                       ConstantPacker* packer = nullptr);

/// Whether matmulPacked(a, b) applies: float32 operands, A of rank 2 or more
/// and B of rank 2.
bool matmulPackedApplies(const te::Tensor& a, const te::Tensor& b);

/// numpy's matmul of A [..., M, K] and a 2-d B [K, N] through the packed
/// dense layer: the batch axes of A fold into the rows of one [rows, N]
/// product (stages `name`_bpack, `name`_dense tagged dense_packed, and `name`
/// [..., M, N]); CompileError when matmulPackedApplies() is false.
te::Tensor matmulPacked(const te::Tensor& a, const te::Tensor& b, const std::string& name = "matmul_packed",
                        ConstantPacker* packer = nullptr);

} // namespace nn

/// The packed dense layer: `acc` the product in 16-column panels, `out` its
/// output stage with the fused element-wise operators ([rows, N], or
/// [..., M, N] for a MatMul whose batch axes fold into the rows). Knobs
/// (defined in `cfg`, defaults the rule's): "tile_y", the rows of one
/// register block (inner factor up to 8; default the largest divisor of the
/// rows up to 4), "tile_k", the reduction in [outer, inner] steps with the
/// register block inside the outer one (default one outer step), and
/// "unroll_k", unroll the inner steps (default no).
void scheduleDensePacked(te::Schedule& s, const te::Tensor& acc, const te::Tensor& out,
                         const ScheduleOptions& options, te::ConfigSpace& cfg);

} // namespace tessel::topi
