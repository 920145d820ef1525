/// \file
/// Helpers the graph passes share for rewrites that Graph::rebuild cannot
/// express: removing a node (its users take another value instead), putting
/// several nodes where one was, and dropping constants nobody uses any more.
///
/// Graph::rebuild replaces every node by exactly one node with as many
/// outputs. rewriteNodes() generalises it: the callback may keep the node
/// (remade with remapped inputs, same id) or give the values that replace its
/// outputs, after appending any new nodes and constants to the output graph.
#pragma once

#include "graph/Graph.h"

#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace tessel::graph::detail {

/// A graph with `g`'s name and inputs and an id counter at least `g`'s, but no
/// constants, operator nodes or outputs (ids of removed nodes are not reused).
Graph emptyLike(const Graph& g);

/// `base`, or `base_2`, `base_3`, ... whichever is not yet an input or constant name of `g`.
std::string uniqueName(const Graph& g, const std::string& base);

/// Makes an operator node with a given id, typed by the inference function
/// of the operator's record in `ops` when every present input has a known
/// type (unknown types otherwise).
Ref<Node> makeTypedOp(const OpRegistry& ops, int64_t id, const std::string& op, std::vector<Value> inputs,
                      Attributes attrs, const std::string& name,
                      std::vector<std::string> outputNames = {});

/// What the callback of rewriteNodes returns: nullopt keeps the node;
/// otherwise one Value per output of the node (an undefined Value for an
/// output that has no users).
using NodeRewrite = std::function<std::optional<std::vector<Value>>(
    const Node& node, const std::vector<Value>& newInputs, Graph& out)>;

/// Walks the operator nodes of `g` in order; constants are copied first.
/// Graph outputs are remapped. Nodes kept with unchanged inputs are shared.
Graph rewriteNodes(const Graph& g, const NodeRewrite& rewrite);

/// `after` without the constants that `before` used and `after` no longer uses.
Graph dropConstantsNoLongerUsed(const Graph& before, const Graph& after);

/// The values used as node inputs or graph outputs of `g`.
std::unordered_set<Value, ValueHash> usedValues(const Graph& g);

} // namespace tessel::graph::detail
