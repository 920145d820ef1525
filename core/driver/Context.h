/// \file
/// The registries a compile looks things up in, as one object: the graph
/// passes and the TIR passes (and, as the next pieces land, operators and
/// cost models).
///
/// Every registry is a value filled by the same explicit function that fills
/// the built-in one (graph::registerGraphPasses, tir::registerTirPasses), so
/// a context can be copied and extended: a plugin or a test adds a pass to
/// its own context, and a compile made with that context (CompileRequest::
/// context) can name the pass in its pipelines, lists it and records its
/// stage snapshots. Context::builtin() is the context of everything Tessel
/// ships, built once.
#pragma once

#include "graph/passes/GraphPassRegistry.h"
#include "tir/passes/PassRegistry.h"

namespace tessel::driver {

class Context {
public:
    /// Empty registries.
    Context();
    /// A context with every built-in registry filled (a copy that can be changed).
    static Context withBuiltins();
    /// The built-in context, built once; never changed.
    static const Context& builtin();

    graph::GraphPassRegistry graphPasses;
    tir::PassRegistry tirPasses;
};

} // namespace tessel::driver
