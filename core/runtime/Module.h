/// \file
/// A module: a set of compiled functions reachable by name.
///
/// Every compiled kernel has the same signature: it takes an array of
/// pointers, one per PrimFunc buffer parameter in order, and returns 0 on
/// success. JIT modules (codegen) and loaded shared libraries (runtime, for
/// boards) both implement this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessel::runtime {

using KernelFunction = int32_t (*)(void* const* args);

class Module {
public:
    virtual ~Module() = default;
    /// The function called `name`, or nullptr when there is none.
    virtual KernelFunction function(const std::string& name) const = 0;
    virtual std::vector<std::string> functionNames() const = 0;
};

using ModulePtr = std::shared_ptr<Module>;

} // namespace tessel::runtime
