/// \file
/// The library anchors of the GEMM benchmark: how fast OpenBLAS and oneDNN
/// multiply two float32 matrices on this machine, timed with the runtime's
/// TimeEvaluator so the figures compare directly with Tessel's kernels.
///
/// Both libraries leave their worker threads spinning after a call, which
/// steals a core from whatever is timed next in the same process. Measured on
/// the 2-core AVX-512 machine (bench_anchors): OpenBLAS 0.3.21 (pthread) keeps
/// one core 100% busy for more than 120 ms after each call (it yields while it
/// spins, so it mostly costs CPU time rather than latency); libgomp behind
/// oneDNN 2.6 spins a core for about 5-10 ms and does not yield, so a parallel
/// launch timed right after it can wait for the scheduler. Three remedies:
///  - call quiesceAnchorThreads() after the anchors and before timing
///    anything else (stops OpenBLAS's threads, waits out libgomp: 2-9 ms);
///  - or start the process with OMP_WAIT_POLICY=passive and
///    OPENBLAS_THREAD_TIMEOUT=4 (both are read when the libraries load, so
///    setenv() in main is too late): no spinning at all, anchors within the
///    run-to-run noise (about 5-10% on the shared machine);
///  - or time the anchors last.
/// Also: OpenBLAS honours OPENBLAS_CORETYPE from the environment, and this
/// machine's environment sets Haswell (AVX2) on an AVX-512 CPU; bench_anchors
/// drops it (see there).
#pragma once

#include <string>

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

/// The kernel family OpenBLAS chose for this CPU ("Haswell", "SkylakeX"...).
/// OpenBLAS 0.3.21 reads OPENBLAS_CORETYPE to override it, at load time only.
const char* openblasCoreName();

/// 2*M*N*K / seconds, in GFLOP/s.
/// Restarts the process (execv of /proc/self/exe) once, before any library
/// call, with an environment the anchors need: OPENBLAS_CORETYPE dropped when it
/// forces kernels below this CPU (this machine's environment sets Haswell on an
/// AVX-512 CPU, which halves OpenBLAS), unless TESSEL_BENCH_KEEP_CORETYPE is
/// set; and, when `passiveThreads`, OMP_WAIT_POLICY=passive and
/// OPENBLAS_THREAD_TIMEOUT=4 so the libraries' idle threads do not spin beside
/// the code measured after them. Both are read when the libraries load, so
/// setenv() alone would be too late.
void restartWithAnchorEnvironment(char** argv, bool passiveThreads);

/// One line saying which OpenBLAS kernels run and what the restart changed.
std::string anchorEnvironmentNote();

inline double gflops(int M, int N, int K, double seconds) {
    return 2.0 * M * N * K / seconds * 1e-9;
}

} // namespace tessel::bench
