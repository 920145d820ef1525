// Outlining: the free variables of a statement, and a function made of it
// whose parameters are those variables (what parallel loops, and later GPU
// kernels, are built from).
#include "codegen/CodeGenLLVM_Internal.h"

#include "tir/IRVisitor.h"

namespace tessel::codegen::detail {

using namespace tessel::tir;

namespace {

/// Collects the variables a statement uses but does not define, in order of
/// first use: what an outlined parallel body has to capture.
class FreeVars : public IRVisitor {
public:
    std::vector<const VarNode*> order;

    void use(const VarNode* v) {
        if (defined_.count(v) || seen_.count(v)) return;
        seen_.insert(v);
        order.push_back(v);
    }

protected:
    using IRVisitor::visit;
    void visit(const VarNode* op) override { use(op); }
    void visit(const BufferLoadNode* op) override {
        use(op->buffer->data.get());
        IRVisitor::visit(op);
    }
    void visit(const BufferStoreNode* op) override {
        use(op->buffer->data.get());
        IRVisitor::visit(op);
    }
    void visit(const LetNode* op) override {
        visitExpr(op->value);
        defined_.insert(op->var.get());
        visitExpr(op->body);
    }
    void visit(const LetStmtNode* op) override {
        visitExpr(op->value);
        defined_.insert(op->var.get());
        visitStmt(op->body);
    }
    void visit(const ForNode* op) override {
        visitExpr(op->min);
        visitExpr(op->extent);
        defined_.insert(op->loopVar.get());
        visitStmt(op->body);
    }
    void visit(const AllocateNode* op) override {
        for (auto& e : op->buffer->shape)
            visitExpr(e);
        defined_.insert(op->buffer->data.get());
        visitStmt(op->body);
    }
    void visit(const AttrStmtNode* op) override { visitStmt(op->body); }

private:
    std::unordered_set<const VarNode*> defined_, seen_;
};

} // namespace

std::vector<const VarNode*> CodeGenLLVM::capturesOf(const Stmt& body, const VarNode* exclude) {
    FreeVars fv;
    fv.visitStmt(body);
    std::vector<const VarNode*> captures;
    for (auto* v : fv.order)
        if (v != exclude) captures.push_back(v);
    return captures;
}

llvm::Function*
CodeGenLLVM::outline(const std::string& name, const std::vector<const VarNode*>& captures,
                     const std::vector<llvm::Type*>& captureTypes,
                     const std::vector<llvm::Type*>& extraParams, llvm::Type* returnType, int line,
                     llvm::function_ref<void(const std::vector<llvm::Value*>&)> emit) {
    std::vector<llvm::Type*> params(captureTypes);
    params.insert(params.end(), extraParams.begin(), extraParams.end());
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(returnType, params, false),
                                      llvm::Function::InternalLinkage, name, module_.get());
    setFunctionAttributes(fn);
    FunctionState state;
    state.fn = fn;
    state.sp = makeSubprogram(fn, name, line, true);
    // What is known about a captured variable here stays known inside.
    for (size_t i = 0; i < captures.size(); ++i) {
        const VarNode* v = captures[i];
        llvm::Argument* arg = fn->getArg(i);
        arg->setName(v->name);
        state.vars[v] = arg;
        if (fs_.nonNegative.count(v)) state.nonNegative.insert(v);
        if (auto it = fs_.pow2Factor.find(v); it != fs_.pow2Factor.end())
            state.pow2Factor[v] = it->second;
        if (auto it = fs_.ptrAlign.find(v); it != fs_.ptrAlign.end()) {
            state.ptrAlign[v] = it->second;
            addPointerAttributes(fn, i, it->second, std::nullopt);
        }
    }
    std::vector<llvm::Value*> extra;
    for (size_t k = 0; k < extraParams.size(); ++k)
        extra.push_back(fn->getArg(captures.size() + k));
    emitInto(std::move(state), line, [&] { emit(extra); });
    return fn;
}

} // namespace tessel::codegen::detail
