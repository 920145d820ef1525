#include "graph/passes/GraphPipeline.h"

namespace tessel::graph {

std::vector<std::string> defaultGraphPipeline() {
    return {
        "infer-shapes",                      // every value typed
        "fold-constant",                     // constants and shape sub-graphs computed, retyped
        "simplify-inference",                // batch norm -> scale/shift; Dropout, Identity gone
        "fold-scale-shift",                  // scale/shift into the convolution's weights and bias
        "common-subexpression-elimination",  // equal constants and nodes merged
        "dead-code-elimination",             // what reaches no output removed
        "fuse-ops",                          // fused operator groups
    };
}

} // namespace tessel::graph
