/// \file
/// The pass manager over graphs: the generic one (ir/PassManager.h) with what
/// it needs to know about a Graph, and the names graph code uses for it.
///
/// \code
///   graph::GraphPassManager pm(graph::builtinGraphPasses());
///   auto snapshots = std::make_shared<graph::GraphSnapshotInstrument>();
///   pm.addInstrument(snapshots);
///   graph::Graph out = pm.run(g, {"infer-shapes", "simplify-inference", "fold-scale-shift"});
/// \endcode
#pragma once

#include "graph/Graph.h"
#include "graph/passes/GraphPassRegistry.h"
#include "ir/PassManager.h"

namespace tessel::pass {

template <>
struct IRTraits<graph::Graph> {
    static constexpr const char* kName = "graph";
    static constexpr const char* kOptionsWhat = "graph pass";
    static constexpr StageLevel kLevel = StageLevel::Graph;
    /// A graph that computes something: it has outputs (a pass that drops
    /// every output of a graph that had some returned no result).
    static bool defined(const graph::Graph& g) { return !g.outputs().empty(); }
    /// The same inputs, constants, nodes and outputs (a pass that returned
    /// its input as it was).
    static bool sameNodes(const graph::Graph& a, const graph::Graph& b);
    /// printGraph(): the text and the node of every line.
    static AnnotatedText print(const graph::Graph& g);
};

} // namespace tessel::pass

namespace tessel::graph {

using GraphPassInstrument = pass::PassInstrument<Graph>;
using GraphTimingInstrument = pass::TimingInstrument<Graph>;
using GraphSnapshotInstrument = pass::SnapshotInstrument<Graph>;
using GraphPrintAfterChangeInstrument = pass::PrintAfterChangeInstrument<Graph>;
using GraphCrashReproducerInstrument = pass::CrashReproducerInstrument<Graph>;

/// A manager over the built-in graph passes unless given another registry.
class GraphPassManager : public pass::PassManager<Graph> {
public:
    GraphPassManager() : pass::PassManager<Graph>(builtinGraphPasses()) {}
    explicit GraphPassManager(const GraphPassRegistry& registry) : pass::PassManager<Graph>(registry) {}
};

} // namespace tessel::graph
