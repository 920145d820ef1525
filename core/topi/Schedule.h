/// \file
/// Default schedules of fused functions (TVM's per-target schedule_* of topi).
///
/// A fused function is the tensors of one FuseOps group: inner stages tagged
/// element-wise, broadcast or injective are inlined into their consumers;
/// every other stage (a reduction, a convolution, a padded copy) is
/// materialised. The anchor stage (the group's convolution, matrix product,
/// pooling or reduction) gets its operator's schedule; the output gets the
/// injective schedule: parallel over the outer loops and vectorized along a
/// contiguous innermost axis when that axis has a whole number of vectors.
/// The schedules of the blocked convolution and the packed dense layer are
/// declared beside their computes (Conv2dNCHWc.h, DensePacked.h).
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"

#include <vector>

namespace tessel::topi {

struct ScheduleOptions {
    /// Lanes of one vector register for float32 (16 with AVX-512).
    int vectorLanes = 16;
    /// Vector registers of the target (32 with AVX-512 or on AArch64, 16
    /// with AVX2): register blocks are sized to fit them, never to spill.
    int vectorRegisters = 32;
    /// Below this many output elements a loop nest stays sequential.
    int64_t minParallelElements = 4096;
    /// A blocked convolution runs one task per 16-channel output plane when it
    /// has at least this many planes, else one per output row.
    int64_t minParallelPlanes = 8;
    /// The cache private to one core (L2), in bytes: a blocked convolution
    /// orders its tasks so that the operand it re-reads stays in it.
    int64_t l2Bytes = 512 * 1024;
    /// A blocked convolution may unroll the channels of an input block where
    /// its register block allows (float32, measured); the integer one, whose
    /// int32 vectors span two AVX2 registers, keeps its channel loop
    /// (ResNet-18's int8 layer 1 unrolled: no faster on Zen 3).
    bool unrollChannels = true;
};

/// The default schedule of the function computing `outputs`. The anchor's
/// schedule defines its knobs in `cfg` and takes their chosen values (the
/// defaults, with an empty config, are its rules: topi/Knobs.h); without a
/// `cfg` it uses the defaults.
te::Schedule scheduleFused(const std::vector<te::Tensor>& outputs, const ScheduleOptions& options = {},
                           te::ConfigSpace* cfg = nullptr);

/// The injective schedule applied to one (root) stage: innermost axis
/// vectorized when it divides into vectors, the outer axes fused and run in
/// parallel when there is enough work.
void scheduleInjective(te::Stage stage, const ScheduleOptions& options);

/// A depthwise convolution in NCHW (the general Conv compute, tag
/// depthwise_conv2d): one task per channel plane (or output row), the
/// convolution of a row computed inside it into a small buffer with the
/// kernel taps outside the contiguous output-column loop, which LLVM
/// vectorizes; `out` is the function's output stage. Knobs (in `cfg`,
/// defaults the rule's): "parallel" ("planes" or "rows": what one task
/// computes; default planes when there are minParallelPlanes of them) and
/// "unroll_kw" (unroll the kernel-width taps; default no).
void scheduleDepthwiseNCHW(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                           const ScheduleOptions& options, te::ConfigSpace& cfg);

} // namespace tessel::topi
