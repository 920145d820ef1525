/// \file
/// The roofline of this machine (Williams, Waterman and Patterson): what a
/// kernel could at best reach given how much it computes per byte it moves.
///
/// A kernel doing F floating-point operations over B bytes of arguments
/// (each input read once, each output written once: the least traffic it
/// can have) has the arithmetic intensity F / B. It cannot run faster than
/// the compute peak, nor than intensity x memory bandwidth: attainable =
/// min(peak, F / B x bandwidth). Its share of the roofline is its GFLOP/s
/// over that bound: a memory-bound kernel at 80 % of the bandwidth is as good
/// as a compute-bound one at 80 % of the FMA peak. A kernel that computes
/// nothing (a copy, a layout transform) is measured by bandwidth alone.
///
/// The peak is DeviceInfo's (cores x clock x FLOPs per cycle, for the
/// threads used); the bandwidth is measured, never assumed:
/// measureMemoryBandwidth() streams a triad (a = b + s * c) over buffers far
/// larger than the caches on the threads asked for, once per thread count.
#pragma once

#include "runtime/DeviceInfo.h"

#include <string>

namespace tessel::runtime {

/// Bytes per second a triad streams through main memory on `threads`
/// threads of the global pool (0: all), measured once per thread count (the
/// first call takes about 0.2 s), in GB/s.
double measureMemoryBandwidth(int threads = 0);

struct Roofline {
    double peakGflops = 0;   ///< compute peak of the threads used
    double bandwidthGBs = 0; ///< measured memory bandwidth of the threads used

    /// This machine's, for `threads` threads (0: all of the pool's).
    static Roofline local(int threads = 0);

    /// The best GFLOP/s a kernel of `flops` over `bytes` can reach.
    double attainableGflops(double flops, double bytes) const;
    /// Whether such a kernel is bound by memory rather than by compute.
    bool memoryBound(double flops, double bytes) const;
    /// The kernel's share of its roofline when one call takes `seconds`: its
    /// GFLOP/s over attainableGflops(), or, for a kernel without
    /// floating-point work, its bytes per second over the bandwidth. 0 when
    /// unknown (no time, no peak, no bandwidth).
    double share(double flops, double bytes, double seconds) const;
};

} // namespace tessel::runtime
