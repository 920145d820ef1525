/// \file
/// The graph executor: runs a compiled model's kernels in plan order.
///
/// It runs on the module's device: it allocates every storage of the plan
/// there once (through the device's DeviceAPI; on the CPU 64-byte aligned,
/// huge pages for large ones), puts the weights there once (on the CPU it
/// shares the host blob), points constants into them, and on run() launches
/// each step's kernel (looked up once) with its argument pointers, then waits
/// for the device. CPU kernels parallelise themselves on the shared
/// ThreadPool (runtime/ThreadPool.h), so the executor itself is sequential,
/// as TVM's graph executor is. A kernel that returns non-zero stops the run
/// with an error naming the step. Inputs and outputs cross between the host
/// and the device with NDArray::copyFrom/copyTo.
#pragma once

#include "runtime/ExecutorPlan.h"
#include "runtime/Module.h"
#include "runtime/NDArray.h"

#include <string>
#include <vector>

namespace tessel::runtime {

class GraphExecutor {
public:
    /// `weights` holds plan.weightsBytes bytes (shared when on the module's
    /// device, else copied there). `module` may be null for a plan without
    /// steps (the executor then runs on the CPU). Throws std::runtime_error
    /// when the module lacks a kernel of the plan.
    GraphExecutor(ExecutorPlan plan, ModulePtr module, NDArray weights);

    /// The device the kernels run and the tensors live on.
    Device device() const { return device_; }
    const ExecutorPlan& plan() const { return plan_; }
    int numInputs() const { return static_cast<int>(plan_.inputs.size()); }
    int numOutputs() const { return static_cast<int>(plan_.outputs.size()); }
    const PlanTensor& inputInfo(int i) const;
    const PlanTensor& outputInfo(int i) const;

    /// Copies `value` (on any device) into input i; throws std::runtime_error
    /// on a type or shape mismatch.
    void setInput(int i, const NDArray& value);
    /// Input i's own buffer on the device (to fill in place).
    NDArray input(int i) const;
    /// A view of output i on the device (valid until the next run()).
    NDArray output(int i) const;
    /// A view of any tensor of the plan (intermediates are overwritten as
    /// later steps reuse their storage).
    NDArray tensor(int index) const;

    /// Runs every step. Throws std::runtime_error when a kernel fails.
    void run();
    /// Seconds each step takes: the median over `repeat` whole runs, each
    /// step timed on its own with the device's timing events (for the
    /// per-kernel profile).
    std::vector<double> profile(int repeat);
    /// Runs steps [0, last] only (for looking at an intermediate tensor
    /// before its storage is reused).
    void runUntil(int last);

private:
    void* address(int tensor) const;

    void launch(size_t step);

    ExecutorPlan plan_;
    ModulePtr module_;
    Device device_;
    NDArray weights_;
    std::vector<NDArray> storages_;
    std::vector<Kernel> kernels_;
    std::vector<std::vector<void*>> stepArgs_;
};

} // namespace tessel::runtime
