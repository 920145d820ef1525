/// \file
/// The lowering steps between the graph passes and each function's TIR
/// passes, as records the stage view lists like passes: "lower-fused-groups"
/// (every fused group to a TE function with its schedule, lowerGroup()) and
/// "plan-storage" (the executor plan, StoragePlanner::finish()).
///
/// A traced model compile keeps one StageRecord per step, in the shape of a
/// graph pass's snapshot (name, text, changed, seconds), so one stage-snapshot
/// type can hold both.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessel::lower {

inline constexpr const char* kLowerFusedGroups = "lower-fused-groups";
inline constexpr const char* kPlanStorage = "plan-storage";

/// What one lowering step produced, as the stage view shows it.
struct StageRecord {
    std::string pass; ///< the step's name (kLowerFusedGroups, kPlanStorage)
    std::string text; ///< its result as text
    bool changed = true;
    double seconds = 0;
};

/// A lowering step's documentation, as a pass record has it.
struct LoweringStepInfo {
    std::string name;
    std::string summary;     ///< one line
    std::string description; ///< a paragraph
};

/// The lowering steps, in order.
const std::vector<LoweringStepInfo>& loweringSteps();
/// The step called `name`, or null.
const LoweringStepInfo* findLoweringStep(std::string_view name);

} // namespace tessel::lower
