// Allocate statements: the hooks place the buffer (stack, workspace, or a
// target's own memory); the emitter binds its data pointer for the body.
#include "codegen/CodeGenLLVM_Internal.h"

namespace tessel::codegen::detail {

using namespace tessel::tir;

void CodeGenLLVM::emitAllocate(const AllocateNode* op) {
    Allocation a = hooks_->allocate(*this, *op);
    const VarNode* data = op->buffer->data.get();
    auto oldAlign = fs_.ptrAlign.find(data) == fs_.ptrAlign.end() ? 0u : fs_.ptrAlign[data];
    fs_.ptrAlign[data] = a.align;
    {
        Binding bind(*this, data, a.ptr, false, 0);
        emitStmt(op->body);
    }
    if (oldAlign)
        fs_.ptrAlign[data] = oldAlign;
    else
        fs_.ptrAlign.erase(data);
    if (a.release) hooks_->release(*this, a);
}

llvm::Value* CodeGenLLVM::allocaInEntry(llvm::Type* type, int64_t count, const std::string& name) {
    // In the entry block, so it is one stack slot however often the code runs.
    llvm::BasicBlock& entry = fs_.fn->getEntryBlock();
    llvm::IRBuilder<> eb(&entry, entry.getFirstInsertionPt());
    auto* a = eb.CreateAlloca(type, eb.getInt64(count), name);
    a->setAlignment(llvm::Align(kBufferAlign));
    return a;
}

} // namespace tessel::codegen::detail
