/// \file
/// Whole models through the graph stages: import an ONNX file, run the graph
/// pipeline with a snapshot after every pass, and plan operator fusion. (The
/// operator library, the executor and export come next; see issue 3.)
#pragma once

#include "driver/Context.h"
#include "frontend/OnnxImporter.h"
#include "graph/Graph.h"
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

/// The fusion plan as text: one line per group, then every member with its reason.
std::string describeFusion(const graph::Graph& g, const graph::FusionPlan& plan);

} // namespace tessel::driver
