// bench_anchors: GFLOP/s of OpenBLAS and oneDNN sgemm (row-major, float32) at
// 1 and 2 threads, medians of TimeEvaluator repeats; then how much the threads
// the libraries leave spinning disturb code timed right after them, and how
// well quiesceAnchorThreads() removes that.
//
//   bench_anchors [size]        (default 1024: M = N = K = size)
#include "gemm/Anchors.h"

#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tessel;
using runtime::ThreadPool;
using runtime::TimeEvaluator;

namespace {

int32_t emptyTask(int32_t, int32_t, void*) {
    return 0;
}

/// Mean microseconds per empty launch on the global pool (2 threads).
double probeLaunchUs() {
    auto& pool = ThreadPool::global();
    const int n = 2000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        pool.launch(emptyTask, nullptr, 2);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
               .count() /
           n;
}

/// Fixed floating-point work per task (a dependent chain, ~0.5 ms).
int32_t workTask(int32_t task, int32_t, void* p) {
    auto* io = static_cast<volatile float*>(p);
    float x = io[0], a = io[1];
    for (int i = 0; i < 400000; ++i)
        x = x * a + 1e-7f;
    io[2 + task] = x;
    return 0;
}

/// Milliseconds of a 2-task launch of fixed work: the first call right away
/// (what code timed right after an anchor sees) and the median of 20 more.
std::pair<double, double> probeParallelWorkMs() {
    float sink[16] = {1.0f, 0.9999999f};
    auto once = [&] {
        const auto t0 = std::chrono::steady_clock::now();
        ThreadPool::global().launch(workTask, sink, 2);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
            .count();
    };
    double first = once();
    std::vector<double> rest;
    for (int i = 0; i < 20; ++i)
        rest.push_back(once());
    return {first, runtime::median(rest)};
}

double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/// Cores the process keeps busy while this thread sleeps, in 10 ms windows.
void spinTrace(const char* what) {
    std::printf("  %-28s", what);
    for (int w = 0; w < 12; ++w) {
        const double cpu0 = processCpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf(" %4.2f", (processCpuSeconds() - cpu0) / wall);
    }
    std::printf("\n");
}

/// One probe row: `before` (an anchor call, or nothing) then the probes, five
/// times; medians.
template <class Before> void probeRow(const char* when, Before before) {
    std::vector<double> launch, first, med;
    for (int i = 0; i < 5; ++i) {
        before();
        auto [f, m] = probeParallelWorkMs(); // first: right after `before`
        launch.push_back(probeLaunchUs());
        first.push_back(f);
        med.push_back(m);
        bench::quiesceAnchorThreads();
    }
    std::printf("  %-34s %10.2f %12.3f %12.3f\n", when, runtime::median(launch),
                runtime::median(first), runtime::median(med));
}

} // namespace

int main(int argc, char** argv) {
    bench::restartWithAnchorEnvironment(argv, false);
    const int size = argc > 1 ? std::atoi(argv[1]) : 1024;
    const int M = size, N = size, K = size;
    ThreadPool::global().setNumThreads(2);

    auto check = bench::compareAnchorSgemm(M, N, K, 2);
    std::printf("%s\n", bench::anchorEnvironmentNote().c_str());
    std::printf("OpenBLAS vs oneDNN on %dx%dx%d: %s -> %s\n", M, N, K, check.str().c_str(),
                check.allClose ? "agree" : "DISAGREE");
    bench::quiesceAnchorThreads();

    TimeEvaluator ev{.number = 1, .repeat = 10, .minRepeatMs = 100, .warmup = 2};
    std::printf("\nsgemm %dx%dx%d, float32, row-major; median of %d repeats of >= %.0f ms\n", M, N,
                K, ev.repeat, ev.minRepeatMs);
    std::printf("  %-10s %8s %12s %10s\n", "library", "threads", "ms/call", "GFLOP/s");
    for (int threads : {1, 2}) {
        double s = bench::openblasSgemmSeconds(M, N, K, threads, ev);
        double waited = bench::quiesceAnchorThreads();
        std::printf("  %-10s %8d %12.3f %10.1f   (quiesced in %.0f ms)\n", "OpenBLAS", threads,
                    s * 1e3, bench::gflops(M, N, K, s), waited);
        s = bench::dnnlSgemmSeconds(M, N, K, threads, ev);
        waited = bench::quiesceAnchorThreads();
        std::printf("  %-10s %8d %12.3f %10.1f   (quiesced in %.0f ms)\n", "oneDNN", threads,
                    s * 1e3, bench::gflops(M, N, K, s), waited);
    }

    // How long each library keeps its threads busy after a call.
    TimeEvaluator once{.number = 1, .repeat = 1, .minRepeatMs = 0, .warmup = 0};
    std::printf(
        "\ncores busy while the caller sleeps, 10 ms windows after one call (2 threads):\n");
    bench::openblasSgemmSeconds(M, N, K, 2, once);
    spinTrace("after OpenBLAS");
    bench::quiesceAnchorThreads();
    bench::dnnlSgemmSeconds(M, N, K, 2, once);
    spinTrace("after oneDNN");
    bench::quiesceAnchorThreads();
    ThreadPool::global().launch(emptyTask, nullptr, 2);
    spinTrace("after a Tessel launch");

    // The disturbance: Tessel's pool on 2 threads, timed right after an anchor call.
    std::printf("\nTessel pool (2 threads) timed right after an anchor:\n");
    std::printf("  %-34s %10s %12s %12s\n", "", "launch us", "work 1st ms", "work med ms");
    auto nothing = [] {};
    auto blas = [&] { bench::openblasSgemmSeconds(M, N, K, 2, once); };
    auto dnnl = [&] { bench::dnnlSgemmSeconds(M, N, K, 2, once); };
    probeRow("baseline", nothing);
    probeRow("after OpenBLAS (2 threads)", blas);
    probeRow("after OpenBLAS, quiesced", [&] {
        blas();
        bench::quiesceAnchorThreads();
    });
    probeRow("after oneDNN (2 threads)", dnnl);
    probeRow("after oneDNN, quiesced", [&] {
        dnnl();
        bench::quiesceAnchorThreads();
    });
    return check.allClose ? 0 : 1;
}
