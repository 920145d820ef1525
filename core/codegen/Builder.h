/// \file
/// Building one kernel for a Runner: a lowered PrimFunc in, a shared object
/// for the target and the kernel's signature out (runtime/Artifact.h).
///
/// Builder is the seam between compiling and measuring. LocalBuilder compiles
/// in this process with LLVM and links with LLD; a tuner builds several
/// candidates in parallel through it while a runner measures another. The
/// artifact carries everything a runner needs, so the runner may be in this
/// process, in a child process or on a board.
#pragma once

#include "codegen/CodeGenLLVM.h"
#include "ir/Target.h"
#include "runtime/Artifact.h"
#include "tir/IR.h"

namespace tessel::codegen {

/// What to build: a lowered, flattened function and how it is called.
struct BuildJob {
    tir::PrimFunc func;
    /// One entry per buffer parameter of `func`, in order; its name is the
    /// function's name.
    runtime::KernelSignature signature;
    double flops = 0;
    std::string workload;
};

class Builder {
public:
    virtual ~Builder() = default;
    /// The target it builds for.
    virtual const Target& target() const = 0;
    /// Builds `job`. Throws CompileError when the function cannot be compiled
    /// for the target or the signature does not fit the function.
    virtual runtime::BuildArtifact build(const BuildJob& job) = 0;
};

/// LLVM and LLD in this process. Thread-safe (LLD links one at a time).
class LocalBuilder : public Builder {
public:
    explicit LocalBuilder(Target target, BuildOptions options = {});
    const Target& target() const override { return target_; }
    runtime::BuildArtifact build(const BuildJob& job) override;

private:
    Target target_;
    BuildOptions options_;
};

} // namespace tessel::codegen
