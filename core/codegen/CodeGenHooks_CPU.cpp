// The CPU target's hooks: the runtime's kernel ABI (runtime/Module.h), its
// thread pool for parallel loops and workspace cache for allocations
// (runtime/ParallelABI.h), function attributes, and libm.
#include "codegen/CodeGenHooks.h"

#include "codegen/CodeGenLLVM_Internal.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>

#include <algorithm>

namespace tessel::codegen::detail {

namespace {

using namespace tessel::tir;

/// Allocations at most this large (bytes, constant size, "local" scope) live on the stack.
constexpr int64_t kMaxStackBytes = 64 * 1024;
/// Parallel loops run as one task per iteration up to this many tasks.
constexpr int kMaxTasks = 256;

/// Returns `rc` from the current function when it is not zero.
void returnIfNonZero(CodeGenLLVM& cg, llvm::Value* rc) {
    auto& b = cg.builder();
    llvm::Function* fn = cg.state().fn;
    auto* failBB = llvm::BasicBlock::Create(cg.context(), "launch_fail", fn);
    auto* ok = llvm::BasicBlock::Create(cg.context(), "launch_ok", fn);
    b.CreateCondBr(b.CreateICmpNE(rc, llvm::ConstantInt::get(rc->getType(), 0)), failBB, ok);
    b.SetInsertPoint(failBB);
    b.CreateRet(b.CreateSExtOrTrunc(rc, cg.i32()));
    b.SetInsertPoint(ok);
}

class CpuHooks final : public CodeGenHooks {
public:
    explicit CpuHooks(CpuTargetInfo info) : info_(std::move(info)) {}

    int preferredVectorBits() const override { return info_.vectorBits; }

    void addFunctionAttributes(llvm::Function& fn) const override {
        if (!info_.cpu.empty()) fn.addFnAttr("target-cpu", info_.cpu);
        if (!info_.features.empty()) fn.addFnAttr("target-features", info_.features);
        if (info_.x86 && preferredVectorBits() >= 512) {
            // Without these LLVM splits 16-lane float vectors into two 256-bit halves.
            fn.addFnAttr("prefer-vector-width", "512");
            fn.addFnAttr("min-legal-vector-width", "512");
        }
    }

    /// The exported `int32_t name(void* const* args)`: loads one pointer per
    /// buffer parameter and calls the compute function.
    void emitEntry(CodeGenLLVM& cg, const PrimFunc& f, llvm::Function& compute, int line) override {
        auto& b = cg.builder();
        auto* wrapType = llvm::FunctionType::get(cg.i32(), {cg.ptrType()}, false);
        auto* wrap = llvm::Function::Create(wrapType, llvm::Function::ExternalLinkage, f->name,
                                            &cg.module());
        cg.setFunctionAttributes(wrap);
        wrap->getArg(0)->setName("args");
        wrap->addParamAttr(0, llvm::Attribute::NoCapture);
        wrap->addParamAttr(0, llvm::Attribute::ReadOnly);
        CodeGenLLVM::FunctionState state;
        state.fn = wrap;
        state.sp = cg.makeSubprogram(wrap, f->name, line, false);
        cg.emitInto(std::move(state), line, [&] {
            std::vector<llvm::Value*> args;
            for (size_t i = 0; i < f->params.size(); ++i) {
                llvm::Value* slot = b.CreateConstInBoundsGEP1_64(cg.ptrType(), wrap->getArg(0), i);
                args.push_back(
                    b.CreateAlignedLoad(cg.ptrType(), slot, llvm::Align(8), f->params[i]->name));
            }
            b.CreateRet(b.CreateCall(&compute, args));
        });
    }

    void emitParallelFor(CodeGenLLVM& cg, const ForNode& op) override;

