#include "codegen/Target.h"

#include "codegen/LLVMTarget.h"
#include "ir/Diagnostic.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <mutex>
#include <sstream>
#include <vector>

namespace tessel::codegen {

namespace detail {

std::mutex& llvmOptionsMutex() {
    static std::mutex mutex;
    return mutex;
}

void initializeLLVM() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeAllTargetInfos();
        llvm::InitializeAllTargets();
        llvm::InitializeAllTargetMCs();
        llvm::InitializeAllAsmPrinters();
        llvm::InitializeAllAsmParsers();
        // Extra LLVM options for experiments, e.g. TESSEL_LLVM_FLAGS=-unroll-threshold-aggressive=300
        // (docs/compiler-spine.md, "Unrolling").
        const char* argv[] = {"tessel"};
        llvm::cl::ParseCommandLineOptions(1, argv, "", nullptr, "TESSEL_LLVM_FLAGS");
    });
}

const llvm::Target* lookupTarget(const std::string& triple) {
    initializeLLVM();
    std::string err;
    const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, err);
    if (!t) throw CompileError("no LLVM backend for target '" + triple + "': " + err);
    return t;
}

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const Target& target, int optLevel) {
    if (target.kind != TargetKind::LLVM && !target.isGPU())
        throw CompileError(std::string("Tessel has no LLVM backend for the target kind '") +
                           targetKindName(target.kind) + "' yet");
    if (target.triple.empty()) throw CompileError("target '" + target.str() + "' names no triple");
    const llvm::Target* t = lookupTarget(target.triple);
    llvm::TargetOptions options;
    // Fusion only where the IR allows it (the `contract` flag on each operation).
    options.AllowFPOpFusion = llvm::FPOpFusion::Standard;
    llvm::CodeGenOpt::Level level = optLevel <= 0   ? llvm::CodeGenOpt::None
                                    : optLevel == 1 ? llvm::CodeGenOpt::Less
                                    : optLevel == 2 ? llvm::CodeGenOpt::Default
                                                    : llvm::CodeGenOpt::Aggressive;
    std::unique_ptr<llvm::TargetMachine> tm(
        t->createTargetMachine(target.triple, target.cpu, target.features, options,
                               llvm::Reloc::PIC_, std::nullopt, level));
    if (!tm) throw CompileError("LLVM cannot create a target machine for '" + target.str() + "'");
    return tm;
}

} // namespace detail

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// The default CPU and features for a triple named without them.
void setDefaults(Target& t, bool cpuGiven, bool featuresGiven) {
    llvm::Triple tt(t.triple);
    std::string cpu = "generic", features;
    switch (tt.getArch()) {
    case llvm::Triple::x86_64: cpu = "x86-64"; break;
    case llvm::Triple::aarch64: features = "+neon"; break;
    case llvm::Triple::arm:
    case llvm::Triple::thumb: features = "+neon,+vfp3"; break;
    case llvm::Triple::riscv64:
        cpu = "generic-rv64";
        features = "+m,+a,+f,+d,+c";
        break;
    case llvm::Triple::riscv32:
        cpu = "generic-rv32";
        features = "+m,+a,+f,+d,+c";
        break;
    default: break;
    }
    if (!cpuGiven) t.cpu = cpu;
    // A CPU named without features means that CPU's own features.
    if (!featuresGiven && !cpuGiven) t.features = features;
}

/// The widest SIMD registers `t`'s CPU and features give, in bits.
int detectVectorBits(const Target& t) {
    const llvm::Target* lt = detail::lookupTarget(t.triple);
    std::unique_ptr<llvm::MCSubtargetInfo> sti(lt->createMCSubtargetInfo(t.triple, t.cpu, t.features));
    if (!sti) return 0;
    auto has = [&](const char* f) { return sti->checkFeatures(std::string("+") + f); };
    switch (llvm::Triple(t.triple).getArch()) {
    case llvm::Triple::x86:
    case llvm::Triple::x86_64: return has("avx512f") ? 512 : has("avx") ? 256 : 128;
    case llvm::Triple::aarch64:
    case llvm::Triple::aarch64_be:
    case llvm::Triple::arm:
    case llvm::Triple::thumb: return has("neon") ? 128 : 0;
    case llvm::Triple::riscv32:
    case llvm::Triple::riscv64: return has("v") ? 128 : 0;
    default: return 0;
    }
}

