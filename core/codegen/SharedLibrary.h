/// \file
/// Linking compiled kernels into a shared library with LLD (in process, as a
/// library: no external linker is run).
///
/// The library's undefined symbols are the runtime's C ABI
/// (TesselParallelLaunch, TesselWorkspaceAlloc ...; runtime/ParallelABI.h)
/// and libm; the process that loads it provides them (its executable exports
/// the runtime's symbols).
#pragma once

#include <string>
#include <vector>

namespace tessel::codegen {

/// Links the ELF relocatable `object` (from emitObject) into the shared
/// library `outPath`. Throws CompileError with LLD's message on failure.
void linkSharedLibrary(const std::vector<char>& object, const std::string& outPath);

} // namespace tessel::codegen
