/// \file
/// The text form of a graph, with a line table.
///
/// One line per constant and per operator node, in topological order:
///
/// \code
///   graph block(%x: float32[1, 64, 56, 56]) {
///     %w = constant : float32[64, 64, 3, 3]
///     %shape = constant [1, -1] : int64[2]
///     %5 = Conv(%x, %w) {strides=[1, 1], pads=[1, 1, 1, 1]} : float32[1, 64, 56, 56]  # conv1
///     %6, %6.1 = Dropout(%5) : float32[1, 64, 56, 56], bool[1, 64, 56, 56]
///     return %6
///   }
/// \endcode
///
/// Inputs and constants are named by their names, operator outputs by the
/// node's stable id (`%5`, and `%5.1` for its second output), so a line keeps
/// its name across passes that keep the node. An absent optional input
/// prints as `none`, an unknown type as `?` and an unknown dimension as `?`.
/// The node's own name, when it has one, follows as a `#` comment. The
/// returned AnnotatedText maps every constant and operator line to its Node
/// (the IDE links lines to nodes); graph inputs map to the header line.
#pragma once

#include "graph/Graph.h"
#include "ir/LineTable.h"

#include <string>

namespace tessel::graph {

struct GraphPrintOptions {
    /// Constants with at most this many elements print their values.
    int maxConstantElements = 8;
};

/// The whole graph, with its line table.
AnnotatedText printGraph(const Graph& g, const GraphPrintOptions& options = {});
/// One node's line without indentation or newline (as in printGraph).
std::string printNode(const Node& node, const GraphPrintOptions& options = {});
/// How a value is referred to: `%x`, `%5`, `%5.1`, or `none` when absent.
std::string valueRef(const Value& v);

} // namespace tessel::graph
