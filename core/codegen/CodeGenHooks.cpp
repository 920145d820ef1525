// makeHooks(): the one place where the emitter's view of the target is read
// (its triple, CPU, features and vector width); everything after it asks the
// hooks.
#include "codegen/CodeGenHooks.h"

#include "codegen/CodeGenLLVM_Internal.h"
#include "codegen/LLVMTarget.h"

#include <llvm/IR/Constants.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
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
    if (info.x86) {
        // The subtarget knows what a named CPU implies (znver3: AVX2).
        const llvm::Target* lt = lookupTarget(target.triple);
        std::unique_ptr<llvm::MCSubtargetInfo> sti(
            lt ? lt->createMCSubtargetInfo(target.triple, target.cpu, target.features) : nullptr);
        auto has = [&](const char* f) { return sti && sti->checkFeatures(std::string("+") + f); };
        info.pmaddwdBits = has("avx512bw") ? 512 : has("avx2") ? 256 : has("sse2") ? 128 : 0;
    }
    return makeCpuHooks(info);
}

} // namespace tessel::codegen::detail
