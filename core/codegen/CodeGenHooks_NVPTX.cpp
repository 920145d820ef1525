// The NVPTX target's hooks: each TIR function is one CUDA kernel. Loops bound
// to blockIdx/threadIdx become reads of the PTX special registers, "shared"
// buffers module globals in address space 3, barriers `bar.sync 0`, float
// exp and log PTX's approximate ex2/lg2 instructions. The host
// side (launch sizes) comes from tir/passes/SplitHostDevice.h, not from here.
#include "codegen/CodeGenHooks.h"

#include "codegen/CodeGenLLVM_Internal.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"
#include "tir/passes/SplitHostDevice.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>

#include <map>

namespace tessel::codegen::detail {

namespace {

using namespace tessel::tir;

/// The special register a thread tag reads, or none (vthread: a serial loop).
std::optional<llvm::Intrinsic::ID> specialRegister(const std::string& tag) {
    if (tag == "threadIdx.x") return llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x;
    if (tag == "threadIdx.y") return llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y;
    if (tag == "threadIdx.z") return llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z;
    if (tag == "blockIdx.x") return llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x;
    if (tag == "blockIdx.y") return llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y;
    if (tag == "blockIdx.z") return llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z;
    return std::nullopt;
}

constexpr unsigned kSharedAddressSpace = 3;

class NvptxHooks final : public CodeGenHooks {
public:
    explicit NvptxHooks(NvptxTargetInfo info) : info_(std::move(info)) {}

    // Four floats: ld.global.v4.f32 is PTX's widest load.
    int preferredVectorBits() const override { return 128; }

    void addFunctionAttributes(llvm::Function& fn) const override {
        if (!info_.cpu.empty()) fn.addFnAttr("target-cpu", info_.cpu);
        if (!info_.features.empty()) fn.addFnAttr("target-features", info_.features);
    }

    /// The launch extent of every thread tag in `f`: the largest extent of
    /// its loops (the verifier, tir/passes/VerifyGPUCode.h, allows only one).
    void beginFunction(const PrimFunc& f) override {
        launch_.clear();
        postOrderVisit(f->body, [&](const Object* n) {
            auto* s = dynamic_cast<const BaseStmtNode*>(n);
            if (!s || s->kind != NodeKind::For) return;
            auto* loop = static_cast<const ForNode*>(s);
            if (loop->forKind != ForKind::ThreadBinding) return;
            auto ext = asConstInt(loop->extent);
            if (!ext) fail("the loop bound to " + loop->threadTag + " has no constant extent");
            launch_[loop->threadTag] = std::max(launch_[loop->threadTag], *ext);
        });
    }

    /// `void name(ptr A, ptr B, ...)`, marked a kernel, calling the compute
    /// function (inlined into it).
    void emitEntry(CodeGenLLVM& cg, const PrimFunc& f, llvm::Function& compute, int line) override {
        auto& b = cg.builder();
        std::vector<llvm::Type*> params(f->params.size(), cg.ptrType());
        auto* type = llvm::FunctionType::get(b.getVoidTy(), params, false);
        auto* kernel = llvm::Function::Create(type, llvm::Function::ExternalLinkage, f->name, &cg.module());
        cg.setFunctionAttributes(kernel);
        compute.addFnAttr(llvm::Attribute::AlwaysInline);
        for (size_t i = 0; i < f->params.size(); ++i) {
            kernel->getArg(i)->setName(f->params[i]->name);
            kernel->addParamAttr(i, llvm::Attribute::NoAlias);
        }
        CodeGenLLVM::FunctionState state;
        state.fn = kernel;
        state.sp = cg.makeSubprogram(kernel, f->name, line, false);
        cg.emitInto(std::move(state), line, [&] {
            std::vector<llvm::Value*> args;
            for (auto& a : kernel->args()) args.push_back(&a);
            b.CreateCall(&compute, args);
            b.CreateRetVoid();
        });
        llvm::LLVMContext& ctx = cg.context();
        llvm::NamedMDNode* annotations = cg.module().getOrInsertNamedMetadata("nvvm.annotations");
        auto annotate = [&](const char* key, int64_t value) {
            annotations->addOperand(llvm::MDNode::get(
                ctx, {llvm::ValueAsMetadata::get(kernel), llvm::MDString::get(ctx, key),
                      llvm::ValueAsMetadata::get(llvm::ConstantInt::get(cg.i32(), value))}));
        };
        annotate("kernel", 1);
        int64_t threads = 1;
        for (const char* t : {"threadIdx.x", "threadIdx.y", "threadIdx.z"})
            if (auto it = launch_.find(t); it != launch_.end()) threads *= it->second;
        // The block size is known: ptxas may use up to 64K / threads registers.
        annotate("maxntidx", threads);
        // launch_bounds(min_blocks=n): .minnctapersm n, so that n blocks fit (64K / (n x threads)).
        if (int64_t blocks = launchMinBlocks(f->body)) annotate("minctasm", blocks);
    }

