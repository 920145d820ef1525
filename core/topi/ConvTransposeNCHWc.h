/// \file
/// The blocked 2-d transposed convolution, by phases (sub-pixel decomposition).
///
/// A transposed convolution with stride s scatters every input pixel onto an
/// s x s-strided grid of outputs; computed as TVM's x86 conv2d_transpose does
/// (a convolution of the zero-interleaved input with the flipped kernel) it
/// multiplies by inserted zeros s^2 times in every s^2 taps. Here each output
/// phase (y mod s, x mod s) is a dense stride-1 convolution of the input with
/// the sub-kernel of the taps that reach that phase (ceil(k / s) per axis):
/// every multiply-add is a real one (up to the zero taps of a kernel that s
/// does not divide).
///
/// Layout as the blocked convolution (Conv2dNCHWc.h): the padded input in
/// NCHW[c]c blocks, the weights packed at compile time into
/// [OC/oc_bn, C/ic_bn, s_h, s_w, T_h, T_w, ic_bn, oc_bn] (the output channels
/// padded to whole 8-channel blocks), the product in
/// [N, OC/oc_bn, s_h, s_w, Q_h, Q_w, oc_bn] (phase-major), and an output stage
/// back to NCHW with the bias, where the fused element-wise operators join.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// Whether convTransposeNCHWc(data, weight, params) applies: 4-d float32 data
/// and weights, one group, dilation 1 and no negative begin padding.
bool convTransposeNCHWcApplies(const te::Tensor& data, const te::Tensor& weight, const ConvTransposeParams& params);

/// convTranspose() by phases in blocks (stages `name`_data, `name`_wpack,
/// `name`_conv tagged conv_transpose_nchwc, and `name` in NCHW with the
/// bias); CompileError when convTransposeNCHWcApplies() is false. The packed
/// weights come from `packer` when it knows the weight's values, else from a
/// stage (tag opaque).
te::Tensor convTransposeNCHWc(const te::Tensor& data, const te::Tensor& weight, const ConvTransposeParams& params = {},
                              const te::Tensor& bias = {}, const std::string& name = "conv_transpose_nchwc",
                              ConstantPacker* packer = nullptr);

} // namespace nn

/// Schedules a phase-blocked transposed convolution: `conv` the product in
/// blocks, `out` the function's output (the NCHW stage with the fused
/// element-wise operators). The product runs one task per (image, channel
/// block, phase, row of the phase), through a register block of tile_w
/// columns x both column phases x oc_bn channels (knob tile_w: the split of
/// the phase's columns; an empty config gives the heuristic, at most 14
/// accumulators).
void scheduleConvTransposeNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                                const ScheduleOptions& options, te::ConfigSpace& cfg);

} // namespace tessel::topi
