#include "lower/LowerGroup.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "lower/Strategy.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "topi/ScheduleGpu.h"
#include "topi/TopiUtil.h"

#include <cctype>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace tessel::lower {

namespace {

using graph::Value;
using graph::ValueHash;

std::string identifier(const std::string& s, const std::string& fallback) {
    std::string out;
    for (char c : s)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty()) return fallback;
    if (std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(0, fallback + "_");
    return out;
}

/// A kernel parameter and how to get its plan tensor (made only when the
/// function reads it: a Reshape's shape or an unpacked weight is not).
using Param = std::pair<te::Tensor, std::function<int()>>;

/// Packed weights become constant arguments of the function: the values of
/// the group's constant placeholders are known here.
class GroupPacker : public topi::ConstantPacker {
public:
    GroupPacker(std::vector<Param>& params, StoragePlanner& planner) : params_(params), planner_(planner) {}

    void addSource(const te::Tensor& placeholder, Ref<graph::Constant> c) {
        sources_.emplace(placeholder->op.get(), std::move(c));
    }

    te::Tensor derive(const te::Tensor& source, const std::string& name, DataType dtype,
                      const std::vector<int64_t>& shape, const topi::PackFunction& fill) override {
        auto it = sources_.find(source->op.get());
        if (it == sources_.end()) return {};
        int64_t n = 1;
        for (int64_t d : shape)
            n *= d;
        std::vector<uint8_t> bytes(static_cast<size_t>(n * dtype.bytes()), 0);
        fill(it->second->bytes.data(), bytes.data());
        auto c = graph::Constant::make(dtype, shape, std::move(bytes));
        te::Tensor t = te::placeholder(topi::toExprs(shape), dtype, name);
        StoragePlanner& planner = planner_;
        params_.emplace_back(t, [&planner, name, c] { return planner.addConstant(name, c); });
        return t;
    }

private:
    std::vector<Param>& params_;
    StoragePlanner& planner_;
    std::unordered_map<const te::OperationNode*, Ref<graph::Constant>> sources_;
};

} // namespace

GroupFunction lowerGroup(const graph::Graph& g, const graph::FusionGroup& group, StoragePlanner& planner,
                         const LowerGroupOptions& options) {
    GroupFunction f;
    f.name = group.name;
    f.group = group.index;
    f.members = group.members;
    std::set<int64_t> members(group.members.begin(), group.members.end());

    std::unordered_map<Value, te::Tensor, ValueHash> tensors;
    std::vector<Param> params;
    GroupPacker packer(params, planner);
    auto tensorFor = [&](const Value& v) -> te::Tensor {
        auto it = tensors.find(v);
        if (it != tensors.end()) return it->second;
        std::string name = identifier(v.name(), std::string("p").append(std::to_string(params.size())));
        te::Tensor t;
        if (auto c = v.constant(); c && c->numElements() == 0) {
            // An empty constant (ReduceSum's "no axes", Resize's unused roi) is
            // read as a constant or not at all: it has no tensor.
            tensors.emplace(v, t);
            return t;
        } else if (c && c->numElements() == 1) {
            // A single-element constant is an inlined literal rather than a
            // kernel argument, so `x * 0.5` or Clip's bounds fold into the arithmetic.
            te::Expr lit = c->dtype.isFloat() ? tir::makeConst(c->dtype, c->toDoubles()[0])
                                              : tir::makeConst(c->dtype, c->toInts()[0]);
            t = topi::literalTensor(c->shape, lit, name);
            packer.addSource(t, c);
        } else {
            t = te::placeholder(topi::toExprs(v.type().shape), v.type().dtype, name);
            params.emplace_back(t, [&planner, v] { return planner.tensorOf(v); });
            if (c) packer.addSource(t, c);
        }
        tensors.emplace(v, t);
        return t;
    };

    te::ConfigSpace cfg(options.config);
    const OpStrategy* anchorStrategy = nullptr;
    std::string anchorPrefix;
    f.workload = groupWorkload(g, group);
    std::vector<Value> outputValues;
    for (int64_t id : group.members) {
        const graph::Node* n = g.findNode(id);
        TESSEL_CHECK(n, "fusion group " + group.name + " names a missing node");
        std::vector<te::Tensor> ins;
        std::vector<Ref<graph::Constant>> consts;
        for (auto& v : n->inputs) {
            ins.push_back(v.defined() ? tensorFor(v) : te::Tensor());
            consts.push_back(v.defined() ? v.constant() : Ref<graph::Constant>());
        }
        for (auto& t : n->outputTypes)
            if (!t.isStatic())
                throw CompileError(n->describe() + ": output shape " + t.str() +
                                   " is not static; bind the input shapes (--input-shape)");
        ComputeOptions co;
        co.registry = options.strategies;
        co.target = options.target;
        co.anchor = id == group.master;
        StrategyChoice used;
        auto outs = computeNode(OpContext(*n, ins, consts, &packer, &cfg), co, &used);
        f.computes.push_back(n->describe() + ": " + used.strategy->compute);
        if (co.anchor) {
            f.strategy = used.strategy->id();
            f.strategyReason = used.reason;
            anchorStrategy = used.strategy;
            anchorPrefix = used.knobPrefix;
        }
        for (int i = 0; i < n->numOutputs(); ++i) {
            Value v = n->output(i);
            if (!outs[static_cast<size_t>(i)].defined()) {
                if (planner.usedOutside(v, members))
                    throw CompileError(n->describe() + ": output " + std::to_string(i) +
                                       " is used but is not computed in inference");
                continue;
            }
            tensors.emplace(v, outs[static_cast<size_t>(i)]);
            if (planner.usedOutside(v, members)) {
                f.outputs.push_back(outs[static_cast<size_t>(i)]);
                outputValues.push_back(v);
            }
        }
    }
    if (f.outputs.empty()) return f; // nothing of it is used

    // The schedule and its knobs before anything is registered with the
    // planner: a configuration that does not fit fails here and leaves the
    // plan as it was (the caller may lower again with the defaults).
    if (options.schedule) {
        cfg.setKnobPrefix(anchorPrefix); // the anchor's schedule knobs beside its compute's
        const bool gpu = options.target == TargetKind::CUDA || options.target == TargetKind::NVPTX;
        // A record that names the GPU kinds brings the GPU schedule; the others get the GPU's default.
        const bool gpuRecord = anchorStrategy && anchorStrategy->schedule && !anchorStrategy->targets.empty();
        f.schedule = gpu ? (gpuRecord ? anchorStrategy->schedule(f.outputs, options.scheduleOptions, cfg)
                                      : topi::scheduleFusedGpu(f.outputs))
                     : anchorStrategy && anchorStrategy->schedule
                         ? anchorStrategy->schedule(f.outputs, options.scheduleOptions, cfg)
                         : topi::scheduleFused(f.outputs, options.scheduleOptions, &cfg);
        cfg.setKnobPrefix("");
        cfg.checkConfigUsed();
    }

    // Only the placeholders the outputs read are arguments (a Reshape's shape is not).
    std::vector<te::Operation> outOps;
    for (auto& t : f.outputs)
        outOps.push_back(t->op);
    std::unordered_set<const te::OperationNode*> reached;
    for (auto& op : te::postOrderOps(outOps))
        reached.insert(op.get());
    for (auto& [t, planTensor] : params) {
        if (!reached.count(t->op.get())) continue;
        f.args.push_back(t);
        f.planArgs.push_back(planTensor());
    }
    std::vector<int> outIdx;
    for (size_t i = 0; i < f.outputs.size(); ++i) {
        f.args.push_back(f.outputs[i]);
        outIdx.push_back(planner.tensorOf(outputValues[i]));
        f.planArgs.push_back(outIdx.back());
    }
    f.knobs = cfg.knobs();
    planner.addStep(f.name, f.planArgs, outIdx);
    return f;
}

