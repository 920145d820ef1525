/// \file
/// The depthwise 2-d convolution in channel blocks (NCHW[x]c), vectorised
/// over the block.
///
/// A depthwise convolution (one input channel per output channel, groups ==
/// C) has no reduction over channels: each output pixel of a channel sums
/// KH x KW taps of the same channel. Stored NCHW16c, the 16 channels of one
/// pixel are one vector, so every tap is one vector load and one vector
/// multiply-add with the tap's 16 weights (MLAS's and oneDNN's form). The
/// kernel keeps a row block of output vectors in registers, runs the taps
/// around it (unrolled, so a loaded input vector serves every tap that reads
/// it) and stores the block with the fused epilogue.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/Conv2dNCHWc.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// Whether depthwiseConv2dNCHWc() takes this convolution: 2-d float32, one
/// input and one output channel per group, the output stored NCHW[x]c
/// (`layouts.out`) with a block that divides the channels, the data plain or
/// stored NCHW[y]c.
bool depthwiseNCHWcApplies(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params,
                           const ConvLayouts& layouts);

/// The depthwise convolution in the output's channel blocks: stages
/// `name`_data (the padded input in those blocks; a view when unpadded and
/// already so stored), `name`_wpack ([C/b, KH, KW, b]; from `packer` when it
/// knows the weights), `name`_conv (tag depthwise_conv2d_nchwc) and `name`
/// with the bias, in the output layout. CompileError when
/// depthwiseNCHWcApplies() is false.
te::Tensor depthwiseConv2dNCHWc(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params,
                                const te::Tensor& bias, const ConvLayouts& layouts,
                                const std::string& name = "depthwise_nchwc", ConstantPacker* packer = nullptr);

} // namespace nn

/// Schedules the stages of a blocked depthwise convolution whose output
/// stage (element-wise operators inlined) is `out`: tasks of (image, channel
/// block, row block), and in each a register block of tile_oh x tile_ow
/// output vectors summed over the unrolled taps, then stored with the
/// epilogue. Knob "reg_block" ([tile_oh, tile_ow], every choice fitting the
/// vector registers with the taps' weights; default the widest row block up
/// to 16 columns).
void scheduleDepthwiseNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                            const ScheduleOptions& options, te::ConfigSpace& cfg);

} // namespace tessel::topi
