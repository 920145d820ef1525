/// \file
/// Whole models, end to end: graph passes, operator fusion, every fused
/// function through topi -> TE (core/lower) -> TIR -> LLVM, storage planning
/// (core/lower), and a runnable executor; with an optional trace of every
/// stage for the IDE.
#pragma once

#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "driver/CompileRequest.h"
#include "driver/ModelDriver.h"
#include "driver/TeDriver.h"
#include "frontend/OnnxImporter.h"
#include "graph/Graph.h"
#include "graph/Unsupported.h"
#include "graph/passes/FuseOps.h"
#include "lower/LoweringSteps.h"
#include "runtime/ExecutorPlan.h"
#include "runtime/GraphExecutor.h"
#include "te/ConfigSpace.h"
#include "topi/Schedule.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::driver {

class ControlFlowProgram;

struct CompileOptions {
    /// The target, the kind of compile and the registries (passes) to use.
    CompileRequest request;
    /// Graph passes, in order; empty: graph::defaultGraphPipeline().
    std::vector<std::string> graphPipeline;
    /// Default-schedule choices; the vector width comes from the request's
    /// target when it says one.
    topi::ScheduleOptions schedule;
    /// Keep the trace: the graph after every pass, TIR after every pass of
    /// every function, LLVM IR before and after optimisation, assembly and
    /// the line maps between them. Off, only what running needs is kept.
    bool trace = false;
    /// With trace: the whole module's LLVM IR, assembly and line maps too
    /// (`tesselc show --stage llvm|asm`). The IDE shows each function's own
    /// build (FunctionArtifacts) and turns this off: the module is then built
    /// without debug lines, so identical functions are built once
    /// (codegen/IdenticalFunctions.h; an LSTM model opens in 2 s, not 13).
    bool moduleTexts = true;
    /// Edited schedules: fused function name -> a TE script that replaces the
    /// function's default schedule (the IDE's schedule editor; start from
    /// FusedFunction::script). The script's function (the one it builds with
    /// the function's name, or the only one) must take arguments like the
    /// default function's: the same count, and in order the same shapes and
    /// dtypes, outputs where it has outputs. Otherwise, and for a name the
    /// model has no function for, compileGraph throws CompileError
    /// "schedule for <fn>: ...". The computation itself is not checked.
    std::map<std::string, std::string> schedules;
    /// Tuned configurations: a workload key (FusedFunction::workload) -> the
    /// knob choices its functions are compiled with (apply-best: what
    /// tune::RecordSet::bestConfigs() gives). A function whose workload has
    /// none gets its defaults: the default schedule. A configuration that no
    /// longer fits its template (a stale record) is skipped with a warning
    /// naming the function (CompiledModel::warnings).
    std::map<std::string, std::map<std::string, int64_t>> configs;
    /// Called between stages with the fraction done in [0, 1] and what comes
    /// next; returning false cancels the compile (CompileError "cancelled").
    /// Called on the compiling thread.
    std::function<bool(double fraction, const std::string& stage)> progress;
};

/// One fused function: which graph nodes it computes and its lowered forms.
struct FusedFunction {
    std::string name;
    int group = -1;                 ///< index into CompiledModel::fusion.groups
    std::vector<int64_t> members;   ///< graph node ids
    LoweredFunction lowered;        ///< schedule, TIR (and per-pass snapshots with trace)
    /// With trace: the TE script that rebuilds the schedule (te/script/ScriptPrinter.h),
    /// or a `# ` comment saying why the schedule cannot be written as one. For a
    /// function with an entry in CompileOptions::schedules: that script.
    std::string script;
    /// Plan tensor indices of the kernel's arguments, in parameter order.
    std::vector<int> args;
    /// Floating-point operations of one call (multiply-adds count two).
    double flops = 0;
    /// Bytes of its arguments (inputs read once, outputs written once): the
    /// least memory traffic of one call, for its roofline (runtime/Roofline.h).
    double bytes = 0;
    /// The tuning workload: workloadKey(group, target). Functions with equal
    /// keys are one tuning task.
    std::string workload;
    /// Its knobs with the choices compiled (empty: nothing to tune).
    std::vector<te::Knob> knobs;
    /// The strategy record that computed the anchor ("conv2d_nchwc"), and
    /// why it was chosen (lower::StrategyChoice::reason).
    std::string strategy, strategyReason;
    /// True when a CompileOptions::configs entry chose the knobs.
    bool tuned = false;
    /// In a model with control flow (CompiledModel::program): the subgraph
    /// the function's nodes are in, as the path of (control-flow node id,
    /// subgraph attribute) from the top, empty for the top level; `members`
    /// are ids of that graph's nodes (ids repeat between a graph and its
    /// subgraphs). Such a function is compiled in a region of its own, so
    /// `group` is -1 and `args` empty: they index the region's plan.
    std::vector<std::pair<int64_t, std::string>> region;
};

