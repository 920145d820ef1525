#include "driver/ModelCompiler.h"

#include "codegen/SharedLibrary.h"
#include "driver/ControlFlowProgram.h"
#include "driver/Measure.h"
#include "graph/GraphPrinter.h"
#include "graph/Unsupported.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPipeline.h"
#include "ir/Diagnostic.h"
#include "lower/LowerGroup.h"
#include "lower/LoweringSteps.h"
#include "lower/StoragePlan.h"
#include "topi/TopiUtil.h"
#include "runtime/ExportedModel.h"
#include "te/script/Script.h"
#include "te/script/ScriptPrinter.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/SplitHostDevice.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>

namespace tessel::driver {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string argumentNames(const std::vector<te::Tensor>& args) {
    std::string s;
    for (auto& a : args) s += (s.empty() ? "" : ", ") + a.name();
    return s;
}

/// Lowers function `name` from an edited schedule `script` instead of its
/// default schedule. The kernel is called with the default function's
/// arguments (`expected`), so the script's must match them one for one: the
/// same type, a placeholder for an input and a compute for an output (a
/// compute in an input's place would write into the caller's input).
LoweredFunction lowerEdited(const std::string& name, const std::string& script,
                            const std::vector<te::Tensor>& expected, const LowerOptions& lo,
                            const topi::ScheduleOptions& schedule) {
    auto fail = [&](const std::string& why, SourceLoc loc) {
        return CompileError("schedule for " + name + ": " + why, loc);
    };
    te::script::ScriptOptions so;
    so.fileName = name + ".te"; // an inferred build is called `name`
    std::optional<te::script::ScriptResult> r;
    try {
        // topi.schedule_default gives what the default schedule would.
        so.modules = scriptModules(schedule);
        r = te::script::runScript(script, so);
    } catch (const CompileError& e) {
        throw fail(e.diagnostic().message, e.diagnostic().loc);
    }
    const te::script::BuildRequest* b = nullptr;
    for (auto& req : r->builds)
        if (req.name == name) b = &req;
    if (!b && r->builds.size() == 1) b = &r->builds.front();
    if (!b) {
        std::string built;
        for (auto& req : r->builds) built += (built.empty() ? "" : ", ") + req.name;
        throw fail(r->builds.empty() ? "the script builds no function"
                                     : "the script builds " + built + " but no function called '" + name + "'",
                   {});
    }
    const auto& got = b->args;
    if (got.size() != expected.size())
        throw fail("the script's function takes " + std::to_string(got.size()) + " arguments (" +
                       argumentNames(got) + "), the fused function " + std::to_string(expected.size()) + " (" +
                       argumentNames(expected) + ")",
                   b->loc);
    for (size_t i = 0; i < got.size(); ++i) {
        std::string which = "argument " + std::to_string(i + 1) + " ('" + got[i].name() + "')";
        if (te::typeText(got[i]) != te::typeText(expected[i]))
            throw fail(which + " is " + te::typeText(got[i]) + " where the fused function's '" + expected[i].name() +
                           "' is " + te::typeText(expected[i]),
                       b->loc);
        bool wantOutput = expected[i]->op->opKind() != te::OpKind::Placeholder;
        bool isOutput = got[i]->op->opKind() != te::OpKind::Placeholder;
        if (wantOutput != isOutput)
            throw fail(which + (isOutput ? " is computed" : " is a placeholder") + " where the fused function has " +
                           (wantOutput ? "its output '" : "its input '") + expected[i].name() + "'",
                       b->loc);
    }
    try {
        return lowerSchedule(b->schedule, b->args, name, lo);
    } catch (const CompileError& e) {
        throw fail(e.diagnostic().message, e.diagnostic().loc.known() ? e.diagnostic().loc : b->loc);
    }
}

} // namespace

std::vector<std::string> graphPipelineFor(const Target& target) {
    auto passes = graph::defaultGraphPipeline(target.vectorLanes(DataType::float32()));
    // Channel blocks are for CPU vector registers; a GPU's threads take NCHW.
    if (target.isGPU()) std::erase_if(passes, [](const std::string& p) { return p.starts_with("alter-layout"); });
    // The CPU's blocked integer convolution computes ConvInteger itself.
    if (!target.isGPU())
        for (auto& p : passes)
            if (p == "expand-quantized") p += "{conv-integer=true}";
    return passes;
}

