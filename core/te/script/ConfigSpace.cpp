#include "te/script/ConfigSpace.h"

#include "te/script/Interpreter.h"
#include "te/script/Suggest.h"
#include "tir/IROperators.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tessel::te::script {

namespace {

/// Enough for any real template; a bound so a typo cannot build millions.
constexpr size_t kMaxChoices = 100'000;
/// 6! = 720 orders; beyond that policy "all" is no longer a search space.
constexpr int kMaxReorderAxes = 6;
constexpr int kMaxSplitParts = 8;

std::string at(SourceLoc loc) {
    return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

Value intList(const std::vector<int64_t>& v) {
    Value::Items items;
    for (int64_t x : v)
        items.push_back(Value::integer(x));
    return Value::list(std::move(items));
}

std::vector<int64_t> ints(const Value& list) {
    std::vector<int64_t> out;
    for (auto& v : list.items())
        out.push_back(v.asInt());
    return out;
}

std::vector<int64_t> divisors(int64_t n) {
    std::vector<int64_t> small, large;
    for (int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            small.push_back(d);
            if (d != n / d) large.push_back(n / d);
        }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;
}

/// Fills cur[pos..] with divisors of `remaining` (from `divs`, the divisors
/// of the whole extent, ascending) and cur[0] with what is left.
void factorize(const std::vector<int64_t>& divs, int64_t remaining, size_t pos, int64_t maxFactor,
               std::vector<int64_t>& cur, std::vector<std::vector<int64_t>>& out) {
    if (out.size() > kMaxChoices) return;
    if (pos == cur.size()) {
        cur[0] = remaining;
        out.push_back(cur);
        return;
    }
    for (int64_t d : divs) {
        if (d > remaining || (maxFactor > 0 && d > maxFactor)) break;
        if (remaining % d != 0) continue;
        cur[pos] = d;
        factorize(divs, remaining / d, pos + 1, maxFactor, cur, out);
    }
}

/// The stage an entity's apply() works on: `op` may be a stage already, or
/// a tensor or operation looked up in the schedule.
Stage stageOf(Interpreter& in, const BoundArgs& a, size_t sched, size_t op) {
    if (a.value(op).is(Value::Kind::Stage)) return a.stage(op);
    Schedule s = a.schedule(sched);
    Operation o = a.operation(op);
    return in.guarded(a.loc(op), [&] { return s[o]; });
}

std::vector<IterVar> iterVarList(const BoundArgs& a, size_t i, const std::string& expected) {
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

Value splitEntity(const std::string& knob, const std::vector<int64_t>& size) {
    Value sizeValue = intList(size);
    auto o = object("SplitEntity", "SplitEntity(" + repr(sizeValue) + ")");
    o->attrs = {{"size", [sizeValue] { return sizeValue; }}};
    // AutoTVM's SplitEntity.apply: successive splits by the product of the
    // remaining inner factors; the loops come back outer to inner.
    o->methods = {
        {"apply", [knob, size](Interpreter& in, const Value&, const CallArgs& c) -> Value {
             BoundArgs a(in, "SplitEntity.apply", c, {{"s", true}, {"op", true}, {"axis", true}});
             Stage st = stageOf(in, a, 0, 1);
             IterVar axis = a.iterVar(2);
             int64_t product = 1;
             for (int64_t f : size)
                 product *= f;
             if (axis->dom.extent.defined())
                 if (auto e = tir::asConstInt(axis->dom.extent); e && *e != product)
                     in.fail(a.loc(2), "SplitEntity.apply(): split '" + knob +
                                           "' is for an extent of " + std::to_string(product) +
                                           ", but loop '" + axis->var.name() + "' has " +
                                           std::to_string(*e) + " iterations");
             Value::Items loops;
             for (size_t i = 1; i < size.size(); ++i) {
                 int64_t factor = 1;
                 for (size_t j = i; j < size.size(); ++j)
                     factor *= size[j];
                 auto [outer, inner] = st.split(axis, tir::makeConst(DataType::int32(), factor));
                 loops.push_back(Value(outer));
                 axis = inner;
             }
             loops.push_back(Value(axis));
             return Value::list(std::move(loops));
         }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value reorderEntity(const std::vector<int64_t>& perm) {
    Value permValue = intList(perm);
    auto o = object("ReorderEntity", "ReorderEntity(" + repr(permValue) + ")");
    o->attrs = {{"perm", [permValue] { return permValue; }}};
    o->methods = {
        {"apply", [perm](Interpreter& in, const Value&, const CallArgs& c) -> Value {
             BoundArgs a(in, "ReorderEntity.apply", c, {{"s", true}, {"op", true}, {"axes", true}});
             Stage st = stageOf(in, a, 0, 1);
             auto axes = iterVarList(a, 2, "a list of IterVars");
             if (axes.size() != perm.size())
                 in.fail(a.loc(2), "ReorderEntity.apply(): the reorder is of " +
                                       std::to_string(perm.size()) + " axes, not " +
                                       std::to_string(axes.size()));
             std::vector<IterVar> order;
             Value::Items loops;
             for (int64_t p : perm) {
                 order.push_back(axes[size_t(p)]);
                 loops.push_back(Value(axes[size_t(p)]));
             }
             st.reorder(order);
             return Value::list(std::move(loops));
         }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value knobEntity(const Value& val) {
    auto o = object("OtherOptionEntity", "OtherOptionEntity(" + repr(val) + ")");
    o->attrs = {{"val", [val] { return val; }}};
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

Value entity(const Knob& k) {
    const Value& choice = k.choices[size_t(k.chosen)];
    switch (k.kind) {
    case KnobKind::Split:
        return splitEntity(k.name, ints(choice));
    case KnobKind::Reorder:
        return reorderEntity(ints(choice));
    case KnobKind::Knob:
        return knobEntity(choice);
    }
    return Value();
}

std::string knobName(const BoundArgs& a) {
    std::string name = a.string(0);
    if (name.empty()) a.typeError(0, "a non-empty string");
    return name;
}

Value defineSplit(ConfigSpace& space, Interpreter& in, const CallArgs& c) {
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
    int64_t parts = a.has(2) ? a.integer(2) : 2;
    if (parts < 1 || parts > kMaxSplitParts)
        in.fail(a.loc(2), "cfg.define_split(): num_outputs must be 1 to " +
                              std::to_string(kMaxSplitParts) + ", not " + std::to_string(parts));
    int64_t maxFactor = a.has(3) ? a.integer(3) : 0;
    if (a.has(3) && maxFactor < 1)
        in.fail(a.loc(3), "cfg.define_split(): max_factor must be positive, not " +
                              std::to_string(maxFactor));
    if (a.has(4) && a.string(4) != "factors")
        in.fail(a.loc(4), "cfg.define_split(): policy '" + a.string(4) +
                              "' is not supported; the only policy is \"factors\" (every exact "
                              "factorisation)");
    auto splits = ConfigSpace::factorizations(extent, int(parts), maxFactor);
    if (splits.size() > kMaxChoices)
        in.fail(c.loc, "cfg.define_split(): knob '" + name + "' would have more than " +
                           std::to_string(kMaxChoices) + " choices; give a max_factor");
    if (a.has(5)) {
        const Value& filter = a.value(5);
        std::vector<std::vector<int64_t>> kept;
        for (auto& s : splits) {
            CallArgs fc;
            fc.loc = a.loc(5);
            fc.positional.push_back(
                {std::make_shared<const Value>(splitEntity(name, s)), a.loc(5)});
            if (in.truthy(in.call(filter, fc), a.loc(5))) kept.push_back(s);
        }
        splits = std::move(kept);
    }
    std::vector<Value> choices;
    for (auto& s : splits)
        choices.push_back(intList(s));
    space.define(name, KnobKind::Split, std::move(choices), ConfigSpace::evenSplitIndex(splits),
                 c.loc);
    return Value();
}

Value defineKnob(ConfigSpace& space, Interpreter& in, const CallArgs& c) {
    BoundArgs a(in, "cfg.define_knob", c, {{"name", true}, {"candidate", true, "candidates"}});
    std::string name = knobName(a);
    if (!a.value(1).isSequence()) a.typeError(1, "a list of candidates");
    for (auto& v : a.value(1).items())
        if (!v.isNumber() && !v.is(Value::Kind::String) && !v.isNone())
            in.fail(a.loc(1), "cfg.define_knob(): a candidate must be a number, a bool, a string "
                              "or None, not " +
                                  typeName(v));
    space.define(name, KnobKind::Knob, a.value(1).items(), 0, c.loc);
    return Value();
}

Value defineReorder(ConfigSpace& space, Interpreter& in, const CallArgs& c) {
    BoundArgs a(in, "cfg.define_reorder", c,
                {{"name", true}, {"axes", true}, {"policy"}, {"candidates", false, "candidate"}});
    std::string name = knobName(a);
    auto axes = iterVarList(a, 1, "a list of IterVars");
    const int n = int(axes.size());
    std::string policy = a.has(2) ? a.string(2) : "all";
    if (policy == "candidate") policy = "candidates"; // AutoTVM's spelling
    std::vector<std::vector<int64_t>> perms;
    if (policy == "all") {
        if (n > kMaxReorderAxes)
            in.fail(a.loc(1), "cfg.define_reorder(): policy \"all\" takes at most " +
                                  std::to_string(kMaxReorderAxes) + " axes (" + std::to_string(n) +
                                  " given); list candidates instead");
        perms = ConfigSpace::permutations(n);
    } else if (policy == "identity") {
        perms.emplace_back(size_t(n));
        std::iota(perms[0].begin(), perms[0].end(), int64_t(0));
    } else if (policy == "candidates") {
        if (!a.has(3) || !a.value(3).isSequence())
            in.fail(a.has(3) ? a.loc(3) : c.loc,
                    "cfg.define_reorder(): policy \"candidates\" needs candidates=[[...], ...]");
        for (auto& cand : a.value(3).items()) {
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
                                          " in a candidate is not one of the axes (an IterVar of "
                                          "the list, or its position)");
                perm.push_back(p);
            }
            std::vector<int64_t> sorted = perm;
            std::sort(sorted.begin(), sorted.end());
            if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
                in.fail(a.loc(3),
                        "cfg.define_reorder(): candidate " + repr(cand) + " names an axis twice");
            perms.push_back(std::move(perm));
        }
    } else {
        in.fail(a.loc(2), "cfg.define_reorder(): unknown policy '" + policy +
                              "'; policies: \"all\", \"candidates\", \"identity\"" +
                              didYouMean(policy, {"all", "candidates", "identity"}));
    }
    std::vector<Value> choices;
    for (auto& p : perms)
        choices.push_back(intList(p));
    space.define(name, KnobKind::Reorder, std::move(choices), 0, c.loc);
    return Value();
}

} // namespace

const char* knobKindName(KnobKind k) {
    switch (k) {
    case KnobKind::Split:
        return "split";
    case KnobKind::Knob:
        return "knob";
    case KnobKind::Reorder:
        return "reorder";
    }
    return "?";
}

std::string Knob::choiceText(int64_t i) const {
    return repr(choices.at(size_t(i)));
}

int64_t spaceSize(const std::vector<Knob>& knobs) {
    int64_t total = 1;
    for (auto& k : knobs)
        if (__builtin_mul_overflow(total, k.size(), &total))
            return std::numeric_limits<int64_t>::max();
    return total;
}

std::map<std::string, int64_t> parseConfig(std::string_view text) {
    std::map<std::string, int64_t> config;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        std::string item(text.substr(pos, comma == std::string_view::npos ? std::string_view::npos
                                                                          : comma - pos));
        pos = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) continue;
        size_t eq = item.find('=');
        std::string name = item.substr(0, eq == std::string::npos ? 0 : eq);
        std::string index = eq == std::string::npos ? "" : item.substr(eq + 1);
        bool digits =
            !index.empty() && index.size() <= 18 &&
            std::all_of(index.begin(), index.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        if (name.empty() || !digits)
            throw CompileError("config item '" + item +
                               "' is not NAME=INDEX (a knob name and a choice index from 0)");
        config[name] = std::stoll(index);
    }
    return config;
}

std::string formatConfig(const std::map<std::string, int64_t>& config) {
    std::string out;
    for (auto& [name, index] : config)
        out += (out.empty() ? "" : ",") + name + "=" + std::to_string(index);
    return out;
}

ConfigSpace::ConfigSpace(std::map<std::string, int64_t> config) : config_(std::move(config)) {}

std::vector<std::vector<int64_t>> ConfigSpace::factorizations(int64_t extent, int parts,
                                                              int64_t maxFactor) {
    std::vector<std::vector<int64_t>> out;
    if (extent < 1 || parts < 1) return out;
    std::vector<int64_t> cur(size_t(parts), 1);
    factorize(divisors(extent), extent, 1, maxFactor, cur, out);
    return out;
}

std::vector<std::vector<int64_t>> ConfigSpace::permutations(int n) {
    std::vector<int64_t> p(size_t(std::max(n, 0)));
    for (size_t i = 0; i < p.size(); ++i)
        p[i] = int64_t(i);
    std::vector<std::vector<int64_t>> out;
    do {
        out.push_back(p);
    } while (std::next_permutation(p.begin(), p.end()));
    return out;
}

int64_t ConfigSpace::evenSplitIndex(const std::vector<std::vector<int64_t>>& splits) {
    int64_t best = 0;
    for (size_t i = 1; i < splits.size(); ++i)
        if (*std::max_element(splits[i].begin(), splits[i].end()) <
            *std::max_element(splits[size_t(best)].begin(), splits[size_t(best)].end()))
            best = int64_t(i);
    return best;
}

const Knob& ConfigSpace::define(std::string name, KnobKind kind, std::vector<Value> choices,
                                int64_t defaultIndex, SourceLoc loc) {
    for (auto& k : knobs_)
        if (k.name == name)
            throw CompileError("knob '" + name + "' is already defined (at " + at(k.loc) +
                                   "); every knob needs its own name",
                               loc);
    if (choices.empty())
        throw CompileError("knob '" + name + "' has no choices" +
                               (kind == KnobKind::Split ? " (the filter or max_factor rules out "
                                                          "every factorisation)"
                                                        : ""),
                           loc);
    if (choices.size() > kMaxChoices)
        throw CompileError(
            "knob '" + name + "' has more than " + std::to_string(kMaxChoices) + " choices", loc);
    Knob k;
    k.name = std::move(name);
    k.kind = kind;
    k.choices = std::move(choices);
    k.defaultIndex = defaultIndex;
    k.chosen = defaultIndex;
    k.loc = loc;
    if (auto it = config_.find(k.name); it != config_.end()) {
        if (it->second < 0 || it->second >= k.size())
            throw CompileError(
                "the config chooses index " + std::to_string(it->second) + " for knob '" + k.name +
                    "', which has " + std::to_string(k.size()) + " choice" +
                    (k.size() == 1 ? "" : "s") + " (0 to " + std::to_string(k.size() - 1) + ")",
                loc);
        k.chosen = it->second;
        k.configured = true;
    }
    knobs_.push_back(std::move(k));
    return knobs_.back();
}

const Knob& ConfigSpace::get(std::string_view name, SourceLoc loc) const {
    std::vector<std::string> names;
    for (auto& k : knobs_) {
        if (k.name == name) return k;
        names.push_back(k.name);
    }
    std::string known = names.empty() ? "no knob is defined yet" : "knobs: ";
    for (size_t i = 0; i < names.size(); ++i)
        known += (i ? ", " : "") + names[i];
    throw CompileError("unknown knob '" + std::string(name) +
                           "'; define it (cfg.define_split, cfg.define_knob or "
                           "cfg.define_reorder) before cfg[...] reads it (" +
                           known + ")" + didYouMean(name, names),
                       loc);
}

bool ConfigSpace::isFallback() const {
    return std::none_of(knobs_.begin(), knobs_.end(), [](const Knob& k) { return k.configured; });
}

void ConfigSpace::checkConfigUsed() const {
    std::vector<std::string> names;
    for (auto& k : knobs_)
        names.push_back(k.name);
    for (auto& [name, index] : config_)
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw CompileError("the config sets knob '" + name +
                               "', which the script does not define" + didYouMean(name, names));
}

Value makeConfigValue(std::shared_ptr<ConfigSpace> space) {
    auto o = object("ConfigSpace", "");
    auto method = [&](const char* name, Value (*fn)(ConfigSpace&, Interpreter&, const CallArgs&)) {
        o->methods.emplace_back(name, [space, fn](Interpreter& in, const Value&,
                                                  const CallArgs& c) { return fn(*space, in, c); });
    };
    method("define_split", defineSplit);
    method("define_knob", defineKnob);
    method("define_reorder", defineReorder);
    method("add_flop", [](ConfigSpace& sp, Interpreter& in, const CallArgs& c) -> Value {
        BoundArgs a(in, "cfg.add_flop", c, {{"flop", true}});
        double f = a.number(0);
        if (f < 0) in.fail(a.loc(0), "cfg.add_flop(): the count must not be negative");
        sp.flop += f;
        return Value();
    });
    o->attrs = {
        {"flop", [space] { return Value::real(space->flop); }},
        {"is_fallback", [space] { return Value::boolean(space->isFallback()); }},
    };
    o->getItem = [space](Interpreter&, const Value& index, SourceLoc loc) -> Value {
        if (!index.is(Value::Kind::String))
            throw CompileError("cfg is indexed with a knob name (a string), not " + typeName(index),
                               loc);
        return entity(space->get(index.asString(), loc));
    };
    return Value(std::shared_ptr<const NativeObject>(std::move(o)));
}

} // namespace tessel::te::script
