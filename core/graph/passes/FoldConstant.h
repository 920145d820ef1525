/// \file
/// fold-constant: computes at compile time what depends only on constants.
///
/// Summary: replace operators whose inputs are all constants, and Shape and
/// Size of values whose shape is static, by the constants they compute.
///
/// Description (for the pass registry): walking the operators in topological
/// order, the pass evaluates every operator whose inputs are all constants
/// (graph/ConstantEval.h: the evaluator in the operator's record — shape
/// arithmetic, data movement, small element-wise operators, in each tensor's
/// own element type) and puts a constant in its place. Shape and Size need
/// only their input's type (their records evaluate from types), so once the input
/// shapes of a model are bound (`--input-shape`) they fold even though their
/// input is computed at run time; this is what removes the shape sub-graphs
/// exporters write (Shape -> Gather -> Unsqueeze -> Concat -> Reshape), leaving
/// a Reshape with a constant target shape. Folding cascades within one walk:
/// a node whose inputs became constants is re-typed at once (a Reshape whose
/// shape is now known gets a static type), so a Shape further down folds too.
/// A folded constant keeps the node's id and its output's name (or, when the
/// output has none, the name the printer gave it, `%5` becomes constant `5`),
/// so graph outputs keep their names. Operators with an output larger than
/// `maxElements` stay, so a model does not grow by its folded tensors, except
/// fold-only operators (Constant), which have no kernel to run them.
/// Constants that only fed folded nodes are dropped; operators left without
/// users are left to dead-code-elimination.
#pragma once

#include "graph/Graph.h"

#include <cstdint>

namespace tessel::graph {

struct FoldConstantOptions {
    /// Fold an operator only when each of its outputs has at most this many elements.
    int64_t maxElements = int64_t(1) << 22;
    /// Fold Shape and Size of values whose type is static but that are not constants.
    bool foldShapes = true;
    /// The operators to look up (their inference and evaluators); null: the default
    /// registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
};

/// Returns `g` with constant sub-expressions evaluated. Throws CompileError
/// naming the node when an operator fails on its constant inputs (a Gather
/// index out of range, an integer division by zero).
Graph foldConstant(const Graph& g, const FoldConstantOptions& options = {});

} // namespace tessel::graph
