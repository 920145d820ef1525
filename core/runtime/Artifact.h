/// \file
/// What a Builder hands a Runner: one compiled kernel as a shared object for
/// its target, and the kernel's signature — what the runner must allocate and
/// pass, and which arguments it writes.
///
/// Plain values with no LLVM in them: a runner in this process, in a child
/// process or on a board behind RPC needs nothing else to run the kernel
/// (the bytes go over the wire as they are).
#pragma once

#include "ir/DataType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::runtime {

/// One argument of a kernel: a tensor the caller allocates.
struct ArgSpec {
    std::string name;
    DataType dtype = DataType::float32();
    std::vector<int64_t> shape;
    /// The kernel writes it (an output); the others are inputs it reads.
    bool output = false;

    int64_t numElements() const;
    /// "float32[64, 64]".
    std::string typeText() const;
};

/// How a kernel is called: its exported symbol (the kernel ABI of
/// runtime/Module.h) and one pointer per argument, in order.
struct KernelSignature {
    std::string name;
    std::vector<ArgSpec> args;

    /// Indices of the arguments the kernel writes.
    std::vector<size_t> outputIndices() const;
    /// "gemm(A: float32[1024, 1024], B: ..., out C: float32[1024, 1024])".
    std::string str() const;
};

/// A built kernel.
struct BuildArtifact {
    KernelSignature signature;
    /// An ELF shared object for `target` exporting signature.name.
    std::vector<char> library;
    /// Target::str() of what it was compiled for.
    std::string target;
    /// Floating-point operations of one call (multiply-adds count two).
    double flops = 0;
    /// The computation's key: kernels with the same key compute the same
    /// outputs from the same inputs (whatever their schedule), so they can
    /// share reference outputs.
    std::string workload;
    /// Wall time of the build (code generation and linking), seconds.
    double buildSeconds = 0;
};

} // namespace tessel::runtime