    /// Small constant "local" buffers on the stack, the rest from the
    /// runtime's workspace cache (no fresh pages, and faults, per call).
    Allocation allocate(CodeGenLLVM& cg, const AllocateNode& op) override {
        const Buffer& buf = op.buffer;
        DataType elem = buf->dtype.element();
        llvm::Type* et = cg.memType(elem);
        std::optional<int64_t> bytes = CodeGenLLVM::constantBytes(buf);
        if (bytes && *bytes <= kMaxStackBytes && buf->scope == "local") {
            int64_t count = std::max<int64_t>(1, *bytes / CodeGenLLVM::elemBytes(elem));
            return {cg.allocaInEntry(et, count, buf->name), kBufferAlign, false};
        }
        auto& b = cg.builder();
        // size = product of the shape, in bytes, rounded up to the alignment.
        llvm::Type* i64 = b.getInt64Ty();
        llvm::Value* n = llvm::ConstantInt::get(i64, CodeGenLLVM::elemBytes(elem));
        for (auto& s : buf->shape) {
            if (!s.type().isIntOrUInt())
                fail("allocation '" + buf->name + "' has a non-integer extent");
            n = b.CreateMul(n, cg.castValue(cg.emitExpr(s), s.type(), DataType::int64()));
        }
        n = b.CreateAnd(b.CreateAdd(n, b.getInt64(kBufferAlign - 1)),
                        b.getInt64(~uint64_t(kBufferAlign - 1)));
        n = b.CreateSelect(b.CreateICmpEQ(n, b.getInt64(0)), b.getInt64(kBufferAlign), n);
        auto alloc = cg.module().getOrInsertFunction(
            "TesselWorkspaceAlloc", llvm::FunctionType::get(cg.ptrType(), {i64}, false));
        if (auto* f = llvm::dyn_cast<llvm::Function>(alloc.getCallee()))
            f->addRetAttr(llvm::Attribute::NoAlias);
        llvm::Value* heap = b.CreateCall(alloc, {n}, buf->name);
        auto* failBB = llvm::BasicBlock::Create(cg.context(), "alloc_fail", cg.state().fn);
        auto* ok = llvm::BasicBlock::Create(cg.context(), "alloc_ok", cg.state().fn);
        b.CreateCondBr(b.CreateIsNull(heap), failBB, ok);
        b.SetInsertPoint(failBB);
        b.CreateRet(llvm::ConstantInt::get(cg.i32(), -1));
        b.SetInsertPoint(ok);
        return {heap, kBufferAlign, true};
    }

    void release(CodeGenLLVM& cg, const Allocation& a) override {
        auto& b = cg.builder();
        auto freeFn = cg.module().getOrInsertFunction(
            "TesselWorkspaceFree", llvm::FunctionType::get(b.getVoidTy(), {cg.ptrType()}, false));
        b.CreateCall(freeFn, {a.ptr});
    }

    /// libm: `tanhf` for float, `tanh` for double.
    std::string mathFunction(std::string_view base, DataType elem) const override {
        return std::string(base) + (elem.bits() == 64 ? "" : "f");
    }

    bool stridedLoadsAsShuffles() const override { return true; }

    bool inlineMath(std::string_view base, DataType elem) const override {
        // libm has no vector entry points we link against; float32 only
        // (double keeps libm's accuracy).
        return elem.isFloat() && elem.bits() == 32 && (base == "exp" || base == "erf" || base == "tanh");
    }

