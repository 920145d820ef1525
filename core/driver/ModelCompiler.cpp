#include "driver/ModelCompiler.h"

#include "codegen/SharedLibrary.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPipeline.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/ExportedModel.h"
#include "te/script/Script.h"
#include "te/script/ScriptPrinter.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "topi/Topi.h"
#include "topi/TopiUtil.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tessel::driver {

namespace {

using graph::Value;
using graph::ValueHash;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string identifier(const std::string& s, const std::string& fallback) {
    std::string out;
    for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = fallback + (out.empty() ? "" : "_" + out);
    return out;
}

/// A single-element constant becomes an inlined expression instead of a
/// kernel argument, so `x * 0.5` or Clip's bounds fold into the arithmetic.
te::Tensor inlineScalar(const graph::Constant& c, const std::string& name) {
    te::Expr v = c.dtype.isFloat() ? tir::makeConst(c.dtype, c.toDoubles()[0]) : tir::makeConst(c.dtype, c.toInts()[0]);
    return te::compute(topi::toExprs(c.shape), [v](const std::vector<te::Var>&) { return v; }, name,
                       topi::tag::kElemWise);
}

/// "float32[1, 64, 56, 56]": a TE tensor's type as messages show it.
std::string typeText(const te::Tensor& t) {
    std::string s = t->dtype.str() + "[";
    for (size_t i = 0; i < t->shape.size(); ++i) {
        auto c = tir::asConstInt(t->shape[i]);
        s += (i ? ", " : "") + (c ? std::to_string(*c) : tir::toString(t->shape[i]));
    }
    return s + "]";
}

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
                            const std::vector<te::Tensor>& expected, const LowerOptions& lo) {
    auto fail = [&](const std::string& why, SourceLoc loc) {
        return CompileError("schedule for " + name + ": " + why, loc);
    };
    te::script::ScriptOptions so;
    so.fileName = name + ".te"; // an inferred build is called `name`
    std::optional<te::script::ScriptResult> r;
    try {
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
        if (typeText(got[i]) != typeText(expected[i]))
            throw fail(which + " is " + typeText(got[i]) + " where the fused function's '" + expected[i].name() +
                           "' is " + typeText(expected[i]),
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

/// Builds the plan's tensors and steps, then assigns storages.
class PlanBuilder {
public:
    explicit PlanBuilder(const graph::Graph& g) : g_(g) {
        for (auto& n : g.nodes())
            for (auto& in : n->inputs)
                if (in.defined()) consumers_[in].push_back(n->id);
        for (auto& o : g.outputs()) graphOutputs_.insert(o);
    }

    /// The plan tensor of `v`, made on first use.
    int tensorOf(const Value& v) {
        auto it = index_.find(v);
        if (it != index_.end()) return it->second;
        runtime::PlanTensor t;
        t.name = v.name().empty() ? v.producer()->describe() + ":" + std::to_string(v.index()) : v.name();
        t.dtype = v.type().dtype;
        t.shape = v.type().shape;
        if (v.isConstant()) {
            t.kind = runtime::PlanTensor::Kind::Constant;
            constants_.push_back({static_cast<int>(plan.tensors.size()), v.constant()});
        } else if (v.isInput()) {
            t.kind = runtime::PlanTensor::Kind::Input;
        } else {
            t.kind = graphOutputs_.count(v) ? runtime::PlanTensor::Kind::Output
                                            : runtime::PlanTensor::Kind::Intermediate;
        }
        int idx = static_cast<int>(plan.tensors.size());
        plan.tensors.push_back(std::move(t));
        index_.emplace(v, idx);
        return idx;
    }

    /// A constant made at compile time (packed weights): a new plan tensor.
    int addConstant(const std::string& name, Ref<graph::Constant> c) {
        runtime::PlanTensor t;
        t.name = name;
        t.dtype = c->dtype;
        t.shape = c->shape;
        t.kind = runtime::PlanTensor::Kind::Constant;
        int idx = static_cast<int>(plan.tensors.size());
        constants_.push_back({idx, std::move(c)});
        plan.tensors.push_back(std::move(t));
        return idx;
    }

    bool usedOutside(const Value& v, const std::set<int64_t>& group) const {
        if (graphOutputs_.count(v)) return true;
        auto it = consumers_.find(v);
        if (it == consumers_.end()) return false;
        for (int64_t c : it->second)
            if (!group.count(c)) return true;
        return false;
    }

    /// Lays out the constants in one blob and gives every non-constant tensor
    /// a storage: inputs and outputs their own, intermediates a shared one
    /// free since the last step that read its previous tenant.
    runtime::NDArray finish() {
        for (auto& in : g_.inputs()) plan.inputs.push_back(tensorOf(in->output(0)));
        for (auto& o : g_.outputs()) plan.outputs.push_back(tensorOf(o));

        int64_t offset = 0;
        for (auto& [t, c] : constants_) {
            plan.tensors[static_cast<size_t>(t)].offset = offset;
            offset += (static_cast<int64_t>(c->bytes.size()) + 63) / 64 * 64;
        }
        plan.weightsBytes = offset;
        runtime::NDArray weights = runtime::NDArray::zeros({std::max<int64_t>(offset, 1)}, DataType::int8());
        for (auto& [t, c] : constants_)
            if (!c->bytes.empty())
                std::memcpy(static_cast<char*>(weights.rawData()) + plan.tensors[static_cast<size_t>(t)].offset,
                            c->bytes.data(), c->bytes.size());

        auto own = [&](runtime::PlanTensor& t) {
            t.storage = static_cast<int>(plan.storages.size());
            plan.storages.push_back(t.numBytes());
        };
        std::map<int, int> lastUse; // intermediate tensor -> last step reading it
        for (size_t s = 0; s < plan.steps.size(); ++s)
            for (int a : plan.steps[s].args) lastUse[a] = static_cast<int>(s);
        std::multimap<int64_t, int> free; // bytes -> storage
        for (size_t s = 0; s < plan.steps.size(); ++s) {
            for (int a : stepOutputs_[s]) {
                auto& t = plan.tensors[static_cast<size_t>(a)];
                if (t.storage >= 0 || t.kind != runtime::PlanTensor::Kind::Intermediate) continue;
                // Best fit: the smallest free storage that is large enough, else
                // grow the largest free one, else a new one.
                auto it = free.lower_bound(t.numBytes());
                if (it == free.end() && !free.empty()) it = std::prev(free.end());
                if (it != free.end()) {
                    t.storage = it->second;
                    auto& bytes = plan.storages[static_cast<size_t>(t.storage)];
                    bytes = std::max(bytes, t.numBytes());
                    free.erase(it);
                } else {
                    own(t);
                }
            }
            // Storages of intermediates read for the last time here become free
            // after this step (never during it: a kernel's arguments must not alias).
            std::set<int> released;
            for (int a : plan.steps[s].args) {
                auto& t = plan.tensors[static_cast<size_t>(a)];
                if (t.kind == runtime::PlanTensor::Kind::Intermediate && lastUse[a] == static_cast<int>(s) &&
                    released.insert(t.storage).second)
                    free.emplace(plan.storages[static_cast<size_t>(t.storage)], t.storage);
            }
        }
        for (auto& t : plan.tensors)
            if (t.kind != runtime::PlanTensor::Kind::Constant && t.storage < 0) own(t);
        plan.validate();
        return weights;
    }

    void addStep(std::string function, std::vector<int> args, std::vector<int> outputs) {
        plan.steps.push_back({std::move(function), std::move(args)});
        stepOutputs_.push_back(std::move(outputs));
    }

    runtime::ExecutorPlan plan;

private:
    const graph::Graph& g_;
    std::unordered_map<Value, std::vector<int64_t>, ValueHash> consumers_;
    std::unordered_set<Value, ValueHash> graphOutputs_;
    std::unordered_map<Value, int, ValueHash> index_;
    std::vector<std::pair<int, Ref<graph::Constant>>> constants_;
    std::vector<std::vector<int>> stepOutputs_;
};

/// The TE function of one fused group: its computes, schedule and arguments.
FusedFunction lowerGroup(const graph::Graph& g, const graph::FusionGroup& group, PlanBuilder& pb,
                         const CompileOptions& options) {
    FusedFunction f;
    f.name = group.name;
    f.group = group.index;
    f.members = group.members;
    std::set<int64_t> members(group.members.begin(), group.members.end());

    std::unordered_map<Value, te::Tensor, ValueHash> tensors;
    // Each parameter and how to get its plan tensor (made only when the
    // function reads it: a Reshape's shape or an unpacked weight is not).
    std::vector<std::pair<te::Tensor, std::function<int()>>> params;
    auto tensorFor = [&](const Value& v) -> te::Tensor {
        auto it = tensors.find(v);
        if (it != tensors.end()) return it->second;
        std::string name = identifier(v.name(), "p" + std::to_string(params.size()));
        te::Tensor t;
        if (auto c = v.constant(); c && c->numElements() == 0) {
            // An empty constant (ReduceSum's "no axes", Resize's unused roi) is
            // read as a constant or not at all: it has no tensor.
            tensors.emplace(v, t);
            return t;
        } else if (c && c->numElements() == 1) {
            t = inlineScalar(*c, name);
        } else {
            t = te::placeholder(topi::toExprs(v.type().shape), v.type().dtype, name);
            params.emplace_back(t, [&pb, v] { return pb.tensorOf(v); });
        }
        tensors.emplace(v, t);
        return t;
    };

    std::vector<te::Tensor> outputs;
    std::vector<Value> outputValues;
    for (int64_t id : group.members) {
        const graph::Node* n = g.findNode(id);
        TESSEL_CHECK(n, "fusion group " + group.name + " names a missing node");
        std::vector<te::Tensor> ins;
        std::vector<Ref<graph::Constant>> consts;
        for (auto& v : n->inputs) {
            ins.push_back(v.defined() ? tensorFor(v) : te::Tensor());
            consts.push_back(v.defined() ? v.constant() : Ref<graph::Constant>());
        }
        for (auto& t : n->outputTypes)
            if (!t.isStatic())
                throw CompileError(n->describe() + ": output shape " + t.str() +
                                   " is not static; bind the input shapes (--input-shape)");
        topi::OpContext ctx(*n, ins, consts);
        ctx.setConstantMaker([&](const std::string& name, Ref<graph::Constant> c) {
            te::Tensor t = te::placeholder(topi::toExprs(c->shape), c->dtype, name);
            params.emplace_back(t, [&pb, name, c] { return pb.addConstant(name, c); });
            return t;
        });
        auto outs = topi::computeNode(ctx);
        for (int i = 0; i < n->numOutputs(); ++i) {
            Value v = n->output(i);
            if (!outs[static_cast<size_t>(i)].defined()) {
                if (pb.usedOutside(v, members))
                    throw CompileError(n->describe() + ": output " + std::to_string(i) +
                                       " is used but is not computed in inference");
                continue;
            }
            tensors.emplace(v, outs[static_cast<size_t>(i)]);
            if (pb.usedOutside(v, members)) {
                outputs.push_back(outs[static_cast<size_t>(i)]);
                outputValues.push_back(v);
            }
        }
    }
    if (outputs.empty()) return f; // nothing of it is used

    // Only the placeholders the outputs read are arguments (a Reshape's shape is not).
    std::vector<te::Operation> outOps;
    for (auto& t : outputs) outOps.push_back(t->op);
    std::unordered_set<const te::OperationNode*> reached;
    for (auto& op : te::postOrderOps(outOps)) reached.insert(op.get());
    std::vector<te::Tensor> args;
    for (auto& [t, planTensor] : params) {
        if (!reached.count(t->op.get())) continue;
        args.push_back(t);
        f.args.push_back(planTensor());
    }
    std::vector<int> outIdx;
    for (size_t i = 0; i < outputs.size(); ++i) {
        args.push_back(outputs[i]);
        outIdx.push_back(pb.tensorOf(outputValues[i]));
        f.args.push_back(outIdx.back());
    }
    LowerOptions lo;
    lo.snapshots = options.trace;
    lo.passes = &options.request.registries().tirPasses;
    if (auto edited = options.schedules.find(f.name); edited != options.schedules.end()) {
        f.lowered = lowerEdited(f.name, edited->second, args, lo);
        f.script = edited->second;
    } else {
        topi::ScheduleOptions so = options.schedule;
        if (options.request.target.vectorBits > 0)
            so.vectorLanes = options.request.target.vectorLanes(DataType::float32());
        te::Schedule sch = topi::scheduleFused(outputs, so);
        f.lowered = lowerSchedule(sch, args, f.name, lo);
        if (options.trace) {
            try {
                f.script = te::script::printScriptWithSources(sch, args, f.name);
                f.lowered.linkScript(); // the TE pane's line links
            } catch (const CompileError& e) {
                f.script = std::string("# ") + e.what() + "\n";
            }
        }
    }
    f.flops = flopCount(f.lowered);
    pb.addStep(f.name, f.args, outIdx);
    return f;
}

} // namespace

std::unique_ptr<runtime::GraphExecutor> CompiledModel::makeExecutor() const {
    return std::make_unique<runtime::GraphExecutor>(plan, module, weights);
}

const FusedFunction* CompiledModel::findFunction(const std::string& name) const {
    for (auto& f : functions)
        if (f.name == name) return &f;
    return nullptr;
}

CompiledModel compileGraph(const graph::Graph& imported, const CompileOptions& options) {
    CompiledModel m;
    auto t0 = Clock::now();
    m.target = options.request.target;
    graph::GraphPassManager pm(options.request.registries().graphPasses);
    auto snaps = std::make_shared<graph::GraphSnapshotInstrument>();
    if (options.trace) {
        pm.addInstrument(snaps);
        m.graphStages.push_back(importStage(imported));
    }
    m.graph = pm.run(imported, options.graphPipeline.empty() ? graph::defaultGraphPipeline() : options.graphPipeline);
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
    PlanBuilder pb(m.graph);
    size_t done = 0;
    for (auto& group : m.fusion.groups) {
        report(0.05 + 0.25 * double(done++) / double(std::max<size_t>(1, m.fusion.groups.size())),
               "lowering " + group.name);
        FusedFunction f = lowerGroup(m.graph, group, pb, options);
        if (f.lowered.lowered.defined()) m.functions.push_back(std::move(f));
    }
    m.weights = pb.finish();
    m.plan = std::move(pb.plan);
    m.timings.lowerSeconds = since(t0);

    report(0.3, "generating code");
    t0 = Clock::now();
    std::vector<LoweredFunction> fs;
    for (auto& f : m.functions) fs.push_back(f.lowered);
    codegen::BuildOptions bo = options.request.buildOptions();
    bo.debugInfo = options.trace;
    bo.emitAssembly = options.trace;
    if (!fs.empty()) {
        m.build = buildFunctions(fs, options.request.target, bo);
        m.module = m.build.module;
    }
    m.timings.codegenSeconds = since(t0);
    report(1.0, "done");
    return m;
}

void exportModel(const CompiledModel& model, const std::string& dir, const Target& target) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw CompileError("cannot create '" + dir + "': " + ec.message());
    std::vector<tir::PrimFunc> funcs;
    for (auto& f : model.functions) funcs.push_back(f.lowered.lowered);
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
    fs::path lib = fs::path(dir) / (std::string(runtime::kExportLibrary) + ".tmp");
    codegen::linkSharedLibrary(codegen::emitObject(funcs, target), lib.string());
    fs::rename(lib, fs::path(dir) / runtime::kExportLibrary, ec);
    if (ec) throw CompileError("cannot write the library into '" + dir + "': " + ec.message());
    std::string plan = model.plan.toJson();
    write(runtime::kExportPlan, plan.data(), plan.size());
    write(runtime::kExportWeights, static_cast<const char*>(model.weights.rawData()),
          static_cast<size_t>(model.plan.weightsBytes));
}

CompiledModel compileModel(const std::string& path, const frontend::ImportOptions& import,
                           const CompileOptions& options) {
    frontend::ImportOptions io = import;
    if (!io.ops) io.ops = &options.request.registries().ops;
    return compileGraph(frontend::importOnnx(path, io), options);
}

} // namespace tessel::driver
