/// \file
/// The TE pipeline that the CLI, the IDE and the tests all call: a TE script
/// (or a schedule) -> TIR straight from the schedule -> the TIR pass pipeline
/// (with a snapshot after every pass) -> LLVM -> a callable module, and the
/// measurement of one built function against the default schedule of the
/// same computation.
#pragma once

#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "runtime/NDArray.h"
#include "runtime/TimeEvaluator.h"
#include "te/Lower.h"
#include "te/Schedule.h"
#include "te/ScriptLines.h"
#include "tir/IR.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::driver {

/// The IR after one pass of the pipeline, as the stage view shows it.
struct PassSnapshot {
    std::string pass;
    std::string text;
    bool changed = false;
    double seconds = 0;
};

struct LowerOptions {
    /// TIR passes to run, in order; empty means tir::defaultTirPipeline().
    std::vector<std::string> pipeline;
    /// Record the TIR after every pass.
    bool snapshots = false;
};

/// One function of a script: its schedule and the TIR at each stage.
struct LoweredFunction {
    std::string name;
    te::Schedule schedule;
    std::vector<te::Tensor> args;
    /// Straight from the schedule (N-d buffers, realizes, annotated loops).
    tir::PrimFunc scheduled;
    /// After the pipeline: what codegen compiles.
    tir::PrimFunc lowered;
    std::vector<PassSnapshot> snapshots;
    /// What each loop and buffer of the TIR comes from (te::LoweringRecord).
    std::shared_ptr<const te::LoweringRecord> record;
    /// The lowered TIR's lines <-> the lines of the TE script that made the
    /// schedule (empty when no script recorded where the schedule comes from).
    te::ScriptLineTable scriptLines;

    /// Builds scriptLines again from `record` and the schedule's sources (a
    /// schedule printed as a script after lowering, te/script/ScriptPrinter.h).
    void linkScript();
};

struct ScriptOptions {
    /// Shown in messages ("gemm.te:3:5: error: ...").
    std::string fileName;
    LowerOptions lower;
    /// The knob choices of a tunable template (te::script::ScriptOptions::config).
    std::map<std::string, int64_t> config;
    /// The workload of a template (te::script::ScriptOptions::workload).
    std::map<std::string, int64_t> workload;
};

/// Evaluates a TE script and lowers every function it builds (an explicit
/// tvm.build / tvm.lower call, or the schedule `s` over all placeholders and
/// outputs). Throws CompileError with a located diagnostic.
std::vector<LoweredFunction> lowerScript(std::string_view source, const ScriptOptions& options);

/// Lowers one schedule.
LoweredFunction lowerSchedule(const te::Schedule& sch, const std::vector<te::Tensor>& args,
                              const std::string& name, const LowerOptions& options = {});

/// The same computation as `f` under the default schedule (the reference).
LoweredFunction lowerReference(const LoweredFunction& f);

/// Floating-point operations one call of `f` performs (2*M*N*K for GEMM).
double flopCount(const LoweredFunction& f);

struct RunOptions {
    /// Threads of the runtime pool; 0 leaves the pool as it is.
    int threads = 0;
    uint64_t seed = 1;
    /// How to time; a kernel whose first call takes over 0.5 s gets at most 3 repeats.
    runtime::TimeEvaluator evaluator{1, 5, 100, 1};
    /// Check against the reference schedule.
    bool check = true;
    /// Reference outputs computed earlier for the same computation and seed
    /// (saves running a slow reference again); empty: compute them.
    std::vector<runtime::NDArray> referenceOutputs;
    double rtol = 1e-4;
    /// Polled before every call of the kernel (a naive 1024^3 GEMM call takes
    /// seconds); when it returns true the run stops and the report says
    /// "cancelled". The IDE passes its worker's cancel token.
    std::function<bool()> cancelled;
};

struct RunReport {
    bool ok = false;
    double latencyMs = 0;             // median of repeats
    std::vector<double> repeatsMs;    // every repeat's mean
    double gflops = 0;
    double maxAbsErr = 0, maxRelErr = 0;
    int threads = 0;
    std::string error;                // why ok is false
    /// The outputs of the measured function (for reuse as a reference).
    std::vector<runtime::NDArray> outputs;
};

/// Builds `f` for the host, fills its inputs with seeded random values in
/// [0, 1), times it, and compares every output with the reference schedule's.
RunReport runAndCheck(const LoweredFunction& f, const RunOptions& options);

/// Compiles functions for the host and returns the module and the texts.
codegen::BuildResult buildFunctions(const std::vector<LoweredFunction>& fs, const codegen::Target& target,
                                    const codegen::BuildOptions& options = {});

} // namespace tessel::driver