    /// pmaddwd on vectors of 4, 8 or 16 int32 lanes up to the widest the
    /// target has; wider ones in pieces of that width. (With AVX-512 VNNI or
    /// AVX-VNNI, LLVM folds the accumulating add into vpdpwssd itself.)
    llvm::Value* emitPairDotI16(CodeGenLLVM& cg, llvm::Value* a, llvm::Value* b) override {
        const int lanes = int(llvm::cast<llvm::FixedVectorType>(a->getType())->getNumElements());
        const int widest = info_.pmaddwdBits / 32;
        if (!info_.x86 || widest == 0 || lanes < 4 || (lanes & (lanes - 1)) != 0) return nullptr;
        const int piece = std::min(lanes, widest);
        const llvm::Intrinsic::ID id = piece == 16  ? llvm::Intrinsic::x86_avx512_pmaddw_d_512
                                       : piece == 8 ? llvm::Intrinsic::x86_avx2_pmadd_wd
                                                    : llvm::Intrinsic::x86_sse2_pmadd_wd;
        auto& bld = cg.builder();
        auto* halves = llvm::FixedVectorType::get(bld.getInt16Ty(), unsigned(2 * piece));
        auto part = [&](llvm::Value* v, int first) {
            if (piece == lanes) return bld.CreateBitCast(v, halves);
            std::vector<int> idx;
            for (int i = 0; i < piece; ++i) idx.push_back(first + i);
            return bld.CreateBitCast(bld.CreateShuffleVector(v, idx), halves);
        };
        std::vector<llvm::Value*> parts;
        for (int first = 0; first < lanes; first += piece)
            parts.push_back(bld.CreateIntrinsic(id, llvm::ArrayRef<llvm::Type*>{}, {part(a, first), part(b, first)}));
        // Concatenate the pieces pairwise back into one vector.
        while (parts.size() > 1) {
            std::vector<llvm::Value*> joined;
            for (size_t i = 0; i < parts.size(); i += 2) {
                const int n = int(llvm::cast<llvm::FixedVectorType>(parts[i]->getType())->getNumElements());
                std::vector<int> idx;
                for (int k = 0; k < 2 * n; ++k) idx.push_back(k);
                joined.push_back(bld.CreateShuffleVector(parts[i], parts[i + 1], idx));
            }
            parts = std::move(joined);
        }
        return parts[0];
    }

private:
    CpuTargetInfo info_;
};

/// for (v in parallel range(min, min+extent)) body  ==>
///   closure = {captures..., min, extent}; TesselParallelLaunch(task, &closure, tasks)
/// where task(taskId, numTasks, closure) loads the captures and calls
/// body(noalias captures..., taskId, numTasks, min, extent), which runs its
/// chunk [begin, end) of the range.
void CpuHooks::emitParallelFor(CodeGenLLVM& cg, const ForNode& op) {
    auto& b = cg.builder();
    llvm::LLVMContext& ctx = cg.context();
    DataType vt = op.loopVar.type();
    if (!vt.isIntOrUInt() || vt.isVector())
        fail("loop variable '" + op.loopVar->name + "' is not a scalar integer");
    std::vector<const VarNode*> captures = CodeGenLLVM::capturesOf(op.body, op.loopVar.get());
    std::vector<llvm::Value*> captureValues;
    std::vector<llvm::Type*> fieldTypes;
    for (auto* v : captures) {
        captureValues.push_back(cg.lookup(v));
        fieldTypes.push_back(captureValues.back()->getType());
    }
    const std::vector<llvm::Type*> captureTypes = fieldTypes;
    llvm::Value* mn = cg.castValue(cg.emitExpr(op.min), op.min.type(), vt);
    llvm::Value* ext = cg.castValue(cg.emitExpr(op.extent), op.extent.type(), vt);
    llvm::Type* lt = cg.llvmType(vt);
    fieldTypes.push_back(lt);
    fieldTypes.push_back(lt);
    auto* closureType = llvm::StructType::create(ctx, fieldTypes, cg.functionName() + "_closure");
    std::string base = cg.functionName() + "_parallel" + std::to_string(cg.nextOutlinedIndex());
    int forLine = cg.state().line;
    bool minNonNeg = cg.nonNegative(op.min);

    // body(captures..., taskId, numTasks, min, extent)
    llvm::Function* bodyFn = cg.outline(
        base + "_body", captures, captureTypes, {cg.i32(), cg.i32(), lt, lt}, cg.i32(), forLine,
        [&](const std::vector<llvm::Value*>& extra) {
            llvm::Value* taskId = extra[0];
            llvm::Value* numTasks = extra[1];
            llvm::Value* lo = extra[2];
            llvm::Value* extent = extra[3];
            taskId->setName("task_id");
            numTasks->setName("num_tasks");
            lo->setName("min");
            extent->setName("extent");
            // chunk = ceil(extent / numTasks);
            // [begin, end) = [task*chunk, min((task+1)*chunk, extent))
            llvm::Value* n = b.CreateIntCast(numTasks, lt, true);
            llvm::Value* t = b.CreateIntCast(taskId, lt, true);
            llvm::Value* one = llvm::ConstantInt::get(lt, 1);
            llvm::Value* chunk = b.CreateSDiv(b.CreateSub(b.CreateAdd(extent, n), one), n, "chunk");
            llvm::Value* begin = b.CreateMul(t, chunk);
            llvm::Value* end =
                b.CreateBinaryIntrinsic(vt.isInt() ? llvm::Intrinsic::smin : llvm::Intrinsic::umin,
                                        b.CreateAdd(begin, chunk), extent);
            begin = b.CreateAdd(begin, lo, "begin");
            end = b.CreateAdd(end, lo, "end");
            cg.emitLoop(op.loopVar.get(), vt, begin, end, minNonNeg, false,
                        [&] { cg.emitStmt(op.body); });
            b.CreateRet(llvm::ConstantInt::get(cg.i32(), 0));
        });

    // task(taskId, numTasks, closure): unpack and call the body.
    auto* taskType = llvm::FunctionType::get(cg.i32(), {cg.i32(), cg.i32(), cg.ptrType()}, false);
    auto* taskFn =
        llvm::Function::Create(taskType, llvm::Function::InternalLinkage, base, &cg.module());
    cg.setFunctionAttributes(taskFn);
    taskFn->addParamAttr(2, llvm::Attribute::NoCapture);
    taskFn->addParamAttr(2, llvm::Attribute::ReadOnly);
    CodeGenLLVM::FunctionState taskState;
    taskState.fn = taskFn;
    taskState.sp = cg.makeSubprogram(taskFn, base, forLine, true);
    cg.emitInto(std::move(taskState), forLine, [&] {
        llvm::Value* closure = taskFn->getArg(2);
        std::vector<llvm::Value*> args;
        for (unsigned i = 0; i < fieldTypes.size(); ++i) {
            if (i == captures.size()) {
                args.push_back(taskFn->getArg(0));
                args.push_back(taskFn->getArg(1));
            }
            llvm::Value* field = b.CreateStructGEP(closureType, closure, i);
            args.push_back(b.CreateLoad(fieldTypes[i], field));
        }
        b.CreateRet(b.CreateCall(bodyFn, args));
    });

    // In the caller: fill the closure and launch.
    llvm::BasicBlock& entry = cg.state().fn->getEntryBlock();
    llvm::IRBuilder<> eb(&entry, entry.getFirstInsertionPt());
    llvm::AllocaInst* closure = eb.CreateAlloca(closureType, nullptr, base + "_closure");
    closure->setAlignment(llvm::Align(8));
    for (size_t i = 0; i < captureValues.size(); ++i)
        b.CreateStore(captureValues[i], b.CreateStructGEP(closureType, closure, i));
    b.CreateStore(mn, b.CreateStructGEP(closureType, closure, captures.size()));
    b.CreateStore(ext, b.CreateStructGEP(closureType, closure, captures.size() + 1));
    auto launch = cg.module().getOrInsertFunction(
        "TesselParallelLaunch",
        llvm::FunctionType::get(cg.i32(), {cg.ptrType(), cg.ptrType(), cg.i32()}, false));
    if (auto* f = llvm::dyn_cast<llvm::Function>(launch.getCallee()))
        f->addFnAttr(llvm::Attribute::NoUnwind);
    // One task per iteration up to kMaxTasks (chunks beyond that): the pool
    // hands tasks out dynamically, which balances load when a core is slowed.
    llvm::Value* ext32 = b.CreateIntCast(ext, cg.i32(), true);
    llvm::Value* tasks =
        b.CreateSelect(b.CreateICmpSLT(ext32, b.getInt32(kMaxTasks)), ext32, b.getInt32(kMaxTasks));
    tasks = b.CreateSelect(b.CreateICmpSLT(tasks, b.getInt32(1)), b.getInt32(1), tasks);
    llvm::Value* rc = b.CreateCall(launch, {taskFn, closure, tasks}, "rc");
    returnIfNonZero(cg, rc);
}

} // namespace

std::unique_ptr<CodeGenHooks> makeCpuHooks(const CpuTargetInfo& info) {
    return std::make_unique<CpuHooks>(info);
}

} // namespace tessel::codegen::detail
