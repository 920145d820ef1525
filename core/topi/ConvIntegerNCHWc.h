/// \file
/// The blocked integer 2-d convolution (ONNX ConvInteger): 8-bit data and
/// weights, int32 sums, exact.
///
/// out[n, oc, oh, ow] = sum over c, kh, kw of (x - x_zero) * (w - w_zero[oc]).
/// Both operands less their zero points fit int16 (-255 .. 255), so two input
/// channels travel as the halves of one int32 and tir's pair_dot_i16 (x86's
/// pmaddwd) multiplies and adds both in one lane: the data is packed once as
/// [N, C2/icb, Hp, Wp, icb] channel pairs (padded with zeros, which is the
/// zero point ONNX pads a quantized input with, less itself), the weights at
/// compile time as [OC/ocb, C2/icb, KH, KW, icb, ocb] pairs, C2 = ceil(C / 2)
/// (an odd channel count pairs its last channel with a zero). The
/// convolution is then the float blocked convolution's (Conv2dNCHWc.h) with
/// pair_dot_i16 for the multiply: a register block of pixels x ocb-lane
/// int32 vectors, one broadcast data pair per pixel, one weight-pair vector
/// per channel block. (Subtracting the data's zero point while packing
/// costs nothing the widening does not already pay, and leaves no
/// x_zero * sum(w) correction to compute.) Output channels are padded to a
/// multiple of the block with zero weights; the output is plain NCHW int32.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

namespace tessel::topi {

namespace nn {

/// Whether convIntegerNCHWc() takes these operands: 4-d uint8 or int8 data
/// and weights, one group.
bool convIntegerNCHWcApplies(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params);

/// ConvInteger(data, weight, dataZero, weightZero) in blocks: int32 [N, OC,
/// OH, OW]. `dataZero` is a one-element tensor (undefined: 0); `weightZero`
/// holds one value or one per output channel (empty: 0). Stages `name`_data
/// (tag pad), `name`_wpack (from `packer` when it knows the weight's values,
/// else a stage, tag opaque), `name`_conv (tag conv_integer_nchwc, blocked),
/// `name`_blocked (its copy the schedule computes in register blocks) and
/// `name` (NCHW). With `cfg`, knobs "tile_ic" (pairs of input channels per
/// block, at most 32) and "tile_oc" (output channels per block: 8 or 16).
/// CompileError when convIntegerNCHWcApplies() is false.
te::Tensor convIntegerNCHWc(const te::Tensor& data, const te::Tensor& weight, const te::Tensor& dataZero,
                            const std::vector<int64_t>& weightZero, const ConvParams& params = {},
                            const std::string& name = "conv_integer", ConstantPacker* packer = nullptr,
                            te::ConfigSpace* cfg = nullptr);

} // namespace nn

/// Schedules the function whose outputs are `outputs` and which holds one
/// convIntegerNCHWc(): its blocked stage in register blocks as
/// scheduleConv2dNCHWc() schedules a blocked output (same knobs; the vector
/// registers counted in ocb-lane int32 vectors), the element-wise stages
/// after it inlined into the output, which runs as an injective stage.
te::Schedule scheduleConvIntegerNCHWc(const std::vector<te::Tensor>& outputs, const ScheduleOptions& options,
                                      te::ConfigSpace& cfg);

} // namespace tessel::topi
