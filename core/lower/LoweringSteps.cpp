#include "lower/LoweringSteps.h"

namespace tessel::lower {

const std::vector<LoweringStepInfo>& loweringSteps() {
    static const std::vector<LoweringStepInfo> steps{
        {kLowerFusedGroups, "Every fused group becomes a TE function: one topi compute per operator, and a schedule.",
         "For each group of the fusion plan, the operators' strategies read the attributes and constant inputs "
         "and call the operator library's computes on the group's tensors: placeholders for what the group reads "
         "from outside (graph inputs, weights, other groups' outputs), literals for single-element constants. "
         "Specialised computes come first where they apply (a blocked NCHW[c]c convolution, a dense layer with "
         "packed weights, whose packing happens here, once). The function's arguments are the placeholders its "
         "outputs read, then its outputs; the default schedule inlines the element-wise stages into their "
         "consumers and gives the anchor (convolution, matrix product, pooling, reduction) its operator's "
         "schedule. The text lists each function's operators, arguments and stages, and the TE script that "
         "rebuilds its schedule."},
        {kPlanStorage, "The executor plan: the kernels in call order, the weights blob, and shared storages.",
         "Every tensor a kernel reads or writes gets a place: constants a 64-byte aligned slice of one weights "
         "blob, graph inputs and outputs a storage of their own, and intermediates a storage shared with others "
         "whose lifetimes do not overlap. Storages are reused best-fit as soon as the last step that reads their "
         "tenant has run (never during it, so a kernel's arguments do not alias). The text lists the steps, every "
         "tensor with its storage, and the storages with their sizes."},
    };
    return steps;
}

const LoweringStepInfo* findLoweringStep(std::string_view name) {
    for (auto& s : loweringSteps())
        if (s.name == name) return &s;
    return nullptr;
}

StageSnapshot loweringStage(const std::string& name, std::string text, double seconds) {
    StageSnapshot s;
    s.pass = name;
    s.level = StageLevel::Lower;
    s.text.text = std::move(text);
    s.changed = true; // a new form of the model, never the same as what came before
    s.seconds = seconds;
    return s;
}

} // namespace tessel::lower
