/// \file
/// This CPU's single-precision compute peak, so a measured GFLOP/s figure can
/// be shown as a share of what the machine could do at best.
///
/// Peak = physical cores x clock x FLOPs per cycle per core. FLOPs per cycle
/// follow from the widest vector unit the CPU reports (__builtin_cpu_supports),
/// assuming two fused multiply-add units per core: 64 with AVX-512 (16 lanes x
/// 2 FLOPs x 2 units; 32 on AMD, whose Zen 4 runs 512-bit operations on 256-bit
/// units), 32 with AVX2 + FMA, 16 with AVX (a multiply and an add per cycle), 8
/// otherwise. The clock is the highest maximum frequency cpufreq reports, or the
/// highest "cpu MHz" of /proc/cpuinfo when there is no cpufreq (virtual machines).
#pragma once

#include <QString>

namespace tessel::views {

struct CpuPeak {
    /// Physical cores (distinct physical id / core id pairs), at least 1.
    int cores = 1;
    /// Clock in GHz; 0 when unknown.
    double ghz = 0;
    /// Single-precision FLOPs one core can issue per cycle.
    int flopsPerCycle = 8;
    /// What the FLOPs per cycle assume: "AVX-512", "AVX2 + FMA", "AVX", "SSE".
    QString isa;
    /// Where the clock came from.
    QString clockSource;

    /// GFLOP/s at peak; 0 when the clock is unknown.
    double gflops() const { return cores * ghz * flopsPerCycle; }
    /// One short paragraph saying how the peak was computed (for a tooltip).
    QString explanation() const;
};

/// Detects the peak once and keeps it.
const CpuPeak& cpuPeak();

/// Detects the peak from the given texts (for tests): /proc/cpuinfo's contents,
/// the cpufreq maximum in kHz (0 when none) and the instruction set flags.
CpuPeak detectCpuPeak(const QString& cpuinfo, double maxFreqKHz, bool avx512, bool avx2, bool fma,
                      bool avx);

} // namespace tessel::views
