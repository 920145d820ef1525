/// \file
/// Internal to core/codegen: what the codegen sources share about LLVM.
///
/// Only forward declarations of LLVM types appear here, so the header pulls in
/// no LLVM headers; it is included by core/codegen/*.cpp only and is no part
/// of the public API.
#pragma once

#include "codegen/Target.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Target;
class Module;
class TargetMachine;
} // namespace llvm

namespace tessel {
struct AnnotatedText;
} // namespace tessel

namespace tessel::tir {
class PrimFunc;
} // namespace tessel::tir

namespace tessel::codegen::detail {

/// Registers every LLVM target, its MC layer and asm printers (once, thread-safe).
void initializeLLVM();

/// Held while LLD links (it resets every LLVM command-line option when it
/// ends) and while code reads an option it set (SharedLibrary.cpp, LLVMBuild.cpp).
std::mutex& llvmOptionsMutex();

/// LLVM's backend for `triple`; CompileError when it has none.
const llvm::Target* lookupTarget(const std::string& triple);

/// A TargetMachine for `target` (PIC, optimisation level from `optLevel` 0..3).
/// Throws CompileError when LLVM has no backend for the triple.
std::unique_ptr<llvm::TargetMachine> createTargetMachine(const Target& target, int optLevel);

/// Where debug lines point: one TIR file holding the printed functions.
struct TirSource {
    /// The DWARF file name, "<name>.tir".
    std::string fileName;
    /// printPrimFunc() of each function, in the order of the functions.
    std::vector<const AnnotatedText*> texts;
    /// lineOffset[i]: added to text i's line numbers (its place in the joined file).
    std::vector<int> lineOffset;
};

/// Generates one unoptimised, verified LLVM module for `funcs` (data layout and
/// triple from `tm`), with debug locations when `debugInfo` (CodeGenLLVM.cpp).
/// Throws CompileError for input codegen cannot handle.
std::unique_ptr<llvm::Module> emitLLVMModule(llvm::LLVMContext& ctx,
                                             const std::vector<tir::PrimFunc>& funcs,
                                             const Target& target, llvm::TargetMachine& tm,
                                             bool debugInfo, const TirSource& source);

} // namespace tessel::codegen::detail
