#include "tir/Substitute.h"

#include "tir/IRMutator.h"
#include "tir/IRVisitor.h"

namespace tessel::tir {

namespace {

class Substituter : public IRMutator {
public:
    explicit Substituter(const VarMap& m) : map_(m) {}
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Expr visit(const VarNode* op) override {
        auto it = map_.find(op);
        return it == map_.end() ? Expr(op) : it->second;
    }
    Expr visit(const ReduceNode* op) override {
        // Reduce axes' domains may mention substituted variables (compute_at bounds).
        Expr src = mutate(op->source), cond = mutate(op->condition);
        bool changed = !src.sameAs(op->source) || !cond.sameAs(op->condition);
        std::vector<IterVar> axis;
        for (auto& iv : op->axis) {
            Expr mn = mutate(iv->dom.min), ex = mutate(iv->dom.extent);
            if (mn.sameAs(iv->dom.min) && ex.sameAs(iv->dom.extent)) {
                axis.push_back(iv);
            } else {
                changed = true;
                axis.push_back(IterVar::make(Range(mn, ex), iv->var, iv->kind, iv->threadTag));
            }
        }
        return changed ? ReduceNode::make(op->combiner, src, axis, cond) : Expr(op);
    }

private:
    const VarMap& map_;
};

class VarUse : public IRVisitor {
public:
    explicit VarUse(const VarNode* v) : v_(v) {}
    bool found = false;
    using IRVisitor::visit;

protected:
    void visit(const VarNode* op) override { found |= op == v_; }
    void visit(const BufferLoadNode* op) override {
        found |= op->buffer->data.get() == v_;
        IRVisitor::visit(op);
    }
    void visit(const BufferStoreNode* op) override {
        found |= op->buffer->data.get() == v_;
        IRVisitor::visit(op);
    }

private:
    const VarNode* v_;
};

} // namespace

Expr substitute(const Expr& e, const VarMap& map) {
    if (map.empty()) return e;
    return Substituter(map).mutate(e);
}

Stmt substitute(const Stmt& s, const VarMap& map) {
    if (map.empty()) return s;
    return Substituter(map).mutate(s);
}

bool usesVar(const Expr& e, const VarNode* v) {
    VarUse u(v);
    u.visitExpr(e);
    return u.found;
}

bool usesVar(const Stmt& s, const VarNode* v) {
    VarUse u(v);
    u.visitStmt(s);
    return u.found;
}

} // namespace tessel::tir
