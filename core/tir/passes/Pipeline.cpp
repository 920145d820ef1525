#include "tir/passes/Pipeline.h"

namespace tessel::tir {

std::vector<std::string> defaultTirPipeline() {
    return {
        "storage-flatten", "simplify", "loop-partition",  "simplify",     "vectorize",
        "unroll-loop",     "simplify", "storage-rewrite", "remove-no-op",
    };
}

} // namespace tessel::tir
