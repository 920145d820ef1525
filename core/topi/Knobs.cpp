#include "topi/Knobs.h"

#include "ir/Check.h"

#include <algorithm>

namespace tessel::topi {

std::vector<int64_t> defineSplitKnob(te::ConfigSpace& cfg, const std::string& name, int64_t extent,
                                            int parts, const std::vector<int64_t>& defaultFactors,
                                            const std::function<bool(const std::vector<int64_t>&)>& keep) {
    std::vector<te::KnobValue> choices;
    int64_t defaultIndex = -1;
    for (auto& f : te::ConfigSpace::factorizations(extent, parts)) {
        const bool isDefault = f == defaultFactors;
        if (!isDefault && keep && !keep(f)) continue;
        if (isDefault) defaultIndex = int64_t(choices.size());
        choices.emplace_back(f);
    }
    TESSEL_CHECK(defaultIndex >= 0, "knob " + name + ": the default split is not a factorisation of the extent");
    return cfg.define(name, te::KnobKind::Split, std::move(choices), defaultIndex).value().ints();
}

int64_t defineInnerSplit(te::ConfigSpace& cfg, const std::string& name, int64_t extent, int64_t maxInner,
                         int64_t defaultInner, const std::function<bool(int64_t)>& keep) {
    return defineSplitKnob(cfg, name, extent, 2, innerSplit(extent, defaultInner),
                           [&](const std::vector<int64_t>& f) { return f[1] <= maxInner && (!keep || keep(f[1])); })[1];
}

te::KnobValue defineChoiceKnob(te::ConfigSpace& cfg, const std::string& name,
                                      std::vector<te::KnobValue> candidates, const te::KnobValue& defaultValue) {
    auto it = std::find(candidates.begin(), candidates.end(), defaultValue);
    if (it == candidates.end()) {
        candidates.push_back(defaultValue);
        it = candidates.end() - 1;
    }
    const int64_t defaultIndex = it - candidates.begin();
    return cfg.define(name, te::KnobKind::Knob, std::move(candidates), defaultIndex).value();
}

} // namespace tessel::topi
