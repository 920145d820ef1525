/// \file
/// One fused group of a graph lowered to a TE function (TVM's
/// LowerToTE): placeholders for what the group reads from outside (graph
/// inputs, weights, other groups' outputs; single-element constants become
/// literals folded into the arithmetic), the topi compute of every member
/// through its strategy (Strategy.h), packed weights as new constant
/// arguments, the group's outputs, and the default schedule.
///
/// The kernel's arguments are registered with the storage planner as they
/// are found, and the function's call is appended as its next step, so the
/// executor plan follows the order the groups are lowered in.
#pragma once

#include "graph/Graph.h"
#include "graph/passes/FuseOps.h"
#include "lower/StoragePlan.h"
#include "lower/StrategyRegistry.h"
#include "te/Schedule.h"
#include "topi/Schedule.h"

#include <map>
#include <string>
#include <vector>

namespace tessel::lower {

struct LowerGroupOptions {
    /// The strategy records to choose from (a driver::Context's); null:
    /// defaultStrategies().
    const StrategyRegistry* strategies = nullptr;
    /// The kind of target the kernel is for: records serving other kinds are
    /// not considered.
    TargetKind target = TargetKind::LLVM;
    /// Build the default schedule (topi::scheduleFused); off when the caller
    /// brings its own (an edited schedule).
    bool schedule = true;
    topi::ScheduleOptions scheduleOptions = {};
    /// The knob choices of the function's template (a tuning record's
    /// configuration: knob name -> choice index); empty: the defaults. A
    /// choice out of range or a knob the function does not have is a
    /// CompileError.
    std::map<std::string, int64_t> config;
};

/// The TE function of one fused group.
struct GroupFunction {
    std::string name;
    int group = -1;               ///< index into the fusion plan's groups
    std::vector<int64_t> members; ///< graph node ids
    /// The kernel's parameters in order: the placeholders the outputs read
    /// (graph inputs, weights, other groups' outputs, packed constants), then
    /// the outputs.
    std::vector<te::Tensor> args;
    /// The tensors other groups or the graph's outputs read.
    std::vector<te::Tensor> outputs;
    /// The plan tensor of each argument (StoragePlanner indices), in order.
    std::vector<int> planArgs;
    /// Per member: "conv1 (Conv): topi::nn::conv2dNCHWc", the compute of the strategy that computed it.
    std::vector<std::string> computes;
    /// The anchor's (the group's master's) strategy record, and why it was chosen.
    std::string strategy;
    std::string strategyReason;
    /// The default schedule (with LowerGroupOptions::schedule).
    te::Schedule schedule;
    /// The function's knobs (its anchor's compute and schedule), each with
    /// the choice taken; empty when nothing in it is tunable.
    std::vector<te::Knob> knobs;
    /// groupWorkload() of the group.
    std::string workload;

    /// True when nothing the group computes is used (it makes no kernel).
    bool empty() const { return outputs.empty(); }
};

/// Lowers `group` of `g` (after shape inference: every shape static, else
/// CompileError naming the node and asking for --input-shape). Registers the
/// arguments' plan tensors with `planner` and, unless the function is empty,
/// adds its step.
GroupFunction lowerGroup(const graph::Graph& g, const graph::FusionGroup& group, StoragePlanner& planner,
                         const LowerGroupOptions& options = {});

/// What makes the group's kernel what it is, as text: per member its
/// operator, attributes, input and output types, and where each input comes
/// from (an earlier member, a constant, or outside); not the constants'
/// values nor any name. Fused functions with equal texts are one tuning
/// workload (the caller adds the target).
std::string groupWorkload(const graph::Graph& g, const graph::FusionGroup& group);

/// A summary of `f` for the stage view: its operators and the topi compute of
/// each, its arguments (name, type, plan tensor) and its stages with their tags.
std::string describeFunction(const GroupFunction& f);

} // namespace tessel::lower
