/// \file
/// The executor plan of a compiled model: which kernels run in which order on
/// which tensors, and where every tensor lives.
///
/// A plan is plain data, written to and read from JSON, so that an exported
/// model (shared library + plan + weights file) runs with the runtime alone.
/// Tensors are graph inputs (their own storage, filled by setInput), constants
/// (a slice of the weights blob), intermediates (a storage shared with other
/// intermediates whose lifetimes do not overlap) and outputs (their own
/// storage, so they survive the next run's intermediates). A step calls one
/// kernel of the module with its argument tensors in the kernel's parameter
/// order.
#pragma once

#include "ir/DataType.h"
#include "runtime/Artifact.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::runtime {

struct PlanTensor {
    enum class Kind { Input, Constant, Intermediate, Output };
    std::string name;
    DataType dtype;
    std::vector<int64_t> shape;
    Kind kind = Kind::Intermediate;
    /// Input, Intermediate, Output: index into ExecutorPlan::storages.
    int storage = -1;
    /// Constant: byte offset into the weights blob (64-byte aligned).
    int64_t offset = 0;

    int64_t numElements() const;
    int64_t numBytes() const;
};

/// "input", "constant", "intermediate", "output" (the plan's JSON names).
const char* planTensorKindName(PlanTensor::Kind kind);

struct PlanStep {
    /// The kernel's name in the module.
    std::string function;
    /// Tensor indices, in the kernel's parameter order.
    std::vector<int> args;
};

struct ExecutorPlan {
    std::vector<PlanTensor> tensors;
    /// Bytes of each storage buffer.
    std::vector<int64_t> storages;
    std::vector<PlanStep> steps;
    /// Graph inputs and outputs, as tensor indices, in the model's order.
    std::vector<int> inputs, outputs;
    /// Bytes of the weights blob the constants point into.
    int64_t weightsBytes = 0;

    /// Bytes of all storages (what the executor allocates besides weights).
    int64_t storageBytes() const;
    std::string toJson() const;
    /// Throws std::runtime_error naming what is wrong with malformed text.
    static ExecutorPlan fromJson(const std::string& text);
    /// Checks indices and sizes (std::runtime_error when inconsistent).
    void validate() const;
    /// The plan of one kernel alone: one tensor per argument with its own
    /// storage (the arguments it reads are the plan's inputs, those it
    /// writes its outputs, both in argument order) and one step that calls
    /// it (how `tesselc compile FILE.te` exports a kernel for tessel-run).
    static ExecutorPlan forKernel(const KernelSignature& signature);
};

} // namespace tessel::runtime
