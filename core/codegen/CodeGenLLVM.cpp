// TIR -> LLVM IR: the module, its functions and their debug info, variable
// bindings, and emitLLVMModule(). The rest of the emitter is split by concern
// into CodeGenLLVM_*.cpp (see CodeGenLLVM_Internal.h); target-specific parts
// are CodeGenHooks.
#include "codegen/CodeGenLLVM.h"

#include "codegen/CodeGenLLVM_Internal.h"
#include "ir/Diagnostic.h"
#include "tir/IRVisitor.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace tessel::codegen::detail {

using namespace tessel::tir;

namespace {

/// The interval of every loop and let variable in `body`, outer ones first
/// (a loop's bounds may use them). Variables are unique within a function.
arith::VarBoundMap variableBounds(const Stmt& body) {
    arith::VarBoundMap bounds;
    struct Walker : IRVisitor {
        arith::VarBoundMap& b;
        explicit Walker(arith::VarBoundMap& m) : b(m) {}
        void visit(const ForNode* op) override {
            const auto mn = arith::constIntBound(op->min, b), ext = arith::constIntBound(op->extent, b);
            if (mn.min != arith::ConstIntBound::kNegInf && mn.max != arith::ConstIntBound::kPosInf &&
                ext.max != arith::ConstIntBound::kPosInf && ext.max >= 1)
                b[op->loopVar.get()] = {mn.min, mn.max + ext.max - 1};
            IRVisitor::visit(op);
        }
        void visit(const LetStmtNode* op) override {
            b[op->var.get()] = arith::constIntBound(op->value, b);
            IRVisitor::visit(op);
        }
        void visit(const LetNode* op) override {
            b[op->var.get()] = arith::constIntBound(op->value, b);
            IRVisitor::visit(op);
        }
    } w(bounds);
    w.visitStmt(body);
    return bounds;
}

} // namespace

void fail(const std::string& msg) {
    throw CompileError("codegen: " + msg);
}

CodeGenLLVM::CodeGenLLVM(llvm::LLVMContext& ctx, llvm::TargetMachine& tm,
                         std::unique_ptr<CodeGenHooks> hooks, bool debugInfo,
                         const TirSource& source)
    : ctx_(ctx), hooks_(std::move(hooks)), builder_(ctx), debugInfo_(debugInfo), source_(source) {
    module_ = std::make_unique<llvm::Module>(source.fileName, ctx);
    module_->setTargetTriple(tm.getTargetTriple().str());
    module_->setDataLayout(tm.createDataLayout());
    llvm::FastMathFlags fmf;
    fmf.setAllowContract(true); // mul + add may fuse into FMA; nothing else
    builder_.setFastMathFlags(fmf);
    if (debugInfo_) {
        di_ = std::make_unique<llvm::DIBuilder>(*module_);
        diFile_ = di_->createFile(source.fileName, ".");
        di_->createCompileUnit(llvm::dwarf::DW_LANG_C99, diFile_, "Tessel",
                               /*isOptimized=*/true, "", 0);
        module_->addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                               llvm::DEBUG_METADATA_VERSION);
        module_->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 5);
    }
}

void CodeGenLLVM::addFunction(const PrimFunc& f, size_t index) {
    text_ = source_.texts[index];
    lineOffset_ = source_.lineOffset[index];
    funcName_ = f->name;
    outlinedCount_ = 0;
    if (f->name.empty()) fail("a function has no name");
    if (module_->getFunction(f->name)) fail("two functions are called '" + f->name + "'");
    int defLine = text_->lineOf(f.get());
    defLine = defLine > 0 ? defLine + 1 + lineOffset_ : 0; // the "def" line after the decorator

    hooks_->beginFunction(f);
    // The compute function: one noalias pointer per buffer parameter.
    std::vector<llvm::Type*> paramTypes(f->params.size(), ptrType());
    auto* implType = llvm::FunctionType::get(i32(), paramTypes, false);
    auto* impl = llvm::Function::Create(implType, llvm::Function::InternalLinkage,
                                        f->name + "_compute", module_.get());
    setFunctionAttributes(impl);
    for (size_t i = 0; i < f->params.size(); ++i) {
        const Buffer& b = f->params[i];
        if (!b.defined())
            fail("parameter " + std::to_string(i) + " of '" + f->name + "' is undefined");
        impl->getArg(i)->setName(b->name);
        addPointerAttributes(impl, i, kBufferAlign, constantBytes(b));
    }

    FunctionState state;
    state.fn = impl;
    state.sp = makeSubprogram(impl, f->name + "_compute", defLine, true);
    state.line = defLine;
    for (size_t i = 0; i < f->params.size(); ++i) {
        const VarNode* data = f->params[i]->data.get();
        state.vars[data] = impl->getArg(i);
        state.ptrAlign[data] = kBufferAlign;
    }
    std::swap(fs_, state);
    loopBounds_ = variableBounds(f->body);
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", impl);
    builder_.SetInsertPoint(entry);
    setLine(defLine);
    emitStmt(f->body);
    builder_.CreateRet(llvm::ConstantInt::get(i32(), 0));
    std::swap(fs_, state);

    hooks_->emitEntry(*this, f, *impl, defLine);
}