    void emitParallelFor(CodeGenLLVM&, const ForNode& op) override {
        fail("loop '" + op.loopVar->name +
             "' is parallel: on a GPU bind it to blockIdx/threadIdx instead (s[T].bind)");
    }

    /// A block or thread index instead of a loop; a guard where this loop is
    /// shorter than the launch (another loop of the same tag is longer).
    bool emitThreadFor(CodeGenLLVM& cg, const ForNode& op) override {
        auto reg = specialRegister(op.threadTag);
        if (!reg) return false;
        auto& b = cg.builder();
        DataType vt = op.loopVar.type();
        llvm::Value* idx = b.CreateIntrinsic(*reg, {}, {}, nullptr, op.threadTag);
        idx = b.CreateIntCast(idx, cg.llvmType(vt), false);
        llvm::Value* value = idx;
        if (!isZero(op.min)) value = b.CreateAdd(cg.castValue(cg.emitExpr(op.min), op.min.type(), vt), idx);
        auto ext = asConstInt(op.extent);
        bool guard = !ext || *ext < launch_[op.threadTag];
        llvm::BasicBlock* done = nullptr;
        if (guard) {
            llvm::Value* limit = cg.castValue(cg.emitExpr(op.extent), op.extent.type(), vt);
            auto* body = llvm::BasicBlock::Create(cg.context(), op.threadTag + "_in", cg.state().fn);
            done = llvm::BasicBlock::Create(cg.context(), op.threadTag + "_done", cg.state().fn);
            b.CreateCondBr(b.CreateICmpULT(idx, limit), body, done);
            b.SetInsertPoint(body);
        }
        {
            CodeGenLLVM::Binding bind(cg, op.loopVar.get(), value, cg.nonNegative(op.min), 0);
            cg.emitStmt(op.body);
        }
        if (guard) {
            b.CreateBr(done);
            b.SetInsertPoint(done);
        }
        return true;
    }

    llvm::Value* emitStorageSync(CodeGenLLVM& cg) override {
        cg.builder().CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
        return llvm::ConstantInt::get(cg.i32(), 0);
    }

