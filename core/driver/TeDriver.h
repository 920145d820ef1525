/// \file
/// The TE pipeline that the CLI, the IDE and the tests all call: a TE script
/// (or a schedule) -> TIR straight from the schedule -> the TIR pass pipeline
/// (with a snapshot after every pass) -> LLVM -> a callable module. Measuring
/// a lowered function is driver/Measure.h.
#pragma once

#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "ir/StageSnapshot.h"
#include "runtime/NDArray.h"
#include "runtime/TimeEvaluator.h"
#include "te/Lower.h"
#include "te/Schedule.h"
#include "te/ScriptLines.h"
#include "te/script/Script.h"
#include "tir/IR.h"
#include "tir/passes/PassRegistry.h"
#include "tir/passes/SplitHostDevice.h"
#include "tir/passes/VerifyGPUCode.h"
#include "topi/Schedule.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::driver {

struct LowerOptions {
    /// TIR passes to run, in order; empty means tir::defaultTirPipeline().
    std::vector<std::string> pipeline;
    /// Record the TIR after every pass.
    bool snapshots = false;
    /// Where the pipeline's pass names are looked up; null: the built-in passes.
    const tir::PassRegistry* passes = nullptr;
    /// Lowering for a GPU with these limits: the GPU pipeline (when `pipeline`
    /// is empty) and tir::verifyGpuCode, whose issues are errors at the
    /// schedule line of the loop or stage they are about.
    std::optional<tir::GpuLimits> gpu;
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
    /// With LowerOptions::snapshots: the TIR after every pass (`ir` holds a tir::PrimFunc).
    std::vector<StageSnapshot> snapshots;
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
    /// The target the script's default schedules are for: topi.schedule_default
    /// vectorizes with its float32 lanes, as the model compiler does.
    Target target = codegen::hostTarget();
};

/// The default-schedule options for `target`: `base` with the target's
/// float32 vector lanes when the target says its vector width (what
/// driver::compileGraph's default schedules and topi.schedule_default use).
topi::ScheduleOptions scheduleOptionsFor(const Target& target, topi::ScheduleOptions base = {});

/// The modules of the layers above te that the driver adds to every TE script
/// it runs: `topi` (topi/script/ScriptModule.h), whose schedule_default
/// schedules with `schedule`.
std::vector<te::script::ModuleInstaller> scriptModules(const topi::ScheduleOptions& schedule);

/// te::script::runScript with scriptModules(scheduleOptionsFor(target)) added
/// to `options`: how every front end runs a script (`tesselc space`, the
/// editor's outline).
te::script::ScriptResult runScript(std::string_view source, te::script::ScriptOptions options,
                                   const Target& target = codegen::hostTarget());

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

/// The kernels of functions lowered for a GPU, in order (tir::splitHostDevice).
std::vector<tir::DeviceSplit> splitForDevice(const std::vector<LoweredFunction>& fs);

/// Compiles functions for `target` and returns the texts (and, for this
/// machine with options.jit, a callable module). For a GPU target the
/// functions' kernels are compiled (splitForDevice), and `assembly` is PTX.
codegen::BuildResult buildFunctions(const std::vector<LoweredFunction>& fs, const Target& target,
                                    const codegen::BuildOptions& options = {});

} // namespace tessel::driver
