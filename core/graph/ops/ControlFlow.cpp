/// \file
/// The control-flow operators If, Loop and Scan. They hold subgraphs
/// (Node::subgraphs) and have no kernel: compileGraph compiles the static
/// regions around them and their subgraphs' bodies on their own, and the
/// host executor of driver/ControlFlowProgram.h runs them. Their inference
/// reads the subgraphs' output types; the outer values a subgraph reads are
/// the node's last inputs (Node::makeControlFlow), past the operator's own.
#include "graph/Retype.h"
#include "graph/ops/OpHelpers.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include <algorithm>
#include <map>

namespace tessel::graph::ops {

namespace {

const Subgraph* findSubgraph(const InferContext& ctx, const std::string& attr) {
    for (const auto& s : ctx.node().subgraphs)
        if (s.attr == attr && s.graph) return &s;
    ctx.fail("subgraph '" + attr + "' is missing");
}

/// The output types of subgraph `s` as the model gives them, or, where one
/// is not known (a body input without a type: ONNX lets the node type it),
/// inferred again with its own inputs of types `own` and its outer ones of
/// the node's.
std::vector<TensorType> subgraphTypes(const InferContext& ctx, const Subgraph& s,
                                      const std::vector<TensorType>& own) {
    const Graph& b = *s.graph;
    std::vector<TensorType> types;
    bool known = true;
    for (const auto& o : b.outputs()) {
        types.push_back(o.type());
        known = known && o.type().known();
    }
    if (known || b.inputs().size() != own.size() + s.outer.size()) return types;
    size_t at = static_cast<size_t>(ctx.node().numOwnInputs());
    for (const auto& other : ctx.node().subgraphs) {
        if (&other == &s) break;
        at += other.outer.size();
    }
    std::vector<TensorType> inputTypes;
    for (size_t i = 0; i < b.inputs().size(); ++i)
        inputTypes.push_back(i < own.size() ? own[i] : ctx.inputValue(static_cast<int>(at + i - own.size())).type());
    Graph g = withInputTypes(b, inputTypes);
    try {
        g = inferShapes(g);
    } catch (const CompileError& e) {
        ctx.fail("subgraph '" + s.attr + "' does not type with the node's inputs: " + e.what());
    }
    types.clear();
    for (const auto& o : g.outputs())
        types.push_back(o.type());
    return types;
}

/// Type `i` of `types` (subgraph `s`'s outputs), which must be known.
const TensorType& subgraphOutput(const InferContext& ctx, const Subgraph& s,
                                 const std::vector<TensorType>& types, size_t i) {
    if (i >= types.size())
        ctx.fail("subgraph '" + s.attr + "' has " + std::to_string(types.size()) + " outputs, " +
                 std::to_string(i + 1) + " are needed");
    const TensorType& t = types[i];
    if (!t.known())
        ctx.fail("the type of output " + std::to_string(i) + " of subgraph '" + s.attr +
                 "' is not known");
    return t;
}

/// `a` where `b` agrees with it, -1 for the dimensions where they differ;
/// fails for other element types or ranks.
TensorType mergeTypes(const InferContext& ctx, const TensorType& a, const TensorType& b,
                      const std::string& what) {
    if (a.dtype != b.dtype || a.rank() != b.rank())
        ctx.fail(what + " is " + a.str() + " in one place and " + b.str() +
                 " in another (outputs whose rank or type changes are not supported)");
    TensorType t = a;
    for (int d = 0; d < t.rank(); ++d)
        if (t.shape[size_t(d)] != b.shape[size_t(d)]) t.shape[size_t(d)] = -1;
    return t;
}

void checkScalarBool(const InferContext& ctx, int i, const std::string& what) {
    if (!ctx.hasInput(i)) return;
    const TensorType& t = ctx.input(i);
    if (!t.dtype.isBool() || t.numElements() > 1 || t.rank() > 1)
        ctx.fail(what + " must be a bool scalar, not " + t.str());
}

Types inferIf(const InferContext& ctx) {
    if (ctx.node().numOwnInputs() != 1) ctx.fail("If takes one input of its own (the condition)");
    checkScalarBool(ctx, 0, "the condition");
    const Subgraph* then = findSubgraph(ctx, "then_branch");
    const Subgraph* other = findSubgraph(ctx, "else_branch");
    const Types thenTypes = subgraphTypes(ctx, *then, {}),
                elseTypes = subgraphTypes(ctx, *other, {});
    Types out;
    for (int i = 0; i < ctx.numOutputs(); ++i)
        out.push_back(mergeTypes(ctx, subgraphOutput(ctx, *then, thenTypes, size_t(i)),
                                 subgraphOutput(ctx, *other, elseTypes, size_t(i)),
                                 "output " + std::to_string(i)));
    return out;
}

Types inferLoop(const InferContext& ctx) {
    const int ownCount = ctx.node().numOwnInputs();
    const Subgraph* body = findSubgraph(ctx, "body");
    if (ctx.hasInput(0)) {
        const TensorType& m = ctx.input(0);
        if (!m.dtype.isIntOrUInt() || m.numElements() > 1)
            ctx.fail("the trip count must be an int64 scalar, not " + m.str());
    }
    checkScalarBool(ctx, 1, "the condition");
    const int carried = std::max(ownCount - 2, 0);
    if (ctx.numOutputs() < carried) ctx.fail("Loop has fewer outputs than loop-carried values");
    Types own{TensorType(DataType::int64(), {}), TensorType(DataType::boolean(), {})};
    for (int i = 0; i < carried; ++i)
        own.push_back(ctx.input(2 + i));
    const Types bodyTypes = subgraphTypes(ctx, *body, own);
    Types out;
    for (int i = 0; i < carried; ++i)
        out.push_back(mergeTypes(ctx, ctx.input(2 + i),
                                 subgraphOutput(ctx, *body, bodyTypes, size_t(1 + i)),
                                 "loop-carried value " + std::to_string(i)));
    for (int k = carried; k < ctx.numOutputs(); ++k) {
        TensorType t = subgraphOutput(ctx, *body, bodyTypes, size_t(1 + k));
        t.shape.insert(t.shape.begin(), -1); // the number of iterations: known when it has run
        out.push_back(t);
    }
    return out;
}

Types inferScan(const InferContext& ctx) {
    const int ownCount = ctx.node().numOwnInputs();
    const int m = static_cast<int>(ctx.attrs().getInt("num_scan_inputs", -1));
    if (m < 1 || m > ownCount)
        ctx.fail("num_scan_inputs must be between 1 and the " + std::to_string(ownCount) +
                 " inputs");
    const int n = ownCount - m;
    const bool batch = ctx.attrs().getInt("batch", 0) != 0;
    const Subgraph* body = findSubgraph(ctx, "body");
    const TensorType& first = ctx.input(n);
    const auto inAxes = ctx.attrs().getInts("scan_input_axes", {});
    int64_t axis = batch ? 1 : (inAxes.empty() ? 0 : inAxes[0]);
    if (!batch) {
        auto a = normalizeAxis(axis, std::max(first.rank(), 1));
        if (!a)
            ctx.fail("scan_input_axes[0] " + std::to_string(axis) + " is out of range for " +
                     first.str());
        axis = *a;
    }
    if (axis >= first.rank())
        ctx.fail("scan input " + first.str() + " has no axis " + std::to_string(axis));
    const int64_t length = first.shape[size_t(axis)];
    if (ctx.numOutputs() < n) ctx.fail("Scan has fewer outputs than states");
    Types out;
    for (int i = 0; i < n; ++i)
        out.push_back(ctx.input(i));
    // The body's types where the model leaves them out: states as given,
    // each scan input less its scanned axis (and the batch axis).
    Types own;
    for (int i = 0; i < n; ++i) {
        TensorType t = ctx.input(i);
        if (batch && t.rank() > 0) t.shape.erase(t.shape.begin());
        own.push_back(t);
    }
    for (int j = 0; j < m; ++j) {
        TensorType t = ctx.input(n + j);
        const int64_t a = batch ? 1 : (size_t(j) < inAxes.size() ? inAxes[size_t(j)] : 0);
        if (auto na = normalizeAxis(a, std::max(t.rank(), 1)); na && *na < t.rank())
            t.shape.erase(t.shape.begin() + *na);
        if (batch && t.rank() > 0) t.shape.erase(t.shape.begin());
        own.push_back(t);
    }
    const Types bodyTypes = subgraphTypes(ctx, *body, own);
    const auto outAxes = ctx.attrs().getInts("scan_output_axes", {});
    for (int k = n; k < ctx.numOutputs(); ++k) {
        TensorType t = subgraphOutput(ctx, *body, bodyTypes, size_t(k));
        int64_t a = batch ? 0 : (size_t(k - n) < outAxes.size() ? outAxes[size_t(k - n)] : 0);
        auto na = normalizeAxis(a, t.rank() + 1);
        if (!na)
            ctx.fail("scan_output_axes " + std::to_string(a) + " is out of range for " + t.str());
        t.shape.insert(t.shape.begin() + *na, length);
        if (batch) t.shape.insert(t.shape.begin(), first.shape[0]);
        out.push_back(t);
    }
    return out;
}

} // namespace

void registerControlFlowOps(OpRegistry& r) {
    using P = OpPattern;
    OpInfo cf = op("If", "runs then_branch or else_branch as its condition says", P::Opaque, 1, -1,
                   inferIf, {}, 1, -1);
    cf.controlFlow = true;
    r.add(cf);
    cf = op("Loop", "runs its body while the trip count and condition allow, carrying values",
            P::Opaque, 0, -1, inferLoop, {}, 1, -1);
    cf.controlFlow = true;
    r.add(cf);
    cf = op("Scan", "runs its body once per slice of its scan inputs, carrying states", P::Opaque,
            1, -1, inferScan,
            {attrInt("num_scan_inputs", std::nullopt,
                     "how many of the inputs are scanned (the last ones)"),
             attrInts("scan_input_axes", "the axis each scan input is sliced along (default 0)"),
             attrInts("scan_input_directions", "0 forward, 1 backward, per scan input"),
             attrInts("scan_output_axes", "the axis each scan output is stacked along (default 0)"),
             attrInts("scan_output_directions", "0 in order, 1 reversed, per scan output"),
             attrInt("batch", 0,
                     "Tessel's form of opset 8: axis 0 of every input is a batch run one by one")},
            1, -1);
    cf.controlFlow = true;
    r.add(cf);
}

} // namespace tessel::graph::ops
