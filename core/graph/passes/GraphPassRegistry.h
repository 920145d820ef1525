/// \file
/// The graph passes: one record per pass (ir/Pass.h, the same record type as
/// the TIR passes', over graph::Graph), added to a registry by one explicit
/// function.
///
/// registerGraphPasses() adds every built-in graph pass, in a fixed order, to
/// a registry object (the driver's Context owns one; a plugin or a test adds
/// more). The passes that look operators up (infer-shapes, fold-constant,
/// simplify-inference, fuse-ops) use the operator registry given to it,
/// which must outlive the records: the Context passes its own, so an
/// operator added to the context is inferred, folded and fused by them.
/// builtinGraphPasses() is a registry filled once over the default operator
/// registry, for code that has no context. The free functions of the passes (InferShapes.h,
/// DeadCodeElimination.h ...) can also be called directly with their typed
/// options structs.
#pragma once

#include "graph/Graph.h"
#include "ir/Pass.h"

#include <deque>
#include <string>

namespace tessel::graph {

using GraphPassOptionValues = PassOptionValues;
using GraphPassOption = PassOption;
using GraphPassInfo = pass::PassInfo<Graph>;
using GraphPassRegistry = pass::PassRegistry<Graph>;

/// Adds every built-in graph pass to `registry`, in a fixed order; the
/// passes look operators up in `ops` (held by pointer: it must outlive them).
void registerGraphPasses(GraphPassRegistry& registry, const OpRegistry& ops);
/// registerGraphPasses() over the default operator registry (graph/OpRegistry.h).
void registerGraphPasses(GraphPassRegistry& registry);
/// A registry holding the built-in passes (filled once, never changed).
const GraphPassRegistry& builtinGraphPasses();

/// The built-in graph passes, in order.
const std::deque<GraphPassInfo>& graphPasses();
/// The built-in pass called `name`, or null.
const GraphPassInfo* findGraphPass(const std::string& name);
/// The names of the built-in graph passes, comma separated (for error messages).
std::string graphPassNames();

using GraphPassSpec = PassSpec;
inline GraphPassSpec parseGraphPassSpec(const std::string& text) { return parsePassSpec(text); }

/// Throws CompileError when `values` names an option that `pass` does not have.
void checkGraphPassOptions(const GraphPassInfo& pass, const GraphPassOptionValues& values);

inline bool graphPassOptionBool(const GraphPassOptionValues& values, const std::string& name, bool fallback) {
    return passOptionBool(values, name, fallback);
}

} // namespace tessel::graph
