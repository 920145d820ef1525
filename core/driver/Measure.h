/// \file
/// Measuring one lowered function, as the schedule editor, the lesson,
/// `tesselc run`, the benchmarks and the tests do: build it (a Builder: a
/// shared object for the target), run it (a Runner: seeded random inputs,
/// TVM's time evaluator), and check its outputs against the default schedule
/// of the same computation, whose outputs a ReferenceStore keeps between runs
/// (tune/Reference.h), by the rule the tuner checks by too
/// (runtime::checkOutputs).
///
/// By default it builds for this machine with LLVM in this process and runs
/// in this process; a caller passes another Builder or Runner (a child
/// process, a board over RPC) through RunOptions.
#pragma once

#include "codegen/Builder.h"
#include "driver/CompileRequest.h"
#include "driver/TeDriver.h"
#include "runtime/OutputCheck.h"
#include "runtime/ReferenceStore.h"
#include "runtime/Runner.h"

#include <functional>
#include <string>
#include <vector>

namespace tessel::driver {

/// Where the reference outputs of earlier runs are kept, by computation and
/// seed: a front end keeps one for the session and passes it in RunOptions.
using ReferenceStore = runtime::ReferenceStore;

/// How `f` is called: its arguments' names, types and shapes, and which it writes.
/// Throws CompileError for an argument with a symbolic shape.
runtime::KernelSignature signatureOf(const LoweredFunction& f);
/// The key of what `f` computes, whatever its schedule: the TIR of its
/// computation under the default schedule.
std::string workloadOf(const LoweredFunction& f);
/// What a Builder needs to build `f`.
codegen::BuildJob buildJobOf(const LoweredFunction& f, std::string workload = {});

struct RunOptions {
    /// Threads of the runtime pool; 0 leaves the pool as it is.
    int threads = 0;
    uint64_t seed = 1;
    /// How to time; a kernel whose first call takes over 0.5 s gets at most 3 repeats.
    runtime::TimeEvaluator evaluator{1, 5, 100, 1};
    /// Check against the reference schedule: every element within
    /// `tolerance` x the largest |value| of the reference output
    /// (runtime::checkOutputs, the tuner's rule).
    bool check = true;
    double tolerance = runtime::kDefaultTolerance;
    /// Reference outputs computed earlier for the same computation and seed;
    /// empty: from `references`, or computed.
    std::vector<runtime::NDArray> referenceOutputs;
    /// Where reference outputs are looked up and kept (null: computed every time).
    runtime::ReferenceStore* references = nullptr;
    /// The computation's key in `references`; empty: workloadOf(f). A caller
    /// that knows several functions compute the same thing (the GEMM ladder's
    /// steps) gives one key for all.
    std::string referenceKey;
    /// Polled before every call of the kernel (a naive 1024^3 GEMM call takes
    /// seconds); when it returns true the run stops and the report says
    /// "cancelled". The IDE passes its worker's cancel token.
    std::function<bool()> cancelled;
    /// What to build with and run on; null: a LocalBuilder for `request`'s
    /// target and an InProcessRunner.
    codegen::Builder* builder = nullptr;
    runtime::Runner* runner = nullptr;
    /// Where the reference outputs are built and run; null: `builder` and
    /// `runner`. A remote device's kernels are checked against this
    /// machine's reference (a host LocalBuilder and an in-process runner).
    codegen::Builder* referenceBuilder = nullptr;
    runtime::Runner* referenceRunner = nullptr;
    /// The longest one call may take (a runner in another process kills it).
    double timeoutSeconds = 60;
    /// The target and mode of the build (by default: this machine, batch).
    CompileRequest request;
};

struct RunReport {
    bool ok = false;
    double latencyMs = 0;             ///< median of repeats
    std::vector<double> repeatsMs;    ///< every repeat's mean
    double gflops = 0;
    double maxAbsErr = 0, maxRelErr = 0;
    int threads = 0;
    runtime::MeasureError errorKind = runtime::MeasureError::None;
    std::string error;                ///< why ok is false
    double buildMs = 0;               ///< building the measured kernel
    /// The outputs of the measured function (for reuse as a reference).
    std::vector<runtime::NDArray> outputs;
};

/// Builds `f`, runs it on seeded random inputs in [0, 1), times it, and
/// compares every output with the reference schedule's. Never throws for the
/// kernel's own failure (a build error, a wrong result, a cancel): that is a
/// report with its error kind.
/// For a GPU target (lowered with the GPU pipeline) it runs on this
/// machine's first CUDA device; without one the report (MeasureError::Load)
/// says why: whyCannotRun.
RunReport runAndCheck(const LoweredFunction& f, const RunOptions& options);

/// Why kernels for `target` cannot run on this machine, in the runtime's
/// words ("no NVIDIA driver on this machine (...)"); empty when they can or
/// the target is a CPU's (whose runner decides).
std::string whyCannotRun(const Target& target);

} // namespace tessel::driver