Target detectHost() {
    detail::initializeLLVM();
    Target t;
    t.triple = llvm::Triple::normalize(llvm::sys::getProcessTriple());
    t.cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> feats;
    std::vector<std::string> list;
    if (llvm::sys::getHostCPUFeatures(feats))
        for (auto& f : feats) {
            std::string item(1, f.second ? '+' : '-');
            item.append(f.first().data(), f.first().size());
            list.push_back(std::move(item));
        }
    std::sort(list.begin(), list.end());
    for (size_t i = 0; i < list.size(); ++i) {
        if (i) t.features += ',';
        t.features += list[i];
    }
    t.vectorBits = detectVectorBits(t);
    return t;
}

} // namespace

const Target& hostTarget() {
    static const Target host = detectHost();
    return host;
}

namespace {
/// cuda / nvptx: PTX through LLVM's NVPTX backend. sm_80 (Ampere) unless
/// the text names the device's architecture; PTX 7.8 is the newest LLVM 16
/// writes (sm_90 needs it), and the driver JIT-compiles PTX for newer GPUs.
Target resolveGpuTarget(Target t) {
    if (t.triple.empty()) t.triple = "nvptx64-nvidia-cuda";
    if (llvm::Triple(t.triple).getArch() != llvm::Triple::nvptx64)
        throw CompileError("a " + std::string(targetKindName(t.kind)) + " target compiles for nvptx64-nvidia-cuda, not '" +
                           t.triple + "'");
    if (t.cpu.empty()) t.cpu = "sm_80";
    if (t.cpu.rfind("sm_", 0) != 0)
        throw CompileError("'" + t.cpu + "' is no CUDA architecture; expected sm_80, sm_86, sm_90 ...");
    if (t.features.empty()) t.features = "+ptx78";
    if (t.maxThreads == 0) t.maxThreads = 1024;
    if (!t.host) t.host = std::make_shared<const Target>(hostTarget());
    detail::lookupTarget(t.triple);
    return t;
}
} // namespace

Target resolveTarget(std::string_view text) { return resolveTarget(Target::parse(text)); }

Target resolveTarget(Target t) {
    if (t.host) t.host = std::make_shared<const Target>(resolveTarget(*t.host));
    if (t.isGPU()) return resolveGpuTarget(std::move(t));
    if (t.kind != TargetKind::LLVM) return t; // the C backend needs no triple
    const std::string alias = lower(t.triple);
    const bool cpuGiven = !t.cpu.empty(), featuresGiven = !t.features.empty();
    if (alias.empty() || alias == "host" || alias == "native") {
        Target h = hostTarget();
        if (cpuGiven) h.cpu = t.cpu;
        if (featuresGiven || cpuGiven) h.features = t.features;
        h.vectorBits = t.vectorBits > 0 ? t.vectorBits : (cpuGiven || featuresGiven) ? detectVectorBits(h) : h.vectorBits;
        h.maxThreads = t.maxThreads;
        h.host = t.host;
        return h;
    }
    std::string triple;
    if (alias == "x86_64" || alias == "x86-64" || alias == "amd64") triple = "x86_64-unknown-linux-gnu";
    else if (alias == "aarch64" || alias == "arm64") triple = "aarch64-unknown-linux-gnu";
    else if (alias == "armv7" || alias == "arm" || alias == "armhf") triple = "armv7-unknown-linux-gnueabihf";
    else if (alias == "riscv64" || alias == "rv64") triple = "riscv64-unknown-linux-gnu";
    else if (alias == "riscv32" || alias == "rv32") triple = "riscv32-unknown-linux-gnu";
    else triple = llvm::Triple::normalize(t.triple);
    llvm::Triple tt(triple);
    if (tt.getArch() == llvm::Triple::UnknownArch) throw CompileError("unknown target '" + t.triple + "'");
    t.triple = tt.str();
    setDefaults(t, cpuGiven, featuresGiven);
    detail::lookupTarget(t.triple); // throws when LLVM has no backend for it
    if (t.vectorBits == 0) t.vectorBits = detectVectorBits(t);
    return t;
}

bool isHostTarget(const Target& target) {
    if (target.kind != TargetKind::LLVM) return false;
    llvm::Triple self(target.triple), hostTriple(llvm::sys::getProcessTriple());
    return self.getArch() == hostTriple.getArch() && self.getOS() == hostTriple.getOS();
}

Target targetForDevice(const runtime::DeviceInfo& device) {
    const runtime::DeviceInfo& here = runtime::DeviceInfo::local();
    const bool sameKind =
        device.triple == here.triple && device.cpuName == here.cpuName && device.features == here.features;
    return sameKind ? hostTarget() : resolveTarget(device.target());
}

} // namespace tessel::codegen
