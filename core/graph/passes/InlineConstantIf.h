/// \file
/// inline-constant-if: replaces an If whose condition is a constant by the
/// branch it takes.
///
/// Summary: put the taken branch of an If with a constant condition in its
/// place.
///
/// Description (for the pass registry): exported models often carry an If
/// whose condition is known once the input shapes are bound (a rank or size
/// test, a training flag). After fold-constant makes the condition a
/// constant, the pass copies the taken branch's constants and nodes into the
/// graph (nodes get fresh ids, constants names prefixed by the If's name), maps
/// the branch's reads of outer values to the If's inputs, and gives the If's
/// users the branch's outputs. The If disappears, so the rest of the graph
/// compiles statically; an If whose condition is computed at run time stays
/// for the control-flow executor (driver/ControlFlowProgram.h).
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

/// `g` with every If whose condition is a constant replaced by its taken
/// branch (top-level nodes only; a subgraph is inlined when it is compiled).
Graph inlineConstantIf(const Graph& g);

} // namespace tessel::graph
