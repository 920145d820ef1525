// The `tvm` and `tessel` modules: lower and build (recorded as BuildRequests
// for the driver, nothing is compiled here) and tvm.target.Target.

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

namespace tessel::te::script {

namespace {

std::vector<Tensor> toTensorList(Interpreter& in, const BoundArgs& a, size_t i) {
    const Value& v = a.value(i);
    if (!v.isSequence()) a.typeError(i, "a list of tensors");
    std::vector<Tensor> out;
    for (size_t k = 0; k < v.items().size(); ++k) {
        const Value& t = v.items()[k];
        if (!t.is(Value::Kind::Tensor))
            in.fail(a.loc(i), a.fname() + "(): args[" + std::to_string(k) +
                                  "] must be a Tensor, not " + typeName(t));
        out.push_back(t.asTensor());
    }
    return out;
}

std::string targetText(const BoundArgs& a, size_t i) {
    if (!a.has(i)) return {};
    if (a.value(i).is(Value::Kind::String)) return a.value(i).asString();
    a.typeError(i, "a target string such as \"llvm\"");
}

/// tvm.lower / tvm.build / tessel.build.
NativeFunction buildFunction(std::shared_ptr<ScriptRecorder> rec, std::string name,
                             BuildRequest::Kind kind) {
    return [rec, name, kind](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        std::vector<ParamSpec> params = {{"inputs", true, "sch"}, {"args"}, {"name"}, {"binds"}};
        if (kind == BuildRequest::Kind::Lower) {
            params.push_back({"simple_mode"});
        } else {
            params.push_back({"target"});
            params.push_back({"target_host"});
            params.push_back({"runtime"});
        }
        BoundArgs a(in, name, c, params);
        BuildRequest r;
        const Value& inp = a.value(0);
        if (inp.is(Value::Kind::Schedule)) {
            r.schedule = inp.asSchedule();
            r.name = rec->defaultName();
            r.args = rec->inferArgs(r.schedule);
        } else if (inp.is(Value::Kind::Opaque) && inp.asOpaque().buildIndex >= 0) {
            r = rec->builds[size_t(inp.asOpaque().buildIndex)];
        } else {
            a.typeError(0, "a Schedule (from te.create_schedule)");
        }
        if (a.has(1)) r.args = toTensorList(in, a, 1);
        if (a.has(2)) r.name = a.string(2);
        if (a.has(3)) in.fail(a.loc(3), a.fname() + "(): 'binds' is not supported");
        if (kind == BuildRequest::Kind::Build && a.has(4)) r.target = targetText(a, 4);
        if (r.args.empty()) in.fail(c.loc, a.fname() + "(): the function has no arguments");
        r.kind = kind;
        r.loc = c.loc;
        r.inferred = false;
        rec->builds.push_back(r);
        auto o = std::make_shared<OpaqueObject>();
        o->typeName = kind == BuildRequest::Kind::Lower ? "IRModule" : "Module";
        o->message = "the result of " + name +
                     " cannot be used inside a TE script; Tessel compiles, runs and shows the "
                     "function itself";
        o->buildIndex = static_cast<int>(rec->builds.size() - 1);
        return Value(std::shared_ptr<const OpaqueObject>(std::move(o)));
    };
}

} // namespace

void installBuild(BuiltinTable& t) {
    auto rec = t.recorder();
    ModuleBuilder& tvm = t.module("tvm");
    t.setImportable("tvm");
    t.alias("tvm.te", "te");
    t.alias("tvm.tir", "tir");
    t.module("tvm.target").fn("Target", [](Interpreter& in, const Value&, const CallArgs& c) {
        BoundArgs a(in, "tvm.target.Target", c, {{"target", true}, {"host"}});
        return Value::string(a.string(0));
    });
    tvm.fn("lower", buildFunction(rec, "tvm.lower", BuildRequest::Kind::Lower));
    tvm.fn("build", buildFunction(rec, "tvm.build", BuildRequest::Kind::Build));
    tvm.fn("const", constFunction("tvm.const"));

    ModuleBuilder& tessel = t.module("tessel");
    t.setImportable("tessel");
    t.alias("tessel.te", "te");
    t.alias("tessel.tir", "tir");
    tessel.fn("lower", buildFunction(rec, "tessel.lower", BuildRequest::Kind::Lower));
    tessel.fn("build", buildFunction(rec, "tessel.build", BuildRequest::Kind::Build));
}

} // namespace tessel::te::script
