/// \file
/// The knob space of a tunable schedule (AutoTVM's ConfigSpace and
/// ConfigEntity in one object), for C++ schedules and TE scripts alike.
///
/// A schedule declares its knobs as it builds and reads the chosen entity
/// back. In C++:
///
///     te::ConfigSpace cfg(config);
///     cfg.defineSplit("tile_x", 1024, {.parts = 2, .maxFactor = 64});
///     cfg.defineKnob("unroll", {te::KnobValue(true), te::KnobValue(false)});
///     cfg.defineReorder("order", 3);
///     auto loops = cfg.applySplit("tile_x", s[C], x);  // cfg.split("tile_x") == {8, 128}
///     if (cfg.knob("unroll").asBool()) s[C].unroll(loops[1]);
///     auto order = cfg.applyReorder("order", s[C], {ko, xi, yi});
///
/// A TE script's `cfg` is a thin wrapper over this class
/// (te/script/builtins/Config.cpp): `cfg.define_split(...)`, `cfg["tile_x"]`.
///
/// Which choice a knob takes comes from the config (knob name -> index into
/// its choices); a knob the config does not name takes its default. knobs()
/// lists every knob with all its choices, so a tuner can enumerate or search
/// the space and build the schedule again with another config, and the IDE
/// can show the knobs.
///
/// The choices, in a fixed order:
/// - split: every way to write the extent as a product of `parts` factors,
///   outer to inner; ordered by size[1] ascending, then size[2] ... (size[0]
///   is what remains). `maxFactor` bounds the inner factors, `filter` keeps
///   the factorisations it is true for. Default: the most even split (the
///   smallest largest factor; the first on a tie).
/// - knob: the candidates as written. Default: the first.
/// - reorder: policy All (every permutation, lexicographic, so the identity
///   first), Candidates (the permutations given, as axis positions) or
///   Identity. Default: the first.
/// - annotate: per axis "none", "unroll" or "vec"; policy TryUnroll (every
///   axis none or unroll), TryVec (the last axis none or vec) or
///   TryUnrollVec (both: the last axis may also be vectorized), ordered as
///   an odometer over the axes with the last axis fastest. Default: all "none".
#pragma once

#include "ir/Diagnostic.h"
#include "te/Schedule.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tessel::te {

enum class KnobKind : uint8_t { Split, Knob, Reorder, Annotate };

/// "split", "knob", "reorder", "annotate".
const char* knobKindName(KnobKind k);

/// One choice of a knob: None, a bool, an int, a float, a string, a list of
/// ints (a split's factors, a reorder's permutation) or a list of strings
/// (an annotation per axis).
class KnobValue {
public:
    using Ints = std::vector<int64_t>;
    using Strings = std::vector<std::string>;
    using Variant = std::variant<std::monostate, bool, int64_t, double, std::string, Ints, Strings>;

    KnobValue() = default;
    explicit KnobValue(bool b) : v_(b) {}
    explicit KnobValue(int64_t i) : v_(i) {}
    explicit KnobValue(double d) : v_(d) {}
    explicit KnobValue(std::string s) : v_(std::move(s)) {}
    explicit KnobValue(Ints v) : v_(std::move(v)) {}
    explicit KnobValue(Strings v) : v_(std::move(v)) {}

    const Variant& get() const { return v_; }
    bool isNone() const { return std::holds_alternative<std::monostate>(v_); }
    template <class T> bool is() const { return std::holds_alternative<T>(v_); }
    /// A bool, or an int or float compared with zero (Python's truth of a number).
    bool asBool() const;
    int64_t asInt() const { return std::get<int64_t>(v_); }
    const std::string& asString() const { return std::get<std::string>(v_); }
    const Ints& ints() const { return std::get<Ints>(v_); }
    const Strings& strings() const { return std::get<Strings>(v_); }

