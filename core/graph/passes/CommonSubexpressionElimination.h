/// \file
/// common-subexpression-elimination: computes each distinct expression once.
///
/// Summary: merge operator nodes with the same operator, inputs and
/// attributes, and constants with the same type and bytes.
///
/// Description (for the pass registry): two nodes that apply the same
/// operator to the same input values with equal attributes compute the same
/// tensors, so the second can be dropped and its users pointed at the first.
/// Walking the graph in topological order makes this catch whole chains: once
/// two Relu nodes are merged, two Adds that each read one of them read the
/// same value and merge too. Constants with equal element type, shape and
/// bytes are merged first (an importer often repeats small shape tensors and
/// scalars), which lets more operators merge. The first node of each group
/// (in graph order) survives, with its id and name.
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct CommonSubexpressionEliminationOptions {
    /// Merge constants with equal type, shape and bytes.
    bool mergeConstants = true;
};

/// Returns `g` with duplicate operator nodes (and constants) merged.
Graph commonSubexpressionElimination(const Graph& g,
                                     const CommonSubexpressionEliminationOptions& options = {});

} // namespace tessel::graph
