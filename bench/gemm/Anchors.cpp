#include "gemm/Anchors.h"

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
