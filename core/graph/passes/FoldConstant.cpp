#include "graph/passes/FoldConstant.h"

#include "graph/ConstantEval.h"
#include "graph/GraphPrinter.h"
#include "graph/OpRegistry.h"
#include "graph/passes/GraphRewrite.h"
#include "ir/Diagnostic.h"

#include <unordered_set>

namespace tessel::graph {

namespace {

/// The node's outputs typed again for its new inputs. A dimension that
/// inference leaves unknown keeps what the node carried (an importer's
/// value_info); a disagreement is an error, as in infer-shapes.
std::vector<TensorType> retype(const OpRegistry& ops, const Node& node,
                               const std::vector<Value>& inputs) {
    for (const auto& in : inputs)
        if (in.defined() && !in.type().known()) return node.outputTypes;
    std::vector<TensorType> types = ops.inferOutputTypes(node, inputs);
    for (size_t i = 0; i < types.size(); ++i) {
        const TensorType& given = node.outputTypes[i];
        if (!given.known()) continue;
        if (given.dtype != types[i].dtype || given.rank() != types[i].rank())
            throw CompileError(node.describe() + ": output " + std::to_string(i) +
                               " is inferred as " + types[i].str() + ", but the graph gives " +
                               given.str());
        for (size_t d = 0; d < types[i].shape.size(); ++d)
            if (types[i].shape[d] < 0) types[i].shape[d] = given.shape[d];
    }
    return types;
}

/// The constants that replace `node`'s outputs, or nullopt to keep the node.
std::optional<std::vector<Ref<Constant>>> fold(const OpRegistry& ops, const Node& node,
                                               const std::vector<Value>& inputs,
                                               const FoldConstantOptions& options) {
    if (options.foldShapes)
        if (auto fromTypes = evaluateFromTypes(ops, node, inputs)) return fromTypes;
    std::vector<Ref<Constant>> constants;
    for (const auto& in : inputs) {
        if (in.defined() && !in.isConstant()) return std::nullopt;
        constants.push_back(in.constant());
    }
    // The output sizes, before computing anything. A fold-only operator has
    // no kernel to leave the work to, so it folds whatever its size.
    const OpInfo* info = ops.find(node.op);
    const bool mustFold = info && info->foldOnly;
    for (const auto& t : ops.inferOutputTypes(node, inputs))
        if (!t.isStatic() || (!mustFold && t.numElements() > options.maxElements))
            return std::nullopt;
    return evaluateConstant(ops, node, constants);
}

} // namespace

Graph foldConstant(const Graph& g, const FoldConstantOptions& options) {
    const OpRegistry& ops = opsOrDefault(options.ops);
    Graph sorted = g.clone();
    sorted.sortTopologically();
    bool changed = false;
    std::unordered_set<const Node*> made;
    auto rewrite = [&](const Node& n, const std::vector<Value>& in,
                       Graph& target) -> std::optional<std::vector<Value>> {
        if (auto constants = fold(ops, n, in, options)) {
            changed = true;
            std::vector<Value> values;
            for (size_t i = 0; i < constants->size(); ++i) {
                // The output's name, or the printer's (`%5` becomes constant `5`).
                std::string base = n.outputNames[i];
                if (base.empty()) base = valueRef(n.output(static_cast<int>(i))).substr(1);
                Ref<Node> c = Node::makeConstant(i == 0 ? n.id : target.newId(),
                                                 detail::uniqueName(target, base), (*constants)[i]);
                target.append(c);
                made.insert(c.get());
                values.push_back(c->output(0));
            }
            return values;
        }
        if (in == n.inputs) return std::nullopt;
        // Inputs folded: type the node again, so that what it feeds can fold.
        Ref<Node> m = n.with(in, retype(ops, n, in));
        target.append(m);
        return m->outputs();
    };
    Graph out = detail::rewriteNodes(sorted, rewrite);
    if (!changed) return g;

    // Drop the constants that only fed folded nodes, and folded values that
    // fed only other folded nodes.
    const auto usedBefore = detail::usedValues(sorted);
    const auto usedAfter = detail::usedValues(out);
    Graph result = detail::emptyLike(out);
    for (const auto& c : out.constants()) {
        const bool wasUsed = usedBefore.count(c->output(0)) || made.count(c.get());
        if (!wasUsed || usedAfter.count(c->output(0))) result.append(c);
    }
    for (const auto& n : out.nodes())
        result.append(n);
    result.setOutputs(out.outputs());
    return result;
}

} // namespace tessel::graph
