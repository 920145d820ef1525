#include "runtime/DeviceInfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#if defined(__linux__) && (defined(__aarch64__) || defined(__arm__))
#include <sys/auxv.h>
#endif

namespace tessel::runtime {

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {};
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

double parseNumber(const std::string& s) {
    try {
        return std::stod(s);
    } catch (...) {
        return 0;
    }
}

/// The highest cpuinfo_max_freq of any CPU, in kHz; 0 without cpufreq.
double cpufreqMaxKHz() {
    double best = 0;
    std::error_code ec;
    for (auto& e : std::filesystem::directory_iterator("/sys/devices/system/cpu", ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 || !std::isdigit(static_cast<unsigned char>(name[3])))
            continue;
        best = std::max(best, parseNumber(trim(readFile((e.path() / "cpufreq/cpuinfo_max_freq").string()))));
    }
    return best;
}

/// The triple of the architecture this file was compiled for.
std::string buildTriple() {
#if defined(__x86_64__)
    return "x86_64-unknown-linux-gnu";
#elif defined(__aarch64__)
    return "aarch64-unknown-linux-gnu";
#elif defined(__arm__)
    return "armv7-unknown-linux-gnueabihf";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64-unknown-linux-gnu";
#else
    return "unknown-unknown-linux-gnu";
#endif
}

/// Instruction-set families: which feature names mean something for a triple.
enum class IsaFamily { X86, Arm, RiscV, Other };

IsaFamily familyOfTriple(const std::string& triple) {
    const std::string arch = triple.substr(0, triple.find('-'));
    if (arch == "x86_64" || arch == "i386" || arch == "i686") return IsaFamily::X86;
    if (arch.starts_with("aarch64") || arch.starts_with("arm") || arch.starts_with("thumb")) return IsaFamily::Arm;
    if (arch.starts_with("riscv")) return IsaFamily::RiscV;
    return IsaFamily::Other;
}

/// This process's features from the auxiliary vector, as Arm's /proc/cpuinfo
/// names them (qemu's user mode fills AT_HWCAP for the CPU it emulates).
std::vector<std::string> hwcapFeatures() {
    std::vector<std::string> names;
#if defined(__linux__) && defined(__aarch64__)
    const unsigned long hw = getauxval(AT_HWCAP);
    static const std::pair<unsigned long, const char*> bits[] = {
        {HWCAP_FP, "fp"},       {HWCAP_ASIMD, "asimd"},     {HWCAP_AES, "aes"},         {HWCAP_PMULL, "pmull"},
        {HWCAP_SHA1, "sha1"},   {HWCAP_SHA2, "sha2"},       {HWCAP_CRC32, "crc32"},     {HWCAP_ATOMICS, "atomics"},
        {HWCAP_FPHP, "fphp"},   {HWCAP_ASIMDHP, "asimdhp"}, {HWCAP_ASIMDRDM, "asimdrdm"}, {HWCAP_ASIMDDP, "asimddp"},
        {HWCAP_SVE, "sve"},     {HWCAP_ASIMDFHM, "asimdfhm"},
    };
    for (auto [bit, name] : bits)
        if (hw & bit) names.push_back(name);
#elif defined(__linux__) && defined(__arm__)
    const unsigned long hw = getauxval(AT_HWCAP);
    if (hw & HWCAP_ARM_VFP) names.push_back("vfp");
    if (hw & HWCAP_ARM_NEON) names.push_back("neon");
#endif
    return names;
}

} // namespace

bool DeviceInfo::hasFeature(const std::string& flag) const {
    return std::find(features.begin(), features.end(), flag) != features.end();
}

std::string DeviceInfo::toJson(const std::string& version) const {
    nlohmann::json j = {{"triple", triple},       {"cpu", cpuName},          {"vendor", vendor},
                        {"cpu_family", cpuFamily}, {"features", features},    {"cores", cores},
                        {"threads", threads},     {"ghz", ghz},              {"clock_source", clockSource},
                        {"flops_per_cycle", flopsPerCycle}, {"isa", isa},   {"memory_bytes", memoryBytes},
                        {"l1d_bytes", l1dBytes}, {"l2_bytes", l2Bytes}, {"l3_bytes", l3Bytes},
                        {"peak_gflops", peakGflops()}};
    if (!version.empty()) j["version"] = version;
    if (!emulatedOn.empty()) j["emulated_on"] = emulatedOn;
    return j.dump();
}

