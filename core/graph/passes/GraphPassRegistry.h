/// \file
/// The registry of graph passes: one record per pass.
///
/// Each record gives the pass's kebab-case name (what the command line, the
/// IDE's stage view, pipelines and the docs use), a one-line summary, a
/// paragraph for students, its options with defaults and help, and the
/// function that runs it on a Graph. All records are listed in one explicit
/// function, graphPasses() in GraphPassRegistry.cpp: there is no
/// self-registration. The free functions of the passes (InferShapes.h,
/// DeadCodeElimination.h ...) can also be called directly with their typed
/// options structs. This mirrors the TIR registry (tir/passes/PassRegistry.h);
/// both share the option helpers of ir/PassOptions.h.
#pragma once

#include "graph/Graph.h"
#include "ir/PassOptions.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessel::graph {

using GraphPassOptionValues = PassOptionValues;
using GraphPassOption = PassOption;

/// The record of one graph pass.
struct GraphPassInfo {
    std::string name;        ///< kebab-case, e.g. "dead-code-elimination"
    std::string summary;     ///< one line
    std::string description; ///< a paragraph for students
    std::vector<GraphPassOption> options;
    /// Runs the pass. Throws CompileError for bad option values.
    std::function<Graph(const Graph&, const GraphPassOptionValues&)> run;

    /// The option called `name`, or null.
    const GraphPassOption* findOption(const std::string& name) const;
};

/// Every graph pass, in a fixed order.
const std::vector<GraphPassInfo>& graphPasses();
/// The pass called `name`, or null.
const GraphPassInfo* findGraphPass(const std::string& name);
/// The names of all graph passes, comma separated (for error messages).
std::string graphPassNames();

using GraphPassSpec = PassSpec;
inline GraphPassSpec parseGraphPassSpec(const std::string& text) { return parsePassSpec(text); }

/// Throws CompileError when `values` names an option that `pass` does not have.
void checkGraphPassOptions(const GraphPassInfo& pass, const GraphPassOptionValues& values);

inline bool graphPassOptionBool(const GraphPassOptionValues& values, const std::string& name, bool fallback) {
    return passOptionBool(values, name, fallback);
}

} // namespace tessel::graph
