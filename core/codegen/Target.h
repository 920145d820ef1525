/// \file
/// Targets as LLVM knows them: this machine's target, and the short forms a
/// user types resolved into complete Target values (ir/Target.h).
///
/// hostTarget() asks LLVM for this machine's triple, CPU and features (on the
/// development machines: `znver4` with AVX-512). resolveTarget() reads the
/// aliases "host"/"native", "x86_64", "aarch64"/"arm64", "armv7", "riscv64",
/// "riscv32", full triples ("aarch64-linux-gnu"), the older
/// "<triple> -mcpu=<cpu> -mattr=<features>" form and Target::str(); it
/// normalises the triple and fills what the text leaves out (the default CPU
/// and features of the architecture, the vector width of that CPU) without
/// changing what it says, so a resolved target resolves to itself.
#pragma once

#include "ir/Target.h"
#include "runtime/DeviceInfo.h"

#include <string_view>

namespace tessel::codegen {

/// This machine: its process triple, host CPU name, detected features and
/// vector width. Detected once.
const Target& hostTarget();

/// A complete target from what a user typed (see the file comment). Throws
/// CompileError for an unknown architecture or option, or when LLVM has no
/// backend for the triple.
Target resolveTarget(std::string_view text);
/// Fills what `target` leaves out, as above.
Target resolveTarget(Target target);

/// The target to compile for a device that described itself (an RPC
/// server's facts): this machine's target when the device is this kind of
/// machine (same triple, CPU and features), else the device's own target
/// completed by resolveTarget(). Throws CompileError as resolveTarget does.
Target targetForDevice(const runtime::DeviceInfo& device);

/// True when code for `target` runs on this machine (same architecture and
/// OS as the host), so the JIT and the in-process runner can be used.
bool isHostTarget(const Target& target);

} // namespace tessel::codegen
