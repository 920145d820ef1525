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
/// NCHW[c]c blocks (read from NCHW or from the blocks alter-layout stored;
/// the copy regroups channels into the reduction's inner block, knob
/// tile_ic), the weights packed at compile time into
/// [OC/oc_bn, C/ic_bn, s_h, s_w, T_h, T_w, ic_bn, oc_bn] (the output channels
/// padded to whole 8-channel blocks), the product in
/// [N, OC/oc_bn, s_h, s_w, Q_h, Q_w, oc_bn] (phase-major), and an output stage
/// with the bias, in NCHW or in the output's channel blocks, where the fused
/// element-wise operators join.
#pragma once

#include "te/ConfigSpace.h"
#include "topi/Conv2dNCHWc.h"
#include "te/Schedule.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// Whether convTransposeNCHWc(data, weight, params, layouts) applies: float32
/// data (NCHW, or NCHW[x]c as layouts.data says) and 4-d weights, one group,
/// dilation 1, no negative begin padding, and output channels a multiple of
/// layouts.out's block when the output is stored blocked.
bool convTransposeNCHWcApplies(const te::Tensor& data, const te::Tensor& weight, const ConvTransposeParams& params,
                               const ConvLayouts& layouts = {});

/// convTranspose() by phases in blocks (stages `name`_data, `name`_wpack,
/// `name`_conv tagged conv_transpose_nchwc, and `name` in NCHW with the
/// bias, or in layouts.out's channel blocks); CompileError when
/// convTransposeNCHWcApplies() is false. The packed weights come from
/// `packer` when it knows the weight's values, else from a stage (tag
/// opaque). Data stored in blocks (layouts.data) is read where it is. With
/// `cfg` the input channels' block is the knob tile_ic.
te::Tensor convTransposeNCHWc(const te::Tensor& data, const te::Tensor& weight, const ConvTransposeParams& params = {},
                              const te::Tensor& bias = {}, const std::string& name = "conv_transpose_nchwc",
                              ConstantPacker* packer = nullptr, const ConvLayouts& layouts = {},
                              te::ConfigSpace* cfg = nullptr);

} // namespace nn

/// Schedules a phase-blocked transposed convolution: `conv` the product in
/// blocks, `out` the function's output (the stage with the fused element-wise
/// operators, plain or in channel blocks). Each phase is a stride-1
/// convolution with its own sub-kernel, so the product runs like the direct
/// convolution: one task per (image, channel-block group, row phase, row
/// block), a register block of channel blocks x rows x columns of one phase
/// (knob reg_block, choices and default from registerBlocks() for the
/// target's vector registers).
void scheduleConvTransposeNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                                const ScheduleOptions& options, te::ConfigSpace& cfg);

} // namespace tessel::topi
