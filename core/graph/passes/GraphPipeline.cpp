#include "graph/passes/GraphPipeline.h"

namespace tessel::graph {

std::vector<std::string> defaultGraphPipeline() {
    return {
        "infer-shapes",                      // every value typed
        "expand-recurrent",                  // RNN, GRU, LSTM unrolled into primitive operators
        "canonicalize-qdq",                  // DQ -> Conv/MatMul/Gemm -> Q as QLinearConv/QLinearMatMul
        "expand-quantized",                  // integer products as int32 MatMul/Conv, requantized
        "fold-constant",                     // constants and shape sub-graphs computed, retyped
        "inline-constant-if",                // an If on a constant condition: its taken branch
        "simplify-inference",                // batch norm -> scale/shift; Dropout, Identity gone
        "fold-scale-shift",                  // scale/shift into the convolution's weights and bias
        "alter-layout",                      // activations stored NCHW16c between convolutions
        "fold-constant",                     // constants transformed into the blocked layout
        "common-subexpression-elimination",  // equal constants and nodes merged
        "dead-code-elimination",             // what reaches no output removed
        "fuse-ops",                          // fused operator groups
    };
}

std::vector<std::string> defaultGraphPipeline(int64_t channelBlock) {
    auto passes = defaultGraphPipeline();
    for (auto& p : passes)
        if (p == "alter-layout") p += "{block=" + std::to_string(channelBlock) + "}";
    return passes;
}

} // namespace tessel::graph
