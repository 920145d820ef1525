// Statements: lets, stores, ifs, sequences, and serial loops with their
// loop metadata (mustprogress; unroll full/disable/count from the schedule).
// Parallel loops and allocations ask the hooks.
#include "codegen/CodeGenLLVM_Internal.h"

#include "tir/IRPrinter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>

namespace tessel::codegen::detail {

using namespace tessel::tir;

void CodeGenLLVM::emitStmt(const Stmt& s) {
    if (!s.defined()) return;
    int savedLine = fs_.line;
    if (int l = lineOf(s.get())) setLine(l);
    switch (s.kind()) {
    case NodeKind::LetStmt: {
        auto* op = s.as<LetStmtNode>();
        llvm::Value* v = emitExpr(op->value);
        if (!v->hasName() && !llvm::isa<llvm::Constant>(v)) v->setName(op->var->name);
        Binding bind(*this, op->var.get(), v, nonNegative(op->value), pow2Factor(op->value));
        emitStmt(op->body);
        break;
    }
    case NodeKind::AttrStmt:
        emitStmt(s.as<AttrStmtNode>()->body);
        break;
    case NodeKind::For: {
        auto* op = s.as<ForNode>();
        if (op->forKind == ForKind::Parallel)
            hooks_->emitParallelFor(*this, *op);
        else if (op->forKind != ForKind::ThreadBinding || !hooks_->emitThreadFor(*this, *op))
            emitSerialFor(op);
        break;
    }
    case NodeKind::BufferStore:
        emitStore(s.as<BufferStoreNode>());
        break;
    case NodeKind::Allocate:
        emitAllocate(s.as<AllocateNode>());
        break;
    case NodeKind::IfThenElse:
        emitIf(s.as<IfThenElseNode>());
        break;
    case NodeKind::SeqStmt:
        for (auto& c : s.as<SeqStmtNode>()->seq)
            emitStmt(c);
        break;
    case NodeKind::Evaluate: {
        auto* op = s.as<EvaluateNode>();
        if (!op->value.as<IntImmNode>() && !op->value.as<FloatImmNode>()) emitExpr(op->value);
        break;
    }
    case NodeKind::BufferRealize:
        fail("buffer '" + s.as<BufferRealizeNode>()->buffer->name +
             "' is still realized: flatten storage before codegen");
    default:
        fail(std::string("unsupported statement ") + nodeKindName(s.kind()));
    }
    setLine(savedLine);
}

/// `unrollCount`: -1 leaves unrolling to LLVM, 0 or 1 forbids it, N > 1 asks for N
/// (the schedule's `pragma(axis, "llvm_unroll", N)`).
llvm::MDNode* CodeGenLLVM::loopMetadata(bool unrollFull, int64_t unrollCount) {
    std::vector<llvm::Metadata*> ops{nullptr};
    ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.mustprogress")}));
    if (unrollFull)
        ops.push_back(
            llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.full")}));
    else if (unrollCount == 0 || unrollCount == 1)
        ops.push_back(
            llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")}));
    else if (unrollCount > 1)
        ops.push_back(llvm::MDNode::get(
            ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.count"),
                   llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                       llvm::Type::getInt32Ty(ctx_), static_cast<uint64_t>(unrollCount)))}));
    llvm::MDNode* id = llvm::MDNode::getDistinct(ctx_, ops);
    id->replaceOperandWith(0, id);
    return id;
}

void CodeGenLLVM::emitLoop(const VarNode* var, DataType vt, llvm::Value* begin, llvm::Value* end,
                           bool nonNeg, bool unrollFull, llvm::function_ref<void()> body,
                           int64_t unrollCount) {
    llvm::Function* fn = fs_.fn;
    llvm::BasicBlock* pre = builder_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, "for_begin_" + var->name, fn);
    auto* bodyBB = llvm::BasicBlock::Create(ctx_, "for_body_" + var->name, fn);
    auto* exit = llvm::BasicBlock::Create(ctx_, "for_end_" + var->name, fn);
    builder_.CreateBr(header);
    builder_.SetInsertPoint(header);
    llvm::PHINode* phi = builder_.CreatePHI(begin->getType(), 2, var->name);
    phi->addIncoming(begin, pre);
    llvm::Value* cond =
        vt.isInt() ? builder_.CreateICmpSLT(phi, end) : builder_.CreateICmpULT(phi, end);
    builder_.CreateCondBr(cond, bodyBB, exit);
    builder_.SetInsertPoint(bodyBB);
    {
        Binding bind(*this, var, phi, nonNeg, 0);
        body();
    }
    llvm::Value* next = builder_.CreateAdd(phi, llvm::ConstantInt::get(phi->getType(), 1),
                                           var->name + ".next", false, vt.isInt());
    auto* latch = builder_.CreateBr(header);
    latch->setMetadata(llvm::LLVMContext::MD_loop, loopMetadata(unrollFull, unrollCount));
    phi->addIncoming(next, builder_.GetInsertBlock());
    builder_.SetInsertPoint(exit);
}

void CodeGenLLVM::emitSerialFor(const ForNode* op) {
    DataType vt = op->loopVar.type();
    if (!vt.isIntOrUInt() || vt.isVector())
        fail("loop variable '" + op->loopVar->name + "' is not a scalar integer");
    llvm::Value* mn = castValue(emitExpr(op->min), op->min.type(), vt);
    llvm::Value* ext = castValue(emitExpr(op->extent), op->extent.type(), vt);
    llvm::Value* end = builder_.CreateAdd(mn, ext, "", false, vt.isInt());
    int64_t unrollCount = -1;
    for (auto& [key, value] : op->annotations)
        if (key == "pragma_llvm_unroll")
            if (auto* n = value.as<IntImmNode>()) unrollCount = n->value;
    emitLoop(
        op->loopVar.get(), vt, mn, end, nonNegative(op->min), op->forKind == ForKind::Unrolled,
        [&] { emitStmt(op->body); }, unrollCount);
}

void CodeGenLLVM::emitIf(const IfThenElseNode* op) {
    if (!op->condition.type().isScalar()) fail("if condition must be a scalar bool");
    llvm::Value* c = emitExpr(op->condition);
    llvm::Function* fn = fs_.fn;
    auto* thenBB = llvm::BasicBlock::Create(ctx_, "if_then", fn);
    auto* endBB = llvm::BasicBlock::Create(ctx_, "if_end", fn);
    auto* elseBB = op->elseCase.defined() ? llvm::BasicBlock::Create(ctx_, "if_else", fn) : endBB;
    builder_.CreateCondBr(c, thenBB, elseBB);
    builder_.SetInsertPoint(thenBB);
    emitStmt(op->thenCase);
    builder_.CreateBr(endBB);
    if (op->elseCase.defined()) {
        builder_.SetInsertPoint(elseBB);
        emitStmt(op->elseCase);
        builder_.CreateBr(endBB);
    }
    builder_.SetInsertPoint(endBB);
}

} // namespace tessel::codegen::detail
