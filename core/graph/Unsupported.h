/// \file
/// What in a graph cannot be compiled, all of it at once.
///
/// The importer never stops at the first operator, domain, type or subgraph
/// Tessel does not support: it keeps them as opaque nodes (Node::unsupported)
/// so a model can always be shown. unsupportedConstructs() lists every one of
/// them, with the node's name and the reason, so a user sees the whole list
/// (in `tesselc show`, in the error of `tesselc compile`/`run`, in the IDE's
/// messages) rather than one error at a time. Nodes inside subgraphs are
/// listed with the path of the nodes that hold them.
#pragma once

#include "graph/Graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::graph {

struct UnsupportedConstruct {
    /// The id of the top-level node (or input) it is, or that holds the
    /// subgraph it is in: what the IDE selects.
    int64_t nodeId = -1;
    /// The node's name in the model (may be empty); for an input, its name.
    std::string name;
    /// The operator ("DynamicQuantizeLinear"); empty for a graph input.
    std::string op;
    /// The operator's domain; empty for ONNX's default domain.
    std::string domain;
    /// The subgraph path for nodes inside subgraphs, outermost first:
    /// "node 'if1' (If) / else_branch"; empty at the top level.
    std::string path;
    /// "node 'q' (DynamicQuantizeLinear)", "input 'seq'".
    std::string where;
    /// Why it cannot be compiled ("operator 'DynamicQuantizeLinear' is not supported").
    std::string reason;

    /// "[path / ]where: reason".
    std::string str() const;
};

/// Every opaque node and unsupported input of `g` and of its subgraphs, in
/// graph order (a node before the nodes of its subgraphs).
std::vector<UnsupportedConstruct> unsupportedConstructs(const Graph& g);

/// The list as an error message body: "N constructs cannot be compiled:" and
/// one indented line each (or, for one construct, just its str()).
std::string describeUnsupported(const std::vector<UnsupportedConstruct>& list);

} // namespace tessel::graph
