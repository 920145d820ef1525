// tessel.workload: the workload parameters of a template (shapes, strides,
// pads), declared with defaults that ScriptOptions::workload overrides.
//
//     wl = tessel.workload(N=1, C=64, H=56, W=56)
//     data = te.placeholder((wl.N, wl.C, wl.H, wl.W), name="data")

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

#include "ir/NamedInts.h"
#include "te/Suggest.h"

#include <algorithm>

namespace tessel::te::script {

namespace {

std::string at(SourceLoc loc) {
    return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

Value declare(ScriptRecorder& rec, Interpreter& in, const CallArgs& c) {
    if (rec.workloadLoc.known())
        in.fail(c.loc, "tessel.workload(): the workload is already declared (at " +
                           at(rec.workloadLoc) + "); declare every parameter in one call");
    if (!c.positional.empty())
        in.fail(c.positional[0].loc, "tessel.workload() takes its parameters by name "
                                     "(tessel.workload(N=1, C=64)), not by position");
    std::vector<WorkloadParam> params;
    std::vector<std::string> names;
    for (auto& [name, arg] : c.keywords) {
        for (auto& p : params)
            if (p.name == name)
                in.fail(arg.loc, "tessel.workload(): parameter '" + name + "' is given twice");
        const Value& v = arg.get();
        if (!v.is(Value::Kind::Int))
            in.fail(arg.loc, "tessel.workload(): parameter '" + name +
                                 "' must default to an int (a shape, a stride, a pad), not " +
                                 typeName(v));
        WorkloadParam p;
        p.name = name;
        p.defaultValue = p.value = v.asInt();
        p.loc = arg.loc;
        params.push_back(p);
        names.push_back(name);
    }
    // The caller's values: every name must be one the template declares.
    for (auto& [name, value] : rec.options().workload) {
        // Captured by name: clang before 16 cannot capture a structured binding.
        auto it = std::find_if(params.begin(), params.end(),
                               [&name = name](const WorkloadParam& p) { return p.name == name; });
        if (it == params.end()) {
            std::string known;
            for (auto& n : names)
                known += (known.empty() ? "" : ", ") + n;
            in.fail(c.loc, "the workload sets parameter '" + name +
                               "', which the template does not declare (it declares " +
                               (known.empty() ? std::string("none") : known) + ")" +
                               didYouMean(name, names));
        }
        it->value = value;
        it->overridden = true;
    }
    rec.workload = params;
    rec.workloadLoc = c.loc;

    auto o = std::make_shared<NativeObject>();
    o->typeName = "Workload";
    std::string text;
    for (auto& p : params) {
        Value v = Value::integer(p.value);
        o->attrs.emplace_back(p.name, [v] { return v; });
        text += (text.empty() ? "" : ", ") + p.name + "=" + std::to_string(p.value);
    }
    o->reprText = "Workload(" + text + ")";
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

} // namespace

void installWorkload(BuiltinTable& t) {
    auto rec = t.recorder();
    t.module("tessel").fn("workload", [rec](Interpreter& in, const Value&, const CallArgs& c) {
        return declare(*rec, in, c);
    });
}

} // namespace tessel::te::script

namespace tessel::te::script {

std::map<std::string, int64_t> parseWorkload(std::string_view text) {
    return parseNamedInts(text, {"workload", "NAME=VALUE (a parameter name and an integer)", true, true});
}

std::string formatWorkload(const std::vector<WorkloadParam>& params) {
    std::string out;
    for (auto& p : params)
        out += (out.empty() ? "" : ",") + p.name + "=" + std::to_string(p.value);
    return out;
}

} // namespace tessel::te::script
