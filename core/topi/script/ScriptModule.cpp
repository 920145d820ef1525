// The `topi` script module: every binding installed under its dotted name,
// the documented table, and topi.schedule_default.
#include "topi/script/ScriptModule.h"

#include "te/script/builtins/Builtins.h"
#include "topi/script/Bindings.h"

#include <algorithm>
#include <unordered_set>

namespace tessel::topi::script {

using ts::Value;

namespace {

/// The signature as the documentation shows it: `data, kernel, strides=1`.
std::string signature(const std::vector<Param>& params) {
    std::string s;
    for (auto& p : params) {
        if (!s.empty()) s += ", ";
        s += p.name;
        if (!p.def.empty()) s += "=" + p.def;
    }
    return s;
}

/// Runs a binding's body; what the compute rejects (an error with no place)
/// is put at the call and named after the function.
Value runBody(ts::Interpreter& in, const std::string& fname, SourceLoc loc,
              const std::function<Value()>& body) {
    return in.guarded(loc, [&]() -> Value {
        try {
            return body();
        } catch (const CompileError& e) {
            if (e.diagnostic().loc.known()) throw;
            Diagnostic d = e.diagnostic();
            d.message = fname + "(): " + d.message;
            d.loc = loc;
            throw CompileError(d);
        }
    });
}

/// Notes every stage the default schedule changed (split, fused, annotated,
/// inlined, attached) and every loop it made at `loc`, so the TIR's loops
/// link to the schedule_default line as they would to a split's.
void noteSchedule(ts::ScriptRecorder& rec, const te::Schedule& s, SourceLoc loc) {
    for (const te::Stage& st : s.stages()) {
        const te::StageData& d = st.data();
        if (d.relations.empty() && d.annotations.empty() && d.attach == te::AttachKind::Root)
            continue;
        rec.noteOperation(st.op(), loc);
        rec.noteLoops(d.allIterVars, loc);
    }
}

Value scheduleDefault(Call& c) {
    std::vector<te::Tensor> outs;
    if (c.args.value(0).is(Value::Kind::Tensor))
        outs = {c.tensor(0)};
    else
        outs = c.tensors(0);
    std::unordered_set<const te::OperationNode*> seen;
    for (auto& t : outs) {
        if (t->op->opKind() != te::OpKind::Compute)
            c.fail(0,
                   "'" + t.name() + "' is a placeholder; pass the tensors the function computes");
        if (!seen.insert(t->op.get()).second) c.fail(0, "'" + t.name() + "' is given twice");
    }
    ScheduleOptions o = c.ctx.schedule;
    if (c.has(1)) {
        const int64_t lanes = c.integer(1);
        if (lanes < 1 || lanes > 64)
            c.fail(1, "'vector_lanes' must be in [1, 64], not " + std::to_string(lanes));
        o.vectorLanes = int(lanes);
    }
    // With cfg, the schedule's knobs (the register block ...) are the template's.
    te::Schedule s = scheduleFused(outs, o, c.has(2) ? &c.ctx.recorder->config : nullptr);
    ts::ScriptRecorder& rec = *c.ctx.recorder;
    rec.schedules.push_back(s);
    noteSchedule(rec, s, c.loc());
    return Value(s);
}

} // namespace

void addScheduleBindings(std::vector<Binding>& out) {
    out.push_back({"topi.target_lanes",
                   {{"dtype", "\"float32\""}},
                   "lanes of the target's vector registers for dtype (float32: 16 with AVX-512, 8 with AVX2): "
                   "the channel block alter-layout stores float32 activations in",
                   [](Call& c) {
                       const DataType t = c.has(0) ? c.dtype(0) : DataType::float32();
                       return Value::integer(std::max<int64_t>(1, int64_t(c.ctx.schedule.vectorLanes) * 32 / t.bits()));
                   }});
    out.push_back(
        {"topi.schedule_default",
         {{"outs"}, {"vector_lanes", "None"}, {"cfg", "None"}},
         "the model compiler's schedule of a fused function computing outs (a Tensor or a list); "
         "vector_lanes defaults to the target's float32 lanes; with cfg, its knobs are the template's",
         scheduleDefault});
}

const std::vector<Binding>& allBindings() {
    static const std::vector<Binding> kBindings = [] {
        std::vector<Binding> b;
        addNnBindings(b);
        addElementwiseBindings(b);
        addReduceBindings(b);
        addTransformBindings(b);
        addScheduleBindings(b);
        return b;
    }();
    return kBindings;
}

const std::vector<ScriptFunctionInfo>& scriptFunctions() {
    static const std::vector<ScriptFunctionInfo> kInfo = [] {
        std::vector<ScriptFunctionInfo> info;
        for (auto& b : allBindings())
            info.push_back({b.name, signature(b.params), b.summary});
        return info;
    }();
    return kInfo;
}

void installScriptModule(ts::BuiltinTable& table, const ScheduleOptions& defaults) {
    auto ctx = std::make_shared<const Context>(Context{table.recorder(), defaults});
    for (const Binding& b : allBindings()) {
        const auto dot = b.name.rfind('.');
        std::vector<ts::ParamSpec> specs;
        for (auto& p : b.params)
            specs.push_back({p.name, p.def.empty(), p.alias});
        const Binding* binding = &b; // allBindings() lives as long as the program
        table.module(b.name.substr(0, dot))
            .fn(b.name.substr(dot + 1),
                [binding, specs, ctx](ts::Interpreter& in, const Value&,
                                      const ts::CallArgs& args) -> Value {
                    ts::BoundArgs a(in, binding->name, args, specs);
                    Call call(in, a, binding->params, *ctx);
                    return runBody(in, binding->name, args.loc,
                                   [&] { return binding->body(call); });
                });
    }
    table.alias("tvm.topi", "topi");
    table.alias("tessel.topi", "topi");
}

te::script::ModuleInstaller scriptModule(const ScheduleOptions& defaults) {
    return [defaults](ts::BuiltinTable& table) { installScriptModule(table, defaults); };
}

} // namespace tessel::topi::script