std::string groupWorkload(const graph::Graph& g, const graph::FusionGroup& group) {
    std::unordered_map<const graph::Node*, size_t> position;
    std::string out;
    for (int64_t id : group.members) {
        const graph::Node* n = g.findNode(id);
        TESSEL_CHECK(n, "fusion group " + group.name + " names a missing node");
        position.emplace(n, position.size());
        if (!out.empty()) out += "; ";
        // The fusion pass's own annotations (fuse.group, fuse.function) name
        // the group, not the kernel.
        graph::Attributes attrs;
        for (auto& [name, value] : n->attrs.entries())
            if (!name.starts_with("fuse.")) attrs.set(name, value);
        out += n->op + attrs.str() + "(";
        for (size_t i = 0; i < n->inputs.size(); ++i) {
            const Value& v = n->inputs[i];
            if (i) out += ", ";
            if (!v.defined()) {
                out += "-";
                continue;
            }
            auto p = position.find(v.producer());
            if (p != position.end() && p->first != n) {
                out += "%" + std::to_string(p->second) + "." + std::to_string(v.index());
                continue;
            }
            auto c = v.constant();
            // A one-element constant is folded into the arithmetic: its value is part of the kernel.
            if (c && c->numElements() == 1)
                out += "=" + std::to_string(c->dtype.isFloat() ? c->toDoubles()[0] : double(c->toInts()[0]));
            else
                out += (c ? "const " : "") + v.type().str();
        }
        out += ") -> ";
        for (size_t i = 0; i < n->outputTypes.size(); ++i)
            out += (i ? ", " : "") + n->outputTypes[i].str();
    }
    return out;
}

std::string describeFunction(const GroupFunction& f) {
    std::string out = "function " + f.name + " (group " + std::to_string(f.group) + ")\n";
    out += "  operators:\n";
    for (auto& c : f.computes)
        out += "    " + c + "\n";
    if (!f.strategy.empty()) out += "  strategy: " + f.strategy + " (" + f.strategyReason + ")\n";
    out += "  arguments:\n";
    for (size_t i = 0; i < f.args.size(); ++i) {
        const bool isOutput = i + f.outputs.size() >= f.args.size();
        out += "    " + f.args[i].name() + ": " + te::typeText(f.args[i]) + (isOutput ? " (output)" : "") +
               ", plan t" + std::to_string(f.planArgs[i]) + "\n";
    }
    out += "  stages:\n";
    std::vector<te::Operation> outOps;
    for (auto& t : f.outputs)
        outOps.push_back(t->op);
    for (auto& op : te::postOrderOps(outOps)) {
        if (op->opKind() == te::OpKind::Placeholder) continue;
        auto* c = dynamic_cast<const te::ComputeOpNode*>(op.get());
        out += "    " + op->name + ": " + te::typeText(op.output(0)) + ", " + (op->tag.empty() ? "untagged" : op->tag);
        if (c && !c->reduceAxis.empty())
            out += ", reduces " + std::to_string(c->reduceAxis.size()) + (c->reduceAxis.size() == 1 ? " axis" : " axes");
        out += "\n";
    }
    return out;
}

} // namespace tessel::lower
