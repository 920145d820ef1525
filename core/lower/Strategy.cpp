#include "lower/Strategy.h"

#include "graph/OpRegistry.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "lower/StrategyRegistry.h"
#include "topi/Knobs.h"
#include "topi/TopiUtil.h"
#include "topi/Transform.h"

#include <algorithm>

namespace tessel::lower {

bool OpStrategy::servesTarget(TargetKind kind) const {
    return targets.empty() || std::find(targets.begin(), targets.end(), kind) != targets.end();
}

namespace {

std::string nameList(const std::vector<const OpStrategy*>& records) {
    std::string out;
    for (auto* r : records) out += (out.empty() ? "" : ", ") + r->id();
    return out;
}

/// The order in which the records of the node are tried, and why the first
/// one leads (the reason of a record without a condition that gives no
/// result is replaced by the one after it).
std::vector<const OpStrategy*> candidatesFor(const OpContext& ctx, const ComputeOptions& options,
                                             std::string& reason, std::string& prefix) {
    const StrategyRegistry& registry = options.registry ? *options.registry : defaultStrategies();
    std::vector<const OpStrategy*> order, conditional, tunable;
    for (const OpStrategy* s : registry.forOp(ctx.node().op, options.target)) {
        if (s->when) {
            if (!s->when(ctx)) continue;
            conditional.push_back(s);
            if (s->tunable) tunable.push_back(s);
        }
        order.push_back(s);
    }
    if (order.empty()) return order;
    // A choice for the tuner only when the record that leads is itself a
    // tunable one: a specialised record of higher priority wins outright.
    if (options.anchor && ctx.config() && tunable.size() >= 2 && order.front() == tunable.front()) {
        std::vector<te::KnobValue> names;
        for (auto* s : tunable) names.emplace_back(s->id());
        const std::string picked = topi::defineChoiceKnob(*ctx.config(), "strategy", names, names.front()).asString();
        // The space is the union of the alternatives' knobs; only the chosen
        // one's are defined. The others' are theirs: prefixed by a tunable
        // record's name, or unprefixed (the default's) when another is chosen.
        const bool pickedDefault = picked == names.front().asString();
        std::vector<std::string> alternatives;
        for (auto* s : tunable) alternatives.push_back(s->id() + ".");
        ctx.config()->allowUnusedConfig([alternatives, pickedDefault](const std::string& name) {
            for (auto& a : alternatives)
                if (name.starts_with(a)) return true;
            return !pickedDefault && name.find('.') == std::string::npos;
        });
        if (!pickedDefault) prefix = picked + ".";
        auto it = std::find_if(order.begin(), order.end(), [&](auto* s) { return s->id() == picked; });
        TESSEL_CHECK(it != order.end(), "strategy knob names a record that does not apply");
        const OpStrategy* chosen = *it;
        order.erase(it);
        order.insert(order.begin(), chosen);
        reason = chosen == tunable.front()
                     ? "the highest priority (" + std::to_string(chosen->priority) + ") of " +
                           std::to_string(tunable.size()) + " that apply (" + nameList(tunable) +
                           "); the tuner may choose another (knob strategy)"
                     : "chosen by the configuration (knob strategy) among " + std::to_string(tunable.size()) +
                           " that apply (" + nameList(tunable) + ")";
        return order;
    }
    if (conditional.size() >= 2 && order.front() == conditional.front())
        reason = "the highest priority (" + std::to_string(order.front()->priority) + ") of " +
                 std::to_string(conditional.size()) + " whose condition holds (" + nameList(conditional) + ")" +
                 (order.front()->condition.empty() ? std::string() : ": " + order.front()->condition);
    else if (order.front()->when)
        reason = "its condition holds (" +
                 (order.front()->condition.empty() ? std::string("specialised") : order.front()->condition) + ")";
    return order;
}

bool needsAdapting(const OpContext& ctx, const OpStrategy& s) {
    if (s.layouts) return false;
    for (int i = 0; i < ctx.numInputs(); ++i)
        if (ctx.hasInput(i) && ctx.inputType(i).blocked()) return true;
    for (int i = 0; i < ctx.numOutputs(); ++i)
        if (ctx.outputType(i).blocked()) return true;
    return false;
}

/// A record that knows no layouts, on a node whose tensors are blocked: its
/// inputs transformed to plain, its outputs stored back in their layouts.
std::vector<te::Tensor> applyPlain(const OpContext& ctx, const OpStrategy& s) {
    const graph::Node& node = ctx.node();
    std::vector<te::Tensor> ins;
    std::vector<Ref<graph::Constant>> consts;
    std::vector<graph::Value> plainInputs;
    for (int i = 0; i < ctx.numInputs(); ++i) {
        te::Tensor t = ctx.optionalInput(i);
        Ref<graph::Constant> c = ctx.constant(i);
        graph::Value v = node.inputs[size_t(i)];
        if (ctx.hasInput(i) && ctx.inputType(i).blocked()) {
            t = topi::transform::layoutTransform(t, ctx.inputType(i).layout, "", ctx.name() + "_in" + std::to_string(i));
            if (c) c = c->inLayout("");
            const graph::TensorType logical = ctx.inputType(i).logical();
            v = graph::Node::makeInput(-1, v.name(), logical)->output(0);
            if (c) v = graph::Node::makeConstant(-1, v.name(), c)->output(0);
        }
        ins.push_back(t);
        consts.push_back(c);
        plainInputs.push_back(v);
    }
    std::vector<graph::TensorType> plainOutputs;
    for (auto& t : node.outputTypes) plainOutputs.push_back(t.known() ? t.logical() : t);
    Ref<graph::Node> plainNode = graph::Node::makeOp(node.id, node.op, plainInputs, node.attrs, node.numOutputs(),
                                                     node.name, plainOutputs, node.outputNames);
    OpContext plain(*plainNode, ins, consts, ctx.packer(), ctx.config());
    auto outs = s.apply(plain);
    for (size_t i = 0; i < outs.size() && i < node.outputTypes.size(); ++i)
        if (outs[i].defined() && node.outputTypes[i].blocked())
            outs[i] = topi::transform::layoutTransform(outs[i], "", node.outputTypes[i].layout,
                                                       ctx.name() + "_out" + std::to_string(i));
    return outs;
}

} // namespace

std::vector<te::Tensor> computeNode(const OpContext& ctx, const ComputeOptions& options, StrategyChoice* choice) {
    const auto& node = ctx.node();
    std::string reason, prefix;
    const auto order = candidatesFor(ctx, options, reason, prefix);
    std::vector<te::Tensor> outs;
    const OpStrategy* applied = nullptr;
    for (const OpStrategy* s : order) {
        // The chosen alternative (first in order) defines its knobs under its prefix.
        const bool prefixed = !prefix.empty() && s == order.front() && ctx.config();
        if (prefixed) ctx.config()->setKnobPrefix(prefix);
        try {
            outs = needsAdapting(ctx, *s) ? applyPlain(ctx, *s) : s->apply(ctx);
            if (prefixed) ctx.config()->setKnobPrefix("");
        } catch (const CompileError& e) {
            if (prefixed) ctx.config()->setKnobPrefix("");
            // topi's messages do not know the node; ctx.fail's already name it.
            const std::string prefix = node.describe() + ": ";
            const auto& d = e.diagnostic();
            if (d.message.compare(0, prefix.size(), prefix) == 0) throw;
            throw CompileError(prefix + d.message, d.loc);
        }
        if (!outs.empty() || s->when) {
            applied = s;
            break;
        }
        // A record without a condition that did not apply: the next one
        // leads, and the reason of the first no longer holds.
        reason.clear();
        applied = s;
    }
    if (!applied) {
        const graph::OpInfo* info = graph::findOp(node.op);
        if (info && !info->expandedBy.empty())
            ctx.fail("the operator library has no compute for " + node.op + ": the graph pass " + info->expandedBy +
                     " writes it as other operators before lowering");
        ctx.fail("the operator library has no compute for " + node.op);
    }
    if (choice) {
        choice->strategy = applied;
        choice->knobPrefix = applied == order.front() ? prefix : std::string();
        choice->reason = !reason.empty() ? reason
                         : order.size() == 1 ? "the only one for " + node.op
                                             : "the first of " + std::to_string(order.size()) + " for " + node.op +
                                                   " that computes this node";
    }
    TESSEL_CHECK(static_cast<int>(outs.size()) == node.numOutputs(),
                 node.describe() + ": compute made " + std::to_string(outs.size()) + " outputs, node has " +
                     std::to_string(node.numOutputs()));
    for (int i = 0; i < node.numOutputs(); ++i) {
        const auto& want = node.outputTypes[static_cast<size_t>(i)];
        const auto& t = outs[static_cast<size_t>(i)];
        if (!t.defined()) continue; // an output nobody may read (Dropout's mask)
        TESSEL_CHECK(t->dtype == want.dtype && topi::staticShape(t) == want.shape,
                     node.describe() + ": output " + std::to_string(i) + " computed as " + t->dtype.str() +
                         " of the wrong shape; inferred " + want.str());
    }
    return outs;
}

} // namespace tessel::lower
