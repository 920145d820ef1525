// makeHooks(): the one place where the emitter's view of the target is read
// (its triple, CPU, features and vector width); everything after it asks the
// hooks.
#include "codegen/CodeGenHooks.h"

#include "codegen/CodeGenLLVM_Internal.h"

#include <llvm/IR/Constants.h>
#include <llvm/TargetParser/Triple.h>

namespace tessel::codegen::detail {

llvm::Value* CodeGenHooks::emitStorageSync(CodeGenLLVM& cg) {
    return llvm::ConstantInt::get(cg.i32(), 0);
}

std::unique_ptr<CodeGenHooks> makeHooks(const Target& target) {
    if (target.isGPU()) return makeNvptxHooks({target.cpu, target.features});
    CpuTargetInfo info;
    info.cpu = target.cpu;
    info.features = target.features;
    info.vectorBits = target.vectorBits;
    info.x86 = llvm::Triple(target.triple).isX86();
    return makeCpuHooks(info);
}

} // namespace tessel::codegen::detail
