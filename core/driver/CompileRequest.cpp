#include "driver/CompileRequest.h"

#include "driver/Context.h"

namespace tessel::driver {

CompileRequest CompileRequest::forTarget(std::string_view target, CompileMode mode) {
    CompileRequest r;
    r.target = codegen::resolveTarget(target);
    r.mode = mode;
    return r;
}

const Context& CompileRequest::registries() const { return context ? *context : Context::builtin(); }

codegen::BuildOptions CompileRequest::buildOptions() const {
    codegen::BuildOptions o;
    o.optLevel = optLevel;
    o.mode = mode;
    return o;
}

} // namespace tessel::driver