/// The default graph pipeline for `target`: alter-layout blocks the channels
/// by the float32 lanes of its vectors.
std::vector<std::string> graphPipelineFor(const Target& target);

/// The tuning workload of a fused group compiled for `target`:
/// lower::groupWorkload(), the versions of its anchor's named strategies in
/// `strategies` (records of an older kernel then no longer match), and the
/// target: "Conv{…}(…) [depthwise_nchwc.v1 conv2d_nchwc.v2 …] @ llvm …".
std::string workloadKey(const graph::Graph& g, const graph::FusionGroup& group, const Target& target,
                        const lower::StrategyRegistry& strategies);

struct CompileTimings {
    double graphSeconds = 0, lowerSeconds = 0, codegenSeconds = 0;
    double totalSeconds() const { return graphSeconds + lowerSeconds + codegenSeconds; }
};

/// A compiled model: the plan, the weights and the module, ready to run.
struct CompiledModel {
    graph::Graph graph = graph::Graph("main"); ///< after the graph pipeline
    graph::FusionPlan fusion;
    /// With trace: "import" and the graph after every pass (`ir` holds a graph::Graph).
    std::vector<StageSnapshot> graphStages;
    /// With trace: the lowering steps after the graph passes
    /// (lower::kLowerFusedGroups, lower::kPlanStorage), their texts and times.
    std::vector<StageSnapshot> lowerStages;
    /// The target the kernels were compiled for.
    Target target;
    std::vector<FusedFunction> functions;      ///< in execution order
    runtime::ExecutorPlan plan;
    runtime::NDArray weights;
    runtime::ModulePtr module;
    /// Texts and line maps of the whole module (filled with trace).
    codegen::BuildResult build;
    CompileTimings timings;
    /// The model's element types where Tessel computes in another
    /// (graph::Graph::storedTypes of the imported graph: float16 and bfloat16
    /// tensors computed as float32); runModel gives outputs back rounded to them.
    std::map<std::string, std::string> storedTypes;
    /// A model opened to be shown, not compiled (uncompiledModel): every
    /// construct that keeps it from compiling. Then `graph` is the imported
    /// graph, `graphStages` holds only "import", and nothing else is filled.
    std::vector<graph::UnsupportedConstruct> unsupported;
    /// A model with control flow (If, Loop, Scan) that inline-constant-if
    /// did not remove, or with an operator whose output shape is data
    /// (NonZero, Compress, Unique, NonMaxSuppression): the host executor that runs it (driver/ControlFlowProgram.h)
    /// with its compiled segments and subgraphs. Then `plan` holds only the
    /// model's inputs and outputs (no steps; an output's unknown dimensions
    /// are -1), `functions` holds, with trace, the fused functions of every
    /// region compiled with the model (ControlFlowProgram::functions: named
    /// by their subgraph's path, "outer/body/fused_add"), and the model runs
    /// in this process only: runModel runs it, exportModel, packageOf and
    /// makeExecutor refuse it.
    std::shared_ptr<ControlFlowProgram> program;
    /// What the compile set aside and why (a tuned configuration that no
    /// longer fits its template: the function took its default schedule).
    std::vector<std::string> warnings;

    /// A new executor over this model's module and weights (each executor has
    /// its own storages, so several can run side by side).
    std::unique_ptr<runtime::GraphExecutor> makeExecutor() const;
    /// The function called `name`, or null.
    const FusedFunction* findFunction(const std::string& name) const;
};

/// Why a model with host steps (CompiledModel::program) cannot leave this process.
extern const char* const kControlFlowInProcess;

/// A model that cannot be compiled, to be shown (the IDE draws it): the
/// imported graph (with opaque nodes) as its graph and its one stage, and
/// the list of what cannot be compiled.
CompiledModel uncompiledModel(const graph::Graph& imported);

/// Compiles a graph as imported (inputs bound). Throws CompileError naming the
/// node, its operator and the stage for anything unsupported.
CompiledModel compileGraph(const graph::Graph& imported, const CompileOptions& options = {});

/// Writes `model` to `dir` (created if needed) as the runtime loads it
/// (runtime/ExportedModel.h): the kernels compiled again to an object for
/// `target` and linked into a shared library, the plan and the weights. A
/// model with nothing to compute (no fused functions) has no library.
void exportModel(const CompiledModel& model, const std::string& dir,
                 const Target& target = codegen::hostTarget());

/// Writes one kernel of a TE script to `dir` the same way, as a model of one
/// step (runtime::ExecutorPlan::forKernel): its placeholders are the inputs,
/// the tensors it computes the outputs, and there are no weights. Throws
/// CompileError for an argument with a symbolic shape.
void exportKernel(const LoweredFunction& function, const std::string& dir,
                  const Target& target = codegen::hostTarget());

/// Imports `path` (with `import`'s input shapes) and compiles it. The importer
/// uses the operators of the request's context unless `import.ops` names others.
CompiledModel compileModel(const std::string& path, const frontend::ImportOptions& import,
                           const CompileOptions& options = {});

} // namespace tessel::driver