    /// Python's repr of the value: "[4, 14]", "True", "'auto'", "None", "0.5".
    std::string str() const;
    bool operator==(const KnobValue& o) const { return v_ == o.v_; }

private:
    Variant v_;
};

/// Python's repr of a float: "1.0", "0.1", "1e-05" (the script's values print so too).
std::string pythonFloatText(double d);
/// Python's repr of a str: 'abc', "it's" (the script's values print so too).
std::string pythonStringText(const std::string& s);

/// One knob of a template's space.
struct Knob {
    std::string name;
    KnobKind kind = KnobKind::Knob;
    /// Every choice in order: a split's factors (outer to inner), a
    /// reorder's permutation (axis positions), a knob's candidate, an
    /// annotation per axis.
    std::vector<KnobValue> choices;
    /// The index the schedule was built with.
    int64_t chosen = 0;
    int64_t defaultIndex = 0;
    /// True when the config chose it (false: the default).
    bool configured = false;
    /// Where a script defines it (unknown for a C++ schedule).
    SourceLoc loc;

    int64_t size() const { return int64_t(choices.size()); }
    /// The chosen value.
    const KnobValue& value() const { return choices[size_t(chosen)]; }
    /// One choice in words: "[4, 14]", "True", "[0, 2, 1]".
    std::string choiceText(int64_t i) const { return choices.at(size_t(i)).str(); }
};

/// The number of configurations of a space (the product of the knobs'
/// sizes), saturating at INT64_MAX.
int64_t spaceSize(const std::vector<Knob>& knobs);

/// Parses "tile_x=3,unroll=1" into a config. Throws CompileError (no
/// location) for anything else.
std::map<std::string, int64_t> parseConfig(std::string_view text);
/// "tile_x=3,unroll=1", the inverse of parseConfig.
std::string formatConfig(const std::map<std::string, int64_t>& config);

enum class ReorderPolicy : uint8_t { All, Candidates, Identity };
enum class AnnotatePolicy : uint8_t { TryUnroll, TryVec, TryUnrollVec };

/// How defineSplit enumerates.
struct SplitOptions {
    /// The number of factors (outer to inner), 1 to 8.
    int parts = 2;
    /// With maxFactor > 0 the inner factors are at most that.
    int64_t maxFactor = 0;
    /// Keeps the factorisations it returns true for (null: all).
    std::function<bool(const std::vector<int64_t>&)> filter;
};

/// The knobs defined so far and the config that picks their choices.
class ConfigSpace {
public:
    explicit ConfigSpace(std::map<std::string, int64_t> config = {});

    /// Every factorisation of `extent` into `parts` factors in the order the
    /// file comment gives; with maxFactor > 0 the inner factors are at most
    /// that. Empty for extent < 1 or parts < 1.
    static std::vector<std::vector<int64_t>> factorizations(int64_t extent, int parts,
                                                            int64_t maxFactor = 0);
    /// Every permutation of 0..n-1, lexicographic.
    static std::vector<std::vector<int64_t>> permutations(int n);
    /// The index of the most even factorisation (see the file comment).
    static int64_t evenSplitIndex(const std::vector<std::vector<int64_t>>& splits);

    // ------------------------------------------------------------- defining
    // Each adds a knob and picks its choice (the config's index, else the
    // default). All throw CompileError at `loc` when the name is defined
    // twice, there are no choices, or the config's index is out of range.

    /// The splits of a loop of `extent` iterations.
    const Knob& defineSplit(std::string name, int64_t extent, const SplitOptions& options = {},
                            SourceLoc loc = {});
    /// One of `candidates`.
    const Knob& defineKnob(std::string name, std::vector<KnobValue> candidates,
                           SourceLoc loc = {});
    /// An order of `numAxes` loops; with ReorderPolicy::Candidates, one of
    /// `candidates` (permutations of 0..numAxes-1).
    const Knob& defineReorder(std::string name, int numAxes,
                              ReorderPolicy policy = ReorderPolicy::All,
                              std::vector<std::vector<int64_t>> candidates = {},
                              SourceLoc loc = {});
    /// An annotation ("none", "unroll", "vec") for each of `numAxes` loops.
    const Knob& defineAnnotate(std::string name, int numAxes,
                               AnnotatePolicy policy = AnnotatePolicy::TryUnroll,
                               SourceLoc loc = {});
    /// Any knob: the generic form the others use.
    const Knob& define(std::string name, KnobKind kind, std::vector<KnobValue> choices,
                       int64_t defaultIndex, SourceLoc loc = {});

