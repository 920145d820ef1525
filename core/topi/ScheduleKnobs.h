/// \file
/// Knobs of the default schedules: each tile size a schedule picks by
/// heuristic is declared as a te::ConfigSpace split with the heuristic as
/// its default choice, so that an empty config gives the heuristic schedule
/// and a tuner can search the same space.
#pragma once

#include "te/ConfigSpace.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::topi {

/// Defines split knob `name` of `extent` into [outer, inner] (inner at most
/// `maxInner`, and kept by `keep` when given) whose default is the split with
/// inner factor `defaultInner` (which must be a choice); returns the chosen
/// inner factor.
int64_t defineInnerSplit(te::ConfigSpace& cfg, const std::string& name, int64_t extent, int64_t maxInner,
                         int64_t defaultInner, const std::function<bool(int64_t)>& keep = {});

} // namespace tessel::topi
