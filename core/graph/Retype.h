/// \file
/// A graph with other input types: the same nodes (ids, names, attributes)
/// and constants, each node's output types cleared for shape inference to
/// fill again. Used where a subgraph or a segment of a graph is typed for the
/// values it is actually given (a Loop body's untyped inputs, a segment after
/// a Loop whose output shapes are known only when it has run).
#pragma once

#include "graph/Graph.h"

#include <vector>

namespace tessel::graph {

/// `g` with input i of `types[i]` (one per input); values `g` reads from an
/// enclosing graph (a subgraph's outer scope) stay as they are. The result
/// needs inferShapes before its types mean anything.
Graph withInputTypes(const Graph& g, const std::vector<TensorType>& types);

} // namespace tessel::graph
