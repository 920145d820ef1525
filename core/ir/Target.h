/// \file
/// What code is generated for, as a plain value that every layer can hold and
/// that needs no LLVM: the runtime describes its own device with one, the
/// driver carries one through every compile, tuning records and project files
/// store one as text.
///
/// A target has a kind (an LLVM CPU target, the C source backend, and room for
/// the GPU kinds `cuda` and `nvptx`), an LLVM triple, CPU name and feature
/// string, device attributes that schedules read (the widest vector register,
/// the most threads a kernel may use) and, for a device that a host program
/// drives (a GPU), the host's target. Its text form is TVM's:
///
///     llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 -mattr=+avx512f,+fma -vector-bits=512
///     cuda -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -max-threads=1024 -host={llvm -mtriple=...}
///
/// `parse(str())` gives the same value back. parse() is syntax only: it knows
/// no triples and asks no LLVM. The short forms a user types ("host",
/// "aarch64", "armv7", a bare triple) are resolved by
/// codegen::resolveTarget(), which also detects the host and fills what a
/// short form leaves out (CPU, features, vector bits) from LLVM.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace tessel {

class DataType;

enum class TargetKind : unsigned char {
    LLVM,  ///< machine code for a CPU through LLVM (the default)
    C,     ///< C source, for reading
    CUDA,  ///< CUDA kernels (a GPU target; not built yet)
    NVPTX, ///< PTX through LLVM's NVPTX backend (a GPU target; not built yet)
};

/// "llvm", "c", "cuda", "nvptx".
const char* targetKindName(TargetKind kind);

struct Target {
    TargetKind kind = TargetKind::LLVM;
    /// LLVM triple, e.g. "x86_64-unknown-linux-gnu"; empty: not said.
    std::string triple;
    /// LLVM CPU name, e.g. "znver4", "generic", "cortex-a72", "sm_90".
    std::string cpu;
    /// Comma-separated LLVM features, e.g. "+avx2,+fma,-avx512f".
    std::string features;
    /// Width of the widest SIMD registers in bits (512 with AVX-512, 128 with
    /// NEON); 0 when the target has none or it is not known.
    int vectorBits = 0;
    /// The most threads one kernel may use (CPU threads, GPU threads per
    /// block); 0 leaves it to the runtime.
    int maxThreads = 0;
    /// For a device driven by a host program (a GPU): the host's target.
    std::shared_ptr<const Target> host;

    /// Reads the text form above. A first word that is not a kind is taken as
    /// the triple of an `llvm` target ("aarch64-linux-gnu -mcpu=cortex-a72"),
    /// the form older project files and records used. Throws CompileError
    /// for an unknown option, a bad number or unbalanced braces.
    static Target parse(std::string_view text);
    /// The text form; parse(str()) == *this.
    std::string str() const;

    /// The architecture: the triple's first component ("x86_64", "aarch64").
    std::string arch() const;
    bool isGPU() const { return kind == TargetKind::CUDA || kind == TargetKind::NVPTX; }
    /// Lanes of one vector register for elements of `t` (at least 1).
    int vectorLanes(const DataType& t) const;
    /// Whether feature `name` ("avx512f", "neon") is switched on in `features`.
    bool hasFeature(std::string_view name) const;

    bool operator==(const Target& other) const;
    bool operator!=(const Target& other) const { return !(*this == other); }
};

} // namespace tessel
