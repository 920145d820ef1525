/// \file
/// The blocked 2-d convolution (TVM's conv2d_NCHWc for x86).
///
/// The weights are packed at compile time into OIHW[i]i[o]o (oc_bn = 16
/// output channels innermost: one AVX-512 register) and the convolution
/// computes NCHW[c]c blocks of oc_bn channels. In a model, alter-layout
/// stores the activations NCHW[x]c between kernels, so the convolution reads
/// its input's blocks and its output stage (with the fused element-wise
/// operators) writes blocks; from plain NCHW (a TE script, the first layer)
/// the padded input is copied into blocks first and, for an NCHW output, the
/// output stage writes NCHW. The micro-kernel keeps a block of pixels x
/// output-channel vectors in registers, broadcasts one input value per pixel
/// and multiplies by one vector of weights per channel block: the register
/// block of the GEMM ladder's last step.
#pragma once

#include "te/ConfigSpace.h"
#include "te/Schedule.h"
#include "topi/ConstantPacker.h"
#include "topi/Nn.h"
#include "topi/Schedule.h"

#include <optional>

namespace tessel::topi {

namespace nn {

/// Where the data comes from and where the output goes: the stored layouts
/// (ir/Layout.h) of the data and of the output, empty for plain NCHW.
/// alter-layout stores activations NCHW[x]c between convolutions: then the
/// convolution reads its input's blocks as they are (a channel block of its
/// own only when the stored one does not divide a group's channels) and
/// writes its output's blocks directly, with nothing packed or unpacked.
struct ConvLayouts {
    std::string data;
    std::string out;
};

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
                                                   const ConvParams& params, te::ConfigSpace* cfg = nullptr,
                                                   const ConvLayouts& layouts = {});


/// The reduction axes of a blocked convolution, outermost first: `blocks`
/// input-channel blocks (rcb), `kh` kernel rows (rh), `kw` columns (rw) and
/// the `block` channels of a block (rci); the blocked-output schedule keeps
/// them in this order around its register block.
std::vector<te::IterVar> blockedReduceAxes(int64_t blocks, int64_t kh, int64_t kw, int64_t block);

/// conv2d() computed in blocks (stages `name`_data, `name`_wpack, `name`_conv
/// tagged conv2d_nchwc, and `name` with the bias, in NCHW or in the output
/// layout); CompileError when conv2dNCHWcLayout() has none. The packed weights
/// come from `packer` when it knows the weight's values, else from a stage
/// (tag opaque). With `cfg` and plain data or output, the blocks of those are
/// its knobs (see conv2dNCHWcLayout); a stored layout fixes its block.
te::Tensor conv2dNCHWc(const te::Tensor& data, const te::Tensor& weight, const ConvParams& params = {},
                       const te::Tensor& bias = {}, const std::string& name = "conv2d_nchwc",
                       ConstantPacker* packer = nullptr, te::ConfigSpace* cfg = nullptr,
                       const ConvLayouts& layouts = {});

} // namespace nn

/// Schedules the stages of a blocked convolution whose output stage (element-
/// wise operators inlined) is `out`; `conv` is the convolution stage.
///
/// An output stored in blocks ([N, OC/ob, OH, OW, ob]) is computed in
/// register blocks of tile_ocb output-channel blocks x tile_oh rows x tile_ow
/// columns of ob-lane vectors, accumulated over every input channel and tap
/// before the fused epilogue stores them: a block across rows and channel
/// blocks keeps small planes (7 x 7) as busy as large ones. Knobs:
/// "reg_block" ([tile_ocb, tile_oh, tile_ow], every choice fitting the vector
/// register file with its weight vectors: ScheduleOptions::vectorRegisters;
/// the default maximises multiply-adds per load, then accumulators),
/// "unroll_kw", "unroll_ic" (the channels of an input block unrolled; by
/// default for blocks that do not spill once unrolled) and "task_order" (which loop of the parallel tasks is
/// outermost, "channels" or "rows"; default: defaultTaskOrder()). An NCHW output keeps the earlier schedule: "tile_ow", the
/// register block along an output row (inner factor up to 32; default the
/// largest divisor of the row up to 14), and "unroll_kw".
void scheduleConv2dNCHWc(te::Schedule& s, const te::Tensor& conv, const te::Tensor& out,
                         const ScheduleOptions& options, te::ConfigSpace& cfg);

/// The default task order of a blocked output. With channel blocks outermost
/// the weights of a group of channel blocks stay cached over every row while
/// the input (`dataBytes`) is read once per group (`channelPasses` times);
/// with rows outermost a row block's input stays cached over every channel
/// block while the weights (`weightBytes`) are read once per row block
/// (`rowPasses` times). An operand that fits the core's private cache
/// (`cacheBytes`) is read from memory once either way. "rows" when that
/// order moves fewer bytes past the cache, else "channels" (the order of
/// TVM's conv2d_NCHWc). ResNet-50's 1 x 1 convolutions from 256 channels at
/// 56 x 56 (3.2 MB of input, 128 KB of weights) ran 2.5-3.5x faster rows
/// first on Zen 3; 3 x 3 layers of 128 channels and more, whose weights
/// outgrow the cache, run faster channels first.
std::string defaultTaskOrder(int64_t dataBytes, int64_t weightBytes, int64_t channelPasses, int64_t rowPasses,
                             int64_t cacheBytes);

/// The register blocks [tile_ocb, tile_oh, tile_ow] of a blocked output of
/// `ocb` channel blocks and `oh` x `ow` pixels that fit `registers` vector
/// registers (accumulators and one weight vector per channel block), and the
/// index of the default: the fewest modelled cycles (registerBlockCycles;
/// with `unrollChannels`, a block that does not unroll cleanly keeps its
/// channel loop and pays for it),
/// then the most multiply-adds per load (capped where the loads no longer
/// limit), then the most accumulators. The default's rows divide the plane;
/// when that leaves fewer than 8 accumulators (7 x 7 planes with 16
/// registers) row counts that do not divide it are offered too, and single
/// rows of a width that does not divide the row (the last block peeled) are
/// offered after the blocks that tile the plane.
struct RegisterBlocks {
    std::vector<std::vector<int64_t>> choices;
    size_t defaultIndex = 0;
};
RegisterBlocks registerBlocks(int64_t ocb, int64_t oh, int64_t ow, int registers, bool unrollChannels = true);

/// The modelled cycles per output vector of register block `block`
/// ([tile_ocb, tile_oh, tile_ow]) over a blocked output of `ocb` channel
/// blocks and `oh` x `ow` pixels: each reduction step of a block costs the
/// most of its multiply-adds on two FMA pipes, its loads at two per cycle
/// and the FMA latency its accumulators must hide; partial blocks at the
/// plane's edges cost a step of their own size; a step kept in a loop
/// (`unrolled` false: see unrollsCleanly) costs 3 cycles more.
double registerBlockCycles(int64_t ocb, int64_t oh, int64_t ow, const std::vector<int64_t>& block,
                           bool unrolled = true);

/// Whether register block `block` ([tile_ocb, tile_oh, tile_ow]) with
/// `registers` vector registers keeps every accumulator in a register when
/// the channels of an input block are unrolled ("unroll_ic"): two or more
/// channel blocks, and accumulators at most half the registers plus 4 (what
/// LLVM 16 allocates without spilling, measured for AVX2 and AVX-512).
bool unrollsCleanly(const std::vector<int64_t>& block, int registers);

} // namespace tessel::topi