    // -------------------------------------------------------------- reading
    /// The knob called `name`; throws CompileError at `loc` when there is none.
    const Knob& get(std::string_view name, SourceLoc loc = {}) const;
    /// The chosen factors of split knob `name`, outer to inner.
    const std::vector<int64_t>& split(std::string_view name) const;
    /// The chosen permutation of reorder knob `name`.
    const std::vector<int64_t>& reorder(std::string_view name) const;
    /// The chosen annotation per axis of annotate knob `name`.
    const std::vector<std::string>& annotation(std::string_view name) const;
    /// The chosen candidate of knob `name`.
    const KnobValue& knob(std::string_view name) const;

    // ------------------------------------------------------------- applying
    /// Splits `axis` of `stage` by the chosen factors (AutoTVM's
    /// SplitEntity.apply: successive splits by the product of the remaining
    /// inner factors); the loops come back outer to inner.
    std::vector<IterVar> applySplit(std::string_view name, Stage stage, IterVar axis) const;
    /// Reorders `axes` of `stage` by the chosen permutation; returns them in
    /// the new order.
    std::vector<IterVar> applyReorder(std::string_view name, Stage stage,
                                      const std::vector<IterVar>& axes) const;
    /// Unrolls or vectorizes each of `axes` as the chosen annotation says.
    void applyAnnotate(std::string_view name, Stage stage, const std::vector<IterVar>& axes) const;

    /// Throws CompileError when `axis` has a constant extent other than the
    /// product of `sizes` (the factors of split knob `knobName`).
    static void checkSplitExtent(const std::string& knobName, const std::vector<int64_t>& sizes,
                                 const IterVar& axis);
    /// Splits `axis` by `sizes` as applySplit does (a script's SplitEntity
    /// uses it); checkSplitExtent first.
    static std::vector<IterVar> applySplitSizes(const std::string& knobName,
                                                const std::vector<int64_t>& sizes, Stage stage,
                                                IterVar axis);

    const std::vector<Knob>& knobs() const { return knobs_; }
    /// True when no knob took its choice from the config.
    bool isFallback() const;
    /// Throws CompileError when the config names a knob that was never
    /// defined (nor accepted by allowUnusedConfig()).
    void checkConfigUsed() const;

    /// Knobs defined (and read) from now on are named `prefix` + name: the
    /// knobs of an alternative implementation (lower's "strategy" knob) live
    /// beside the default one's under their own names. Empty: no prefix.
    void setKnobPrefix(std::string prefix) { prefix_ = std::move(prefix); }
    const std::string& knobPrefix() const { return prefix_; }
    /// Config entries for knobs this space never defines are not an error
    /// when `belongs` accepts their name: a space with alternatives (a
    /// "strategy" knob) is the union of theirs, and only the chosen one's are
    /// defined; `belongs` says which names another alternative defines.
    void allowUnusedConfig(std::function<bool(const std::string&)> belongs) { allowUnused_ = std::move(belongs); }
    const std::map<std::string, int64_t>& config() const { return config_; }

    /// Floating-point operations the template performs (cfg.add_flop).
    double flop = 0;

private:
    const Knob& getKind(std::string_view name, KnobKind kind) const;

    std::map<std::string, int64_t> config_;
    std::vector<Knob> knobs_;
    std::string prefix_;
    std::function<bool(const std::string&)> allowUnused_;
};

} // namespace tessel::te
