#include "tir/passes/Pipeline.h"

namespace tessel::tir {

std::vector<std::string> defaultTirPipeline() {
    return {
        "storage-flatten", "simplify",     "loop-partition",  "simplify",
        "vectorize",       "inject-virtual-thread", "unroll-loop",     "simplify",
        "storage-rewrite", "remove-no-op",
    };
}

std::vector<std::string> gpuTirPipeline() {
    auto p = defaultTirPipeline();
    p.push_back("thread-sync");
    p.push_back("inject-double-buffer");
    p.push_back("simplify");
    return p;
}

} // namespace tessel::tir
