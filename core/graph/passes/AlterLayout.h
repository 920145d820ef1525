/// \file
/// alter-layout: convolutions write their outputs in channel blocks
/// (NCHW[x]c), and the layout travels through the graph until something
/// needs the plain one.
///
/// Summary: store activations as NCHW16c between convolutions, so that no
/// kernel packs its input into blocks or unpacks its output.
///
/// Description (for the pass registry): a blocked convolution computes one
/// vector register of output channels per pixel (16 float32 channels with
/// AVX-512), so it wants its input and output stored with the channels in
/// blocks of that many, innermost. Each 2-d float32 convolution with constant
/// weights (plain, grouped or depthwise) gets the attribute
/// `out_layout="NCHW16c"` (the block is the target's vector width, or the
/// largest smaller power of two that divides the channels of a group; a
/// convolution whose channels take no block of 8 or more stays plain), and
/// reads its input in whatever layout its producer wrote; so does a 2-d
/// float32 ConvTranspose with constant weights, one group and dilation 1
/// (computed by phases in blocks; with too few output channels for a block it
/// still reads a blocked input where it is). The layout then
/// propagates: element-wise and broadcast operators compute on the blocked
/// tensors (a constant operand that varies per channel, such as a bias of
/// shape [C, 1, 1], is stored blocked too), pooling and global pooling pool
/// each channel block, Concat joins blocked tensors along a primal axis. An
/// operator that needs the plain layout (Flatten, Reshape, Softmax, a graph
/// output ...) gets a `LayoutTransform` node back to NCHW before it, one per
/// value whatever the number of readers; so transforms remain only where the
/// layout really changes. Ids of the nodes it keeps are kept. A block of 0 or
/// 1 (a target without vectors) leaves the graph as it is.
#pragma once

#include "graph/Graph.h"
#include "graph/OpRegistry.h"

#include <cstdint>

namespace tessel::graph {

struct AlterLayoutOptions {
    /// The channel block: float32 lanes of the target's vector registers (16
    /// with AVX-512, 8 with AVX2, 4 with NEON); 0 or 1: nothing is blocked.
    int64_t block = 16;
    /// The operators (their layout policies); null: the default registry.
    const OpRegistry* ops = nullptr;
};

/// The block a tensor of `channels` channels (per group) is stored in: the
/// largest power of two from `block` down to block / 2 (at least 4) that
/// divides `channels`; 0 when none does.
int64_t channelBlock(int64_t channels, int64_t block);

/// `g` with blocked convolutions and the layout propagated (see above).
Graph alterLayout(const Graph& g, const AlterLayoutOptions& options = {});

} // namespace tessel::graph
