#include "graph/ConstantEval.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"

#include <algorithm>

namespace tessel::graph {

Ref<Constant> shapeConstant(const TensorType& type, const Attributes& attrs) {
    const int64_t r = type.rank();
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t(0), r); };
    const int64_t start = clamp(attrs.getInt("start", 0));
    const int64_t end = std::max(clamp(attrs.getInt("end", r)), start);
    std::vector<int64_t> dims(type.shape.begin() + start, type.shape.begin() + end);
    return Constant::fromInts({static_cast<int64_t>(dims.size())}, dims);
}

std::optional<std::vector<Ref<Constant>>>
evaluateConstant(const OpRegistry& registry, const Node& node,
                 const std::vector<Ref<Constant>>& inputs) {
    if (node.kind != NodeKind::Op) return std::nullopt;
    const OpInfo* info = registry.find(node.op);
    if (!info || !info->evaluate) return std::nullopt;
    TESSEL_CHECK(inputs.size() == node.inputs.size(),
                 "evaluateConstant: " + std::to_string(inputs.size()) + " inputs for " +
                     node.describe());
    // The output shapes (and every check on the inputs) come from the
    // operator's inference, run on the constants.
    std::vector<Value> values;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            values.emplace_back();
            continue;
        }
        if (inputs[i]->dtype.isFloat() && inputs[i]->dtype.bits() == 16) return std::nullopt;
        values.push_back(Node::makeConstant(-1, "input" + std::to_string(i), inputs[i])->output(0));
    }
    const std::vector<TensorType> types = registry.inferOutputTypes(node, values);
    for (const auto& t : types)
        if (!t.isStatic() || (t.dtype.isFloat() && t.dtype.bits() == 16)) return std::nullopt;
    auto out = info->evaluate(EvalContext(node, inputs, types));
    // Evaluators work on stored shapes; the layout the inference gave is
    // what the element-wise ones computed in (LayoutTransform sets its own).
    if (out && out->size() == types.size())
        for (size_t i = 0; i < types.size(); ++i)
            if ((*out)[i] && types[i].blocked() && (*out)[i]->layout.empty() && (*out)[i]->shape == types[i].shape) {
                auto c = Constant::make((*out)[i]->dtype, (*out)[i]->shape, (*out)[i]->bytes);
                const_cast<Constant*>(c.get())->layout = types[i].layout; // new, not shared yet
                (*out)[i] = c;
            }
    return out;
}

std::optional<std::vector<Ref<Constant>>>
evaluateConstant(const Node& node, const std::vector<Ref<Constant>>& inputs) {
    return evaluateConstant(defaultOpRegistry(), node, inputs);
}

std::optional<std::vector<Ref<Constant>>>
evaluateFromTypes(const OpRegistry& registry, const Node& node, const std::vector<Value>& inputs) {
    if (node.kind != NodeKind::Op) return std::nullopt;
    const OpInfo* info = registry.find(node.op);
    if (!info || !info->evaluateFromTypes) return std::nullopt;
    // A node with the wrong input count is left to inference to report.
    const int n = static_cast<int>(inputs.size());
    if (n < info->minInputs || (info->maxInputs >= 0 && n > info->maxInputs)) return std::nullopt;
    std::vector<TensorType> types;
    for (const auto& in : inputs) {
        if (!in.defined() || !in.type().isStatic()) return std::nullopt;
        types.push_back(in.type());
    }
    return info->evaluateFromTypes(node, types);
}

std::optional<std::vector<Ref<Constant>>> evaluateFromTypes(const Node& node,
                                                            const std::vector<Value>& inputs) {
    return evaluateFromTypes(defaultOpRegistry(), node, inputs);
}

} // namespace tessel::graph
