#include "frontend/OnnxInferenceGuard.h"

namespace tessel::frontend {

bool wellScoped(const onnx::GraphProto& g, std::unordered_set<std::string> defined) {
    std::unordered_set<std::string> initializers, inputs;
    for (const auto& t : g.initializer())
        if (t.name().empty() || !defined.insert(t.name()).second) return false;
    for (const auto& t : g.initializer())
        initializers.insert(t.name());
    for (const auto& sp : g.sparse_initializer())
        if (sp.values().name().empty() || !defined.insert(sp.values().name()).second) return false;
    for (const auto& in : g.input()) {
        if (in.name().empty() || !inputs.insert(in.name()).second) return false;
        if (!initializers.count(in.name()) && !defined.insert(in.name()).second) return false;
    }
    for (const auto& n : g.node()) {
        for (const auto& name : n.input())
            if (!name.empty() && !defined.count(name)) return false;
        for (const auto& a : n.attribute()) {
            if (a.has_g() && !wellScoped(a.g(), defined)) return false;
            for (const auto& sub : a.graphs())
                if (!wellScoped(sub, defined)) return false;
        }
        for (const auto& name : n.output())
            if (!name.empty() && !defined.insert(name).second) return false;
    }
    return true;
}

} // namespace tessel::frontend
