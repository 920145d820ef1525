/// \file
/// TIR -> readable C99 source, for students and for checking codegen by hand.
///
/// The output is one self-contained C file for a lowered, flattened PrimFunc,
/// with the kernel ABI of runtime/Module.h: `int32_t <name>(void* const* args)`
/// that unpacks one `restrict` pointer per buffer parameter and returns 0.
/// Loops are `for` loops (a parallel loop carries `#pragma omp parallel for`,
/// so it runs in parallel when compiled with -fopenmp and serially otherwise);
/// vector statements become small loops over their lanes, so no vector
/// extension is needed. Floor division and min/max are small inline helpers,
/// math intrinsics are libm calls (`expf`, `tanhf` ...). It compiles with
/// `cc -O2 -shared -fPIC x.c -lm` (GCC or Clang: a `Let` expression uses a GCC
/// statement expression).
#pragma once

#include "tir/IR.h"

#include <string>

namespace tessel::codegen {

/// C source for `f`. Throws CompileError when `f` is not flattened (the same
/// input rules as the LLVM backend).
std::string emitC(const tir::PrimFunc& f);

} // namespace tessel::codegen
