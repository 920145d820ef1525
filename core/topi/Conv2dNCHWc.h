/// \file
/// The blocked 2-d convolution (TVM's conv2d_NCHWc for x86).
///
/// Activations stay NCHW between kernels; inside one fused function the
/// padded input is copied into NCHW[c]c blocks (ic_bn channels innermost),
/// the weights are packed at compile time into OIHW[i]i[o]o (oc_bn = 16
/// output channels innermost: one AVX-512 register), and the convolution
/// computes NCHW[c]c blocks of oc_bn channels that the output stage (with the
/// fused element-wise operators) writes back as NCHW. The micro-kernel keeps
/// reg_n output columns x 16 channels in registers, broadcasts one input
/// value per column and multiplies by one vector of weights: the same
/// register block as the GEMM ladder's last step.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

#include <optional>

namespace tessel::topi {

namespace nn {

/// How the blocked convolution splits the channels.
struct Conv2dNCHWcLayout {
    int64_t icBn = 0; ///< input channels per block (16, or the largest divisor of C up to 16)
    int64_t ocBn = 0; ///< output channels per block (16 or 8)
};

/// The blocking of conv2d(data, weight, params), or nullopt when the blocked
/// path does not apply: it needs 4-d float32 data and weights that fit
/// `params.groups`, and output channels per group a multiple of 8. Grouped
/// convolutions block each group's channels (a block never straddles two
/// groups; each output block reduces over its group's input blocks only), so
/// the knobs split the channels of one group. With `cfg` the blocks are the
/// knobs "tile_ic" (the input-channel block, at most 64) and "tile_oc" (the
/// output-channel block: a multiple of 8 up to 64), whose defaults are the
/// rule's: 16 channels, or the largest divisor up to 16 (8 output channels
/// when 16 does not divide them). (Depthwise convolutions stay NCHW: with one
/// input channel per output channel there is no reduction over channels to
/// block, and the copies into and out of blocks would cost more than the
/// arithmetic.)
std::optional<Conv2dNCHWcLayout> conv2dNCHWcLayout(const te::Tensor& data, const te::Tensor& weight,
                                                   const ConvParams& params, te::ConfigSpace* cfg = nullptr);

/// conv2d() computed in blocks (stages `name`_data, `name`_wpack, `name`_conv
/// tagged conv2d_nchwc, and `name` back in NCHW with the bias); CompileError
/// when conv2dNCHWcLayout() has none. The packed weights come from `packer`
/// when it knows the weight's values, else from a stage (tag opaque). With
/// `cfg` the blocks are its knobs (see conv2dNCHWcLayout).
te::Tensor conv2dNCHWc(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params = {},
                       const te::Tensor& bias = {}, const std::string& name = "conv2d_nchwc",
                       ConstantPacker* packer = nullptr, te::ConfigSpace* cfg = nullptr);

} // namespace nn

/// Schedules the stages of a blocked convolution whose output stage (NCHW,
/// element-wise operators inlined) is `out`; `conv` is the convolution stage.
/// Knobs (defined in `cfg`, defaults the rule's): "tile_ow", the register
/// block along an output row (inner factor up to 32; default the largest
/// divisor of the row up to 14), and "unroll_kw", unroll the kernel-width
/// taps (default no).
void scheduleConv2dNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                         const ScheduleOptions& options, te::ConfigSpace& cfg);

} // namespace tessel::topi
