/// \file
/// The recurrent layers RNN, GRU and LSTM. They stay one node each from the
/// importer to expand-recurrent (graph/passes/ExpandRecurrent.h), which
/// writes the recurrence over a static sequence as primitive operators; no
/// kernel computes them directly.
#include "graph/RecurrentLayer.h"
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

/// Y [S, D, N, H], Y_h [D, N, H], Y_c [D, N, H] (batch first with layout 1).
Types inferRecurrent(const InferContext& ctx) {
    std::vector<Value> inputs;
    for (int i = 0; i < ctx.numInputs(); ++i)
        inputs.push_back(ctx.inputValue(i));
    const RecurrentLayer L = readRecurrentLayer(ctx.node(), inputs);
    const int64_t D = L.directions;
    Shape y = L.batchFirst ? Shape{L.batch, L.seqLength, D, L.hidden}
                           : Shape{L.seqLength, D, L.batch, L.hidden};
    Shape h = L.batchFirst ? Shape{L.batch, D, L.hidden} : Shape{D, L.batch, L.hidden};
    Types out{TensorType(L.dtype, y)};
    for (int i = 1; i < ctx.numOutputs(); ++i)
        out.emplace_back(L.dtype, h);
    return out;
}

std::vector<AttrSchema> recurrentAttrs(const std::string& op) {
    std::vector<AttrSchema> a{
        attrInt("hidden_size", std::nullopt,
                "H, the size of the hidden state (R's last dimension when absent)"),
        attrString("direction", "forward", "forward, reverse or bidirectional"),
        attrInt("layout", 0, "1: X, Y, the states batch first (opset 14)"),
        attrString(
            "activations", "",
            "the activation functions, comma-separated, per direction (ONNX's list of strings)"),
        {"activation_alpha", AttrKind::Floats, std::nullopt,
         "alpha of the activations that take one, in order"},
        {"activation_beta", AttrKind::Floats, std::nullopt,
         "beta of the activations that take one, in order"},
        {"clip", AttrKind::Float, std::nullopt, "bounds the gates' inputs to [-clip, clip]"},
    };
    if (op == "LSTM")
        a.push_back(attrInt("input_forget", 0, "1: the forget gate is 1 - the input gate"));
    if (op == "GRU")
        a.push_back(attrInt("linear_before_reset", 0, "1: the reset gate multiplies H R_h + Rb_h"));
    return a;
}

} // namespace

void registerRecurrentOps(OpRegistry& r) {
    using P = OpPattern;
    auto expanded = [](OpInfo info) {
        info.expandedBy = "expand-recurrent";
        return info;
    };
    r.add(
        expanded(op("RNN", "H_t = f(X_t W^T + H_t-1 R^T + Wb + Rb) over a sequence; outputs Y, Y_h",
                    P::Opaque, 3, 6, inferRecurrent, recurrentAttrs("RNN"), 1, 2)));
    r.add(
        expanded(op("GRU", "a gated recurrent unit (gates z, r, h) over a sequence; outputs Y, Y_h",
                    P::Opaque, 3, 6, inferRecurrent, recurrentAttrs("GRU"), 1, 2)));
    r.add(expanded(op("LSTM",
                      "a long short-term memory (gates i, o, f, c, peepholes P) over a sequence; "
                      "outputs Y, Y_h, Y_c",
                      P::Opaque, 3, 8, inferRecurrent, recurrentAttrs("LSTM"), 1, 3)));
}

} // namespace tessel::graph::ops
