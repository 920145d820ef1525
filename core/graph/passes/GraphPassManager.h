/// \file
/// Running a list of graph passes, with instruments watching.
///
/// The graph pass manager looks passes up in the registry
/// (GraphPassRegistry.h), runs them in order and calls its instruments around
/// each one: before, after (with the time it took) and, when a pass throws,
/// failed; the exception is then rethrown. Built-in instruments time the
/// passes, record a snapshot of the graph after every pass (what the IDE's
/// stage view shows: the pass name, the printed graph with its line table,
/// whether it changed and how long the pass took), and hand the printed graph
/// to a callback after each pass that changed it. It mirrors the TIR pass
/// manager (tir/passes/PassManager.h).
///
/// \code
///   graph::GraphPassManager pm;
///   auto snapshots = std::make_shared<graph::GraphSnapshotInstrument>();
///   pm.addInstrument(snapshots);
///   graph::Graph out = pm.run(g, {"infer-shapes", "simplify-inference", "fold-scale-shift"});
/// \endcode
#pragma once

#include "graph/Graph.h"
#include "graph/passes/GraphPassRegistry.h"
#include "ir/LineTable.h"

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel::graph {

/// Hooks the pass manager calls; every one does nothing by default.
class GraphPassInstrument {
public:
    virtual ~GraphPassInstrument() = default;
    /// Once, before the first pass: the pipeline's pass names and its input.
    virtual void beforePipeline(const std::vector<std::string>& passNames, const Graph& input) {}
    virtual void beforePass(const GraphPassInfo& pass, const Graph& input) {}
    virtual void afterPass(const GraphPassInfo& pass, const Graph& before, const Graph& after,
                           double seconds) {}
    /// `pass` threw `error` on `input`; the manager rethrows after every instrument ran.
    virtual void passFailed(const GraphPassInfo& pass, const Graph& input,
                            const std::exception& error) {}
    /// Once, after the last pass succeeded.
    virtual void afterPipeline(const Graph& result) {}
};

class GraphPassManager {
public:
    /// Instruments are called in the order they were added.
    void addInstrument(std::shared_ptr<GraphPassInstrument> instrument);
    /// Option values used whenever this manager runs `passName` (an entry's
    /// own options, `name{k=v}`, take precedence). Checked when a run starts.
    void setPassOptions(const std::string& passName, GraphPassOptionValues values);

    /// Runs the passes in order. An entry is a registered pass name, optionally
    /// with options (`simplify-inference{dropout=false}`). An unknown name or
    /// option is a CompileError (listing the known ones) raised before any pass runs.
    Graph run(Graph g, const std::vector<std::string>& passNames);
    /// Runs passes given by their records (passes outside the registry, from a
    /// plugin or a test), with the options set by setPassOptions.
    Graph runPasses(Graph g, const std::vector<GraphPassInfo>& passes);

private:
    Graph runResolved(Graph g, const std::vector<const GraphPassInfo*>& passes,
                      const std::vector<GraphPassOptionValues>& options);
    GraphPassOptionValues* optionsFor(const std::string& passName);

    std::vector<std::shared_ptr<GraphPassInstrument>> instruments_;
    std::vector<std::pair<std::string, GraphPassOptionValues>> passOptions_;
};

/// Seconds spent in each pass.
class GraphTimingInstrument : public GraphPassInstrument {
public:
    struct Entry {
        std::string passName;
        double seconds = 0;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    double totalSeconds() const;
    void clear() { entries_.clear(); }

    void afterPass(const GraphPassInfo& pass, const Graph&, const Graph&, double seconds) override;

private:
    std::vector<Entry> entries_;
};

/// The graph after every pass, as the IDE's stage view shows it.
class GraphSnapshotInstrument : public GraphPassInstrument {
public:
    struct Snapshot {
        std::string passName;        ///< "input" for the pipeline's input
        Graph graph = Graph("main"); ///< keeps the nodes the line table points to alive
        AnnotatedText text;          ///< printGraph(graph)
        /// The pass changed the printed graph (a pass that returns an equal
        /// graph, or a rebuilt one that prints the same, did not).
        bool changed = false;
        double seconds = 0;
    };
    /// The pipeline's input (recorded by beforePipeline).
    const Snapshot& input() const { return input_; }
    /// One snapshot per pass that ran, in order.
    const std::vector<Snapshot>& snapshots() const { return snapshots_; }
    void clear();

    void beforePipeline(const std::vector<std::string>&, const Graph& input) override;
    void afterPass(const GraphPassInfo& pass, const Graph& before, const Graph& after,
                   double seconds) override;

private:
    Snapshot input_;
    std::vector<Snapshot> snapshots_;
};

/// Hands the printed graph to `sink` after every pass that changed it (the
/// "print-after-change" of other compilers; core itself never prints).
class GraphPrintAfterChangeInstrument : public GraphPassInstrument {
public:
    using Sink = std::function<void(const std::string& passName, const std::string& text)>;
    explicit GraphPrintAfterChangeInstrument(Sink sink) : sink_(std::move(sink)) {}
    void afterPass(const GraphPassInfo& pass, const Graph& before, const Graph& after,
                   double seconds) override;

private:
    Sink sink_;
};

} // namespace tessel::graph
