#include "driver/Context.h"

#include "tune/RandomModel.h"

namespace tessel::driver {

Context::Context() : graphPasses("graph pass"), tirPasses("TIR pass") {}

Context::Context(Builtins) : Context() {
    graph::registerGraphOps(ops);
    graph::registerGraphPasses(graphPasses, ops);
    tir::registerTirPasses(tirPasses);
    tune::registerBuiltinCostModels(costModels);
}

Context Context::withBuiltins() {
    return Context(Builtins{});
}

const Context& Context::builtin() {
    static const Context context = withBuiltins();
    return context;
}

} // namespace tessel::driver
