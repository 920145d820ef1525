/// \file
/// infer-shapes: fills in the type and shape of every value of a graph.
///
/// Summary: infers every operator output's element type and shape from the
/// graph inputs, the constants and the operators' ONNX semantics.
///
/// Description (for the pass registry): walking the operators in
/// topological order, the pass calls each operator's inference function
/// (OpRegistry.h) with the now-known types of its inputs and remakes the node
/// with the types of its outputs. Unknown dimensions (-1, a dynamic batch)
/// flow through as unknown unless an operator fixes them. When a node already
/// carries a type for an output (an importer copies ONNX value_info), the
/// inferred type must agree with it; a dimension unknown to inference is
/// taken from it. Errors name the node and its operator.
#pragma once

#include "graph/Graph.h"

namespace tessel::graph {

struct InferShapesOptions {
    /// Check inferred types against types the nodes already carry (and take
    /// dimensions from them that inference leaves unknown). When false, the
    /// given types are simply replaced.
    bool mergeGivenTypes = true;
    /// The operators to look up (their inference); null: the default
    /// registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
};

/// Returns `g` with every operator output typed. The graph is sorted
/// topologically first; nodes whose types do not change are shared.
/// Throws CompileError naming the node and operator when a shape does not check.
Graph inferShapes(const Graph& g, const InferShapesOptions& options = {});

} // namespace tessel::graph
