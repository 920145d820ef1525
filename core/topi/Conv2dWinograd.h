/// \file
/// The Winograd convolution F(4 x 4, 3 x 3) (Lavin and Gray, "Fast
/// Algorithms for Convolutional Neural Networks"), in channel blocks.
///
/// A 3 x 3 convolution of stride 1 computes each 4 x 4 tile of output from a
/// 6 x 6 tile of input. Transformed (V = B^T d B for the input tile, U = G g
/// G^T for the 3 x 3 filter, computed at compile time), the 36 products of
/// one tile are element-wise: M = U . V, summed over the input channels, and
/// the output tile is Y = A^T M A. Over a whole layer the element-wise
/// products are 36 matrix products [OC x C] x [C x tiles], 2.25x fewer
/// multiply-adds than the direct convolution's, for two transforms that
/// stream the activations once each. The matrices are the standard ones of
/// the interpolation points 0, +-1, +-2 and infinity; each transform is
/// written out as its sparse sums (no multiply by 0 or 1), so the unrolled
/// code does only the arithmetic the matrices need.
///
/// Accuracy: the points +-2 scale values by up to 8 in the output transform,
/// so the result differs from the direct convolution's by a few float32
/// rounding steps of the largest partial sums: the tests hold it to 1e-4 of
/// the output's largest magnitude on every ResNet-18 3 x 3 layer.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/Conv2dNCHWc.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// Output tile edge m of F(m x m, 3 x 3), and the input tile m + 2.
inline constexpr int64_t kWinogradTile = 4;

/// Whether conv2dWinograd() takes this convolution: 2-d float32, a 3 x 3
/// kernel, stride and dilation 1, one group, constant-shaped weights, the
/// output stored in channel blocks (`layouts.out`), the data plain or blocked.
bool winogradApplies(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params,
                     const ConvLayouts& layouts);

/// The convolution by Winograd tiles: stages `name`_data (padded input in
/// channel blocks, tiles whole), `name`_vt and `name`_v (the input
/// transform), `name`_u (the transformed weights [6, 6, OC/ob, C/ib, ib, ob];
/// from `packer`, computed in double, when it knows the weights), `name`_m
/// (tag winograd_gemm: the 36 matrix products), `name`_yt (the output
/// transform's first pass) and `name` (the output tile, with the bias, in
/// the output layout). CompileError when winogradApplies() is false.
te::Tensor conv2dWinograd(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params,
                          const te::Tensor& bias, const ConvLayouts& layouts, const std::string& name = "winograd",
                          ConstantPacker* packer = nullptr);

/// The transform matrices of F(4 x 4, 3 x 3): B^T (6 x 6), G (6 x 3), A^T (4 x 6).
const std::vector<std::vector<double>>& winogradBT();
const std::vector<std::vector<double>>& winogradG();
const std::vector<std::vector<double>>& winogradAT();

} // namespace nn

/// The schedule of a fused function whose anchor is conv2dWinograd(): the
/// input transform tile by tile in parallel, the 36 matrix products in
/// register blocks ("reg_block": [channel blocks, tiles], fitting the vector
/// registers), the output transform per output tile with the fused
/// epilogue. Element-wise stages of the epilogue are inlined.
te::Schedule scheduleConv2dWinograd(const std::vector<te::Tensor>& outputs, const ScheduleOptions& options,
                                    te::ConfigSpace& cfg);

} // namespace tessel::topi
