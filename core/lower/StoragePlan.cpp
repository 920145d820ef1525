#include "lower/StoragePlan.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string_view>

namespace tessel::lower {

using runtime::PlanTensor;

StoragePlanner::StoragePlanner(const graph::Graph& g) : g_(g) {
    for (auto& n : g.nodes())
        for (auto& in : n->inputs)
            if (in.defined()) consumers_[in].push_back(n->id);
    for (auto& o : g.outputs())
        graphOutputs_.insert(o);
}

int StoragePlanner::tensorOf(const graph::Value& v) {
    auto it = index_.find(v);
    if (it != index_.end()) return it->second;
    PlanTensor t;
    t.name = v.name().empty() ? v.producer()->describe() + ":" + std::to_string(v.index()) : v.name();
    t.dtype = v.type().dtype;
    t.shape = v.type().shape;
    if (v.isConstant()) {
        t.kind = PlanTensor::Kind::Constant;
        constants_.push_back({static_cast<int>(plan_.tensors.size()), v.constant()});
    } else if (v.isInput()) {
        t.kind = PlanTensor::Kind::Input;
    } else {
        t.kind = graphOutputs_.count(v) ? PlanTensor::Kind::Output : PlanTensor::Kind::Intermediate;
    }
    int idx = static_cast<int>(plan_.tensors.size());
    plan_.tensors.push_back(std::move(t));
    index_.emplace(v, idx);
    return idx;
}

int StoragePlanner::addConstant(const std::string& name, Ref<graph::Constant> c) {
    const size_t hash = std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(c->bytes.data()), c->bytes.size()));
    for (auto [it, end] = packed_.equal_range(hash); it != end; ++it) {
        const graph::Constant& seen = *it->second.second;
        if (seen.dtype == c->dtype && seen.shape == c->shape && seen.bytes == c->bytes) return it->second.first;
    }
    packed_.emplace(hash, std::make_pair(static_cast<int>(plan_.tensors.size()), c));
    PlanTensor t;
    t.name = name;
    t.dtype = c->dtype;
    t.shape = c->shape;
    t.kind = PlanTensor::Kind::Constant;
    int idx = static_cast<int>(plan_.tensors.size());
    constants_.push_back({idx, std::move(c)});
    plan_.tensors.push_back(std::move(t));
    return idx;
}

bool StoragePlanner::usedOutside(const graph::Value& v, const std::set<int64_t>& group) const {
    if (graphOutputs_.count(v)) return true;
    auto it = consumers_.find(v);
    if (it == consumers_.end()) return false;
    for (int64_t c : it->second)
        if (!group.count(c)) return true;
    return false;
}

void StoragePlanner::addStep(std::string function, std::vector<int> args, std::vector<int> outputs) {
    plan_.steps.push_back({std::move(function), std::move(args)});
    stepOutputs_.push_back(std::move(outputs));
}

runtime::NDArray StoragePlanner::finish() {
    for (auto& in : g_.inputs())
        plan_.inputs.push_back(tensorOf(in->output(0)));
    for (auto& o : g_.outputs())
        plan_.outputs.push_back(tensorOf(o));

    int64_t offset = 0;
    for (auto& [t, c] : constants_) {
        plan_.tensors[static_cast<size_t>(t)].offset = offset;
        offset += (static_cast<int64_t>(c->bytes.size()) + 63) / 64 * 64;
    }
    plan_.weightsBytes = offset;
    runtime::NDArray weights = runtime::NDArray::zeros({std::max<int64_t>(offset, 1)}, DataType::int8());
    for (auto& [t, c] : constants_)
        if (!c->bytes.empty())
            std::memcpy(static_cast<char*>(weights.rawData()) + plan_.tensors[static_cast<size_t>(t)].offset,
                        c->bytes.data(), c->bytes.size());
    assignStorages(plan_, stepOutputs_);
    plan_.validate();
    return weights;
}

