/// \file
/// The default graph pipeline: a readable list of pass names, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::graph {

/// infer-shapes, fold-constant, simplify-inference, fold-scale-shift,
/// alter-layout, fold-constant, common-subexpression-elimination,
/// dead-code-elimination, fuse-ops.
std::vector<std::string> defaultGraphPipeline();
/// The default pipeline for a target whose vectors hold `channelBlock`
/// float32 lanes: alter-layout blocks the channels by that many
/// (`alter-layout{block=16}`; 0 or 1 leaves the layout plain).
std::vector<std::string> defaultGraphPipeline(int64_t channelBlock);

} // namespace tessel::graph
