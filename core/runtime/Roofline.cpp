#include "runtime/Roofline.h"

#include "runtime/NDArray.h"
#include "runtime/ThreadPool.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

namespace tessel::runtime {

double measureMemoryBandwidth(int threads) {
    ThreadPool& pool = ThreadPool::global();
    if (threads <= 0) threads = pool.numThreads();
    static std::mutex m;
    static std::map<int, double> cache;
    std::lock_guard<std::mutex> lock(m);
    if (auto it = cache.find(threads); it != cache.end()) return it->second;

    // Three arrays of 16 Mi floats (192 MiB): far past any last-level cache.
    const int64_t n = int64_t(16) << 20;
    NDArray a({n}, DataType::float32()), b({n}, DataType::float32()), c({n}, DataType::float32());
    b.fillRandom(1);
    c.fillRandom(2);
    a.fillZero();
    float* pa = a.data<float>();
    const float* pb = b.data<float>();
    const float* pc = c.data<float>();
    auto triad = [&](int32_t task, int32_t tasks) {
        const int64_t lo = n * task / tasks, hi = n * (task + 1) / tasks;
        for (int64_t i = lo; i < hi; ++i) pa[i] = pb[i] + 3.0f * pc[i];
    };
    // The best of a few passes (the first touches the pages).
    double best = 0;
    for (int pass = 0; pass < 4; ++pass) {
        const auto t0 = std::chrono::steady_clock::now();
        pool.run(threads, triad);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (pass > 0 && s > 0) best = std::max(best, 3.0 * double(n) * sizeof(float) / s / 1e9);
    }
    cache[threads] = best;
    return best;
}

Roofline Roofline::local(int threads) {
    const DeviceInfo& d = DeviceInfo::local();
    const int pool = ThreadPool::global().numThreads();
    if (threads <= 0) threads = pool;
    Roofline r;
    // The peak of the cores the threads run on (hardware threads share a core's FMA units).
    const int cores = std::max(1, std::min(threads, d.cores));
    r.peakGflops = d.ghz * d.flopsPerCycle * cores;
    r.bandwidthGBs = measureMemoryBandwidth(threads);
    return r;
}

double Roofline::attainableGflops(double flops, double bytes) const {
    if (bytes <= 0) return peakGflops;
    return std::min(peakGflops, flops / bytes * bandwidthGBs);
}

bool Roofline::memoryBound(double flops, double bytes) const {
    return bytes > 0 && flops / bytes * bandwidthGBs < peakGflops;
}

double Roofline::share(double flops, double bytes, double seconds) const {
    if (seconds <= 0) return 0;
    if (flops <= 0) return bandwidthGBs > 0 ? bytes / seconds / 1e9 / bandwidthGBs : 0;
    const double bound = attainableGflops(flops, bytes);
    return bound > 0 ? flops / seconds / 1e9 / bound : 0;
}

} // namespace tessel::runtime
