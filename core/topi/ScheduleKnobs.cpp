#include "topi/ScheduleKnobs.h"

#include "ir/Check.h"

namespace tessel::topi {

int64_t defineInnerSplit(te::ConfigSpace& cfg, const std::string& name, int64_t extent, int64_t maxInner,
                         int64_t defaultInner, const std::function<bool(int64_t)>& keep) {
    std::vector<te::KnobValue> choices;
    int64_t defaultIndex = -1;
    for (auto& f : te::ConfigSpace::factorizations(extent, 2, maxInner)) {
        if (keep && f[1] != defaultInner && !keep(f[1])) continue;
        if (f[1] == defaultInner) defaultIndex = static_cast<int64_t>(choices.size());
        choices.emplace_back(te::KnobValue::Ints(f));
    }
    TESSEL_CHECK(defaultIndex >= 0, "the default split of knob '" + name + "' is not one of its choices");
    return cfg.define(name, te::KnobKind::Split, std::move(choices), defaultIndex).value().ints()[1];
}

} // namespace tessel::topi