DeviceInfo DeviceInfo::fromJson(const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw std::runtime_error("device facts are not a JSON object");
    DeviceInfo d;
    try {
        d.triple = j.value("triple", d.triple);
        d.cpuName = j.value("cpu", d.cpuName);
        d.vendor = j.value("vendor", d.vendor);
        d.cpuFamily = j.value("cpu_family", d.cpuFamily);
        d.features = j.value("features", d.features);
        d.cores = j.value("cores", d.cores);
        d.threads = j.value("threads", d.threads);
        d.ghz = j.value("ghz", d.ghz);
        d.clockSource = j.value("clock_source", d.clockSource);
        d.flopsPerCycle = j.value("flops_per_cycle", d.flopsPerCycle);
        d.isa = j.value("isa", d.isa);
        d.memoryBytes = j.value("memory_bytes", d.memoryBytes);
        d.l1dBytes = j.value("l1d_bytes", d.l1dBytes);
        d.l2Bytes = j.value("l2_bytes", d.l2Bytes);
        d.l3Bytes = j.value("l3_bytes", d.l3Bytes);
        d.emulatedOn = j.value("emulated_on", d.emulatedOn);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("malformed device facts: ") + e.what());
    }
    return d;
}

std::string DeviceInfo::explanation() const {
    char buf[512];
    if (ghz <= 0) return "The peak is unknown: the clock of this CPU could not be read.";
    std::snprintf(buf, sizeof buf,
                  "Peak = %d cores x %.2f GHz x %d FLOP/cycle = %.0f GFLOP/s.\n"
                  "FLOP/cycle: %s single-precision vectors, two fused multiply-add units per core.\n"
                  "Clock: %s.",
                  cores, ghz, flopsPerCycle, peakGflops(), isa.c_str(), clockSource.c_str());
    std::string text = buf;
    if (!emulatedOn.empty())
        text += "\nEmulated on " + emulatedOn + ": cores and clock are the host's, and emulated code runs far below this peak.";
    return text;
}

Target DeviceInfo::target() const {
    Target t;
    t.triple = triple;
    t.vectorBits = flopsPerCycle >= 64 || hasFeature("avx512f") ? 512
                   : hasFeature("avx")                          ? 256
                   : hasFeature("asimd") || hasFeature("neon") || hasFeature("sse2") ? 128
                                                                                     : 0;
    t.maxThreads = threads;
    return t;
}

