/// \file
/// What code is generated for: an LLVM target triple, a CPU name and a feature
/// string, as plain strings so that any layer (and Qt code) can hold one.
///
/// `Target::host()` asks LLVM for this machine's CPU and features (on the
/// development machines: `znver4` with AVX-512). `Target::fromString()` reads
/// the short aliases a user types ("aarch64", "armv7", "riscv64", "x86_64",
/// "host"), full triples ("aarch64-linux-gnu"), and what `str()` prints
/// ("aarch64-unknown-linux-gnu -mcpu=generic -mattr=+neon"), so a target
/// round-trips through tuning records and project files.
#pragma once

#include <string>

namespace tessel::codegen {

struct Target {
    /// Normalised LLVM triple, e.g. "x86_64-unknown-linux-gnu".
    std::string triple;
    /// LLVM CPU name, e.g. "znver4", "generic", "cortex-a72".
    std::string cpu;
    /// Comma-separated LLVM features, e.g. "+avx2,+fma,-avx512f".
    std::string features;

    /// This machine: its process triple, host CPU name and detected features.
    static Target host();
    /// Parses an alias, a triple, or the output of str(). Throws CompileError
    /// when LLVM has no backend for the triple.
    static Target fromString(const std::string& tripleOrAlias);

    /// True when code for this target runs on this machine (same architecture
    /// and OS as the host), so the JIT can be used.
    bool isHost() const;
    /// Width of the widest SIMD registers the target has, in bits (512 with
    /// AVX-512, 256 with AVX, 128 for SSE/NEON, 0 when there are none).
    int vectorBits() const;
    /// "<triple> -mcpu=<cpu> -mattr=<features>"; fromString() reads it back.
    std::string str() const;

    bool operator==(const Target&) const = default;
};

} // namespace tessel::codegen
