// `cfg`: the knobs of a tunable template, a thin wrapper over te::ConfigSpace
// (te/ConfigSpace.h) that speaks AutoTVM's script API: define_split,
// define_knob, define_reorder, define_annotate, add_flop, cfg["name"] and the
// entities' apply().

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

#include "te/Suggest.h"
#include "tir/IROperators.h"

#include <algorithm>

namespace tessel::te::script {

namespace {

using Rec = std::shared_ptr<ScriptRecorder>;

constexpr int kMaxReorderAxes = 6;
constexpr int kMaxSplitParts = 8;

Value intList(const std::vector<int64_t>& v) {
    Value::Items items;
    for (int64_t x : v)
        items.push_back(Value::integer(x));
    return Value::list(std::move(items));
}

Value toValue(const KnobValue& k) {
    struct Convert {
        Value operator()(std::monostate) const { return Value(); }
        Value operator()(bool b) const { return Value::boolean(b); }
        Value operator()(int64_t i) const { return Value::integer(i); }
        Value operator()(double d) const { return Value::real(d); }
        Value operator()(const std::string& s) const { return Value::string(s); }
        Value operator()(const KnobValue::Ints& v) const { return intList(v); }
        Value operator()(const KnobValue::Strings& v) const {
            Value::Items items;
            for (auto& s : v)
                items.push_back(Value::string(s));
            return Value::list(std::move(items));
        }
    };
    return std::visit(Convert{}, k.get());
}

/// The stage an entity's apply() works on: `op` may be a stage already, or
/// a tensor or operation looked up in the schedule.
Stage stageOf(Interpreter& in, const BoundArgs& a, size_t sched, size_t op) {
    if (a.value(op).is(Value::Kind::Stage)) return a.stage(op);
    Schedule s = a.schedule(sched);
    Operation o = a.operation(op);
    return in.guarded(a.loc(op), [&] { return s[o]; });
}

std::vector<IterVar> iterVars(const BoundArgs& a, size_t i, const std::string& expected) {
    if (!a.value(i).isSequence()) a.typeError(i, expected);
    std::vector<IterVar> out;
    for (auto& v : a.value(i).items()) {
        if (!v.is(Value::Kind::IterVar)) a.typeError(i, expected);
        out.push_back(v.asIterVar());
    }
    return out;
}

std::shared_ptr<NativeObject> object(std::string typeName, std::string reprText) {
    auto o = std::make_shared<NativeObject>();
    o->typeName = std::move(typeName);
    o->reprText = std::move(reprText);
    return o;
}

Value splitEntity(Rec rec, const std::string& knob, const std::vector<int64_t>& size) {
    Value sizeValue = intList(size);
    auto o = object("SplitEntity", "SplitEntity(" + repr(sizeValue) + ")");
    o->attrs = {{"size", [sizeValue] { return sizeValue; }}};
    o->methods = {
        {"apply", [rec, knob, size](Interpreter& in, const Value&, const CallArgs& c) -> Value {
             BoundArgs a(in, "SplitEntity.apply", c, {{"s", true}, {"op", true}, {"axis", true}});
             Stage st = stageOf(in, a, 0, 1);
             IterVar axis = a.iterVar(2);
             try {
                 ConfigSpace::checkSplitExtent(knob, size, axis);
             } catch (const CompileError& e) {
                 in.fail(a.loc(2), "SplitEntity.apply(): " + e.diagnostic().message);
             }
             auto loops = ConfigSpace::applySplitSizes(knob, size, st, axis);
             rec->noteLoop(axis, c.loc);
             rec->noteLoops(loops, c.loc);
             return iterVarList(loops);
         }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value reorderEntity(Rec rec, const std::vector<int64_t>& perm) {
    Value permValue = intList(perm);
    auto o = object("ReorderEntity", "ReorderEntity(" + repr(permValue) + ")");
    o->attrs = {{"perm", [permValue] { return permValue; }}};
    o->methods = {
        {"apply", [rec, perm](Interpreter& in, const Value&, const CallArgs& c) -> Value {
             BoundArgs a(in, "ReorderEntity.apply", c, {{"s", true}, {"op", true}, {"axes", true}});
             Stage st = stageOf(in, a, 0, 1);
             auto axes = iterVars(a, 2, "a list of IterVars");
             if (axes.size() != perm.size())
                 in.fail(a.loc(2), "ReorderEntity.apply(): the reorder is of " +
                                       std::to_string(perm.size()) + " axes, not " +
                                       std::to_string(axes.size()));
             std::vector<IterVar> order;
             for (int64_t p : perm)
                 order.push_back(axes[size_t(p)]);
             st.reorder(order);
             rec->noteLoops(order, c.loc);
             return iterVarList(order);
         }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value annotateEntity(Rec rec, const std::vector<std::string>& anns) {
    Value::Items items;
    for (auto& s : anns)
        items.push_back(Value::string(s));
    Value annsValue = Value::list(std::move(items));
    auto o = object("AnnotateEntity", "AnnotateEntity(" + repr(annsValue) + ")");
    o->attrs = {{"anns", [annsValue] { return annsValue; }}};
    o->methods = {
        {"apply", [rec, anns](Interpreter& in, const Value&, const CallArgs& c) -> Value {
             BoundArgs a(in, "AnnotateEntity.apply", c,
                         {{"s", true}, {"op", true}, {"axes", true}});
             Stage st = stageOf(in, a, 0, 1);
             auto axes = iterVars(a, 2, "a list of IterVars");
             if (axes.size() != anns.size())
                 in.fail(a.loc(2), "AnnotateEntity.apply(): the annotation is of " +
                                       std::to_string(anns.size()) + " axes, not " +
                                       std::to_string(axes.size()));
             for (size_t i = 0; i < axes.size(); ++i) {
                 if (anns[i] == "unroll") st.unroll(axes[i]);
                 if (anns[i] == "vec") st.vectorize(axes[i]);
             }
             rec->noteLoops(axes, c.loc);
             return none();
         }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value knobEntity(const Value& val) {
    auto o = object("OtherOptionEntity", "OtherOptionEntity(" + repr(val) + ")");
    o->attrs = {{"val", [val] { return val; }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value entity(Rec rec, const Knob& k) {
    switch (k.kind) {
    case KnobKind::Split:
        return splitEntity(rec, k.name, k.value().ints());
    case KnobKind::Reorder:
        return reorderEntity(rec, k.value().ints());
    case KnobKind::Annotate:
        return annotateEntity(rec, k.value().strings());
    case KnobKind::Knob:
        return knobEntity(toValue(k.value()));
    }
    return Value();
}

std::string knobName(const BoundArgs& a) {
    std::string name = a.string(0);
    if (name.empty()) a.typeError(0, "a non-empty string");
    return name;
}

Value defineSplit(Rec rec, Interpreter& in, const CallArgs& c) {
    BoundArgs a(
        in, "cfg.define_split", c,
        {{"name", true}, {"axis", true}, {"num_outputs"}, {"max_factor"}, {"policy"}, {"filter"}});
    std::string name = knobName(a);
    int64_t extent = 0;
    if (a.value(1).is(Value::Kind::IterVar)) {
        const IterVar& iv = a.value(1).asIterVar();
        auto e = iv->dom.extent.defined() ? tir::asConstInt(iv->dom.extent) : std::nullopt;
        if (!e)
            in.fail(a.loc(1), "cfg.define_split(): loop '" + iv->var.name() +
                                  "' has no constant extent; pass the extent as an int");
        extent = *e;
    } else {
        extent = a.integer(1);
    }
    if (extent < 1)
        in.fail(a.loc(1),
                "cfg.define_split(): the extent must be positive, not " + std::to_string(extent));
    SplitOptions o;
    int64_t parts = a.has(2) ? a.integer(2) : 2;
    if (parts < 1 || parts > kMaxSplitParts)
        in.fail(a.loc(2), "cfg.define_split(): num_outputs must be 1 to " +
                              std::to_string(kMaxSplitParts) + ", not " + std::to_string(parts));
    o.parts = int(parts);
    o.maxFactor = a.has(3) ? a.integer(3) : 0;
    if (a.has(3) && o.maxFactor < 1)
        in.fail(a.loc(3), "cfg.define_split(): max_factor must be positive, not " +
                              std::to_string(o.maxFactor));
    if (a.has(4) && a.string(4) != "factors")
        in.fail(a.loc(4), "cfg.define_split(): policy '" + a.string(4) +
                              "' is not supported; the only policy is \"factors\" (every exact "
                              "factorisation)");
    if (a.has(5)) {
        Value filter = a.value(5);
        SourceLoc at = a.loc(5);
        o.filter = [&in, rec, name, filter, at](const std::vector<int64_t>& s) {
            CallArgs fc;
            fc.loc = at;
            fc.positional.push_back({std::make_shared<const Value>(splitEntity(rec, name, s)), at});
            return in.truthy(in.call(filter, fc), at);
        };
    }
    rec->config.defineSplit(name, extent, o, c.loc);
    return Value();
}

Value defineKnob(Rec rec, Interpreter& in, const CallArgs& c) {
    BoundArgs a(in, "cfg.define_knob", c, {{"name", true}, {"candidate", true, "candidates"}});
    std::string name = knobName(a);
    if (!a.value(1).isSequence()) a.typeError(1, "a list of candidates");
    std::vector<KnobValue> candidates;
    for (auto& v : a.value(1).items()) {
        if (v.is(Value::Kind::Bool))
            candidates.emplace_back(v.asBool());
        else if (v.is(Value::Kind::Int))
            candidates.emplace_back(v.asInt());
        else if (v.is(Value::Kind::Float))
            candidates.emplace_back(v.asFloat());
        else if (v.is(Value::Kind::String))
            candidates.emplace_back(v.asString());
        else if (v.isNone())
            candidates.emplace_back();
        else
            in.fail(a.loc(1), "cfg.define_knob(): a candidate must be a number, a bool, a string "
                              "or None, not " +
                                  typeName(v));
    }
    rec->config.defineKnob(name, std::move(candidates), c.loc);
    return Value();
}

/// A candidate of define_reorder as axis positions (checked against `axes`).
std::vector<int64_t> reorderCandidate(Interpreter& in, const BoundArgs& a, const Value& cand,
                                      const std::vector<IterVar>& axes) {
    const int n = int(axes.size());
    if (!cand.isSequence() || int(cand.items().size()) != n)
        in.fail(a.loc(3), "cfg.define_reorder(): every candidate must list the " +
                              std::to_string(n) + " axes in some order, not " + repr(cand));
    std::vector<int64_t> perm;
    for (auto& item : cand.items()) {
        int64_t p = -1;
        if (item.isInt()) {
            p = item.asInt();
        } else if (item.is(Value::Kind::IterVar)) {
            for (int i = 0; i < n; ++i)
                if (axes[size_t(i)].sameAs(item.asIterVar())) p = i;
        }
        if (p < 0 || p >= n)
            in.fail(a.loc(3), "cfg.define_reorder(): " + repr(item) +
                                  " in a candidate is not one of the axes (an IterVar of the "
                                  "list, or its position)");
        perm.push_back(p);
    }
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        in.fail(a.loc(3), "cfg.define_reorder(): candidate " + repr(cand) + " names an axis twice");
    return perm;
}

Value defineReorder(Rec rec, Interpreter& in, const CallArgs& c) {
    BoundArgs a(in, "cfg.define_reorder", c,
                {{"name", true}, {"axes", true}, {"policy"}, {"candidates", false, "candidate"}});
    std::string name = knobName(a);
    auto axes = iterVars(a, 1, "a list of IterVars");
    const int n = int(axes.size());
    std::string policy = a.has(2) ? a.string(2) : "all";
    if (policy == "candidate") policy = "candidates"; // AutoTVM's spelling
    std::vector<std::vector<int64_t>> perms;
    ReorderPolicy p = ReorderPolicy::All;
    if (policy == "all") {
        if (n > kMaxReorderAxes)
            in.fail(a.loc(1), "cfg.define_reorder(): policy \"all\" takes at most " +
                                  std::to_string(kMaxReorderAxes) + " axes (" + std::to_string(n) +
                                  " given); list candidates instead");
    } else if (policy == "identity") {
        p = ReorderPolicy::Identity;
    } else if (policy == "candidates") {
        p = ReorderPolicy::Candidates;
        if (!a.has(3) || !a.value(3).isSequence())
            in.fail(a.has(3) ? a.loc(3) : c.loc,
                    "cfg.define_reorder(): policy \"candidates\" needs candidates=[[...], ...]");
        for (auto& cand : a.value(3).items())
            perms.push_back(reorderCandidate(in, a, cand, axes));
    } else {
        in.fail(a.loc(2), "cfg.define_reorder(): unknown policy '" + policy +
                              "'; policies: \"all\", \"candidates\", \"identity\"" +
                              didYouMean(policy, {"all", "candidates", "identity"}));
    }
    rec->config.defineReorder(name, n, p, std::move(perms), c.loc);
    return Value();
}

Value defineAnnotate(Rec rec, Interpreter& in, const CallArgs& c) {
    BoundArgs a(in, "cfg.define_annotate", c, {{"name", true}, {"axes", true}, {"policy", true}});
    std::string name = knobName(a);
    auto axes = iterVars(a, 1, "a list of IterVars");
    std::string policy = a.string(2);
    AnnotatePolicy p = AnnotatePolicy::TryUnroll;
    if (policy == "try_vec")
        p = AnnotatePolicy::TryVec;
    else if (policy == "try_unroll_vec")
        p = AnnotatePolicy::TryUnrollVec;
    else if (policy != "try_unroll")
        in.fail(a.loc(2), "cfg.define_annotate(): unknown policy '" + policy +
                              "'; policies: \"try_unroll\", \"try_vec\", \"try_unroll_vec\"" +
                              didYouMean(policy, {"try_unroll", "try_vec", "try_unroll_vec"}));
    if (axes.empty()) in.fail(a.loc(1), "cfg.define_annotate(): give the loops to annotate");
    rec->config.defineAnnotate(name, int(axes.size()), p, c.loc);
    return Value();
}

Value addFlop(Rec rec, Interpreter& in, const CallArgs& c) {
    BoundArgs a(in, "cfg.add_flop", c, {{"flop", true}});
    double f = a.number(0);
    if (f < 0) in.fail(a.loc(0), "cfg.add_flop(): the count must not be negative");
    rec->config.flop += f;
    return Value();
}

} // namespace

void installConfig(BuiltinTable& t) {
    Rec rec = t.recorder();
    auto o = object("ConfigSpace", "");
    auto method = [&](const char* name, Value (*fn)(Rec, Interpreter&, const CallArgs&)) {
        o->methods.emplace_back(name, [rec, fn](Interpreter& in, const Value&, const CallArgs& c) {
            return fn(rec, in, c);
        });
    };
    method("define_split", defineSplit);
    method("define_knob", defineKnob);
    method("define_reorder", defineReorder);
    method("define_annotate", defineAnnotate);
    method("add_flop", addFlop);
    o->attrs = {
        {"flop", [rec] { return Value::real(rec->config.flop); }},
        {"is_fallback", [rec] { return Value::boolean(rec->config.isFallback()); }},
    };
    o->getItem = [rec](Interpreter&, const Value& index, SourceLoc loc) -> Value {
        if (!index.is(Value::Kind::String))
            throw CompileError("cfg is indexed with a knob name (a string), not " + typeName(index),
                               loc);
        return entity(rec, rec->config.get(index.asString(), loc));
    };
    t.value("cfg", Value(std::shared_ptr<const NativeObject>(std::move(o))));
}

} // namespace tessel::te::script
