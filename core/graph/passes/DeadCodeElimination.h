/// \file
/// dead-code-elimination: removes operators and constants whose values reach
/// no graph output.
///
/// Summary: drop nodes whose outputs no graph output depends on, and
/// constants nobody uses.
///
/// Description (for the pass registry): starting from the graph outputs, the
/// pass follows every node's inputs back to their producers and marks what it
/// reaches. Operator nodes left unmarked compute something nobody reads (an
/// importer's leftovers, or the remains of another pass's rewrite) and are
/// removed, as are constants that no surviving node reads. A node with several
/// outputs stays when any one of them is needed. Graph inputs are part of the
/// model's interface and always stay. Surviving nodes keep their ids.
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct DeadCodeEliminationOptions {
    /// Also remove constants that no surviving node reads.
    bool removeConstants = true;
};

/// Returns `g` without its dead operator nodes (and, by default, unused constants).
Graph deadCodeElimination(const Graph& g, const DeadCodeEliminationOptions& options = {});

} // namespace tessel::graph
