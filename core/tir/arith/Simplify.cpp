#include "tir/arith/Simplify.h"

#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/Substitute.h"
#include "tir/arith/Analyzer.h"

namespace tessel::tir::arith {

namespace {

class StmtSimplifier : public IRMutator {
public:
    explicit StmtSimplifier(Analyzer& an) : an_(an) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Expr mutate(const Expr& e) override { return an_.simplify(e); }

protected:
    Stmt visit(const ForNode* op) override {
        Expr mn = mutate(op->min), ext = mutate(op->extent);
        if (auto n = asConstInt(ext)) {
            if (*n <= 0) return noOp();
            if (*n == 1) {
                Expr value = mn.type() == op->loopVar.type()
                                 ? mn
                                 : an_.simplify(cast(op->loopVar.type(), mn));
                return mutate(substitute(op->body, op->loopVar, value));
            }
        }
        Stmt body;
        {
            Analyzer::Scope scope(an_);
            an_.bind(op->loopVar, Range(mn, ext));
            body = mutate(op->body);
        }
        if (isNoOp(body)) return noOp();
        if (mn.sameAs(op->min) && ext.sameAs(op->extent) && body.sameAs(op->body)) return Stmt(op);
        return ForNode::remake(*op, mn, ext, body);
    }

    Stmt visit(const LetStmtNode* op) override {
        Expr value = mutate(op->value);
        Stmt body;
        {
            Analyzer::Scope scope(an_);
            an_.bind(op->var, value);
            body = mutate(op->body);
        }
        if (!usesVar(body, op->var.get())) return body;
        if (value.sameAs(op->value) && body.sameAs(op->body)) return Stmt(op);
        return LetStmtNode::make(op->var, value, body);
    }

    Stmt visit(const IfThenElseNode* op) override {
        Expr cond = mutate(op->condition);
        if (auto c = asConstInt(cond)) {
            if (*c) return mutate(op->thenCase);
            return op->elseCase.defined() ? mutate(op->elseCase) : noOp();
        }
        Stmt thenCase, elseCase;
        {
            Analyzer::Scope scope(an_);
            assume(cond, true);
            thenCase = mutate(op->thenCase);
        }
        if (op->elseCase.defined()) {
            Analyzer::Scope scope(an_);
            assume(cond, false);
            elseCase = mutate(op->elseCase);
            if (isNoOp(elseCase)) elseCase = Stmt();
        }
        if (isNoOp(thenCase) && !elseCase.defined()) return noOp();
        if (cond.sameAs(op->condition) && thenCase.sameAs(op->thenCase) &&
            elseCase.sameAs(op->elseCase))
            return Stmt(op);
        return IfThenElseNode::make(cond, thenCase, elseCase);
    }

    Stmt visit(const SeqStmtNode* op) override {
        std::vector<Stmt> seq;
        bool changed = false;
        for (auto& s : op->seq) {
            seq.push_back(mutate(s));
            changed |= !seq.back().sameAs(s) || isNoOp(seq.back());
        }
        return changed ? SeqStmtNode::make(seq) : Stmt(op);
    }

private:
    /// Narrows variable bounds with what `cond` (when `holds`) or its negation says.
    void assume(const Expr& cond, bool holds) {
        if (holds) {
            if (auto a = cond.as<AndNode>()) {
                assume(a->a, true);
                assume(a->b, true);
                return;
            }
        } else if (auto o = cond.as<OrNode>()) {
            assume(o->a, false);
            assume(o->b, false);
            return;
        }
        if (auto n = cond.as<NotNode>()) {
            assume(n->a, !holds);
            return;
        }
        auto narrow = [&](const Expr& var, ConstIntBound b) {
            auto* v = var.as<VarNode>();
            if (!v || !v->type.isInt() || !v->type.isScalar()) return;
            ConstIntBound cur = an_.constIntBound(var).intersect(b);
            if (cur.min <= cur.max) an_.bind(Var(v), cur);
        };
        constexpr int64_t kPos = ConstIntBound::kPosInf, kNeg = ConstIntBound::kNegInf;
        auto lit = [](const Expr& e) -> std::optional<int64_t> {
            if (auto i = e.as<IntImmNode>()) return i->value;
            return std::nullopt;
        };
        // x < c, x <= c, c < x, c <= x, x == c (negated when !holds)
        if (auto op = cond.as<LTNode>()) {
            if (auto c = lit(op->b))
                narrow(op->a, holds ? ConstIntBound{kNeg, *c - 1} : ConstIntBound{*c, kPos});
            if (auto c = lit(op->a))
                narrow(op->b, holds ? ConstIntBound{*c + 1, kPos} : ConstIntBound{kNeg, *c});
        } else if (auto op = cond.as<LENode>()) {
            if (auto c = lit(op->b))
                narrow(op->a, holds ? ConstIntBound{kNeg, *c} : ConstIntBound{*c + 1, kPos});
            if (auto c = lit(op->a))
                narrow(op->b, holds ? ConstIntBound{*c, kPos} : ConstIntBound{kNeg, *c - 1});
        } else if (auto op = cond.as<EQNode>(); op && holds) {
            if (auto c = lit(op->b)) narrow(op->a, ConstIntBound::point(*c));
            if (auto c = lit(op->a)) narrow(op->b, ConstIntBound::point(*c));
        }
    }

    Analyzer& an_;
};

} // namespace

Expr simplify(const Expr& e) {
    Analyzer an;
    return an.simplify(e);
}

Stmt simplify(const Stmt& s, Analyzer& an) {
    return StmtSimplifier(an).mutate(s);
}

Stmt simplify(const Stmt& s) {
    Analyzer an;
    return simplify(s, an);
}

PrimFunc simplify(const PrimFunc& f) {
    Stmt body = simplify(f->body);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir::arith
