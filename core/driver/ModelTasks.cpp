#include "driver/ModelTasks.h"

#include "driver/Measure.h"
#include "lower/LowerGroup.h"
#include "lower/StoragePlan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace tessel::driver {

namespace {

/// "Conv 1x64x56x56 -> 1x64x56x56" from the anchor node.
std::string anchorText(const graph::Graph& g, const graph::FusionGroup& group) {
    const graph::Node* n = g.findNode(group.master >= 0 ? group.master : group.members.front());
    if (!n) return group.name;
    std::string s = n->op;
    if (!n->inputs.empty() && n->inputs[0].defined()) s += " " + n->inputs[0].type().str();
    if (!n->outputTypes.empty()) s += " -> " + n->outputTypes[0].str();
    return s;
}

class FusedFunctionTask : public tune::Task {
public:
    FusedFunctionTask(std::shared_ptr<const graph::Graph> graph, graph::FusionGroup group,
                      const CompileOptions& options)
        : graph_(std::move(graph)), group_(std::move(group)), target_(options.request.target),
          schedule_(scheduleOptionsFor(options.request.target, options.schedule)),
          strategies_(&options.request.registries().strategies) {
        const graph::Node* anchor = graph_->findNode(group_.master >= 0 ? group_.master : group_.members.front());
        workload_.op = anchor ? anchor->op : group_.name;
        workload_.key = workloadKey(*graph_, group_, target_);
        nlohmann::json j{{"op", workload_.op},
                         {"function", lower::groupWorkload(*graph_, group_)},
                         {"target", target_.str()}};
        workload_.json = j.dump();
        name_ = anchorText(*graph_, group_);
        Lowered d = lowerWith({}, true);
        knobs_ = d.group.knobs;
        flops_ = flopCount(d.function);
        // With alternative implementations (the "strategy" knob), the space is
        // the union of every alternative's knobs (each defines its own, under
        // its prefix); a configuration sets them all and only the chosen
        // one's are read.
        for (auto& k : d.group.knobs) {
            if (k.name != "strategy") continue;
            for (int64_t i = 1; i < k.size(); ++i) {
                Lowered alt = lowerWith({{"strategy", i}}, true);
                for (auto& ak : alt.group.knobs)
                    if (std::none_of(knobs_.begin(), knobs_.end(), [&](auto& x) { return x.name == ak.name; })) {
                        te::Knob fresh = ak;
                        fresh.chosen = fresh.defaultIndex;
                        fresh.configured = false;
                        knobs_.push_back(fresh);
                    }
            }
        }
    }

    std::string name() const override { return name_; }
    const tune::Workload& workload() const override { return workload_; }
    std::string target() const override { return target_.str(); }
    const std::vector<te::Knob>& knobs() const override { return knobs_; }
    double flops() const override { return flops_; }

    tune::Instance instantiate(const tune::Config& config) const override {
        Lowered l = lowerWith(config, true);
        return {buildJobOf(l.function, workload_.key), l.group.knobs};
    }

    tune::Instance reference() const override { return referenceFor({}); }

    /// The blocked layout is a knob (tile_ic, tile_oc): each layout has its own reference.
    tune::Instance referenceFor(const tune::Config& config) const override {
        Lowered l = lowerWith(config, true);
        return {buildJobOf(lowerReference(l.function), workload_.key), l.group.knobs};
    }

private:
    struct Lowered {
        lower::GroupFunction group;
        LoweredFunction function;
    };

    /// The group alone with `config`: its own storage planner (the plan is
    /// thrown away; only the kernel's arguments matter here).
    Lowered lowerWith(const tune::Config& config, bool schedule) const {
        lower::StoragePlanner planner(*graph_);
        lower::LowerGroupOptions go;
        go.schedule = schedule;
        go.scheduleOptions = schedule_;
        go.config = config;
        go.strategies = strategies_;
        go.target = target_.kind;
        Lowered l;
        l.group = lower::lowerGroup(*graph_, group_, planner, go);
        if (l.group.empty()) throw CompileError("function " + group_.name + " computes nothing that is used");
        l.function = lowerSchedule(l.group.schedule, l.group.args, l.group.name);
        return l;
    }

    std::shared_ptr<const graph::Graph> graph_;
    graph::FusionGroup group_;
    Target target_;
    topi::ScheduleOptions schedule_;
    /// The compile's context's records (the context outlives its tasks).
    const lower::StrategyRegistry* strategies_ = nullptr;
    tune::Workload workload_;
    std::string name_;
    std::vector<te::Knob> knobs_;
    double flops_ = 0;
};

} // namespace

std::shared_ptr<const tune::Task> makeFusedTask(std::shared_ptr<const graph::Graph> graph,
                                                const graph::FusionGroup& group, const CompileOptions& options) {
    auto task = std::make_shared<FusedFunctionTask>(std::move(graph), group, options);
    if (task->knobs().empty()) return nullptr;
    return task;
}

std::map<std::string, tune::Config> bestConfigs(const tune::Records& records) {
    std::map<std::string, tune::Config> out;
    for (const std::string& key : records.workloads())
        if (const tune::Record* r = records.best(key)) out[key] = r->config;
    return out;
}

std::vector<ModelTask> extractTasks(const CompiledModel& model, const CompileOptions& options) {
    auto graph = std::make_shared<const graph::Graph>(model.graph);
    std::vector<ModelTask> tasks;
    std::map<std::string, size_t> byKey;
    for (const FusedFunction& f : model.functions) {
        if (f.knobs.empty() || f.workload.empty()) continue;
        auto it = byKey.find(f.workload);
        if (it == byKey.end()) {
            if (f.group < 0 || size_t(f.group) >= model.fusion.groups.size()) continue;
            auto task = makeFusedTask(graph, model.fusion.groups[size_t(f.group)], options);
            if (!task) continue;
            it = byKey.emplace(f.workload, tasks.size()).first;
            tasks.push_back({std::move(task), 0, {}});
        }
        ModelTask& t = tasks[it->second];
        t.weight += 1;
        t.functions.push_back(f.name);
    }
    return tasks;
}

} // namespace tessel::driver
