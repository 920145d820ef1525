/// \file
/// Whole models through the graph stages: import an ONNX file, run the graph
/// pipeline with a snapshot after every pass, and plan operator fusion. (The
/// operator library, the executor and export come next; see issue 3.)
#pragma once

#include "driver/Context.h"
#include "frontend/OnnxImporter.h"
#include "graph/Graph.h"
#include "graph/Unsupported.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/FuseOps.h"
#include "ir/StageSnapshot.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::driver {

/// The imported graph as the first stage ("import"; `ir` holds the graph::Graph).
StageSnapshot importStage(const graph::Graph& imported);

struct ModelTrace {
    graph::Graph imported = graph::Graph("main");
    graph::Graph optimized = graph::Graph("main");
    /// "import", then the graph after every pass (`ir` holds a graph::Graph).
    std::vector<StageSnapshot> stages;
    graph::FusionPlan fusion;
};

/// Imports `path` and runs graph::defaultGraphPipeline() with the operators
/// and graph passes of `context` (null: Context::builtin(); `options.ops`,
/// when set, is what the importer uses). Throws CompileError.
ModelTrace optimizeModel(const std::string& path, const frontend::ImportOptions& options,
                         const Context* context = nullptr);

/// A model imported to be shown, whether or not it compiles.
struct ShownModel {
    /// Opaque nodes kept (frontend::ImportOptions::allowUnsupported).
    graph::Graph graph = graph::Graph("main");
    /// Everything in it that cannot be compiled; empty when it compiles.
    std::vector<graph::UnsupportedConstruct> unsupported;
};

/// Imports `path` for showing (tesselc show, the IDE): a model with
/// operators, domains or subgraphs Tessel cannot compile still has a graph,
/// with the list of all of them. Throws CompileError only for what is not a
/// model at all (unreadable, malformed, an opset outside 6..17, an input
/// without a shape).
ShownModel importModelToShow(const std::string& path, const frontend::ImportOptions& options,
                             const Context* context = nullptr);

/// "# this model cannot be compiled: N unsupported constructs" and one
/// comment line per construct (what `tesselc show` prints under the graph).
std::string unsupportedReport(const std::vector<graph::UnsupportedConstruct>& list);

/// The fusion plan as text: one line per group, then every member with its reason.
std::string describeFusion(const graph::Graph& g, const graph::FusionPlan& plan);

} // namespace tessel::driver