DeviceInfo DeviceInfo::fromProc(const std::string& cpuinfo, const std::string& meminfo, double maxFreqKHz,
                                int hardwareThreads, const std::string& triple,
                                const std::vector<std::string>& hwcap) {
    DeviceInfo d;
    d.triple = triple;
    const IsaFamily family = familyOfTriple(triple);
    IsaFamily described = IsaFamily::Other; // the architecture the cpuinfo text is of
    // Cores: distinct (physical id, core id) pairs; hyper-threads share a core's units.
    std::set<std::string> cores;
    std::string physical = "0";
    double mhz = 0;
    std::istringstream in(cpuinfo);
    for (std::string line; std::getline(in, line);) {
        size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        if (key == "physical id") physical = value;
        else if (key == "core id") cores.insert(physical + "/" + value);
        else if (key == "cpu MHz") mhz = std::max(mhz, parseNumber(value));
        else if (key == "vendor_id" && d.vendor.empty()) d.vendor = value;
        else if (key == "cpu family" && d.cpuFamily == 0) d.cpuFamily = static_cast<int>(parseNumber(value));
        else if ((key == "model name" || key == "Model") && d.cpuName.empty()) d.cpuName = value;
        else if ((key == "flags" || key == "Features") && d.features.empty()) {
            described = key == "flags" ? IsaFamily::X86 : IsaFamily::Arm;
            std::istringstream flags(value);
            for (std::string f; flags >> f;) d.features.push_back(f);
        } else if (key == "isa" && described == IsaFamily::Other)
            described = IsaFamily::RiscV;
    }
    if (described != IsaFamily::Other && family != IsaFamily::Other && described != family) {
        // Another architecture's cpuinfo: we run under user-mode emulation.
        d.emulatedOn = d.cpuName.empty() ? "another architecture" : d.cpuName;
        d.features.clear();
        d.cpuName.clear();
        d.vendor.clear();
        d.cpuFamily = 0;
    }
    if (d.features.empty()) d.features = hwcap;
    d.threads = std::max(1, hardwareThreads);
    d.cores = cores.empty() ? d.threads : static_cast<int>(cores.size());
    if (d.cpuName.empty()) d.cpuName = triple.substr(0, triple.find('-'));
    if (maxFreqKHz > 0) {
        d.ghz = maxFreqKHz / 1e6;
        d.clockSource = "highest cpufreq maximum";
    } else if (mhz > 0) {
        d.ghz = mhz / 1e3;
        d.clockSource = "\"cpu MHz\" in /proc/cpuinfo";
    }
    const bool amd = d.vendor.find("AMD") != std::string::npos;
    const bool x86 = family == IsaFamily::X86 || family == IsaFamily::Other;
    const bool arm = family == IsaFamily::Arm || family == IsaFamily::Other;
    if (x86 && d.hasFeature("avx512f")) {
        d.flopsPerCycle = amd && d.cpuFamily < 26 ? 32 : 64;
        d.isa = "AVX-512";
    } else if (x86 && d.hasFeature("avx2") && d.hasFeature("fma")) {
        d.flopsPerCycle = 32;
        d.isa = "AVX2 + FMA";
    } else if (x86 && d.hasFeature("avx")) {
        d.flopsPerCycle = 16;
        d.isa = "AVX";
    } else if (arm && (d.hasFeature("asimd") || d.hasFeature("neon"))) {
        d.flopsPerCycle = 16;
        d.isa = "NEON";
    } else if (x86 && d.hasFeature("sse2")) {
        d.flopsPerCycle = 8;
        d.isa = "SSE";
    } else {
        d.flopsPerCycle = 2;
        d.isa = "scalar";
    }
    std::istringstream mem(meminfo);
    for (std::string line; std::getline(mem, line);)
        if (line.rfind("MemTotal:", 0) == 0) d.memoryBytes = static_cast<int64_t>(parseNumber(trim(line.substr(9)))) * 1024;
    return d;
}

void DeviceInfo::readCaches(const std::string& cacheDir) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(cacheDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("index", 0) != 0) continue;
        const std::string dir = entry.path().string() + "/";
        const std::string type = trim(readFile(dir + "type"));
        const int level = static_cast<int>(parseNumber(trim(readFile(dir + "level"))));
        // "32K", "1024K", "32M": the kernel's cache_size format.
        std::string size = trim(readFile(dir + "size"));
        int64_t scale = 1;
        if (!size.empty() && (size.back() == 'K' || size.back() == 'M' || size.back() == 'G')) {
            scale = size.back() == 'K' ? 1024 : size.back() == 'M' ? 1024 * 1024 : int64_t(1) << 30;
            size.pop_back();
        }
        const int64_t bytes = static_cast<int64_t>(parseNumber(size)) * scale;
        if (bytes <= 0 || type == "Instruction") continue;
        if (level == 1) l1dBytes = bytes;
        else if (level == 2) l2Bytes = bytes;
        else if (level == 3) l3Bytes = bytes;
    }
}

const DeviceInfo& DeviceInfo::local() {
    static const DeviceInfo info = [] {
        DeviceInfo d = fromProc(readFile("/proc/cpuinfo"), readFile("/proc/meminfo"), cpufreqMaxKHz(),
                                static_cast<int>(std::thread::hardware_concurrency()), buildTriple(),
                                hwcapFeatures());
        d.readCaches("/sys/devices/system/cpu/cpu0/cache");
        return d;
    }();
    return info;
}

} // namespace tessel::runtime
