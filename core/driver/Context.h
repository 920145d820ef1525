/// \file
/// The registries a compile looks things up in, as one object: the graph
/// operators, the graph passes, the operator strategies, the TIR passes and
/// the tuner's cost models, and the plugins that added to them.
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
/// Plugins (plugin/PluginLoader.h) register into a context's registries:
/// loadPlugins() loads those on a search path into this context. The
/// built-in context loads the plugins on plugin::defaultSearchPath() (the
/// ones Tessel ships, as XGBoost's cost model, and TESSEL_PLUGIN_PATH's) the
/// first time its cost models or its plugin report are asked for, so a
/// compile that needs neither loads none.
///
/// A context never moves and is never copied: the graph passes of
/// withBuiltins() hold a pointer to the context's own operator registry, so
/// an operator added to `ops` after the passes were registered is seen by
/// them. withBuiltins() returns the context by value all the same: C++17's
/// guaranteed copy elision builds it in the caller's variable, where it stays.
#pragma once

#include "graph/OpRegistry.h"
#include "graph/passes/GraphPassRegistry.h"
#include "lower/StrategyRegistry.h"
#include "plugin/PluginLoader.h"
#include "tir/passes/PassRegistry.h"
#include "tune/CostModel.h"

#include <filesystem>
#include <mutex>
#include <vector>

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
    /// The operator strategies lowering chooses from (lower/StrategyRegistry.h):
    /// the built-in records; plugins and tests add their own.
    lower::StrategyRegistry strategies;
    /// The cost models the tuner makes by name (tune/CostModel.h): the
    /// built-in ones, then those plugins add. On builtin() the first call
    /// loads the default plugins first.
    tune::CostModelRegistry& costModels() { return costModels_; }
    const tune::CostModelRegistry& costModels() const;

    /// Loads the plugins in the folders of `searchPath` into this context's
    /// registries; returns the report of every load into it so far.
    const plugin::PluginSet& loadPlugins(const std::vector<std::filesystem::path>& searchPath);
    /// What was loaded into this context and what was refused, and why (on
    /// builtin(): the default search path's plugins, loaded on first use).
    const plugin::PluginSet& plugins() const;

private:
    struct Builtins {
        bool pluginsOnFirstUse = false;
    };
    explicit Context(Builtins);
    /// builtin()'s lazy load of the default plugins (once, thread-safe).
    void loadDefaultPlugins() const;

    // Mutable for builtin()'s load on first use, which happens at most once,
    // under pluginsOnce_, before any reader sees them.
    mutable tune::CostModelRegistry costModels_;
    mutable plugin::PluginSet plugins_;
    mutable std::once_flag pluginsOnce_;
    bool pluginsOnFirstUse_ = false;
};

} // namespace tessel::driver
