#include "te/ConfigSpace.h"

#include "ir/NamedInts.h"

#include "te/Suggest.h"
#include "tir/IROperators.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

namespace tessel::te {

namespace {

/// Enough for any real template; a bound so a typo cannot build millions.
constexpr size_t kMaxChoices = 100'000;
/// 6! = 720 orders; beyond that policy All is no longer a search space.
constexpr int kMaxReorderAxes = 6;
constexpr int kMaxSplitParts = 8;
/// 2^12 = 4096 annotations.
constexpr int kMaxAnnotateAxes = 12;

std::string at(SourceLoc loc) {
    return std::to_string(loc.line) + ":" + std::to_string(loc.column);
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

} // namespace

// ---------------------------------------------------------------------------
// Values and knobs

const char* knobKindName(KnobKind k) {
    switch (k) {
    case KnobKind::Split:
        return "split";
    case KnobKind::Knob:
        return "knob";
    case KnobKind::Reorder:
        return "reorder";
    case KnobKind::Annotate:
        return "annotate";
    }
    return "?";
}

std::string pythonStringText(const std::string& s) {
    bool hasSingle = s.find('\'') != std::string::npos,
         hasDouble = s.find('"') != std::string::npos;
    char q = hasSingle && !hasDouble ? '"' : '\'';
    std::string r(1, q);
    for (char c : s) {
        switch (c) {
        case '\n':
            r += "\\n";
            break;
        case '\t':
            r += "\\t";
            break;
        case '\r':
            r += "\\r";
            break;
        case '\\':
            r += "\\\\";
            break;
        default:
            if (c == q) r += '\\';
            r += c;
        }
    }
    return r + q;
}

std::string pythonFloatText(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    std::string s(buf, r.ptr);
    // Python prints exponents with at least two digits and keeps a ".0" on integers.
    auto e = s.find('e');
    if (e != std::string::npos) {
        std::string mant = s.substr(0, e), exp = s.substr(e + 1);
        char sign = '+';
        if (!exp.empty() && (exp[0] == '-' || exp[0] == '+')) {
            sign = exp[0];
            exp = exp.substr(1);
        }
        if (exp.size() < 2) exp = "0" + exp;
        return mant + "e" + sign + exp;
    }
    if (s.find('.') == std::string::npos) s += ".0";
    return s;
}

bool KnobValue::asBool() const {
    if (is<bool>()) return std::get<bool>(v_);
    if (is<int64_t>()) return asInt() != 0;
    if (is<double>()) return std::get<double>(v_) != 0;
    throw CompileError("knob value " + str() + " is not a bool or a number");
}

std::string KnobValue::str() const {
    struct Printer {
        std::string operator()(std::monostate) const { return "None"; }
        std::string operator()(bool b) const { return b ? "True" : "False"; }
        std::string operator()(int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const { return pythonFloatText(d); }
        std::string operator()(const std::string& s) const { return pythonStringText(s); }
        std::string operator()(const Ints& v) const {
            std::string s = "[";
            for (size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + std::to_string(v[i]);
            return s + "]";
        }
        std::string operator()(const Strings& v) const {
            std::string s = "[";
            for (size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + pythonStringText(v[i]);
            return s + "]";
        }
    };
    return std::visit(Printer{}, v_);
}

int64_t spaceSize(const std::vector<Knob>& knobs) {
    int64_t total = 1;
    for (auto& k : knobs)
        if (__builtin_mul_overflow(total, k.size(), &total))
            return std::numeric_limits<int64_t>::max();
    return total;
}

std::map<std::string, int64_t> parseConfig(std::string_view text) {
    return parseNamedInts(text, {"config", "NAME=INDEX (a knob name and a choice index from 0)", false, false});
}

std::string formatConfig(const std::map<std::string, int64_t>& config) {
    std::string out;
    for (auto& [name, index] : config)
        out += (out.empty() ? "" : ",") + name + "=" + std::to_string(index);
    return out;
}

// ---------------------------------------------------------------------------
// Enumeration

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
    std::iota(p.begin(), p.end(), int64_t(0));
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

// ---------------------------------------------------------------------------
// Defining

const Knob& ConfigSpace::defineSplit(std::string name, int64_t extent, const SplitOptions& options,
                                     SourceLoc loc) {
    if (extent < 1)
        throw CompileError("split '" + name + "': the extent must be positive, not " +
                               std::to_string(extent),
                           loc);
    if (options.parts < 1 || options.parts > kMaxSplitParts)
        throw CompileError("split '" + name + "': the number of factors must be 1 to " +
                               std::to_string(kMaxSplitParts) + ", not " +
                               std::to_string(options.parts),
                           loc);
    if (options.maxFactor < 0)
        throw CompileError("split '" + name + "': max_factor must be positive, not " +
                               std::to_string(options.maxFactor),
                           loc);
    auto splits = factorizations(extent, options.parts, options.maxFactor);
    if (splits.size() > kMaxChoices)
        throw CompileError("knob '" + name + "' would have more than " +
                               std::to_string(kMaxChoices) + " choices; give a max_factor",
                           loc);
    if (options.filter) {
        std::vector<std::vector<int64_t>> kept;
        for (auto& s : splits)
            if (options.filter(s)) kept.push_back(s);
        splits = std::move(kept);
    }
    std::vector<KnobValue> choices;
    for (auto& s : splits)
        choices.emplace_back(s);
    return define(std::move(name), KnobKind::Split, std::move(choices), evenSplitIndex(splits), loc);
}

const Knob& ConfigSpace::defineKnob(std::string name, std::vector<KnobValue> candidates,
                                    SourceLoc loc) {
    return define(std::move(name), KnobKind::Knob, std::move(candidates), 0, loc);
}

const Knob& ConfigSpace::defineReorder(std::string name, int numAxes, ReorderPolicy policy,
                                       std::vector<std::vector<int64_t>> candidates,
                                       SourceLoc loc) {
    std::vector<std::vector<int64_t>> perms;
    switch (policy) {
    case ReorderPolicy::All:
        if (numAxes > kMaxReorderAxes)
            throw CompileError("reorder '" + name + "': policy \"all\" takes at most " +
                                   std::to_string(kMaxReorderAxes) + " axes (" +
                                   std::to_string(numAxes) + " given); list candidates instead",
                               loc);
        perms = permutations(numAxes);
        break;
    case ReorderPolicy::Identity:
        perms = {std::vector<int64_t>(size_t(std::max(numAxes, 0)))};
        std::iota(perms[0].begin(), perms[0].end(), int64_t(0));
        break;
    case ReorderPolicy::Candidates:
        for (auto& p : candidates) {
            std::vector<int64_t> sorted = p;
            std::sort(sorted.begin(), sorted.end());
            std::vector<int64_t> identity(size_t(std::max(numAxes, 0)));
            std::iota(identity.begin(), identity.end(), int64_t(0));
            if (sorted != identity)
                throw CompileError("reorder '" + name + "': candidate " + KnobValue(p).str() +
                                       " is not a permutation of the " + std::to_string(numAxes) +
                                       " axes' positions",
                                   loc);
        }
        perms = std::move(candidates);
        break;
    }
    std::vector<KnobValue> choices;
    for (auto& p : perms)
        choices.emplace_back(p);
    return define(std::move(name), KnobKind::Reorder, std::move(choices), 0, loc);
}

const Knob& ConfigSpace::defineAnnotate(std::string name, int numAxes, AnnotatePolicy policy,
                                        SourceLoc loc) {
    if (numAxes < 1 || numAxes > kMaxAnnotateAxes)
        throw CompileError("annotate '" + name + "': needs 1 to " +
                               std::to_string(kMaxAnnotateAxes) + " axes, not " +
                               std::to_string(numAxes),
                           loc);
    // The options of each axis, then every combination (last axis fastest).
    std::vector<std::vector<std::string>> options(size_t(numAxes), {"none"});
    bool unroll = policy != AnnotatePolicy::TryVec, vec = policy != AnnotatePolicy::TryUnroll;
    for (auto& o : options)
        if (unroll) o.push_back("unroll");
    if (vec) options.back().push_back("vec");
    std::vector<KnobValue> choices;
    std::vector<size_t> digit(size_t(numAxes), 0);
    while (true) {
        KnobValue::Strings anns;
        for (size_t a = 0; a < digit.size(); ++a)
            anns.push_back(options[a][digit[a]]);
        choices.emplace_back(std::move(anns));
        size_t a = digit.size();
        while (a > 0 && ++digit[a - 1] == options[a - 1].size())
            digit[--a] = 0;
        if (a == 0) break;
    }
    return define(std::move(name), KnobKind::Annotate, std::move(choices), 0, loc);
}

const Knob& ConfigSpace::define(std::string name, KnobKind kind, std::vector<KnobValue> choices,
                                int64_t defaultIndex, SourceLoc loc) {
    name = prefix_ + name;
    for (auto& k : knobs_)
        if (k.name == name)
            throw CompileError("knob '" + name + "' is already defined" +
                                   (k.loc.known() ? " (at " + at(k.loc) + ")" : std::string()) +
                                   "; every knob needs its own name",
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
    k.defaultIndex = std::clamp<int64_t>(defaultIndex, 0, k.size() - 1);
    k.chosen = k.defaultIndex;
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

// ---------------------------------------------------------------------------
// Reading

const Knob& ConfigSpace::get(std::string_view shortName, SourceLoc loc) const {
    const std::string name = prefix_ + std::string(shortName);
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

const Knob& ConfigSpace::getKind(std::string_view name, KnobKind kind) const {
    const Knob& k = get(name);
    if (k.kind != kind)
        throw CompileError("knob '" + k.name + "' is of kind " + knobKindName(k.kind) + ", not " +
                           knobKindName(kind));
    return k;
}

const std::vector<int64_t>& ConfigSpace::split(std::string_view name) const {
    return getKind(name, KnobKind::Split).value().ints();
}

const std::vector<int64_t>& ConfigSpace::reorder(std::string_view name) const {
    return getKind(name, KnobKind::Reorder).value().ints();
}

const std::vector<std::string>& ConfigSpace::annotation(std::string_view name) const {
    return getKind(name, KnobKind::Annotate).value().strings();
}

const KnobValue& ConfigSpace::knob(std::string_view name) const {
    return getKind(name, KnobKind::Knob).value();
}

bool ConfigSpace::isFallback() const {
    return std::none_of(knobs_.begin(), knobs_.end(), [](const Knob& k) { return k.configured; });
}

void ConfigSpace::checkConfigUsed() const {
    std::vector<std::string> names;
    for (auto& k : knobs_)
        names.push_back(k.name);
    for (auto& [name, index] : config_)
        if (std::find(names.begin(), names.end(), name) == names.end() && !(allowUnused_ && allowUnused_(name)))
            throw CompileError("the config sets knob '" + name +
                               "', which the script does not define" + didYouMean(name, names));
}

// ---------------------------------------------------------------------------
// Applying

void ConfigSpace::checkSplitExtent(const std::string& knobName, const std::vector<int64_t>& sizes,
                                   const IterVar& axis) {
    int64_t product = 1;
    for (int64_t f : sizes)
        product *= f;
    if (axis->dom.extent.defined())
        if (auto e = tir::asConstInt(axis->dom.extent); e && *e != product)
            throw CompileError("split '" + knobName + "' is for an extent of " +
                               std::to_string(product) + ", but loop '" + axis->var.name() +
                               "' has " + std::to_string(*e) + " iterations");
}

std::vector<IterVar> ConfigSpace::applySplitSizes(const std::string& knobName,
                                                  const std::vector<int64_t>& sizes, Stage stage,
                                                  IterVar axis) {
    checkSplitExtent(knobName, sizes, axis);
    std::vector<IterVar> loops;
    for (size_t i = 1; i < sizes.size(); ++i) {
        int64_t factor = 1;
        for (size_t j = i; j < sizes.size(); ++j)
            factor *= sizes[j];
        auto [outer, inner] = stage.split(axis, tir::makeConst(DataType::int32(), factor));
        loops.push_back(outer);
        axis = inner;
    }
    loops.push_back(axis);
    return loops;
}

std::vector<IterVar> ConfigSpace::applySplit(std::string_view name, Stage stage,
                                             IterVar axis) const {
    return applySplitSizes(std::string(name), split(name), std::move(stage), std::move(axis));
}

std::vector<IterVar> ConfigSpace::applyReorder(std::string_view name, Stage stage,
                                               const std::vector<IterVar>& axes) const {
    const auto& perm = reorder(name);
    if (axes.size() != perm.size())
        throw CompileError("reorder '" + std::string(name) + "' is of " +
                           std::to_string(perm.size()) + " axes, not " +
                           std::to_string(axes.size()));
    std::vector<IterVar> order;
    for (int64_t p : perm)
        order.push_back(axes[size_t(p)]);
    stage.reorder(order);
    return order;
}

void ConfigSpace::applyAnnotate(std::string_view name, Stage stage,
                                const std::vector<IterVar>& axes) const {
    const auto& anns = annotation(name);
    if (axes.size() != anns.size())
        throw CompileError("annotate '" + std::string(name) + "' is of " +
                           std::to_string(anns.size()) + " axes, not " +
                           std::to_string(axes.size()));
    for (size_t i = 0; i < axes.size(); ++i) {
        if (anns[i] == "unroll") stage.unroll(axes[i]);
        if (anns[i] == "vec") stage.vectorize(axes[i]);
    }
}

} // namespace tessel::te
