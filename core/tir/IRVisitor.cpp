#include "tir/IRVisitor.h"

namespace tessel::tir {

void IRVisitor::visitExpr(const Expr& e) {
    if (!e.defined()) return;
    switch (e.kind()) {
#define TESSEL_EXPR_NODE(N)                                                                        \
    case NodeKind::N: visit(static_cast<const N##Node*>(e.get())); return;
#include "tir/NodeKinds.def"
    default: return;
    }
}

void IRVisitor::visitStmt(const Stmt& s) {
    if (!s.defined()) return;
    switch (s.kind()) {
#define TESSEL_STMT_NODE(N)                                                                        \
    case NodeKind::N: visit(static_cast<const N##Node*>(s.get())); return;
#include "tir/NodeKinds.def"
    default: return;
    }
}

void IRVisitor::visit(const IntImmNode*) {}
void IRVisitor::visit(const FloatImmNode*) {}
void IRVisitor::visit(const StringImmNode*) {}
void IRVisitor::visit(const VarNode*) {}
void IRVisitor::visit(const CastNode* op) { visitExpr(op->value); }
#define TESSEL_VISIT_BINARY(N)                                                                     \
    void IRVisitor::visit(const N##Node* op) {                                                     \
        visitExpr(op->a);                                                                          \
        visitExpr(op->b);                                                                          \
    }
TESSEL_VISIT_BINARY(Add)
TESSEL_VISIT_BINARY(Sub)
TESSEL_VISIT_BINARY(Mul)
TESSEL_VISIT_BINARY(Div)
TESSEL_VISIT_BINARY(Mod)
TESSEL_VISIT_BINARY(FloorDiv)
TESSEL_VISIT_BINARY(FloorMod)
TESSEL_VISIT_BINARY(Min)
TESSEL_VISIT_BINARY(Max)
TESSEL_VISIT_BINARY(EQ)
TESSEL_VISIT_BINARY(NE)
TESSEL_VISIT_BINARY(LT)
TESSEL_VISIT_BINARY(LE)
TESSEL_VISIT_BINARY(GT)
TESSEL_VISIT_BINARY(GE)
TESSEL_VISIT_BINARY(And)
TESSEL_VISIT_BINARY(Or)
#undef TESSEL_VISIT_BINARY
void IRVisitor::visit(const NotNode* op) { visitExpr(op->a); }
void IRVisitor::visit(const SelectNode* op) {
    visitExpr(op->condition);
    visitExpr(op->trueValue);
    visitExpr(op->falseValue);
}
void IRVisitor::visit(const RampNode* op) {
    visitExpr(op->base);
    visitExpr(op->stride);
}
void IRVisitor::visit(const BroadcastNode* op) { visitExpr(op->value); }
void IRVisitor::visit(const LetNode* op) {
    visitExpr(op->value);
    visitExpr(op->body);
}
void IRVisitor::visit(const CallNode* op) {
    for (auto& a : op->args) visitExpr(a);
}
void IRVisitor::visit(const BufferLoadNode* op) {
    for (auto& i : op->indices) visitExpr(i);
}
void IRVisitor::visit(const ProducerLoadNode* op) {
    for (auto& i : op->indices) visitExpr(i);
}
void IRVisitor::visit(const ReduceNode* op) {
    visitExpr(op->source);
    visitExpr(op->condition);
}

void IRVisitor::visit(const LetStmtNode* op) {
    visitExpr(op->value);
    visitStmt(op->body);
}
void IRVisitor::visit(const AttrStmtNode* op) {
    visitExpr(op->value);
    visitStmt(op->body);
}
void IRVisitor::visit(const ForNode* op) {
    visitExpr(op->min);
    visitExpr(op->extent);
    visitStmt(op->body);
}
void IRVisitor::visit(const BufferStoreNode* op) {
    visitExpr(op->value);
    for (auto& i : op->indices) visitExpr(i);
}
void IRVisitor::visit(const BufferRealizeNode* op) {
    for (auto& r : op->bounds) {
        visitExpr(r.min);
        visitExpr(r.extent);
    }
    visitStmt(op->body);
}
void IRVisitor::visit(const AllocateNode* op) { visitStmt(op->body); }
void IRVisitor::visit(const IfThenElseNode* op) {
    visitExpr(op->condition);
    visitStmt(op->thenCase);
    visitStmt(op->elseCase);
}
void IRVisitor::visit(const SeqStmtNode* op) {
    for (auto& s : op->seq) visitStmt(s);
}
void IRVisitor::visit(const EvaluateNode* op) { visitExpr(op->value); }

namespace {
class PostOrder : public IRVisitor {
public:
    explicit PostOrder(const std::function<void(const Object*)>& f) : f_(f) {}
    void visitExpr(const Expr& e) override {
        if (!e.defined()) return;
        IRVisitor::visitExpr(e);
        f_(e.get());
    }
    void visitStmt(const Stmt& s) override {
        if (!s.defined()) return;
        IRVisitor::visitStmt(s);
        f_(s.get());
    }

private:
    const std::function<void(const Object*)>& f_;
};
} // namespace

void postOrderVisit(const Stmt& s, const std::function<void(const Object*)>& f) { PostOrder(f).visitStmt(s); }
void postOrderVisit(const Expr& e, const std::function<void(const Object*)>& f) { PostOrder(f).visitExpr(e); }

} // namespace tessel::tir
