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

namespace {
const llvm::Target* lookupTarget(const std::string& triple) {
    initializeLLVM();
    std::string err;
    const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, err);
    if (!t) throw CompileError("no LLVM backend for target '" + triple + "': " + err);
    return t;
}
} // namespace

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const Target& target, int optLevel) {
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

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    size_t e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// The default CPU and features for a triple named without them.
void setDefaults(Target& t) {
    llvm::Triple tt(t.triple);
    switch (tt.getArch()) {
    case llvm::Triple::x86_64:
        t.cpu = "x86-64";
        break;
    case llvm::Triple::aarch64:
        t.cpu = "generic";
        t.features = "+neon";
        break;
    case llvm::Triple::arm:
    case llvm::Triple::thumb:
        t.cpu = "generic";
        t.features = "+neon,+vfp3";
        break;
    case llvm::Triple::riscv64:
        t.cpu = "generic-rv64";
        t.features = "+m,+a,+f,+d,+c";
        break;
    case llvm::Triple::riscv32:
        t.cpu = "generic-rv32";
        t.features = "+m,+a,+f,+d,+c";
        break;
    default:
        t.cpu = "generic";
        break;
    }
}

} // namespace

Target Target::host() {
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
    return t;
}

Target Target::fromString(const std::string& text) {
    std::istringstream in(trim(text));
    std::vector<std::string> tokens;
    for (std::string tok; in >> tok;)
        tokens.push_back(tok);
    if (!tokens.empty() && lower(tokens[0]) == "llvm") tokens.erase(tokens.begin());

    std::string name, cpu, attrs;
    bool haveCpu = false, haveAttrs = false;
    for (auto& tok : tokens) {
        if (tok.starts_with("-mtriple="))
            name = tok.substr(9);
        else if (tok.starts_with("-mcpu="))
            cpu = tok.substr(6), haveCpu = true;
        else if (tok.starts_with("-mattr="))
            attrs = tok.substr(7), haveAttrs = true;
        else if (tok.starts_with("-"))
            throw CompileError("unknown target option '" + tok + "' in '" + text + "'");
        else if (name.empty())
            name = tok;
        else
            throw CompileError("unexpected '" + tok + "' in target '" + text + "'");
    }

    std::string alias = lower(name);
    Target t;
    if (alias.empty() || alias == "host" || alias == "native") {
        t = host();
    } else {
        std::string triple;
        if (alias == "x86_64" || alias == "x86-64" || alias == "amd64")
            triple = "x86_64-unknown-linux-gnu";
        else if (alias == "aarch64" || alias == "arm64")
            triple = "aarch64-unknown-linux-gnu";
        else if (alias == "armv7" || alias == "arm" || alias == "armhf")
            triple = "armv7-unknown-linux-gnueabihf";
        else if (alias == "riscv64" || alias == "rv64")
            triple = "riscv64-unknown-linux-gnu";
        else if (alias == "riscv32" || alias == "rv32")
            triple = "riscv32-unknown-linux-gnu";
        else
            triple = llvm::Triple::normalize(name);
        llvm::Triple tt(triple);
        if (tt.getArch() == llvm::Triple::UnknownArch)
            throw CompileError("unknown target '" + name + "'");
        t.triple = tt.str();
        setDefaults(t);
    }
    if (haveCpu) t.cpu = cpu;
    if (haveAttrs) t.features = attrs;
    detail::lookupTarget(t.triple); // throws when LLVM has no backend for it
    return t;
}

bool Target::isHost() const {
    llvm::Triple self(triple), hostTriple(llvm::sys::getProcessTriple());
    return self.getArch() == hostTriple.getArch() && self.getOS() == hostTriple.getOS();
}

int Target::vectorBits() const {
    const llvm::Target* t = nullptr;
    try {
        t = detail::lookupTarget(triple);
    } catch (const CompileError&) {
        return 0;
    }
    std::unique_ptr<llvm::MCSubtargetInfo> sti(t->createMCSubtargetInfo(triple, cpu, features));
    if (!sti) return 0;
    auto has = [&](const char* f) { return sti->checkFeatures(std::string("+") + f); };
    llvm::Triple tt(triple);
    switch (tt.getArch()) {
    case llvm::Triple::x86:
    case llvm::Triple::x86_64:
        if (has("avx512f")) return 512;
        if (has("avx")) return 256;
        return 128;
    case llvm::Triple::aarch64:
    case llvm::Triple::aarch64_be:
        return has("neon") ? 128 : 0;
    case llvm::Triple::arm:
    case llvm::Triple::thumb:
        return has("neon") ? 128 : 0;
    case llvm::Triple::riscv32:
    case llvm::Triple::riscv64:
        return has("v") ? 128 : 0;
    default:
        return 0;
    }
}

std::string Target::str() const {
    std::string s = triple;
    if (!cpu.empty()) s += " -mcpu=" + cpu;
    if (!features.empty()) s += " -mattr=" + features;
    return s;
}

} // namespace tessel::codegen
