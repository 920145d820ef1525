/// \file
/// Whole models through the graph stages: import an ONNX file, run the graph
/// pipeline with a snapshot after every pass, and plan operator fusion. (The
/// operator library, the executor and export come next; see issue 3.)
#pragma once

#include "frontend/OnnxImporter.h"
#include "graph/Graph.h"
#include "graph/passes/FuseOps.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::driver {

/// One graph stage as the stage view shows it.
struct GraphStage {
    std::string pass;   ///< "import" for the imported graph
    std::string text;   ///< the printed graph
    bool changed = false;
    double seconds = 0;
    /// The graph after this pass (the imported graph for "import"), for views
    /// that draw it; filled whenever stages are recorded (with trace).
    std::shared_ptr<const graph::Graph> graph;
};

struct ModelTrace {
    graph::Graph imported = graph::Graph("main");
    graph::Graph optimized = graph::Graph("main");
    std::vector<GraphStage> stages;
    graph::FusionPlan fusion;
};

/// Imports `path` and runs graph::defaultGraphPipeline(). Throws CompileError.
ModelTrace optimizeModel(const std::string& path, const frontend::ImportOptions& options);

/// The fusion plan as text: one line per group, then every member with its reason.
std::string describeFusion(const graph::Graph& g, const graph::FusionPlan& plan);

} // namespace tessel::driver
