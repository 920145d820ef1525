#include "tir/IRMutator.h"

namespace tessel::tir {

Expr IRMutator::mutate(const Expr& e) {
    if (!e.defined()) return e;
    switch (e.kind()) {
#define TESSEL_EXPR_NODE(N)                                                                        \
    case NodeKind::N: return visit(static_cast<const N##Node*>(e.get()));
#include "tir/NodeKinds.def"
    default: return e;
    }
}

Stmt IRMutator::mutate(const Stmt& s) {
    if (!s.defined()) return s;
    switch (s.kind()) {
#define TESSEL_STMT_NODE(N)                                                                        \
    case NodeKind::N: return visit(static_cast<const N##Node*>(s.get()));
#include "tir/NodeKinds.def"
    default: return s;
    }
}

bool IRMutator::mutateAll(const std::vector<Expr>& in, std::vector<Expr>& out) {
    bool changed = false;
    out.clear();
    out.reserve(in.size());
    for (auto& e : in) {
        out.push_back(mutate(e));
        changed |= !out.back().sameAs(e);
    }
    return changed;
}

Expr IRMutator::visit(const IntImmNode* op) { return Expr(op); }
Expr IRMutator::visit(const FloatImmNode* op) { return Expr(op); }
Expr IRMutator::visit(const StringImmNode* op) { return Expr(op); }
Expr IRMutator::visit(const VarNode* op) { return Expr(op); }
Expr IRMutator::visit(const CastNode* op) {
    Expr v = mutate(op->value);
    return v.sameAs(op->value) ? Expr(op) : CastNode::make(op->type, v);
}
#define TESSEL_MUTATE_BINARY(N)                                                                    \
    Expr IRMutator::visit(const N##Node* op) {                                                     \
        Expr a = mutate(op->a), b = mutate(op->b);                                                 \
        if (a.sameAs(op->a) && b.sameAs(op->b)) return Expr(op);                                   \
        return N##Node::make(a, b);                                                                \
    }
TESSEL_MUTATE_BINARY(Add)
TESSEL_MUTATE_BINARY(Sub)
TESSEL_MUTATE_BINARY(Mul)
TESSEL_MUTATE_BINARY(Div)
TESSEL_MUTATE_BINARY(Mod)
TESSEL_MUTATE_BINARY(FloorDiv)
TESSEL_MUTATE_BINARY(FloorMod)
TESSEL_MUTATE_BINARY(Min)
TESSEL_MUTATE_BINARY(Max)
TESSEL_MUTATE_BINARY(EQ)
TESSEL_MUTATE_BINARY(NE)
TESSEL_MUTATE_BINARY(LT)
TESSEL_MUTATE_BINARY(LE)
TESSEL_MUTATE_BINARY(GT)
TESSEL_MUTATE_BINARY(GE)
TESSEL_MUTATE_BINARY(And)
TESSEL_MUTATE_BINARY(Or)
#undef TESSEL_MUTATE_BINARY
Expr IRMutator::visit(const NotNode* op) {
    Expr a = mutate(op->a);
    return a.sameAs(op->a) ? Expr(op) : NotNode::make(a);
}
Expr IRMutator::visit(const SelectNode* op) {
    Expr c = mutate(op->condition), t = mutate(op->trueValue), f = mutate(op->falseValue);
    if (c.sameAs(op->condition) && t.sameAs(op->trueValue) && f.sameAs(op->falseValue)) return Expr(op);
    return SelectNode::make(c, t, f);
}
Expr IRMutator::visit(const RampNode* op) {
    Expr b = mutate(op->base), s = mutate(op->stride);
    if (b.sameAs(op->base) && s.sameAs(op->stride)) return Expr(op);
    return RampNode::make(b, s, op->lanes);
}
Expr IRMutator::visit(const BroadcastNode* op) {
    Expr v = mutate(op->value);
    return v.sameAs(op->value) ? Expr(op) : BroadcastNode::make(v, op->lanes);
}
Expr IRMutator::visit(const LetNode* op) {
    Expr v = mutate(op->value), b = mutate(op->body);
    if (v.sameAs(op->value) && b.sameAs(op->body)) return Expr(op);
    return LetNode::make(op->var, v, b);
}
Expr IRMutator::visit(const CallNode* op) {
    std::vector<Expr> args;
    if (!mutateAll(op->args, args)) return Expr(op);
    if (op->op == Intrinsic::Extern) return CallNode::makeExtern(op->type, op->name, args);
    return CallNode::make(op->type, op->op, args);
}
Expr IRMutator::visit(const BufferLoadNode* op) {
    std::vector<Expr> idx;
    if (!mutateAll(op->indices, idx)) return Expr(op);
    return BufferLoadNode::make(op->buffer, idx);
}
Expr IRMutator::visit(const ProducerLoadNode* op) {
    std::vector<Expr> idx;
    if (!mutateAll(op->indices, idx)) return Expr(op);
    return ProducerLoadNode::make(op->producer, idx);
}
Expr IRMutator::visit(const ReduceNode* op) {
    Expr s = mutate(op->source), c = mutate(op->condition);
    if (s.sameAs(op->source) && c.sameAs(op->condition)) return Expr(op);
    return ReduceNode::make(op->combiner, s, op->axis, c);
}

Stmt IRMutator::visit(const LetStmtNode* op) {
    Expr v = mutate(op->value);
    Stmt b = mutate(op->body);
    if (v.sameAs(op->value) && b.sameAs(op->body)) return Stmt(op);
    return LetStmtNode::make(op->var, v, b);
}
Stmt IRMutator::visit(const AttrStmtNode* op) {
    Expr v = mutate(op->value);
    Stmt b = mutate(op->body);
    if (v.sameAs(op->value) && b.sameAs(op->body)) return Stmt(op);
    return AttrStmtNode::make(op->key, v, b);
}
Stmt IRMutator::visit(const ForNode* op) {
    Expr mn = mutate(op->min), ex = mutate(op->extent);
    Stmt b = mutate(op->body);
    if (mn.sameAs(op->min) && ex.sameAs(op->extent) && b.sameAs(op->body)) return Stmt(op);
    return ForNode::remake(*op, mn, ex, b);
}
Stmt IRMutator::visit(const BufferStoreNode* op) {
    Expr v = mutate(op->value);
    std::vector<Expr> idx;
    bool changed = mutateAll(op->indices, idx);
    if (!changed && v.sameAs(op->value)) return Stmt(op);
    return BufferStoreNode::make(op->buffer, v, idx);
}
Stmt IRMutator::visit(const BufferRealizeNode* op) {
    bool changed = false;
    std::vector<Range> bounds;
    for (auto& r : op->bounds) {
        Range n(mutate(r.min), mutate(r.extent));
        changed |= !n.min.sameAs(r.min) || !n.extent.sameAs(r.extent);
        bounds.push_back(n);
    }
    Stmt b = mutate(op->body);
    if (!changed && b.sameAs(op->body)) return Stmt(op);
    return BufferRealizeNode::make(op->buffer, bounds, b);
}
Stmt IRMutator::visit(const AllocateNode* op) {
    Stmt b = mutate(op->body);
    return b.sameAs(op->body) ? Stmt(op) : AllocateNode::make(op->buffer, b);
}
Stmt IRMutator::visit(const IfThenElseNode* op) {
    Expr c = mutate(op->condition);
    Stmt t = mutate(op->thenCase), e = mutate(op->elseCase);
    if (c.sameAs(op->condition) && t.sameAs(op->thenCase) && e.sameAs(op->elseCase)) return Stmt(op);
    return IfThenElseNode::make(c, t, e);
}
Stmt IRMutator::visit(const SeqStmtNode* op) {
    std::vector<Stmt> seq;
    bool changed = false;
    for (auto& s : op->seq) {
        seq.push_back(mutate(s));
        changed |= !seq.back().sameAs(s);
    }
    return changed ? SeqStmtNode::make(seq) : Stmt(op);
}
Stmt IRMutator::visit(const EvaluateNode* op) {
    Expr v = mutate(op->value);
    return v.sameAs(op->value) ? Stmt(op) : EvaluateNode::make(v);
}

} // namespace tessel::tir
