/// \file
/// Running a whole compiled model somewhere, behind one interface: in this
/// process (InProcessModelRunner) or in a session on a tessel-rpc server
/// (rpc::RpcModelRunner: this machine's local server, a board, a GPU host).
/// The driver runs and compares models through it and never names where.
///
/// A runner loads a ModelPackage (the plan, the weights and either the
/// kernels loaded here or a way to write the export a device loads), takes
/// host inputs, runs the model untimed or timed, gives host copies of the
/// outputs, and times each step on its own for the per-kernel profile.
#pragma once

#include "runtime/ExecutorPlan.h"
#include "runtime/GraphExecutor.h"
#include "runtime/Module.h"
#include "runtime/NDArray.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel::runtime {

/// A compiled model as a model runner takes it.
struct ModelPackage {
    ExecutorPlan plan;
    /// plan.weightsBytes bytes on the host.
    NDArray weights;
    /// Its kernels loaded in this process (null when the plan has no steps,
    /// or when the model is only to be run elsewhere).
    ModulePtr module;
    /// Writes the model's export (runtime/ExportedModel.h: library, plan,
    /// weights; no library when the plan has no steps) into the folder
    /// given, for a runner whose device is elsewhere. Throws what the
    /// exporter throws. Null: the model cannot leave this process.
    std::function<void(const std::string& dir)> writeExport;
};

/// How to run: threads, warm-up and timed runs, a time limit.
struct ModelRunSpec {
    /// Threads of the device's pool; 0 leaves it as it is.
    int threads = 0;
    /// Untimed runs before the timed ones.
    int warmup = 0;
    /// Timed runs, one figure each; 0: a single run, whose time is the one figure.
    int repeat = 0;
    /// The longest the whole request may take on a device (a runner in this
    /// process cannot stop a run).
    double timeoutSeconds = 600;
};

struct ModelTiming {
    /// Milliseconds: one per run (run()) or one per plan step (profile()).
    std::vector<double> ms;
    /// Threads the device's pool had.
    int threads = 0;
};

class ModelRunner {
public:
    virtual ~ModelRunner() = default;
    /// A short name for messages: "in-process", "local server", "rpc 10.0.0.2:9090".
    virtual std::string name() const = 0;
    /// Loads `model`, replacing what was loaded (and its inputs). Throws
    /// std::runtime_error (rpc::RpcError on a device) naming what failed.
    virtual void load(const ModelPackage& model) = 0;
    /// Copies host `inputs`, in the plan's input order and of its types and
    /// shapes, into the loaded model.
    virtual void setInputs(const std::vector<NDArray>& inputs) = 0;
    /// Runs the loaded model as `spec` says; one figure per timed run.
    virtual ModelTiming run(const ModelRunSpec& spec) = 0;
    /// Host copies of the outputs of the last run, in the plan's order.
    virtual std::vector<NDArray> outputs() = 0;
    /// Each plan step timed on its own: the median over spec.repeat (at
    /// least 1) whole runs, one figure per step in plan order.
    virtual ModelTiming profile(const ModelRunSpec& spec) = 0;
    /// Whether the model runs on the machine this process runs on (in process,
    /// or this machine's own tessel-rpc server): its roofline is this machine's.
    virtual bool onThisMachine() const { return false; }
};

/// Runs the model on its module's device from this process, on the
/// runtime's global thread pool (run() sets its threads when asked).
class InProcessModelRunner : public ModelRunner {
public:
    std::string name() const override { return "in-process"; }
    void load(const ModelPackage& model) override;
    void setInputs(const std::vector<NDArray>& inputs) override;
    ModelTiming run(const ModelRunSpec& spec) override;
    std::vector<NDArray> outputs() override;
    ModelTiming profile(const ModelRunSpec& spec) override;
    bool onThisMachine() const override { return true; }

private:
    GraphExecutor& executor();
    int threads(const ModelRunSpec& spec) const;
    std::unique_ptr<GraphExecutor> exec_;
};

} // namespace tessel::runtime
