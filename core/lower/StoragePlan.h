/// \file
/// Storage planning of a compiled model (TVM's graph executor memory plan):
/// the executor plan's tensors (graph inputs, constants, intermediates,
/// outputs), its steps in call order, the weights blob the constants live in,
/// and a storage for every other tensor, shared between intermediates whose
/// lifetimes do not overlap.
///
/// The planner is filled while the fused groups are lowered (lowerGroup()
/// asks for the plan tensor of every kernel argument and adds one step per
/// function), then finish() lays everything out. assignStorages() is the
/// sharing itself, on a plan alone.
#pragma once

#include "graph/Graph.h"
#include "runtime/ExecutorPlan.h"
#include "runtime/NDArray.h"

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tessel::lower {

class StoragePlanner {
public:
    explicit StoragePlanner(const graph::Graph& g);

    /// The plan tensor of `v`, made on first use (kind from the value: a
    /// constant, a graph input, a graph output or an intermediate).
    int tensorOf(const graph::Value& v);
    /// A constant made at compile time (packed weights): a new plan tensor,
    /// or the one already added with the same type and bytes (a recurrent
    /// layer's steps each pack the same recurrent weights; one copy stays in
    /// the cache instead of one per step).
    int addConstant(const std::string& name, Ref<graph::Constant> c);
    /// Whether `v` is read outside the nodes of `group` (or is a graph output).
    bool usedOutside(const graph::Value& v, const std::set<int64_t>& group) const;
    /// Appends a call of `function` on `args` (plan tensors, in parameter
    /// order) that writes `outputs`.
    void addStep(std::string function, std::vector<int> args, std::vector<int> outputs);

    /// Lays out the constants in one blob (each 64-byte aligned), records the
    /// graph's inputs and outputs, assigns storages (assignStorages) and
    /// validates the plan. Returns the weights blob. Call once, last.
    runtime::NDArray finish();

    const runtime::ExecutorPlan& plan() const { return plan_; }
    runtime::ExecutorPlan takePlan() { return std::move(plan_); }
    /// The tensors each step writes, in step order.
    const std::vector<std::vector<int>>& stepOutputs() const { return stepOutputs_; }

private:
    const graph::Graph& g_;
    runtime::ExecutorPlan plan_;
    std::unordered_map<graph::Value, std::vector<int64_t>, graph::ValueHash> consumers_;
    std::unordered_set<graph::Value, graph::ValueHash> graphOutputs_;
    std::unordered_map<graph::Value, int, graph::ValueHash> index_;
    std::vector<std::pair<int, Ref<graph::Constant>>> constants_;
    /// addConstant's tensors (and their values) by a hash of their bytes.
    std::unordered_multimap<size_t, std::pair<int, Ref<graph::Constant>>> packed_;
    std::vector<std::vector<int>> stepOutputs_;
};

/// Gives every input, output and intermediate tensor of `plan` a storage:
/// inputs and outputs their own, intermediates a shared one free since the
/// step after the last that read its previous tenant (best fit: the smallest
/// free storage that is large enough, else the largest free one grown, else a
/// new one). `stepOutputs[s]` are the tensors step s writes; an intermediate
/// gets its storage at the first step that writes it. A storage is never
/// released during the step that last reads it, so a kernel's arguments
/// never alias. Fills plan.storages (bytes) and each tensor's storage.
void assignStorages(runtime::ExecutorPlan& plan, const std::vector<std::vector<int>>& stepOutputs);

/// The plan as text (the "plan-storage" stage): the steps in call order with
/// their argument tensors, every tensor with its kind, type, bytes and
/// storage (or weights offset), and the storages with their sizes and tenants.
std::string printStoragePlan(const runtime::ExecutorPlan& plan);

} // namespace tessel::lower
