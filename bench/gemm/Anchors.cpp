#include "gemm/Anchors.h"
#include <cctype>
#include <string_view>
#include <cstdlib>
#include <unistd.h>

#include <cblas.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <stdexcept>
#include <string>
#include <thread>

/// OpenBLAS's own shutdown of its thread server (exported by the pthread
/// build; what it runs before fork). Weak: other builds may lack it.
extern "C" int blas_thread_shutdown_(void) __attribute__((weak));

namespace tessel::bench {

using runtime::NDArray;

namespace {

struct Operands {
    NDArray a, b, c;
    Operands(int M, int N, int K)
        : a({M, K}, DataType::float32()), b({K, N}, DataType::float32()),
          c({M, N}, DataType::float32()) {
        a.fillRandom(1, -1, 1);
        b.fillRandom(2, -1, 1);
        c.fillZero();
    }
};

void openblasSgemm(Operands& o, int M, int N, int K) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, o.a.data<float>(), K,
                o.b.data<float>(), N, 0.0f, o.c.data<float>(), N);
}

void dnnlSgemm(Operands& o, int M, int N, int K) {
    dnnl_status_t s = dnnl_sgemm('N', 'N', M, N, K, 1.0f, o.a.data<float>(), K, o.b.data<float>(),
                                 N, 0.0f, o.c.data<float>(), N);
    if (s != dnnl_success) throw std::runtime_error("dnnl_sgemm failed: " + std::to_string(s));
}

double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

} // namespace

double openblasSgemmSeconds(int M, int N, int K, int threads, const runtime::TimeEvaluator& ev) {
    Operands o(M, N, K);
    openblas_set_num_threads(threads);
    return runtime::median(ev.measure([&] { openblasSgemm(o, M, N, K); }));
}

double dnnlSgemmSeconds(int M, int N, int K, int threads, const runtime::TimeEvaluator& ev) {
    Operands o(M, N, K);
    omp_set_num_threads(threads);
    return runtime::median(ev.measure([&] { dnnlSgemm(o, M, N, K); }));
}

runtime::CompareResult compareAnchorSgemm(int M, int N, int K, int threads) {
    Operands blas(M, N, K), dnnl(M, N, K);
    openblas_set_num_threads(threads);
    omp_set_num_threads(threads);
    openblasSgemm(blas, M, N, K);
    dnnlSgemm(dnnl, M, N, K);
    return runtime::compare(dnnl.c, blas.c, 1e-4, 1e-4 * std::sqrt(double(K)));
}

const char* openblasCoreName() {
    return openblas_get_corename();
}

double quiesceAnchorThreads(double maxMs) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    if (blas_thread_shutdown_) blas_thread_shutdown_();
    auto elapsedMs = [&] {
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    int quietWindows = 0;
    while (elapsedMs() < maxMs && quietWindows < 2) {
        const double cpu0 = processCpuSeconds();
        const auto t0 = Clock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        const double busy = (processCpuSeconds() - cpu0) / wall; // cores in use
        quietWindows = busy < 0.1 ? quietWindows + 1 : 0;
    }
    return elapsedMs();
}

} // namespace tessel::bench

namespace tessel::bench {

namespace {
/// Whether an OPENBLAS_CORETYPE value names kernels without AVX-512.
bool isBelowAvx512(std::string_view core) {
    std::string lower(core);
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* avx512 : {"skylakex", "cooperlake", "sapphirerapids"})
        if (lower == avx512) return false;
    return true;
}
} // namespace

void restartWithAnchorEnvironment(char** argv, bool passiveThreads) {
    if (std::getenv("TESSEL_BENCH_RESTARTED")) return;
    setenv("TESSEL_BENCH_RESTARTED", "1", 1);
    bool restart = false;
    if (const char* forced = std::getenv("OPENBLAS_CORETYPE");
        forced && !std::getenv("TESSEL_BENCH_KEEP_CORETYPE") && isBelowAvx512(forced) &&
        __builtin_cpu_supports("avx512f")) {
        setenv("TESSEL_BENCH_DROPPED_CORETYPE", forced, 1);
        unsetenv("OPENBLAS_CORETYPE");
        restart = true;
    }
    if (passiveThreads) {
        if (!std::getenv("OMP_WAIT_POLICY")) setenv("OMP_WAIT_POLICY", "passive", 1), restart = true;
        if (!std::getenv("OPENBLAS_THREAD_TIMEOUT")) setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1), restart = true;
    }
    if (restart) execv("/proc/self/exe", argv); // on failure: go on as we are
}

std::string anchorEnvironmentNote() {
    std::string s = std::string("OpenBLAS kernels: ") + openblasCoreName();
    if (const char* dropped = std::getenv("TESSEL_BENCH_DROPPED_CORETYPE"))
        s += std::string(" (OPENBLAS_CORETYPE=") + dropped +
             " from the environment ignored; TESSEL_BENCH_KEEP_CORETYPE=1 keeps it)";
    if (const char* w = std::getenv("OMP_WAIT_POLICY")) s += std::string("; OMP_WAIT_POLICY=") + w;
    return s;
}

} // namespace tessel::bench
