#include "driver/TeDriver.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/ThreadPool.h"
#include "te/Lower.h"
#include "te/script/Script.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"
#include "tir/passes/PassManager.h"
#include "tir/passes/Pipeline.h"

#include <chrono>
#include <cmath>

namespace tessel::driver {

namespace {

/// Records the TIR after every pass.
class SnapshotRecorder : public tir::PassInstrument {
public:
    explicit SnapshotRecorder(std::vector<PassSnapshot>& out) : out_(out) {}
    void afterPass(const tir::PassInfo& info, const tir::PrimFunc& before, const tir::PrimFunc& after,
                   double seconds) override {
        PassSnapshot s;
        s.pass = info.name;
        s.text = tir::toString(after);
        s.changed = out_.empty() ? s.text != tir::toString(before) : s.text != out_.back().text;
        s.seconds = seconds;
        out_.push_back(std::move(s));
    }

private:
    std::vector<PassSnapshot>& out_;
};

} // namespace

void LoweredFunction::linkScript() {
    if (!record || !lowered.defined() || !schedule.defined() || !schedule.hasSources()) {
        scriptLines = {};
        return;
    }
    scriptLines = te::ScriptLineTable::build(tir::printPrimFunc(lowered), lowered, *record);
}

LoweredFunction lowerSchedule(const te::Schedule& sch, const std::vector<te::Tensor>& args,
                              const std::string& name, const LowerOptions& options) {
    LoweredFunction f;
    f.name = name;
    f.schedule = sch;
    f.args = args;
    auto record = std::make_shared<te::LoweringRecord>();
    f.scheduled = te::scheduleToPrimFunc(sch, args, name, record.get());
    f.record = std::move(record);
    tir::PassManager pm;
    if (options.snapshots) pm.addInstrument(std::make_shared<SnapshotRecorder>(f.snapshots));
    f.lowered = pm.run(f.scheduled, options.pipeline.empty() ? tir::defaultTirPipeline() : options.pipeline);
    // Only a schedule a script made has lines to link (the TIR printed once more).
    f.linkScript();
    return f;
}

std::vector<LoweredFunction> lowerScript(std::string_view source, const ScriptOptions& options) {
    te::script::ScriptOptions so;
    so.fileName = options.fileName;
    so.config = options.config;
    so.workload = options.workload;
    te::script::ScriptResult r = te::script::runScript(source, so);
    std::vector<LoweredFunction> out;
    for (auto& b : r.builds) {
        try {
            out.push_back(lowerSchedule(b.schedule, b.args, b.name, options.lower));
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

codegen::BuildResult buildFunctions(const std::vector<LoweredFunction>& fs, const codegen::Target& target,
                                    const codegen::BuildOptions& options) {
    std::vector<tir::PrimFunc> funcs;
    for (auto& f : fs) funcs.push_back(f.lowered);
    return codegen::build(funcs, target, options);
}

namespace {

std::vector<int64_t> constShape(const te::Tensor& t) {
    std::vector<int64_t> s;
    for (auto& d : t->shape) {
        auto c = tir::asConstInt(d);
        if (!c) throw CompileError("argument '" + t.name() + "' has a symbolic shape; bind it to run");
        s.push_back(*c);
    }
    return s;
}

struct Prepared {
    runtime::ModulePtr module;
    runtime::KernelFunction fn = nullptr;
    std::vector<runtime::NDArray> arrays;
    std::vector<void*> ptrs;
};

Prepared prepare(const LoweredFunction& f, uint64_t seed) {
    codegen::BuildOptions bo;
    bo.emitAssembly = false;
    bo.debugInfo = false;
    Prepared p;
    p.module = codegen::build({f.lowered}, codegen::Target::host(), bo).module;
    TESSEL_CHECK(p.module, "JIT produced no module");
    p.fn = p.module->function(f.name);
    TESSEL_CHECK(p.fn, "compiled module has no function " + f.name);
    uint64_t s = seed;
    for (auto& a : f.args) {
        runtime::NDArray arr(constShape(a), a->dtype);
        if (a->op->opKind() == te::OpKind::Placeholder) arr.fillRandom(s++, 0.0, 1.0);
        else arr.fillZero();
        p.arrays.push_back(std::move(arr));
    }
    for (auto& a : p.arrays) p.ptrs.push_back(a.rawData());
    return p;
}

} // namespace

RunReport runAndCheck(const LoweredFunction& f, const RunOptions& options) {
    RunReport rep;
    if (options.threads > 0) runtime::ThreadPool::global().setNumThreads(options.threads);
    rep.threads = runtime::ThreadPool::global().numThreads();
    Prepared p = prepare(f, options.seed);
    int32_t rc = 0;
    // Cancellation unwinds out of the time evaluator's loop between calls.
    struct Cancelled {};
    auto call = [&] {
        if (options.cancelled && options.cancelled()) throw Cancelled{};
        rc |= p.fn(p.ptrs.data());
    };
    try {
        auto t0 = std::chrono::steady_clock::now();
        call();
        double firstSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) {
            rep.error = "the kernel returned error code " + std::to_string(rc);
            return rep;
        }
        for (size_t i = 0; i < f.args.size(); ++i)
            if (f.args[i]->op->opKind() == te::OpKind::Compute) rep.outputs.push_back(p.arrays[i].copy());
        rep.ok = true;
        if (options.check) {
            std::vector<runtime::NDArray> ref = options.referenceOutputs;
            if (ref.empty()) {
                if (options.cancelled && options.cancelled()) throw Cancelled{};
                LoweredFunction rf = lowerReference(f);
                Prepared rp = prepare(rf, options.seed);
                if (rp.fn(rp.ptrs.data()) != 0) throw CompileError("the reference kernel failed");
                for (size_t i = 0; i < rf.args.size(); ++i)
                    if (rf.args[i]->op->opKind() == te::OpKind::Compute) ref.push_back(std::move(rp.arrays[i]));
            }
            if (ref.size() != rep.outputs.size()) throw CompileError("reference and function have different outputs");
            for (size_t i = 0; i < ref.size(); ++i) {
                auto c = runtime::compare(rep.outputs[i], ref[i], options.rtol, 1e-6);
                rep.maxAbsErr = std::max(rep.maxAbsErr, c.maxAbsError);
                rep.maxRelErr = std::max(rep.maxRelErr, c.maxRelError);
                if (!c.shapesMatch || !(c.maxRelError <= options.rtol)) {
                    rep.ok = false;
                    rep.error = "output differs from the reference schedule: " + c.str();
                }
            }
        }
        runtime::TimeEvaluator ev = options.evaluator;
        if (firstSeconds > 0.5) { // a slow kernel (the naive baseline): few runs, no warm-up
            ev.warmup = 0;
            ev.minRepeatMs = 0;
            ev.number = 1;
            ev.repeat = std::min(ev.repeat, 3);
        }
        std::vector<double> secs = ev.measure(call);
        for (double s : secs) rep.repeatsMs.push_back(s * 1e3);
        rep.latencyMs = runtime::median(rep.repeatsMs);
        double flops = flopCount(f);
        rep.gflops = rep.latencyMs > 0 ? flops / (rep.latencyMs * 1e-3) / 1e9 : 0;
        return rep;
    } catch (const Cancelled&) {
        RunReport cancelled;
        cancelled.threads = rep.threads;
        cancelled.error = "cancelled";
        return cancelled;
    }
}

} // namespace tessel::driver
