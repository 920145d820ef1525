/// \file
/// The lowering steps between the graph passes and each function's TIR
/// passes, as records the stage view lists like passes: "lower-fused-groups"
/// (every fused group to a TE function with its schedule, lowerGroup()) and
/// "plan-storage" (the executor plan, StoragePlanner::finish()).
///
/// A traced model compile keeps one StageSnapshot per step (level Lower,
/// text only), the same value as a graph or TIR pass's snapshot.
#pragma once

#include "ir/StageSnapshot.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessel::lower {

inline constexpr const char* kLowerFusedGroups = "lower-fused-groups";
inline constexpr const char* kPlanStorage = "plan-storage";

/// The snapshot of lowering step `name` (kLowerFusedGroups, kPlanStorage):
/// its result as text, which took `seconds`.
StageSnapshot loweringStage(const std::string& name, std::string text, double seconds);

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
