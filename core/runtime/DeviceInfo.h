/// \file
/// What the runtime knows about the machine it runs on, without LLVM: cores,
/// CPU name and features, clock, memory, and an estimate of the
/// single-precision compute peak, so that a measured GFLOP/s figure can be
/// shown as a share of what the machine could do at best, and a device (a
/// board's RPC server) can describe itself to the host that compiles for it.
///
/// Peak = physical cores x clock x FLOPs per cycle per core. FLOPs per cycle
/// follow from the widest vector unit the CPU reports, assuming two fused
/// multiply-add units per core: 64 with AVX-512 (16 lanes x 2 FLOPs x 2
/// units), but 32 on AMD before Zen 5 (CPU family 26), whose Zen 4 runs
/// 512-bit operations on 256-bit units; 32 with AVX2 + FMA; 16 with AVX (a
/// multiply and an add per cycle) and with NEON/ASIMD (4 lanes x 2 x 2); 8
/// otherwise. The clock is the highest maximum frequency cpufreq reports, or
/// the highest "cpu MHz" of /proc/cpuinfo without cpufreq (virtual machines).
///
/// Features count only for the architecture the runtime was built for: under
/// user-mode emulation (qemu-aarch64 on an x86_64 host, the board the tests
/// use) /proc/cpuinfo is the host's, so its x86 flags are set aside, the
/// device says what it is emulated on, and on Arm the features come from the
/// kernel's (or the emulator's) AT_HWCAP instead.
#pragma once

#include "ir/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::runtime {

struct DeviceInfo {
    /// The triple this runtime was built for ("x86_64-unknown-linux-gnu").
    std::string triple;
    /// "model name" of /proc/cpuinfo (or the architecture when absent).
    std::string cpuName;
    std::string vendor;
    /// "cpu family" of /proc/cpuinfo (x86), 0 when absent.
    int cpuFamily = 0;
    /// CPU feature flags as /proc/cpuinfo names them ("avx512f", "asimd").
    std::vector<std::string> features;
    /// Physical cores (distinct physical id / core id pairs), at least 1.
    int cores = 1;
    /// Hardware threads, at least 1.
    int threads = 1;
    /// Clock in GHz; 0 when unknown.
    double ghz = 0;
    /// Where the clock came from: "cpufreq" or "cpuinfo".
    std::string clockSource;
    /// Single-precision FLOPs one core can issue per cycle.
    int flopsPerCycle = 8;
    /// What flopsPerCycle assumes: "AVX-512", "AVX2 + FMA", "AVX", "NEON", "SSE", "scalar".
    std::string isa;
    /// Main memory in bytes; 0 when unknown.
    int64_t memoryBytes = 0;
    /// Data caches in bytes, as the first CPU's sysfs cache entries give them
    /// (L1 data and L2 private to a core on current CPUs, L3 shared); 0 when
    /// unknown. Schedules size what they re-read to these.
    int64_t l1dBytes = 0;
    int64_t l2Bytes = 0;
    int64_t l3Bytes = 0;
    /// Non-empty when /proc/cpuinfo describes another architecture than the
    /// triple's (user-mode emulation): the CPU name that cpuinfo gives.
    std::string emulatedOn;

    /// GFLOP/s at peak; 0 when the clock is unknown.
    double peakGflops() const { return cores * ghz * flopsPerCycle; }
    bool hasFeature(const std::string& flag) const;
    /// How the peak was computed, in one short paragraph (English).
    std::string explanation() const;
    /// A target for this device as the runtime sees it: kind llvm, the
    /// triple, the vector width of the ISA, threads as max threads. (The
    /// compiler's codegen::resolveTarget() fills the LLVM CPU name.)
    Target target() const;

    /// The facts as JSON ("triple", "cpu", "vendor", "cpu_family", "features",
    /// "cores", "threads", "ghz", "clock_source", "flops_per_cycle", "isa",
    /// "memory_bytes", "peak_gflops", and "version" when given), as a
    /// board's RPC server reports itself.
    std::string toJson(const std::string& version = {}) const;
    /// Reads what toJson() wrote; throws std::runtime_error for malformed
    /// JSON. Missing fields keep their defaults.
    static DeviceInfo fromJson(const std::string& text);

    /// This machine, detected once.
    static const DeviceInfo& local();
    /// Detection from the texts of /proc/cpuinfo and /proc/meminfo, the
    /// cpufreq maximum in kHz (0 when none) and the hardware thread count
    /// (for tests: any machine's files give that machine's figures).
    /// `hwcapFeatures` are feature names from the auxiliary vector (AT_HWCAP,
    /// named as Arm's /proc/cpuinfo names them), used when cpuinfo lists none
    /// for the triple's architecture.
    static DeviceInfo fromProc(const std::string& cpuinfo, const std::string& meminfo, double maxFreqKHz,
                               int hardwareThreads, const std::string& triple,
                               const std::vector<std::string>& hwcapFeatures = {});
    /// Fills the cache sizes from a sysfs cache directory
    /// (/sys/devices/system/cpu/cpu0/cache: index*/level, type, size such as
    /// "512K"); sizes it cannot read stay 0.
    void readCaches(const std::string& cacheDir);
};

} // namespace tessel::runtime
