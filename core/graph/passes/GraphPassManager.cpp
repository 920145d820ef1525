#include "graph/passes/GraphPassManager.h"

#include "graph/GraphPrinter.h"
#include "ir/Diagnostic.h"

#include <chrono>

namespace tessel::graph {

void GraphPassManager::addInstrument(std::shared_ptr<GraphPassInstrument> instrument) {
    if (instrument) instruments_.push_back(std::move(instrument));
}

GraphPassOptionValues* GraphPassManager::optionsFor(const std::string& passName) {
    for (auto& [name, values] : passOptions_)
        if (name == passName) return &values;
    return nullptr;
}

void GraphPassManager::setPassOptions(const std::string& passName, GraphPassOptionValues values) {
    if (auto* v = optionsFor(passName))
        *v = std::move(values);
    else
        passOptions_.emplace_back(passName, std::move(values));
}

Graph GraphPassManager::run(Graph g, const std::vector<std::string>& passNames) {
    std::vector<const GraphPassInfo*> passes;
    std::vector<GraphPassOptionValues> options;
    for (auto& entry : passNames) {
        GraphPassSpec spec = parseGraphPassSpec(entry);
        const GraphPassInfo* info = findGraphPass(spec.name);
        if (!info)
            throw CompileError("unknown graph pass '" + spec.name +
                               "'; known passes: " + graphPassNames());
        GraphPassOptionValues values;
        if (auto* v = optionsFor(spec.name)) values = *v;
        for (auto& [k, v] : spec.options)
            values[k] = v;
        checkGraphPassOptions(*info, values);
        passes.push_back(info);
        options.push_back(std::move(values));
    }
    return runResolved(std::move(g), passes, options);
}

Graph GraphPassManager::runPasses(Graph g, const std::vector<GraphPassInfo>& passes) {
    std::vector<const GraphPassInfo*> infos;
    std::vector<GraphPassOptionValues> options;
    for (auto& p : passes) {
        GraphPassOptionValues values;
        if (auto* v = optionsFor(p.name)) values = *v;
        checkGraphPassOptions(p, values);
        infos.push_back(&p);
        options.push_back(std::move(values));
    }
    return runResolved(std::move(g), infos, options);
}

Graph GraphPassManager::runResolved(Graph g, const std::vector<const GraphPassInfo*>& passes,
                                    const std::vector<GraphPassOptionValues>& options) {
    std::vector<std::string> names;
    for (auto* p : passes)
        names.push_back(p->name);
    for (auto& i : instruments_)
        i->beforePipeline(names, g);
    for (size_t k = 0; k < passes.size(); ++k) {
        const GraphPassInfo& pass = *passes[k];
        for (auto& i : instruments_)
            i->beforePass(pass, g);
        auto start = std::chrono::steady_clock::now();
        Graph after;
        try {
            after = pass.run(g, options[k]);
        } catch (const std::exception& e) {
            for (auto& i : instruments_)
                i->passFailed(pass, g, e);
            throw;
        }
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (auto& i : instruments_)
            i->afterPass(pass, g, after, seconds);
        g = std::move(after);
    }
    for (auto& i : instruments_)
        i->afterPipeline(g);
    return g;
}

// ---------------------------------------------------------------------------

double GraphTimingInstrument::totalSeconds() const {
    double s = 0;
    for (auto& e : entries_)
        s += e.seconds;
    return s;
}

void GraphTimingInstrument::afterPass(const GraphPassInfo& pass, const Graph&, const Graph&,
                                      double seconds) {
    entries_.push_back({pass.name, seconds});
}

// ---------------------------------------------------------------------------

void GraphSnapshotInstrument::clear() {
    input_ = Snapshot{};
    snapshots_.clear();
}

void GraphSnapshotInstrument::beforePipeline(const std::vector<std::string>&, const Graph& input) {
    clear();
    input_.passName = "input";
    input_.graph = input;
    input_.text = printGraph(input);
}

void GraphSnapshotInstrument::afterPass(const GraphPassInfo& pass, const Graph& before,
                                        const Graph& after, double seconds) {
    Snapshot s;
    s.passName = pass.name;
    s.graph = after;
    s.seconds = seconds;
    s.text = printGraph(after);
    const std::string previous =
        snapshots_.empty() ? input_.text.text : snapshots_.back().text.text;
    s.changed = (snapshots_.empty() && input_.passName.empty() ? printGraph(before).text
                                                               : previous) != s.text.text;
    snapshots_.push_back(std::move(s));
}

// ---------------------------------------------------------------------------

void GraphPrintAfterChangeInstrument::afterPass(const GraphPassInfo& pass, const Graph& before,
                                                const Graph& after, double) {
    if (!sink_) return;
    std::string text = printGraph(after).text;
    if (text != printGraph(before).text) sink_(pass.name, text);
}

} // namespace tessel::graph
