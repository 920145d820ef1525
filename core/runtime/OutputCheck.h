/// \file
/// The one rule a measured kernel's outputs are checked by against its
/// reference, wherever it was measured (driver::runAndCheck for the schedule
/// editor, the lesson and `tesselc run`; tune::Measurer for the tuner): every
/// element of every output within `tolerance` x the largest |value| of that
/// output's reference. Another schedule sums in another order and another
/// ISA contracts differently, so an element's error scales with the output's
/// magnitude, not with its own (a relative rule fails on elements near zero).
#pragma once

#include "runtime/NDArray.h"

#include <string>
#include <vector>

namespace tessel::runtime {

/// What the tuner and the editor allow by default.
inline constexpr double kDefaultTolerance = 1e-4;

struct OutputCheck {
    bool ok = true;
    /// Over all outputs: max |got - want|, and max |got - want| / |want|.
    double maxAbsErr = 0, maxRelErr = 0;
    /// Why not ok: "output 0 differs from the reference schedule's: ...".
    std::string message;
};

/// Checks host arrays `got` against `want` (the same count, types and shapes).
OutputCheck checkOutputs(const std::vector<NDArray>& got, const std::vector<NDArray>& want,
                         double tolerance = kDefaultTolerance);

} // namespace tessel::runtime
