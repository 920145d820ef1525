/// \file
/// Defining a schedule's knobs so that the empty configuration reproduces
/// the schedule's own rule.
///
/// The default schedules of topi are tunable templates (AutoTVM's x86
/// conv2d_NCHWc and dense_pack): every choice they used to make by rule (a
/// channel block, a register block, an unroll) is a knob of a te::ConfigSpace
/// whose default choice is that rule's answer. So a model compiled without
/// tuning records gets exactly the schedule it always got, and a tuning
/// record changes only which choice each knob takes.
#pragma once

#include "te/ConfigSpace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::topi {

/// A split knob over `extent` into `parts` factors (ConfigSpace's order),
/// kept by `keep` (null: all), whose default is `defaultFactors` (which is
/// always a choice, even when `keep` rejects it). Returns the chosen factors
/// (a copy: the space's knobs move as more are defined).
std::vector<int64_t> defineSplitKnob(te::ConfigSpace& cfg, const std::string& name, int64_t extent,
                                            int parts, const std::vector<int64_t>& defaultFactors,
                                            const std::function<bool(const std::vector<int64_t>&)>& keep = {});

/// A knob over `candidates` whose default is `defaultValue` (added when not
/// among them). Returns the chosen value.
te::KnobValue defineChoiceKnob(te::ConfigSpace& cfg, const std::string& name,
                                      std::vector<te::KnobValue> candidates, const te::KnobValue& defaultValue);

/// A two-part split knob of `extent` whose inner factor is at most
/// `maxInner` (and kept by `keep` when given) and whose default is the split
/// with inner factor `defaultInner`; returns the chosen inner factor.
int64_t defineInnerSplit(te::ConfigSpace& cfg, const std::string& name, int64_t extent, int64_t maxInner,
                         int64_t defaultInner, const std::function<bool(int64_t)>& keep = {});

/// The split [extent / inner, inner] of a two-part split knob.
inline std::vector<int64_t> innerSplit(int64_t extent, int64_t inner) { return {extent / inner, inner}; }

} // namespace tessel::topi
