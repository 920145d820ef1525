#include "runtime/Artifact.h"

namespace tessel::runtime {

int64_t ArgSpec::numElements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string ArgSpec::typeText() const {
    std::string s = dtype.str() + "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

std::vector<size_t> KernelSignature::outputIndices() const {
    std::vector<size_t> out;
    for (size_t i = 0; i < args.size(); ++i)
        if (args[i].output) out.push_back(i);
    return out;
}

std::string KernelSignature::str() const {
    std::string s = name + "(";
    for (size_t i = 0; i < args.size(); ++i)
        s += (i ? ", " : "") + std::string(args[i].output ? "out " : "") + args[i].name + ": " + args[i].typeText();
    return s + ")";
}

} // namespace tessel::runtime
