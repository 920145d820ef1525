#include "driver/Context.h"

namespace tessel::driver {

Context::Context() : graphPasses("graph pass"), tirPasses("TIR pass") {}

Context Context::withBuiltins() {
    Context c;
    graph::registerGraphPasses(c.graphPasses);
    tir::registerTirPasses(c.tirPasses);
    return c;
}

const Context& Context::builtin() {
    static const Context context = withBuiltins();
    return context;
}

} // namespace tessel::driver