    /// "shared": a module global in address space 3 (one per block);
    /// everything else a kernel allocates is per thread (registers, or local
    /// memory when indexed dynamically).
    Allocation allocate(CodeGenLLVM& cg, const AllocateNode& op) override {
        const Buffer& buf = op.buffer;
        DataType elem = buf->dtype.element();
        llvm::Type* et = cg.memType(elem);
        std::optional<int64_t> bytes = CodeGenLLVM::constantBytes(buf);
        if (!bytes)
            fail("buffer '" + buf->name + "' has no constant size: a GPU kernel cannot allocate memory of a size "
                 "known only at run time");
        int64_t count = std::max<int64_t>(1, *bytes / CodeGenLLVM::elemBytes(elem));
        if (buf->scope == "shared") {
            auto* arrayType = llvm::ArrayType::get(et, count);
            auto* g = new llvm::GlobalVariable(cg.module(), arrayType, false, llvm::GlobalValue::InternalLinkage,
                                               llvm::UndefValue::get(arrayType), cg.functionName() + "_" + buf->name,
                                               nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
            g->setAlignment(llvm::Align(16));
            return {cg.builder().CreateAddrSpaceCast(g, cg.ptrType(), buf->name), 16, false};
        }
        if (buf->scope == "global")
            fail("buffer '" + buf->name + "' is global memory allocated inside a kernel: compute its stage at "
                 "root (its own kernel), or give it scope \"shared\" or \"local\"");
        return {cg.allocaInEntry(et, count, buf->name), 16, false};
    }

    void release(CodeGenLLVM&, const Allocation&) override {}

    std::string mathFunction(std::string_view base, DataType elem) const override {
        fail("the CUDA target has no '" + std::string(base) + "' for " + elem.str() +
             " yet (libdevice is not linked)");
    }

    /// Sigmoid, tanh and erf keep the inline polynomials (sigmoid's calls
    /// exp inline); exp itself comes from emitApproxMath below.
    bool inlineMath(std::string_view base, DataType elem) const override {
        return elem.isFloat() && elem.bits() == 32 && (base == "exp" || base == "erf" || base == "tanh");
    }

    /// float32 exp and log as CUDA's __expf and __logf: e^x = 2^(x log2 e)
    /// by `ex2.approx.f32`, ln x = log2(x) ln 2 by `lg2.approx.f32` (the
    /// multiprocessor's special-function unit; subnormals kept, no .ftz).
    /// The CUDA Programming Guide bounds __expf by 2 + floor(|1.173 x|) ulp
    /// (the rounding of x log2 e grows with |x|) and __logf by an absolute
    /// error of 2^-21.41 on [0.5, 2], 3 ulp elsewhere. Special values follow
    /// the instructions: exp(-inf) = 0, exp(+inf) = +inf, log(0) = -inf,
    /// log(x < 0) = NaN, NaN in NaN out. A vector is done lane by lane.
    llvm::Value* emitApproxMath(CodeGenLLVM& cg, std::string_view base, DataType elem, llvm::Value* x) override {
        if (!elem.isFloat() || elem.bits() != 32 || (base != "exp" && base != "log")) return nullptr;
        auto& b = cg.builder();
        const bool exp = base == "exp";
        auto scalar = [&](llvm::Value* v) -> llvm::Value* {
            llvm::Type* f = v->getType();
            if (exp) {
                llvm::Value* t = b.CreateFMul(v, llvm::ConstantFP::get(f, 1.4426950408889634)); // log2(e)
                return b.CreateIntrinsic(llvm::Intrinsic::nvvm_ex2_approx_f, {}, {t});
            }
            llvm::Value* l = b.CreateIntrinsic(llvm::Intrinsic::nvvm_lg2_approx_f, {}, {v});
            return b.CreateFMul(l, llvm::ConstantFP::get(f, 0.6931471805599453)); // ln(2)
        };
        auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
        if (!vt) return scalar(x);
        llvm::Value* out = llvm::PoisonValue::get(vt);
        for (unsigned i = 0; i < vt->getNumElements(); ++i)
            out = b.CreateInsertElement(out, scalar(b.CreateExtractElement(x, b.getInt32(i))), b.getInt32(i));
        return out;
    }

    bool hasLLVMMath(std::string_view base, DataType) const override {
        return base == "sqrt" || base == "floor" || base == "ceil" || base == "trunc" || base == "round" ||
               base == "abs" || base == "fma";
    }

private:
    NvptxTargetInfo info_;
    std::map<std::string, int64_t> launch_;
};

} // namespace

std::unique_ptr<CodeGenHooks> makeNvptxHooks(const NvptxTargetInfo& info) {
    return std::make_unique<NvptxHooks>(info);
}

} // namespace tessel::codegen::detail
