/// \file
/// What every compile is asked for: the target and the kind of compile.
///
/// One value travels through every driver entry point (a whole model:
/// CompileOptions; one function's texts: ArtifactOptions; a measurement:
/// the Builder), so that a front end sets the target once — the IDE's
/// session, `tesselc --target`, a tuning task — and every compile honours it.
///
/// The mode says who waits for the result. A batch compile (a whole model,
/// an export, a tuning candidate's final build) wants the fastest kernels; an
/// interactive one (the schedule editor re-lowering as the user types) wants
/// the texts soon, so LLVM unrolls less (docs/compiler-spine.md, "Unrolling":
/// half the code-generation time of a convolution for a few percent of its
/// speed).
#pragma once

#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "driver/Context.h"
#include "ir/Target.h"

#include <string_view>

namespace tessel::driver {

/// Batch: kernels as fast as LLVM makes them; Interactive: texts soon
/// (codegen::BuildOptions::mode).
using CompileMode = codegen::CompileMode;

struct CompileRequest {
    /// A complete target (codegen::resolveTarget); this machine by default.
    Target target = codegen::hostTarget();
    CompileMode mode = CompileMode::Batch;
    /// LLVM optimisation level, 0..3.
    int optLevel = 3;
    /// The registries (passes, operators) to compile with; null: the built-in
    /// ones (Context::builtin()).
    const Context* context = nullptr;

    /// A request for `target` as a user typed it ("host", "aarch64", a
    /// Target::str()), resolved; CompileError for an unknown target.
    static CompileRequest forTarget(std::string_view target, CompileMode mode = CompileMode::Batch);

    /// The registries to use: `context`, or the built-in ones.
    const Context& registries() const;
    /// codegen's options for this request (optimisation level, unrolling by
    /// mode); texts and debug lines are the caller's to set.
    codegen::BuildOptions buildOptions() const;
};

} // namespace tessel::driver