void assignStorages(runtime::ExecutorPlan& plan, const std::vector<std::vector<int>>& stepOutputs) {
    auto own = [&](PlanTensor& t) {
        t.storage = static_cast<int>(plan.storages.size());
        plan.storages.push_back(t.numBytes());
    };
    std::map<int, int> lastUse; // intermediate tensor -> last step reading it
    for (size_t s = 0; s < plan.steps.size(); ++s)
        for (int a : plan.steps[s].args)
            lastUse[a] = static_cast<int>(s);
    std::multimap<int64_t, int> free; // bytes -> storage
    for (size_t s = 0; s < plan.steps.size(); ++s) {
        for (int a : s < stepOutputs.size() ? stepOutputs[s] : std::vector<int>{}) {
            auto& t = plan.tensors[static_cast<size_t>(a)];
            if (t.storage >= 0 || t.kind != PlanTensor::Kind::Intermediate) continue;
            // Best fit: the smallest free storage that is large enough, else
            // grow the largest free one, else a new one.
            auto it = free.lower_bound(t.numBytes());
            if (it == free.end() && !free.empty()) it = std::prev(free.end());
            if (it != free.end()) {
                t.storage = it->second;
                auto& bytes = plan.storages[static_cast<size_t>(t.storage)];
                bytes = std::max(bytes, t.numBytes());
                free.erase(it);
            } else {
                own(t);
            }
        }
        // Storages of intermediates read for the last time here become free
        // after this step (never during it: a kernel's arguments must not alias).
        std::set<int> released;
        for (int a : plan.steps[s].args) {
            auto& t = plan.tensors[static_cast<size_t>(a)];
            if (t.kind == PlanTensor::Kind::Intermediate && lastUse[a] == static_cast<int>(s) &&
                released.insert(t.storage).second)
                free.emplace(plan.storages[static_cast<size_t>(t.storage)], t.storage);
        }
    }
    for (auto& t : plan.tensors)
        if (t.kind != PlanTensor::Kind::Constant && t.storage < 0) own(t);
}

namespace {

std::string typeText(const PlanTensor& t) {
    std::string s = t.dtype.str() + "[";
    for (size_t i = 0; i < t.shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(t.shape[i]);
    return s + "]";
}

/// "1.5 MiB", "384 B": a byte count as people read it.
std::string bytesText(int64_t b) {
    char buf[32];
    if (b >= 1 << 20)
        std::snprintf(buf, sizeof buf, "%.1f MiB", double(b) / double(1 << 20));
    else if (b >= 1 << 10)
        std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / double(1 << 10));
    else
        std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
    return buf;
}

} // namespace

std::string printStoragePlan(const runtime::ExecutorPlan& plan) {
    std::string out;
    int64_t intermediates = 0;
    for (auto& t : plan.tensors)
        if (t.kind == PlanTensor::Kind::Intermediate) intermediates += t.numBytes();
    out += "# " + std::to_string(plan.steps.size()) + " steps, " + std::to_string(plan.tensors.size()) +
           " tensors, " + std::to_string(plan.storages.size()) + " storages (" + bytesText(plan.storageBytes()) +
           "; intermediates alone would take " + bytesText(intermediates) + "), weights " +
           bytesText(plan.weightsBytes) + "\n\n";

    out += "steps:\n";
    for (size_t s = 0; s < plan.steps.size(); ++s) {
        out += "  " + std::to_string(s) + ": " + plan.steps[s].function + "(";
        for (size_t i = 0; i < plan.steps[s].args.size(); ++i)
            out += (i ? ", " : "") + std::string("t") + std::to_string(plan.steps[s].args[i]);
        out += ")\n";
    }

    out += "\ntensors:\n";
    for (size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& t = plan.tensors[i];
        out += "  t" + std::to_string(i) + " " + runtime::planTensorKindName(t.kind) + " " + t.name + ": " + typeText(t) + ", " +
               bytesText(t.numBytes());
        if (t.kind == PlanTensor::Kind::Constant)
            out += ", weights + " + std::to_string(t.offset);
        else
            out += ", storage s" + std::to_string(t.storage);
        out += "\n";
    }

    out += "\nstorages:\n";
    for (size_t s = 0; s < plan.storages.size(); ++s) {
        out += "  s" + std::to_string(s) + ": " + bytesText(plan.storages[s]) + " (" +
               std::to_string(plan.storages[s]) + " bytes):";
        for (size_t i = 0; i < plan.tensors.size(); ++i)
            if (plan.tensors[i].kind != PlanTensor::Kind::Constant && plan.tensors[i].storage == int(s))
                out += " t" + std::to_string(i);
        out += "\n";
    }
    return out;
}

} // namespace tessel::lower