std::string workloadKey(const graph::Graph& g, const graph::FusionGroup& group, const Target& target,
                        const lower::StrategyRegistry& strategies) {
    std::string key = lower::groupWorkload(g, group);
    const graph::Node* anchor = g.findNode(group.master >= 0 ? group.master : group.members.front());
    if (const std::string tag = anchor ? strategies.versionTag(anchor->op, target.kind) : std::string(); !tag.empty())
        key += " [" + tag + "]";
    return key + " @ " + target.str();
}

namespace {

/// The fused function of `group`: its TE from core/lower (which registers
/// its plan tensors and step with `planner`), lowered to TIR from the
/// default or the edited schedule. Adds the time spent building TE (and the
/// default schedule) to `teSeconds`; with `stageText`, appends the function's
/// part of the "lower-fused-groups" text (its summary and TE script).
FusedFunction lowerFunction(const graph::Graph& g, const graph::FusionGroup& group, lower::StoragePlanner& planner,
                            const CompileOptions& options, double& teSeconds, std::string* stageText,
                            std::vector<std::string>& warnings) {
    auto edited = options.schedules.find(group.name);
    lower::LowerGroupOptions go;
    go.schedule = edited == options.schedules.end();
    go.scheduleOptions = scheduleOptionsFor(options.request.target, options.schedule);
    go.strategies = &options.request.registries().strategies;
    go.target = options.request.target.kind;
    const std::string workload = workloadKey(g, group, options.request.target, *go.strategies);
    auto tuned = go.schedule ? options.configs.find(workload) : options.configs.end();
    if (tuned != options.configs.end()) go.config = tuned->second;
    auto t0 = Clock::now();
    lower::GroupFunction fn;
    try {
        fn = lower::lowerGroup(g, group, planner, go);
    } catch (const CompileError& e) {
        if (tuned == options.configs.end()) throw;
        // A stale record (made for another version of the template) is
        // skipped: the function keeps its default schedule, and says so.
        warnings.push_back("function " + group.name + ": the tuned configuration " + te::formatConfig(go.config) +
                           " does not fit (" + e.diagnostic().message + "); the default schedule is used");
        go.config.clear();
        tuned = options.configs.end();
        fn = lower::lowerGroup(g, group, planner, go);
    }
    teSeconds += since(t0);
    FusedFunction f;
    f.name = fn.name;
    f.group = fn.group;
    f.members = fn.members;
    f.workload = workload;
    f.knobs = fn.knobs;
    f.strategy = fn.strategy;
    f.strategyReason = fn.strategyReason;
    f.tuned = tuned != options.configs.end();
    if (fn.empty()) return f; // nothing of it is used
    f.args = fn.planArgs;
    LowerOptions lo;
    lo.snapshots = options.trace;
    lo.passes = &options.request.registries().tirPasses;
    if (options.request.target.isGPU()) {
        lo.gpu = tir::GpuLimits{};
        if (options.request.target.maxThreads > 0) lo.gpu->maxThreadsPerBlock = options.request.target.maxThreads;
    }
    if (!go.schedule) {
        f.lowered = lowerEdited(f.name, edited->second, fn.args, lo, go.scheduleOptions);
        f.script = edited->second;
    } else {
        f.lowered = lowerSchedule(fn.schedule, fn.args, f.name, lo);
        if (options.trace) {
            try {
                f.script = te::script::printScriptWithSources(fn.schedule, fn.args, f.name);
                f.lowered.linkScript(); // the TE pane's line links
            } catch (const CompileError& e) {
                f.script = std::string("# ") + e.what() + "\n";
            }
        }
    }
    if (stageText) {
        if (!stageText->empty()) *stageText += "\n"; // a blank line between functions
        *stageText += lower::describeFunction(fn);
        *stageText += go.schedule ? "  TE script:\n" : "  TE script (edited):\n";
        for (size_t p = 0, q; p < f.script.size(); p = q + 1) {
            q = f.script.find('\n', p);
            if (q == std::string::npos) q = f.script.size();
            *stageText += (q > p ? "    " + f.script.substr(p, q - p) : std::string()) + "\n";
        }
    }
    f.flops = flopCount(f.lowered);
    for (auto& t : fn.args) {
        double n = double(t->dtype.bytes());
        for (auto d : topi::staticShape(t)) n *= double(d);
        f.bytes += n;
    }
    return f;
}

} // namespace

