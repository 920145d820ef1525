/// \file
/// The graph adapter of the operator library (TVM's OpStrategy): for every
/// graph operator, records that read the node's attributes, types and
/// constant inputs, build the typed parameters and call a topi compute.
///
/// A record is (operator, target kinds, condition on the workload, priority)
/// -> compute (+ the fused function's schedule when the record computes the
/// group's anchor, + the knobs both define). Several records may name the
/// same operator: the direct, Winograd and depthwise convolutions are records
/// side by side, and a GPU target adds records rather than `if`s. Records live
/// in a StrategyRegistry (StrategyRegistry.h) owned by driver::Context, filled
/// by registerStrategies() and open to plugins; how one is chosen for a node
/// is chooseStrategy() below.
#pragma once

#include "ir/Target.h"
#include "lower/OpContext.h"
#include "topi/Schedule.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::lower {

class StrategyRegistry;

/// Computes one node: one tensor per node output (undefined for an output
/// inference never computes, such as Dropout's mask in training), or an empty
/// vector when this strategy does not apply after all and the next one should
/// run (records without a `when` condition decide that way).
using StrategyFunction = std::function<std::vector<te::Tensor>(const OpContext&)>;
/// Whether a record applies to a node (pure: it defines no knob and packs
/// nothing); what makes the record a candidate before anything is built.
using StrategyCondition = std::function<bool(const OpContext&)>;
/// The schedule of a fused function whose anchor this record computed:
/// `outputs` are the function's outputs, the knobs go into `cfg`.
using StrategySchedule =
    std::function<te::Schedule(const std::vector<te::Tensor>& outputs, const topi::ScheduleOptions&, te::ConfigSpace& cfg)>;

/// The records whose computes and schedules are made for CPU vectors and
/// caches (blocked layouts, packed constants); a GPU takes the general ones.
inline const std::vector<TargetKind> kCpuKinds = {TargetKind::LLVM, TargetKind::C};
/// The records made for NVIDIA GPUs (threads, shared memory).
inline const std::vector<TargetKind> kGpuKinds = {TargetKind::CUDA, TargetKind::NVPTX};

/// How one graph operator is computed.
struct OpStrategy {
    std::string op;      ///< ONNX operator name
    std::string compute; ///< the topi compute it calls ("topi::nn::conv2dNCHWc"), for listings
    StrategyFunction apply;
    /// Unique per operator ("conv2d_nchwc", "conv2d_winograd"); empty: the
    /// compute's text. The name the tuner's "strategy" knob and Properties use.
    std::string name = {};
    /// Higher first among the records of an operator that apply.
    int priority = 0;
    /// The condition on the workload; null: apply() decides (an empty result).
    StrategyCondition when = {};
    /// The condition in words ("2-d float32, constant weights, stride 1 3x3"),
    /// for listings and for Properties' "why".
    std::string condition = {};
    /// The target kinds it serves; empty: every kind.
    std::vector<TargetKind> targets = {};
    /// Offered to the tuner: when two or more tunable records apply to a
    /// group's anchor, the function gets a knob "strategy" over their names.
    bool tunable = false;
    /// The fused function's schedule when this record computes the anchor;
    /// null: topi::scheduleFused (dispatch on the stages' tags).
    StrategySchedule schedule = {};
    /// The compute reads its inputs and writes its outputs in the layouts
    /// they are stored in (TensorType::layout). Otherwise, on a node with
    /// blocked inputs or outputs, computeNode() hands it the inputs
    /// transformed to plain and stores its outputs back in their layouts
    /// (correct, with the copies a layout-aware record avoids).
    bool layouts = false;
    /// Raised whenever the compute or schedule changes what a configuration
    /// of its knobs means. Part of every tuning workload key of the operator
    /// (StrategyRegistry::versionTag), so records made for an older kernel
    /// stop applying instead of configuring a different one.
    int version = 1;

    /// name, or compute when no name was given.
    const std::string& id() const { return name.empty() ? compute : name; }
    bool servesTarget(TargetKind kind) const;
};

/// Which record computed a node, and why that one.
struct StrategyChoice {
    const OpStrategy* strategy = nullptr;
    /// One sentence: "the highest priority (20) of 2 that apply
    /// (conv2d_nchwc, conv2d_winograd)", "chosen by the configuration (knob
    /// strategy)", "the only one that applies".
    std::string reason;
    /// The prefix of the knobs the record defines ("conv2d_winograd."), empty
    /// for the default record: an alternative's knobs live beside the
    /// default's in one space (te::ConfigSpace::setKnobPrefix). The schedule
    /// of the anchor defines its knobs under the same prefix.
    std::string knobPrefix;
};

/// Options of computeNode().
struct ComputeOptions {
    /// Records to choose from; null: defaultStrategies().
    const StrategyRegistry* registry = nullptr;
    /// The target kind the kernel is for (records serving other kinds are skipped).
    TargetKind target = TargetKind::LLVM;
    /// The node is its fused function's anchor: when two or more tunable
    /// records apply, the choice is the knob "strategy" of the context's
    /// configuration space (default: the highest priority).
    bool anchor = false;
};

/// Picks the record for `ctx.node()` and computes it: candidates are the
/// records of the operator serving the target, highest priority first (ties:
/// registration order); those with a condition that fails are skipped, those
/// without one are tried until one gives a result. Checks the outputs against
/// the node's inferred types (count, shape, dtype; a mismatch is an internal
/// error). A CompileError of the compute is prefixed with the node; with no
/// record for the operator, CompileError naming the node. `choice`, when
/// given, receives the record that computed and why.
std::vector<te::Tensor> computeNode(const OpContext& ctx, const ComputeOptions& options = {},
                                    StrategyChoice* choice = nullptr);

// --- the per-file record lists, gathered by registerStrategies() ------------------------
void addElementwiseStrategies(std::vector<OpStrategy>& s); // StrategyElementwise.cpp
void addNnStrategies(std::vector<OpStrategy>& s);          // StrategyNn.cpp: conv, gemm, matmul, pooling
void addTransformStrategies(std::vector<OpStrategy>& s);   // StrategyTransform.cpp: reshape, slice, concat ...
void addReduceStrategies(std::vector<OpStrategy>& s);      // StrategyReduce.cpp: reductions, softmax, norms
void addIndexStrategies(std::vector<OpStrategy>& s);       // StrategyIndex.cpp: gathers, scatters, TopK, Einsum, losses,
                                                           // quantisation, windows, DFT, STFT

} // namespace tessel::lower
