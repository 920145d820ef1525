/// \file
/// Binding graph inputs to fixed values (TVM's freeze_params): each named
/// input becomes a constant, so shape-carrying inputs (Slice's starts,
/// Resize's sizes, Pad's pads) let the graph be compiled with static shapes.
#pragma once

#include "graph/Graph.h"

#include <map>
#include <string>

namespace tessel::graph {

/// `g` with every input named in `values` replaced by a constant of that
/// value (same node id and name). Throws CompileError when a name is no
/// input or a value's type does not fit the input's.
Graph freezeInputs(const Graph& g, const std::map<std::string, Ref<Constant>>& values);

} // namespace tessel::graph
