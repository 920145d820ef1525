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
///
/// Like the LLVM backend's debug locations, the C comes with a line table: each
/// C line links to the TIR printer's line (tir::printPrimFunc) of the statement
/// it was printed for. A vector statement's lane loop, an allocation's null
/// check and `free`, a loop's pragma and closing brace all link to their
/// statement; the signature, the argument unpacking and `return 0;` to the
/// `def` line; the file's header (includes, helpers, extern prototypes) to none.
#pragma once

#include "codegen/LineMap.h"
#include "tir/IR.h"

#include <string>
#include <vector>

namespace tessel::codegen {

/// The C backend's output.
struct CSource {
    /// One self-contained C file.
    std::string text;
    /// Per line of `text`: the line of printPrimFunc(f) it came from (0: none),
    /// and the reverse.
    LineMap lines;
};

/// C source for `f`, with its line table. Throws CompileError when `f` is not
/// flattened (the same input rules as the LLVM backend).
CSource emitC(const tir::PrimFunc& f);

/// CUDA C for GPU kernels (the kernels of tir::splitHostDevice, lowered for a
/// GPU target): one `extern "C" __global__` function per kernel with
/// `__launch_bounds__` of its block, bound loops as `threadIdx`/`blockIdx`
/// reads (guarded where shorter than the launch), `__shared__` arrays,
/// `__syncthreads()` barriers, CUDA's math functions. Compiles with
/// `nvcc -c`. Line numbers of the table refer to each kernel's own TIR text.
CSource emitCudaC(const std::vector<tir::PrimFunc>& kernels);

} // namespace tessel::codegen