std::unique_ptr<runtime::GraphExecutor> CompiledModel::makeExecutor() const {
    if (program) throw CompileError(kControlFlowInProcess);
    return std::make_unique<runtime::GraphExecutor>(plan, module, weights);
}

const FusedFunction* CompiledModel::findFunction(const std::string& name) const {
    for (auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

CompiledModel uncompiledModel(const graph::Graph& imported) {
    CompiledModel m;
    m.graph = imported;
    m.graphStages.push_back(importStage(imported));
    m.storedTypes = imported.storedTypes();
    m.unsupported = graph::unsupportedConstructs(imported);
    return m;
}

namespace {

/// A model whose control flow stays after inline-constant-if (or with
/// another host step, or compiled per value of its shape-carrying inputs:
/// `what` says which): its host program, and a plan of its inputs and outputs only.
CompiledModel compileControlFlow(const graph::Graph& g, const CompileOptions& options, std::string what = {}) {
    if (what.empty()) what = hostStepsText(g);
    if (options.request.target.isGPU())
        throw CompileError(what + " runs on the host: a model with it cannot be compiled for " +
                           options.request.target.str() + " yet");
    CompiledModel m;
    m.storedTypes = g.storedTypes();
    m.target = options.request.target;
    m.graph = g;
    if (options.trace) m.graphStages.push_back(importStage(g));
    for (auto& in : g.inputs())
        if (!in->outputTypes[0].isStatic())
            throw CompileError("input '" + in->name + "' has the dynamic shape " + in->outputTypes[0].str() +
                               "; bind it with --input-shape " + in->name + ":D1,D2,...");
    auto t0 = Clock::now();
    m.program = ControlFlowProgram::build(g, options);
    m.warnings.push_back(what + " runs on the host executor in this process (" +
                         m.program->describe() + "); a run on this machine's tessel-rpc server runs here too, "
                         "and such a model has no export yet");
    m.timings.codegenSeconds = since(t0);
    if (options.trace) m.functions = m.program->functions();
    if (!options.schedules.empty())
        m.warnings.push_back("edited schedules are not applied to a model with control flow yet: its regions "
                             "are compiled with their default schedules");
    auto tensor = [&](const std::string& name, const graph::TensorType& t, runtime::PlanTensor::Kind kind) {
        runtime::PlanTensor p;
        p.name = name;
        p.dtype = t.dtype;
        p.shape = t.shape;
        p.kind = kind;
        m.plan.tensors.push_back(p);
        return static_cast<int>(m.plan.tensors.size() - 1);
    };
    for (auto& in : g.inputs())
        m.plan.inputs.push_back(tensor(in->name, in->outputTypes[0], runtime::PlanTensor::Kind::Input));
    for (size_t i = 0; i < g.outputs().size(); ++i) {
        const graph::Value& v = g.outputs()[i];
        m.plan.outputs.push_back(tensor(v.name().empty() ? "output" + std::to_string(i) : v.name(), v.type(),
                                        runtime::PlanTensor::Kind::Output));
    }
    return m;
}

} // namespace

const char* const kControlFlowInProcess =
    "a model with control flow (If, Loop, Scan) or data-dependent output shapes (NonZero, Compress, Unique, "
    "NonMaxSuppression) runs in this process only for now: it has no export, "
    "so it cannot run on a device or be loaded by tessel-run";

CompiledModel compileGraph(const graph::Graph& imported, const CompileOptions& options) {
    if (imported.hasUnsupported()) // what the importer lets through only to be shown
        throw CompileError(graph::describeUnsupported(graph::unsupportedConstructs(imported)));
    if (hasHostSteps(imported)) {
        // An If on a condition known once shapes are bound goes away, and the
        // model compiles statically; what stays runs on the host executor.
        graph::GraphPassManager pre(options.request.registries().graphPasses);
        graph::Graph g = pre.run(imported, {"infer-shapes", "fold-constant", "inline-constant-if",
                                            "dead-code-elimination"});
        return hasHostSteps(g) ? compileControlFlow(g, options) : compileGraph(g, options);
    }
    CompiledModel m;
    m.storedTypes = imported.storedTypes();
    auto t0 = Clock::now();
    m.target = options.request.target;
    graph::GraphPassManager pm(options.request.registries().graphPasses);
    auto snaps = std::make_shared<graph::GraphSnapshotInstrument>();
    if (options.trace) {
        pm.addInstrument(snaps);
        m.graphStages.push_back(importStage(imported));
    }
    m.graph = pm.run(imported, options.graphPipeline.empty() ? graphPipelineFor(options.request.target)
                                                             : options.graphPipeline);
    for (auto& s : snaps->snapshots()) m.graphStages.push_back(s);
    for (auto& in : m.graph.inputs())
        if (!in->outputTypes[0].isStatic())
            throw CompileError("input '" + in->name + "' has the dynamic shape " + in->outputTypes[0].str() +
                               "; bind it with --input-shape " + in->name + ":D1,D2,...");
    graph::FuseOpsOptions fusion;
    fusion.ops = &options.request.registries().ops;
    m.fusion = graph::planFusion(m.graph, fusion);
    for (auto& [name, script] : options.schedules) {
        bool known = std::any_of(m.fusion.groups.begin(), m.fusion.groups.end(),
                                 [&](const graph::FusionGroup& g) { return g.name == name; });
        if (known) continue;
        std::string names;
        for (auto& g : m.fusion.groups) names += (names.empty() ? "" : ", ") + g.name;
        throw CompileError("schedule for " + name + ": the model has no fused function '" + name +
                           "' (its functions: " + names + ")");
    }
    m.timings.graphSeconds = since(t0);

    // Graph passes are a few percent of a compile, lowering about a quarter,
    // one LLVM build of the whole module the rest.
    auto report = [&](double fraction, const std::string& stage) {
        if (options.progress && !options.progress(fraction, stage)) throw CompileError("compilation cancelled");
    };
    t0 = Clock::now();
    lower::StoragePlanner planner(m.graph);
    size_t done = 0;
    double teSeconds = 0;
    std::string groupsText;
    for (auto& group : m.fusion.groups) {
        report(0.05 + 0.25 * double(done++) / double(std::max<size_t>(1, m.fusion.groups.size())),
               "lowering " + group.name);
        FusedFunction f = lowerFunction(m.graph, group, planner, options, teSeconds,
                                        options.trace ? &groupsText : nullptr, m.warnings);
        if (f.lowered.lowered.defined()) m.functions.push_back(std::move(f));
    }
    auto tp = Clock::now();
    m.weights = planner.finish();
    const double planSeconds = since(tp);
    m.plan = planner.takePlan();
    if (options.trace) {
        m.lowerStages.push_back(lower::loweringStage(lower::kLowerFusedGroups, std::move(groupsText), teSeconds));
        m.lowerStages.push_back(lower::loweringStage(lower::kPlanStorage, lower::printStoragePlan(m.plan), planSeconds));
    }
    m.timings.lowerSeconds = since(t0);

    report(0.3, "generating code");
    t0 = Clock::now();
    std::vector<LoweredFunction> fs;
    for (auto& f : m.functions) fs.push_back(f.lowered);
    codegen::BuildOptions bo = options.request.buildOptions();
    const bool texts = options.trace && options.moduleTexts;
    bo.debugInfo = texts;
    bo.emitAssembly = texts || options.request.target.isGPU(); // a GPU's code is its PTX
    if (!fs.empty()) {
        m.build = buildFunctions(fs, options.request.target, bo);
        m.module = m.build.module;
    }
    m.timings.codegenSeconds = since(t0);
    report(1.0, "done");
    return m;
}

namespace {

/// Writes an export for the runtime alone into `dir`: `funcs` compiled for
/// `target` and linked into the shared library, the plan and the weights.
void writeExport(const std::vector<tir::PrimFunc>& funcs, const runtime::ExecutorPlan& plan, const void* weights,
                 const std::string& dir, const Target& target) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw CompileError("cannot create '" + dir + "': " + ec.message());
    // Each file is written beside its final name and renamed, so a failed
    // export never leaves a half-written model that looks whole.
    auto write = [&](const char* name, const char* data, size_t size) {
        fs::path tmp = fs::path(dir) / (std::string(name) + ".tmp");
        {
            std::ofstream out(tmp, std::ios::binary);
            out.write(data, static_cast<std::streamsize>(size));
            if (!out) throw CompileError("cannot write '" + tmp.string() + "'");
        }
        fs::rename(tmp, fs::path(dir) / name, ec);
        if (ec) throw CompileError("cannot write '" + (fs::path(dir) / name).string() + "': " + ec.message());
    };
    if (funcs.empty()) {
        // Nothing to compute (an identity, a constant, a shape): no library,
        // and none left over from an earlier export into the same folder.
        fs::remove(fs::path(dir) / runtime::kExportLibrary, ec);
    } else if (target.isGPU()) {
        // The kernels' PTX and the launch table: each fused function a sequence
        // of kernels over its parameters and workspaces (runtime/CudaDeviceAPI.h).
        std::vector<tir::PrimFunc> kernels;
        nlohmann::json table;
        table["kernels"] = nlohmann::json::array();
        table["functions"] = nlohmann::json::array();
        for (auto& f : funcs) {
            tir::DeviceSplit split = tir::splitHostDevice(f);
            nlohmann::json fn = {{"name", f->name}, {"params", f->params.size()}};
            fn["workspaces"] = nlohmann::json::array();
            fn["launches"] = nlohmann::json::array();
            for (auto& w : split.workspaces) {
                size_t bytes = size_t(w->dtype.bytes());
                for (auto& d : w->shape) bytes *= size_t(tir::asConstInt(d).value_or(0));
                fn["workspaces"].push_back(bytes);
            }
            for (auto& k : split.kernels) {
                table["kernels"].push_back({{"name", k.kernel->name},
                                            {"grid", k.grid},
                                            {"block", k.block},
                                            {"shared", k.sharedBytes}});
                fn["launches"].push_back({{"kernel", k.kernel->name}, {"args", k.args}});
                kernels.push_back(k.kernel);
            }
            table["functions"].push_back(fn);
        }
        codegen::BuildOptions bo;
        bo.jit = false;
        const std::string ptx = codegen::build(kernels, target, bo).assembly;
        const std::string json = table.dump(1);
        write(runtime::kExportPtx, ptx.data(), ptx.size());
        write(runtime::kExportLaunches, json.data(), json.size());
        fs::remove(fs::path(dir) / runtime::kExportLibrary, ec);
    } else {
        fs::path lib = fs::path(dir) / (std::string(runtime::kExportLibrary) + ".tmp");
        codegen::linkSharedLibrary(codegen::emitObject(funcs, target), lib.string());
        fs::rename(lib, fs::path(dir) / runtime::kExportLibrary, ec);
        if (ec) throw CompileError("cannot write the library into '" + dir + "': " + ec.message());
    }
    std::string text = plan.toJson();
    write(runtime::kExportPlan, text.data(), text.size());
    write(runtime::kExportWeights, static_cast<const char*>(weights), static_cast<size_t>(plan.weightsBytes));
}

} // namespace

void exportModel(const CompiledModel& model, const std::string& dir, const Target& target) {
    if (model.program) throw CompileError(kControlFlowInProcess);
    std::vector<tir::PrimFunc> funcs;
    for (auto& f : model.functions) funcs.push_back(f.lowered.lowered);
    writeExport(funcs, model.plan, model.weights.rawData(), dir, target);
}

void exportKernel(const LoweredFunction& function, const std::string& dir, const Target& target) {
    writeExport({function.lowered}, runtime::ExecutorPlan::forKernel(signatureOf(function)), nullptr, dir, target);
}

CompiledModel compileModel(const std::string& path, const frontend::ImportOptions& import,
                           const CompileOptions& options) {
    frontend::ImportOptions io = import;
    if (!io.ops) io.ops = &options.request.registries().ops;
    return compileGraph(frontend::importOnnx(path, io), options);
}

CompiledModel compileModelForRun(const std::string& path, const frontend::ImportOptions& import,
                                 const CompileOptions& options) {
    frontend::ImportOptions io = import;
    if (!io.ops) io.ops = &options.request.registries().ops;
    const graph::Graph g = frontend::importOnnx(path, io);
    try {
        return compileGraph(g, options);
    } catch (const CompileError& e) {
        const bool integerInput = std::any_of(g.inputs().begin(), g.inputs().end(), [](const Ref<graph::Node>& in) {
            const graph::TensorType& t = in->outputTypes[0];
            return t.dtype.isIntOrUInt() && t.isStatic() && t.numElements() <= 64;
        });
        if (!isShapeCarryingError(e.what()) || !integerInput || hasHostSteps(g)) throw;
        return compileControlFlow(g, options, "an input that carries a shape or a count, given at run time (" +
                                                  std::string(e.what()) + "),");
    }
}

} // namespace tessel::driver
