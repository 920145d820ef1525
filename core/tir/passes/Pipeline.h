/// \file
/// The default TIR pipeline, as a readable list of pass names.
///
/// The pass manager (PassManager.h) runs such a list; the IDE's stage view
/// lists it with each pass's documentation (PassRegistry.h).
#pragma once

#include <string>
#include <vector>

namespace tessel::tir {

/// What runs between schedule lowering and codegen, in order:
///  1. storage-flatten        N-d buffers and realizations become flat buffers and Allocates
///  2. simplify               canonical index arithmetic; guards of dividing splits go away
///  3. loop-partition         loops split so the guards of non-dividing splits become provable
///  4. simplify               clean up the partitions' index arithmetic
///  5. vectorize              vectorized loops become Ramp/Broadcast vector code
///  6. inject-virtual-thread  vthread loops become their iterations interleaved
///  7. unroll-loop            unrolled loops become copies of their body
///  8. simplify               fold what unrolling and vectorizing made constant
///  9. storage-rewrite        hoist allocations out of loops, share memory between buffers
/// 10. remove-no-op           drop statements that do nothing
std::vector<std::string> defaultTirPipeline();

/// The pipeline for a GPU target: the default one, then
/// 11. thread-sync          barriers around shared-memory reuse between threads
/// 12. inject-double-buffer two halves for double-buffered tiles, one barrier per k-step
/// 13. simplify             fold the halves' offsets
std::vector<std::string> gpuTirPipeline();

} // namespace tessel::tir
