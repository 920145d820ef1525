/// \file
/// A two-step executor plan over hand-written CPU kernels, for the runtime's
/// tests: x (input) + w (a constant of the weights) -> y, then 2 y -> z (the
/// output), on 4 floats; and a CPU module of those kernels (and one that
/// fails).
#pragma once

#include "runtime/ExecutorPlan.h"
#include "runtime/Module.h"

#include <string>
#include <vector>

namespace tessel::test {

inline int32_t addKernel(void* const* a) {
    auto* x = static_cast<const float*>(a[0]);
    auto* w = static_cast<const float*>(a[1]);
    auto* y = static_cast<float*>(a[2]);
    for (int i = 0; i < 4; ++i) y[i] = x[i] + w[i];
    return 0;
}
inline int32_t doubleKernel(void* const* a) {
    auto* y = static_cast<const float*>(a[0]);
    auto* z = static_cast<float*>(a[1]);
    for (int i = 0; i < 4; ++i) z[i] = 2 * y[i];
    return 0;
}
inline int32_t failingKernel(void* const*) { return -1; }

/// "add", "double" and "fail" in the CPU kernel ABI.
class TableModule : public runtime::CpuModule {
public:
    runtime::KernelFunction function(const std::string& name) const override {
        if (name == "add") return addKernel;
        if (name == "double") return doubleKernel;
        if (name == "fail") return failingKernel;
        return nullptr;
    }
    std::vector<std::string> functionNames() const override { return {"add", "double", "fail"}; }
};

/// x + w -> y; 2 y -> z, with w at offset 0 of 64 bytes of weights.
inline runtime::ExecutorPlan twoSteps() {
    using runtime::PlanTensor;
    runtime::ExecutorPlan p;
    auto t = [](std::string name, PlanTensor::Kind kind, int storage, int64_t offset = 0) {
        PlanTensor x;
        x.name = std::move(name);
        x.dtype = DataType::float32();
        x.shape = {4};
        x.kind = kind;
        x.storage = storage;
        x.offset = offset;
        return x;
    };
    p.tensors = {t("x", PlanTensor::Kind::Input, 0), t("w", PlanTensor::Kind::Constant, -1, 0),
                 t("y", PlanTensor::Kind::Intermediate, 1), t("z", PlanTensor::Kind::Output, 2)};
    p.storages = {16, 16, 16};
    p.steps = {{"add", {0, 1, 2}}, {"double", {2, 3}}};
    p.inputs = {0};
    p.outputs = {3};
    p.weightsBytes = 64;
    return p;
}

} // namespace tessel::test
