/// \file
/// Tunable templates: the `cfg` a TE script sees (AutoTVM's ConfigSpace and
/// ConfigEntity in one object).
///
/// A template declares its knobs as it runs and reads the chosen entity back:
///
///     cfg.define_split("tile_x", x, num_outputs=2, max_factor=64)
///     cfg.define_knob("unroll", [True, False])
///     cfg.define_reorder("order", [ko, xi, yi], policy="all")
///     xo, xi = cfg["tile_x"].apply(s, C, x)     # cfg["tile_x"].size == [8, 16]
///     s[C].unroll(xi) if cfg["unroll"].val else None
///     cfg["order"].apply(s, C, [ko, xi, yi])    # cfg["order"].perm == [1, 0, 2]
///
/// Which choice a knob takes comes from ScriptOptions::config (knob name ->
/// index into its choices); a knob the config does not name takes its
/// default. ScriptResult::knobs lists every knob with all its choices, so a
/// tuner can enumerate or search the space and run the script again with
/// another config, and the IDE can show the knobs.
///
/// The choices, in a fixed order:
/// - split: every way to write the extent as a product of num_outputs
///   factors, outer to inner; ordered by size[1] ascending, then size[2] ...
///   (size[0] is what remains). `max_factor` bounds the inner factors,
///   `filter=lambda e: ...` keeps the entities it is true for. Default: the
///   most even split (the smallest largest factor; the first on a tie).
/// - knob: the candidates as written. Default: the first.
/// - reorder: policy "all" (every permutation, lexicographic, so the
///   identity first), "candidates" (the permutations given, as axes or
///   positions) or "identity". Default: the first.
#pragma once

#include "ir/Diagnostic.h"
#include "te/script/Value.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::te::script {

enum class KnobKind : uint8_t { Split, Knob, Reorder };

/// "split", "knob", "reorder".
const char* knobKindName(KnobKind k);

/// One knob of a template's space.
struct Knob {
    std::string name;
    KnobKind kind = KnobKind::Knob;
    /// Every choice in order: a split's factors (a list of ints, outer to
    /// inner), a reorder's permutation (a list of axis positions), a knob's
    /// candidate value.
    std::vector<Value> choices;
    /// The index the script ran with.
    int64_t chosen = 0;
    int64_t defaultIndex = 0;
    /// True when ScriptOptions::config chose it (false: the default).
    bool configured = false;
    /// Where the script defines it.
    SourceLoc loc;

    int64_t size() const { return int64_t(choices.size()); }
    /// One choice in words: "[4, 14]", "True", "[0, 2, 1]".
    std::string choiceText(int64_t i) const;
};

/// The number of configurations of a space (the product of the knobs'
/// sizes), saturating at INT64_MAX.
int64_t spaceSize(const std::vector<Knob>& knobs);

/// Parses "tile_x=3,unroll=1" into a config. Throws CompileError (no
/// location) for anything else.
std::map<std::string, int64_t> parseConfig(std::string_view text);
/// "tile_x=3,unroll=1", the inverse of parseConfig.
std::string formatConfig(const std::map<std::string, int64_t>& config);

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

    /// Adds a knob and picks its choice: the config's index, else
    /// `defaultIndex`. Throws CompileError at `loc` when the name is defined
    /// twice, there are no choices, or the config's index is out of range.
    const Knob& define(std::string name, KnobKind kind, std::vector<Value> choices,
                       int64_t defaultIndex, SourceLoc loc);
    /// The knob called `name`; throws CompileError at `loc` when there is none.
    const Knob& get(std::string_view name, SourceLoc loc) const;
    const std::vector<Knob>& knobs() const { return knobs_; }
    /// True when no knob took its choice from the config.
    bool isFallback() const;
    /// Throws CompileError when the config names a knob the script never defined.
    void checkConfigUsed() const;

    /// Floating-point operations the template performs (cfg.add_flop).
    double flop = 0;

private:
    std::map<std::string, int64_t> config_;
    std::vector<Knob> knobs_;
};

/// The script value `cfg` over `space` (its methods define knobs in it).
Value makeConfigValue(std::shared_ptr<ConfigSpace> space);

} // namespace tessel::te::script
