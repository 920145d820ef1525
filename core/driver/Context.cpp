#include "driver/Context.h"

#include "tune/RandomModel.h"

namespace tessel::driver {

Context::Context() : graphPasses("graph pass"), tirPasses("TIR pass") {}

Context::Context(Builtins b) : Context() {
    pluginsOnFirstUse_ = b.pluginsOnFirstUse;
    graph::registerGraphOps(ops);
    graph::registerGraphPasses(graphPasses, ops);
    lower::registerStrategies(strategies);
    tir::registerTirPasses(tirPasses);
    tune::registerBuiltinCostModels(costModels_);
}

Context Context::withBuiltins() {
    return Context(Builtins{});
}

const Context& Context::builtin() {
    static const Context context(Builtins{.pluginsOnFirstUse = true});
    return context;
}

void Context::loadDefaultPlugins() const {
    if (!pluginsOnFirstUse_) return;
    std::call_once(pluginsOnce_, [this] {
        plugin::loadPlugins(plugin::defaultSearchPath(), plugin::Registries{&costModels_}, plugins_);
    });
}

const tune::CostModelRegistry& Context::costModels() const {
    loadDefaultPlugins();
    return costModels_;
}

const plugin::PluginSet& Context::loadPlugins(const std::vector<std::filesystem::path>& searchPath) {
    plugin::loadPlugins(searchPath, plugin::Registries{&costModels_}, plugins_);
    return plugins_;
}

const plugin::PluginSet& Context::plugins() const {
    loadDefaultPlugins();
    return plugins_;
}

} // namespace tessel::driver
