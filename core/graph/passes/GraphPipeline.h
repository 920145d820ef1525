/// \file
/// The default graph pipeline: a readable list of pass names, in order.
#pragma once

#include <string>
#include <vector>

namespace tessel::graph {

/// infer-shapes, fold-constant, simplify-inference, fold-scale-shift,
/// common-subexpression-elimination, dead-code-elimination, fuse-ops.
std::vector<std::string> defaultGraphPipeline();

} // namespace tessel::graph
