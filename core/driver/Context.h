/// \file
/// The registries a compile looks things up in, as one object: the graph
/// operators, the graph passes, the TIR passes and the tuner's cost models.
///
/// Every registry is filled by the same explicit function that fills the
/// built-in one (graph::registerGraphOps, graph::registerGraphPasses,
/// tir::registerTirPasses), so a context can be extended: a plugin or a test
/// adds an operator or a pass to its own context, and a compile made with
/// that context (CompileRequest::context) imports the operator, infers,
/// folds and fuses it, can name the pass in its pipelines, lists it and
/// records its stage snapshots. Context::builtin() is the context of
/// everything Tessel ships, built once.
///
/// A context never moves and is never copied: the graph passes of
/// withBuiltins() hold a pointer to the context's own operator registry, so
/// an operator added to `ops` after the passes were registered is seen by
/// them. withBuiltins() returns the context by value all the same: C++17's
/// guaranteed copy elision builds it in the caller's variable, where it stays.
#pragma once

#include "graph/OpRegistry.h"
#include "graph/passes/GraphPassRegistry.h"
#include "tir/passes/PassRegistry.h"
#include "tune/CostModel.h"

namespace tessel::driver {

class Context {
public:
    /// Empty registries.
    Context();
    /// A context with every built-in registry filled, its graph passes over
    /// its own operators (built in place: `Context c = withBuiltins();`).
    static Context withBuiltins();
    /// The built-in context, built once; never changed.
    static const Context& builtin();

    // The graph passes point at `ops`: copying or moving would leave them
    // pointing at another context's operators.
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    Context(Context&&) = delete;
    Context& operator=(Context&&) = delete;

    /// The graph operators a compile may use (declared first: the graph
    /// passes below point at it, so it is built before and destroyed after them).
    graph::OpRegistry ops;
    graph::GraphPassRegistry graphPasses;
    tir::PassRegistry tirPasses;
    /// The cost models the model-based tuners make by name
    /// (tune::registerBuiltinCostModels: "random"; plugins add "xgb").
    tune::CostModelRegistry costModels;

private:
    struct Builtins {};
    explicit Context(Builtins);
};

} // namespace tessel::driver
