/// \file
/// The library anchors of the GEMM benchmark: how fast OpenBLAS and oneDNN
/// multiply two float32 matrices on this machine, timed with the runtime's
/// TimeEvaluator so the figures compare directly with Tessel's kernels.
///
/// Both libraries leave their worker threads spinning after a call
/// (OpenBLAS's pthread server for about 2^28 cycles, libgomp's idle threads
/// for GOMP_SPINCOUNT), which steals a core from whatever is timed next in the
/// same process. Call quiesceAnchorThreads() after an anchor and before timing
/// anything else (bench_anchors measures the effect), or time the anchors last.
#pragma once

#include "runtime/NDArray.h"
#include "runtime/TimeEvaluator.h"

namespace tessel::bench {

/// Median seconds per call of OpenBLAS's row-major C = A * B (cblas_sgemm;
/// A is M x K, B is K x N, float32) on `threads` threads (openblas_set_num_threads).
double openblasSgemmSeconds(int M, int N, int K, int threads, const runtime::TimeEvaluator& ev);

/// The same with oneDNN's dnnl_sgemm (row-major), its OpenMP runtime limited
/// to `threads` threads (omp_set_num_threads on the calling thread).
double dnnlSgemmSeconds(int M, int N, int K, int threads, const runtime::TimeEvaluator& ev);

/// Runs both libraries once on the same random inputs and compares oneDNN's
/// result with OpenBLAS's (rtol 1e-4, atol 1e-4 * sqrt(K)).
runtime::CompareResult compareAnchorSgemm(int M, int N, int K, int threads = 1);

/// Stops OpenBLAS's worker threads (they are started again by its next call)
/// and then waits, sleeping, until the process uses less than a tenth of a
/// core (libgomp's idle threads have stopped spinning), at most `maxMs`.
/// Returns the milliseconds it waited.
double quiesceAnchorThreads(double maxMs = 500);

/// 2*M*N*K / seconds, in GFLOP/s.
inline double gflops(int M, int N, int K, double seconds) {
    return 2.0 * M * N * K / seconds * 1e-9;
}

} // namespace tessel::bench
