/// \file
/// The graph executor: runs a compiled model's kernels in plan order.
///
/// It allocates every storage of the plan once (64-byte aligned, huge pages
/// for large ones, as NDArray does), points constants into the weights blob,
/// and on run() calls each step's kernel with its argument pointers. Kernels
/// parallelise themselves on the shared ThreadPool (runtime/ThreadPool.h), so
/// the executor itself is sequential, as TVM's graph executor is. A kernel
/// that returns non-zero stops the run with an error naming the step.
#pragma once

#include "runtime/ExecutorPlan.h"
#include "runtime/Module.h"
#include "runtime/NDArray.h"

#include <string>
#include <vector>

namespace tessel::runtime {

class GraphExecutor {
public:
    /// `weights` holds plan.weightsBytes bytes (shared, not copied). Throws
    /// std::runtime_error when the module lacks a kernel of the plan.
    GraphExecutor(ExecutorPlan plan, ModulePtr module, NDArray weights);

    const ExecutorPlan& plan() const { return plan_; }
    int numInputs() const { return static_cast<int>(plan_.inputs.size()); }
    int numOutputs() const { return static_cast<int>(plan_.outputs.size()); }
    const PlanTensor& inputInfo(int i) const;
    const PlanTensor& outputInfo(int i) const;

    /// Copies `value` into input i; throws std::runtime_error on a type or shape mismatch.
    void setInput(int i, const NDArray& value);
    /// Input i's own buffer (to fill in place).
    NDArray input(int i) const;
    /// A view of output i (valid until the next run()).
    NDArray output(int i) const;
    /// A view of any tensor of the plan (intermediates are overwritten as
    /// later steps reuse their storage).
    NDArray tensor(int index) const;

    /// Runs every step. Throws std::runtime_error when a kernel fails.
    void run();
    /// Seconds each step takes: the median over `repeat` whole runs, each
    /// step timed on its own (for the per-kernel profile).
    std::vector<double> profile(int repeat);
    /// Runs steps [0, last] only (for looking at an intermediate tensor
    /// before its storage is reused).
    void runUntil(int last);

private:
    void* address(int tensor) const;

    ExecutorPlan plan_;
    ModulePtr module_;
    NDArray weights_;
    std::vector<NDArray> storages_;
    std::vector<KernelFunction> kernels_;
    std::vector<std::vector<void*>> stepArgs_;
};

} // namespace tessel::runtime
