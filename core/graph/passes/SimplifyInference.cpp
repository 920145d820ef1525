#include "graph/passes/SimplifyInference.h"

#include "graph/OpRegistry.h"
#include "graph/passes/GraphRewrite.h"

#include <cmath>

namespace tessel::graph {

namespace {

/// A 1-d float constant of `c` elements, or null.
Ref<Constant> channelVector(const Value& v, int64_t c) {
    if (!v.defined()) return {};
    Ref<Constant> k = v.constant();
    if (!k || !k->dtype.isFloat() || k->shape.size() != 1 || (c >= 0 && k->shape[0] != c))
        return {};
    return k;
}

/// Output `i` of `n` is read by some node or is a graph output.
bool outputUsed(const Node& n, int i, const std::unordered_set<Value, ValueHash>& used) {
    return used.count(n.output(i)) > 0;
}

} // namespace

Graph simplifyInference(const Graph& g, const SimplifyInferenceOptions& options) {
    const OpRegistry& ops = opsOrDefault(options.ops);
    Graph sorted = g.clone();
    sorted.sortTopologically();
    const auto used = detail::usedValues(sorted);
    bool changed = false;

    Graph out = detail::rewriteNodes(
        sorted,
        [&](const Node& n, const std::vector<Value>& in,
            Graph& target) -> std::optional<std::vector<Value>> {
            auto extraOutputsUnused = [&] {
                for (int i = 1; i < n.numOutputs(); ++i)
                    if (outputUsed(n, i, used)) return false;
                return true;
            };
            if (options.identity && n.op == "Identity" && in.size() == 1 && in[0].defined()) {
                changed = true;
                return std::vector<Value>{in[0]};
            }
            if (options.dropout && n.op == "Dropout" && !in.empty() && in[0].defined() &&
                extraOutputsUnused()) {
                // Opset 12+: a constant true training_mode input keeps the node.
                if (in.size() > 2 && in[2].defined()) {
                    Ref<Constant> t = in[2].constant();
                    if (!t) return std::nullopt;
                    for (auto x : t->toInts())
                        if (x != 0) return std::nullopt;
                }
                changed = true;
                std::vector<Value> r(static_cast<size_t>(n.numOutputs()));
                r[0] = in[0];
                return r;
            }
            if (!options.batchNorm || n.op != "BatchNormalization" || in.size() != 5 ||
                n.attrs.getInt("training_mode", 0) != 0 || !extraOutputsUnused())
                return std::nullopt;
            const Value& x = in[0];
            if (!x.defined() || !x.type().known() || !x.type().dtype.isFloat() ||
                x.type().rank() < 2 || (x.type().dtype.bits() != 32 && x.type().dtype.bits() != 64))
                return std::nullopt;
            Ref<Constant> scale = channelVector(in[1], -1);
            if (!scale) return std::nullopt;
            const int64_t c = scale->shape[0];
            Ref<Constant> bias = channelVector(in[2], c), mean = channelVector(in[3], c),
                          var = channelVector(in[4], c);
            if (!bias || !mean || !var || (x.type().shape[1] >= 0 && x.type().shape[1] != c))
                return std::nullopt;
            const double eps = n.attrs.getFloat("epsilon", 1e-5);
            std::vector<double> sv = scale->toDoubles(), bv = bias->toDoubles(),
                                mv = mean->toDoubles(), vv = var->toDoubles();
            std::vector<double> s(static_cast<size_t>(c)), t(static_cast<size_t>(c));
            for (size_t k = 0; k < s.size(); ++k) {
                s[k] = sv[k] / std::sqrt(vv[k] + eps);
                t[k] = bv[k] - mv[k] * s[k];
            }
            std::vector<int64_t> shape{c};
            for (int d = 2; d < x.type().rank(); ++d)
                shape.push_back(1);
            const DataType dt = x.type().dtype;
            const std::string base = n.name.empty() ? "bn" + std::to_string(n.id) : n.name;
            Value sc = target.addConstant(detail::uniqueName(target, base + "_scale"),
                                          Constant::fromFloats(shape, s, dt));
            Value sh = target.addConstant(detail::uniqueName(target, base + "_shift"),
                                          Constant::fromFloats(shape, t, dt));
            Ref<Node> mul = detail::makeTypedOp(ops, target.newId(), "Mul", {x, sc}, {},
                                                n.name.empty() ? "" : n.name + "_mul");
            target.append(mul);
            std::vector<std::string> names{n.outputNames.empty() ? "" : n.outputNames[0]};
            Ref<Node> add =
                detail::makeTypedOp(ops, n.id, "Add", {mul->output(0), sh}, {}, n.name, names);
            target.append(add);
            changed = true;
            std::vector<Value> r(static_cast<size_t>(n.numOutputs()));
            r[0] = add->output(0);
            return r;
        });
    if (!changed) return g;
    return detail::dropConstantsNoLongerUsed(sorted, out);
}

} // namespace tessel::graph
