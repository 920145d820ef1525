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

#include "te/Schedule.h"
#include "topi/Schedule.h"

namespace tessel::topi {

/// Schedules the stages of a blocked convolution whose output stage (NCHW,
/// element-wise operators inlined) is `out`; `conv` is the convolution stage.
void scheduleConv2dNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                         const ScheduleOptions& options);

} // namespace tessel::topi
