/// \file
/// Measuring configurations of a task (AutoTVM's measure_batch): each is
/// instantiated (Task::instantiate) and built (a codegen::Builder) on
/// worker threads, several at once, while the calling thread runs the built
/// ones in order through a runtime::Runner and checks their outputs against
/// the task's reference.
///
/// Whatever goes wrong with one configuration is that trial's failure, with
/// its runtime::MeasureError kind, and the next one is measured: a
/// configuration that cannot be scheduled or compiled (CompileError from
/// the task or the builder: build), a kernel that crashes, hangs past the
/// time limit or returns an error (crash, timeout, runtime: the runner in
/// another process survives them), and outputs that differ from the
/// reference's (wrong-result). The reference is the task's reference
/// schedule run once per distinct kernel signature on the same seeded inputs
/// (Task::referenceFor); outputs match when every element is within
/// `tolerance` x the largest |value| of the reference.
#pragma once

#include "codegen/Builder.h"
#include "runtime/NDArray.h"
#include "runtime/OutputCheck.h"
#include "runtime/ReferenceStore.h"
#include "runtime/Runner.h"
#include "tune/Task.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::tune {

struct MeasureOptions {
    /// How each trial is timed (number, repeat, minRepeatMs, warmup).
    runtime::TimeEvaluator evaluator{1, 3, 40, 1};
    /// The longest one call may take; past it the trial is a timeout.
    double timeoutSeconds = 10;
    /// Threads the kernel runs with (the runtime pool of the runner); 0: the runner's default.
    int threads = 0;
    /// Inputs are seeded random values in [0, 1) (input i from seed + i).
    uint64_t seed = 1;
    /// Compare every trial's outputs with the reference's.
    bool check = true;
    /// Largest difference allowed, relative to the largest |value| of the
    /// reference (runtime::checkOutputs).
    double tolerance = runtime::kDefaultTolerance;
    /// Configurations instantiated and built at once; 0: the machine's
    /// hardware threads less the kernel's threads, at least 1.
    int buildJobs = 0;
    /// Build while measuring. Off, a batch is built completely before its
    /// first trial runs, so that no compiler competes with a kernel that
    /// uses every core; by default it is off exactly when the kernel's
    /// threads and the build jobs do not fit the machine's cores together.
    enum class Overlap { Auto, On, Off } overlap = Overlap::Auto;
};

/// One measured configuration.
struct MeasureResult {
    Config config;
    /// Seconds per call, every repeat (empty when it failed).
    std::vector<double> costs;
    runtime::MeasureError error = runtime::MeasureError::None;
    std::string message;
    /// Floating-point operations of one call (the task's).
    double flops = 0;
    /// Threads the kernel ran with (the runner's answer; 0 when it did not run).
    int threads = 0;
    /// Instantiating and building; running (with the upload and the check).
    double buildSeconds = 0;
    double runSeconds = 0;
    /// Seconds since the epoch when it ended.
    double timestamp = 0;

    bool ok() const { return error == runtime::MeasureError::None && !costs.empty(); }
    /// The median cost; +inf when it failed.
    double seconds() const;
    /// GFLOP/s at the median cost; 0 when it failed.
    double gflops() const;
};

class Measurer {
public:
    /// `builder` must be thread-safe (codegen::LocalBuilder is); the runner
    /// is used from the calling thread only.
    Measurer(codegen::Builder& builder, runtime::Runner& runner, MeasureOptions options = {});

    /// Where reference kernels are built and run; by default the same
    /// builder and runner. A remote device's kernels are checked against
    /// this machine's reference (a host builder and an in-process runner).
    void setReference(codegen::Builder* builder, runtime::Runner* runner);
    /// Where reference outputs are kept; by default a store of its own.
    void setReferenceStore(runtime::ReferenceStore* store) { store_ = store ? store : ownStore_.get(); }

    const MeasureOptions& options() const { return options_; }
    MeasureOptions& options() { return options_; }
    runtime::Runner& runner() const { return runner_; }

    /// Called after each trial with its position in the batch; returning
    /// false stops the batch (the rest is neither run nor returned).
    using OnResult = std::function<bool(size_t, const MeasureResult&)>;

    /// Measures `configs` of `task` in order; one result per configuration
    /// measured (all of them unless `onResult` stopped it).
    std::vector<MeasureResult> measure(const Task& task, const std::vector<Config>& configs,
                                       const OnResult& onResult = {});

    /// Reference runs so far (one per distinct signature of a workload).
    int referenceRuns() const { return referenceRuns_; }

private:
    struct Failure {
        runtime::MeasureError error;
        std::string message;
    };
    /// The reference outputs for `config`'s kernel (signature), or why there are none.
    std::vector<runtime::NDArray> reference(const Task& task, const Config& config,
                                            const runtime::KernelSignature& signature, Failure& failed);

    codegen::Builder& builder_;
    runtime::Runner& runner_;
    codegen::Builder* referenceBuilder_ = nullptr;
    runtime::Runner* referenceRunner_ = nullptr;
    MeasureOptions options_;
    std::unique_ptr<runtime::ReferenceStore> ownStore_;
    runtime::ReferenceStore* store_;
    /// References that failed (not run again).
    std::map<std::string, Failure> failed_;
    int referenceRuns_ = 0;
};

} // namespace tessel::tune