std::unique_ptr<llvm::Module> CodeGenLLVM::finish() {
    if (di_) di_->finalize();
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyModule(*module_, &os))
        throw CompileError("internal error: codegen produced invalid LLVM IR: " + os.str());
    return std::move(module_);
}

// -- functions and debug info -------------------------------------------------

void CodeGenLLVM::setFunctionAttributes(llvm::Function* fn) {
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    hooks_->addFunctionAttributes(*fn);
}

void CodeGenLLVM::addPointerAttributes(llvm::Function* fn, unsigned i, unsigned align,
                                       std::optional<int64_t> bytes) {
    fn->addParamAttr(i, llvm::Attribute::NoAlias);
    fn->addParamAttr(i, llvm::Attribute::NoCapture);
    if (align > 1) fn->addParamAttr(i, llvm::Attribute::getWithAlignment(ctx_, llvm::Align(align)));
    if (bytes && *bytes > 0)
        fn->addParamAttr(
            i, llvm::Attribute::getWithDereferenceableBytes(ctx_, static_cast<uint64_t>(*bytes)));
}

llvm::DISubprogram* CodeGenLLVM::makeSubprogram(llvm::Function* fn, const std::string& name,
                                                int line, bool local) {
    if (!di_) return nullptr;
    auto* type = di_->createSubroutineType(di_->getOrCreateTypeArray({}));
    auto flags = llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized;
    if (local) flags |= llvm::DISubprogram::SPFlagLocalToUnit;
    auto* sp = di_->createFunction(diFile_, name, fn->getName(), diFile_, line, type, line,
                                   llvm::DINode::FlagPrototyped, flags);
    fn->setSubprogram(sp);
    return sp;
}

void CodeGenLLVM::setLine(int line) {
    fs_.line = line;
    if (fs_.sp) builder_.SetCurrentDebugLocation(llvm::DILocation::get(ctx_, line, 0, fs_.sp));
}

int CodeGenLLVM::lineOf(const Object* node) const {
    int l = text_->lineOf(node);
    return l > 0 ? l + lineOffset_ : 0;
}

void CodeGenLLVM::emitInto(FunctionState state, int line, llvm::function_ref<void()> emit) {
    llvm::IRBuilderBase::InsertPointGuard guard(builder_);
    llvm::DebugLoc savedLoc = builder_.getCurrentDebugLocation();
    llvm::Function* fn = state.fn;
    std::swap(fs_, state);
    builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));
    setLine(line);
    emit();
    std::swap(fs_, state);
    builder_.SetCurrentDebugLocation(savedLoc);
}

// -- variable bindings ----------------------------------------------------------

CodeGenLLVM::Binding::Binding(CodeGenLLVM& cg, const VarNode* v, llvm::Value* value, bool nonNeg,
                              int pow2)
    : cg_(cg), var_(v) {
    auto& fs = cg_.fs_;
    if (auto it = fs.vars.find(v); it != fs.vars.end()) hadOld_ = true, oldValue_ = it->second;
    oldNonNeg_ = fs.nonNegative.count(v) > 0;
    if (auto it = fs.pow2Factor.find(v); it != fs.pow2Factor.end()) oldPow2_ = it->second;
    fs.vars[v] = value;
    if (nonNeg)
        fs.nonNegative.insert(v);
    else
        fs.nonNegative.erase(v);
    if (pow2 > 0)
        fs.pow2Factor[v] = pow2;
    else
        fs.pow2Factor.erase(v);
}

CodeGenLLVM::Binding::~Binding() {
    auto& fs = cg_.fs_;
    if (hadOld_)
        fs.vars[var_] = oldValue_;
    else
        fs.vars.erase(var_);
    if (oldNonNeg_)
        fs.nonNegative.insert(var_);
    else
        fs.nonNegative.erase(var_);
    if (oldPow2_ > 0)
        fs.pow2Factor[var_] = oldPow2_;
    else
        fs.pow2Factor.erase(var_);
}

// -- the module -----------------------------------------------------------------

std::unique_ptr<llvm::Module> emitLLVMModule(llvm::LLVMContext& ctx,
                                             const std::vector<tir::PrimFunc>& funcs,
                                             const Target& target, llvm::TargetMachine& tm,
                                             bool debugInfo, const TirSource& source) {
    CodeGenLLVM cg(ctx, tm, makeHooks(target), debugInfo, source);
    for (size_t i = 0; i < funcs.size(); ++i) {
        if (!funcs[i].defined())
            throw CompileError("codegen: function " + std::to_string(i) + " is undefined");
        cg.addFunction(funcs[i], i);
    }
    return cg.finish();
}

} // namespace tessel::codegen::detail
