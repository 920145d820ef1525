#include "driver/TeDriver.h"

#include "codegen/Target.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/DeviceInfo.h"
#include "runtime/ThreadPool.h"
#include "te/Lower.h"
#include "te/script/Script.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"
#include "tir/passes/PassManager.h"
#include "tir/passes/Pipeline.h"
#include "topi/script/ScriptModule.h"

#include <chrono>
#include <cmath>

namespace tessel::driver {

void LoweredFunction::linkScript() {
    if (!record || !lowered.defined() || !schedule.defined() || !schedule.hasSources()) {
        scriptLines = {};
        return;
    }
    scriptLines = te::ScriptLineTable::build(tir::printPrimFunc(lowered), lowered, *record);
}

namespace {
/// The script line a GPU issue is about: the last line that made or changed
/// its loop (a bind, a split) or its buffer's stage; unknown without a script.
SourceLoc scheduleLineOf(const te::LoweringRecord& record, const tir::GpuIssue& issue) {
    if (issue.loop)
        if (auto it = record.loops.find(issue.loop); it != record.loops.end()) {
            auto& ivs = it->second.stage->sources.iterVars;
            if (auto s = ivs.find(it->second.iterVar.get()); s != ivs.end() && !s->second.empty()) return s->second.back();
            if (!it->second.stage->sources.stage.empty()) return it->second.stage->sources.stage.back();
        }
    if (issue.buffer)
        if (auto it = record.buffers.find(issue.buffer); it != record.buffers.end())
            if (!it->second.stage->sources.stage.empty()) return it->second.stage->sources.stage.back();
    return {};
}
} // namespace

LoweredFunction lowerSchedule(const te::Schedule& sch, const std::vector<te::Tensor>& args,
                              const std::string& name, const LowerOptions& options) {
    LoweredFunction f;
    f.name = name;
    f.schedule = sch;
    f.args = args;
    auto record = std::make_shared<te::LoweringRecord>();
    f.scheduled = te::scheduleToPrimFunc(sch, args, name, record.get());
    f.record = std::move(record);
    tir::PassManager pm(options.passes ? *options.passes : tir::builtinTirPasses());
    auto snapshots = std::make_shared<tir::SnapshotInstrument>();
    if (options.snapshots) pm.addInstrument(snapshots);
    std::vector<std::string> pipeline = options.pipeline;
    if (pipeline.empty()) pipeline = options.gpu ? tir::gpuTirPipeline() : tir::defaultTirPipeline();
    f.lowered = pm.run(f.scheduled, pipeline);
    if (options.gpu) {
        auto issues = tir::verifyGpuCode(f.lowered, *options.gpu);
        if (!issues.empty()) throw CompileError(Diagnostic{Diagnostic::Severity::Error, issues[0].message,
                                                           scheduleLineOf(*f.record, issues[0])});
    }
    f.snapshots = snapshots->snapshots();
    // Only a schedule a script made has lines to link (the TIR printed once more).
    f.linkScript();
    return f;
}

topi::ScheduleOptions scheduleOptionsFor(const Target& target, topi::ScheduleOptions base) {
    if (target.vectorBits > 0) base.vectorLanes = target.vectorLanes(DataType::float32());
    // x86 has 16 vector registers before AVX-512 and 32 with it; AArch64 32, 32-bit Arm 16.
    const std::string arch = target.arch();
    if (arch == "x86_64" || arch == "i686" || arch == "i386")
        base.vectorRegisters = target.vectorBits >= 512 || target.hasFeature("avx512f") ? 32 : 16;
    else if (arch.rfind("arm", 0) == 0 || arch.rfind("thumb", 0) == 0)
        base.vectorRegisters = 16;
    else if (!arch.empty())
        base.vectorRegisters = 32;
    // This machine's private cache when compiling for its architecture (a
    // board of the same architecture is taken to be alike); else the default.
    if (target.kind == TargetKind::LLVM && (target.triple.empty() || codegen::isHostTarget(target)))
        if (const int64_t l2 = runtime::DeviceInfo::local().l2Bytes; l2 > 0) base.l2Bytes = l2;
    return base;
}

std::vector<te::script::ModuleInstaller> scriptModules(const topi::ScheduleOptions& schedule) {
    return {topi::script::scriptModule(schedule)};
}

te::script::ScriptResult runScript(std::string_view source, te::script::ScriptOptions options,
                                   const Target& target) {
    for (auto& m : scriptModules(scheduleOptionsFor(target)))
        options.modules.push_back(std::move(m));
    return te::script::runScript(source, options);
}

std::vector<LoweredFunction> lowerScript(std::string_view source, const ScriptOptions& options) {
    te::script::ScriptOptions so;
    so.fileName = options.fileName;
    so.config = options.config;
    so.workload = options.workload;
    te::script::ScriptResult r = runScript(source, so, options.target);
    LowerOptions lower = options.lower;
    if (options.target.isGPU() && !lower.gpu) {
        lower.gpu = tir::GpuLimits{};
        if (options.target.maxThreads > 0) lower.gpu->maxThreadsPerBlock = options.target.maxThreads;
    }
    std::vector<LoweredFunction> out;
    for (auto& b : r.builds) {
        try {
            out.push_back(lowerSchedule(b.schedule, b.args, b.name, lower));
        } catch (const CompileError& e) {
            // Lowering errors belong to the build call that asked for them.
            Diagnostic d = e.diagnostic();
            if (!d.loc.known()) d.loc = b.loc;
            throw CompileError(d);
        }
    }
    return out;
}

namespace {
std::vector<te::Operation> outputOps(const std::vector<te::Tensor>& args) {
    std::vector<te::Operation> outs;
    for (auto& a : args)
        if (a->op->opKind() == te::OpKind::Compute) outs.push_back(a->op);
    return outs;
}
} // namespace

LoweredFunction lowerReference(const LoweredFunction& f) {
    auto outs = outputOps(f.args);
    if (outs.empty()) throw CompileError("function '" + f.name + "' has no computed output to check");
    return lowerSchedule(te::createSchedule(outs), f.args, f.name + "_reference");
}

double flopCount(const LoweredFunction& f) {
    double total = 0;
    for (auto& op : te::postOrderOps(outputOps(f.args))) {
        auto* c = dynamic_cast<const te::ComputeOpNode*>(op.get());
        if (!c) continue;
        double points = 1;
        for (auto& iv : c->axis) points *= static_cast<double>(tir::asConstInt(iv->dom.extent).value_or(0));
        for (auto& iv : c->reduceAxis) points *= static_cast<double>(tir::asConstInt(iv->dom.extent).value_or(0));
        int ops = 0;
        tir::Expr body = c->body[0];
        if (auto* r = body.as<tir::ReduceNode>()) {
            ops = 1; // the combiner
            body = r->source;
        }
        tir::postOrderVisit(body, [&](const Object* n) {
            auto* e = dynamic_cast<const tir::BaseExprNode*>(n);
            if (!e || !e->type.isFloat()) return;
            switch (e->kind) {
            case tir::NodeKind::Add:
            case tir::NodeKind::Sub:
            case tir::NodeKind::Mul:
            case tir::NodeKind::Div:
            case tir::NodeKind::Min:
            case tir::NodeKind::Max:
            case tir::NodeKind::Call: ++ops; break;
            default: break;
            }
        });
        total += points * ops;
    }
    return total;
}

std::vector<tir::DeviceSplit> splitForDevice(const std::vector<LoweredFunction>& fs) {
    std::vector<tir::DeviceSplit> out;
    for (auto& f : fs) out.push_back(tir::splitHostDevice(f.lowered));
    return out;
}

codegen::BuildResult buildFunctions(const std::vector<LoweredFunction>& fs, const Target& target,
                                    const codegen::BuildOptions& options) {
    std::vector<tir::PrimFunc> funcs;
    if (target.isGPU()) {
        for (auto& split : splitForDevice(fs))
            for (auto& k : split.kernels) funcs.push_back(k.kernel);
        codegen::BuildOptions o = options;
        o.jit = false;
        return codegen::build(funcs, target, o);
    }
    for (auto& f : fs) funcs.push_back(f.lowered);
    return codegen::build(funcs, target, options);
}

} // namespace tessel::driver
