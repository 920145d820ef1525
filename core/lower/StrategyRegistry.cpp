#include "lower/StrategyRegistry.h"

#include "ir/Diagnostic.h"

#include <algorithm>

namespace tessel::lower {

const OpStrategy& StrategyRegistry::add(OpStrategy record) {
    if (record.op.empty()) throw CompileError("a strategy record needs an operator");
    if (!record.apply) throw CompileError("strategy record for " + record.op + " has no compute function");
    if (record.compute.empty() && record.name.empty())
        throw CompileError("strategy record for " + record.op + " has neither a name nor a compute");
    if (find(record.op, record.id()))
        throw CompileError("operator " + record.op + " already has a strategy called '" + record.id() + "'");
    records_.push_back(std::move(record));
    return records_.back();
}

std::vector<const OpStrategy*> StrategyRegistry::forOp(std::string_view op, TargetKind target) const {
    std::vector<const OpStrategy*> out;
    for (auto& r : records_)
        if (r.op == op && r.servesTarget(target)) out.push_back(&r);
    std::stable_sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->priority > b->priority; });
    return out;
}

const OpStrategy* StrategyRegistry::find(std::string_view op, std::string_view name) const {
    for (auto& r : records_)
        if (r.op == op && r.id() == name) return &r;
    return nullptr;
}

std::string StrategyRegistry::versionTag(std::string_view op, TargetKind target) const {
    std::string tag;
    for (const OpStrategy* r : forOp(op, target)) {
        if (r->name.empty()) continue; // element-wise computes: no knobs, no versions
        if (!tag.empty()) tag += ' ';
        tag += r->id() + ".v" + std::to_string(r->version);
    }
    return tag;
}

bool StrategyRegistry::hasOp(std::string_view op) const {
    return std::any_of(records_.begin(), records_.end(), [&](auto& r) { return r.op == op; });
}

void registerStrategies(StrategyRegistry& registry) {
    std::vector<OpStrategy> v;
    addElementwiseStrategies(v);
    addNnStrategies(v);
    addTransformStrategies(v);
    addReduceStrategies(v);
    addIndexStrategies(v);
    for (auto& s : v) registry.add(std::move(s));
}

const StrategyRegistry& defaultStrategies() {
    static const StrategyRegistry registry = [] {
        StrategyRegistry r;
        registerStrategies(r);
        return r;
    }();
    return registry;
}

const OpStrategy* findStrategy(std::string_view op) {
    auto records = defaultStrategies().forOp(op, TargetKind::LLVM);
    return records.empty() ? nullptr : records.front();
}

} // namespace tessel::lower
