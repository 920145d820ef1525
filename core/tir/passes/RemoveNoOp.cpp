#include "tir/passes/RemoveNoOp.h"

#include "tir/ExprEquality.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"

namespace tessel::tir {

namespace {

class NoOpRemover : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Stmt visit(const ForNode* op) override {
        if (auto ext = op->extent.as<IntImmNode>(); ext && ext->value <= 0) return noOp();
        Stmt s = IRMutator::visit(op);
        auto* loop = s.as<ForNode>();
        return loop && isNoOp(loop->body) ? noOp() : s;
    }
    Stmt visit(const IfThenElseNode* op) override {
        if (auto c = op->condition.as<IntImmNode>()) {
            if (c->value) return mutate(op->thenCase);
            return op->elseCase.defined() ? mutate(op->elseCase) : noOp();
        }
        Stmt t = mutate(op->thenCase), e = mutate(op->elseCase);
        bool thenEmpty = isNoOp(t), elseEmpty = !e.defined() || isNoOp(e);
        if (thenEmpty && elseEmpty) return noOp();
        if (e.defined() && elseEmpty) e = Stmt();
        if (thenEmpty) return IfThenElseNode::make(!op->condition, e);
        if (t.sameAs(op->thenCase) && e.sameAs(op->elseCase)) return Stmt(op);
        return IfThenElseNode::make(op->condition, t, e);
    }
    Stmt visit(const BufferStoreNode* op) override {
        auto* load = op->value.as<BufferLoadNode>();
        if (load && load->buffer->data.sameAs(op->buffer->data) &&
            load->indices.size() == op->indices.size()) {
            bool same = true;
            for (size_t i = 0; i < op->indices.size() && same; ++i)
                same = structuralEqual(load->indices[i], op->indices[i]);
            if (same) return noOp();
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const EvaluateNode* op) override {
        if (op->value.as<IntImmNode>()) return Stmt(op); // already the canonical no-op
        if (op->value.as<FloatImmNode>() || op->value.as<StringImmNode>() ||
            op->value.as<VarNode>())
            return noOp();
        return IRMutator::visit(op);
    }
    Stmt visit(const LetStmtNode* op) override {
        return emptyBody<LetStmtNode>(IRMutator::visit(op));
    }
    Stmt visit(const AttrStmtNode* op) override {
        return emptyBody<AttrStmtNode>(IRMutator::visit(op));
    }
    Stmt visit(const AllocateNode* op) override {
        return emptyBody<AllocateNode>(IRMutator::visit(op));
    }
    Stmt visit(const BufferRealizeNode* op) override {
        return emptyBody<BufferRealizeNode>(IRMutator::visit(op));
    }

private:
    template <class T> static Stmt emptyBody(const Stmt& s) {
        auto* n = s.as<T>();
        return n && isNoOp(n->body) ? noOp() : s;
    }
};

} // namespace

Stmt removeNoOp(const Stmt& s, const RemoveNoOpOptions&) {
    Stmt r = NoOpRemover().mutate(s);
    // A no-op that is already the canonical one stays the same node.
    return isNoOp(r) && isNoOp(s) ? s : r;
}

PrimFunc removeNoOp(const PrimFunc& f, const RemoveNoOpOptions& options) {
    Stmt body = removeNoOp(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
