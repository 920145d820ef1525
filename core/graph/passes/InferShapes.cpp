#include "graph/passes/InferShapes.h"

#include "graph/OpRegistry.h"
#include "ir/Diagnostic.h"

namespace tessel::graph {

namespace {

/// Merges an inferred type with the type a node carried before; throws when
/// they disagree.
TensorType merge(const Node& node, int output, const TensorType& inferred,
                 const TensorType& given) {
    if (!given.known()) return inferred;
    auto mismatch = [&] {
        return CompileError(node.describe() + ": output " + std::to_string(output) +
                            " is inferred as " + inferred.str() + ", but the graph gives " +
                            given.str());
    };
    if (given.dtype != inferred.dtype || given.rank() != inferred.rank()) throw mismatch();
    TensorType out = inferred;
    for (size_t i = 0; i < out.shape.size(); ++i) {
        if (out.shape[i] < 0)
            out.shape[i] = given.shape[i];
        else if (given.shape[i] >= 0 && given.shape[i] != out.shape[i])
            throw mismatch();
    }
    return out;
}

} // namespace

Graph inferShapes(const Graph& g, const InferShapesOptions& options) {
    const OpRegistry& ops = opsOrDefault(options.ops);
    Graph sorted = g.clone();
    sorted.sortTopologically();
    return sorted.rebuild([&](const Node& node, std::vector<Value> inputs) -> Ref<Node> {
        std::vector<TensorType> types = ops.inferOutputTypes(node, inputs);
        if (options.mergeGivenTypes)
            for (size_t i = 0; i < types.size(); ++i)
                types[i] = merge(node, static_cast<int>(i), types[i], node.outputTypes[i]);
        if (types == node.outputTypes && inputs == node.inputs) return Ref<Node>(&node);
        return node.with(std::move(inputs), std::move(types));
    });
}

} // namespace tessel::graph
