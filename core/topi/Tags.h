/// \file
/// Operation tags: every stage a topi compute makes carries one, and the
/// default schedules (Schedule.h) read them to decide how a stage of a fused
/// function is scheduled: inlined into its consumer, materialised with its
/// operator's schedule, or left at root with default loops.
#pragma once

#include <string_view>

namespace tessel::topi::tag {

inline constexpr const char* kElemWise = "elemwise";   ///< inlined into its consumer
inline constexpr const char* kBroadcast = "broadcast"; ///< inlined into its consumer
inline constexpr const char* kInjective = "injective"; ///< inlined into its consumer
inline constexpr const char* kPad = "pad";             ///< materialised (a conv reads it many times)
inline constexpr const char* kReduce = "reduce";
/// A reduction along the innermost axis kept as `lanes` partial results (its
/// last data axis), each over every lanes-th element: the schedule vectorises
/// over the partials (the rfactor of a row reduction); a kReduce stage of
/// extent `lanes` finishes it.
inline constexpr const char* kReduceLanes = "reduce_lanes";
/// One level of a reduction tree over the partials of a kReduceLanes stage:
/// lane t of the level before combined with lane t + half (topi::reduceRowTree).
inline constexpr const char* kReduceTree = "reduce_tree";
inline constexpr const char* kConv2d = "conv2d"; ///< NCHW direct convolution
inline constexpr const char* kConv2dNCHWc = "conv2d_nchwc";
/// int8 ConvInteger in channel-pair blocks (pair_dot_i16 sums, ConvIntegerNCHWc.h)
inline constexpr const char* kConvIntegerNCHWc = "conv_integer_nchwc";
inline constexpr const char* kDepthwise = "depthwise_conv2d";
inline constexpr const char* kDepthwiseNCHWc = "depthwise_conv2d_nchwc"; ///< channels in vector blocks
inline constexpr const char* kWinogradInput = "winograd_input";   ///< V = B^T d B (and its first pass)
inline constexpr const char* kWinogradGemm = "winograd_gemm";     ///< M = sum over channels of U . V
inline constexpr const char* kWinogradOutput = "winograd_output"; ///< the first pass of A^T M A
inline constexpr const char* kConvTransposeNCHWc = "conv_transpose_nchwc"; ///< by phases, in channel blocks
inline constexpr const char* kDense = "dense";              ///< (batched) matrix product
inline constexpr const char* kDensePacked = "dense_packed"; ///< constant weights in 16-column panels
inline constexpr const char* kPool = "pool";
inline constexpr const char* kOpaque = "opaque"; ///< materialised at root, default loops

/// True for the tags whose stages are inlined into their consumers.
inline bool isInjectiveTag(std::string_view t) {
    return t == kElemWise || t == kBroadcast || t == kInjective;
}

} // namespace tessel::topi::tag
