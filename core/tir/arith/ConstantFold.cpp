#include "tir/arith/ConstantFold.h"

#include "tir/ExprEquality.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"

namespace tessel::tir::arith {

namespace {

bool isIntConst(const Expr& e) {
    return e.as<IntImmNode>() != nullptr;
}

/// True when `a op b` folds to something simpler through IROperators.
bool folds(const Expr& a, const Expr& b) {
    if (!a.type().isIntOrUInt() || !a.type().isScalar()) return false;
    if (isIntConst(a) && isIntConst(b)) return true;
    return isZero(a) || isZero(b) || isOne(a) || isOne(b);
}

class ConstantFolder : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
#define TESSEL_FOLD(N, EXPR)                                                                       \
    Expr visit(const N##Node* op) override {                                                       \
        Expr a = mutate(op->a), b = mutate(op->b);                                                 \
        bool changed = !a.sameAs(op->a) || !b.sameAs(op->b);                                       \
        if (!changed && !folds(a, b)) return Expr(op);                                             \
        if (!a.type().isScalar() || !a.type().isIntOrUInt()) return N##Node::make(a, b);           \
        Expr r = EXPR;                                                                             \
        return !changed && structuralEqual(r, Expr(op)) ? Expr(op) : r;                            \
    }
    TESSEL_FOLD(Add, a + b)
    TESSEL_FOLD(Sub, a - b)
    TESSEL_FOLD(Mul, a* b)
    TESSEL_FOLD(FloorDiv, isZero(b) ? FloorDivNode::make(a, b) : floordiv(a, b))
    TESSEL_FOLD(FloorMod, isZero(b) ? FloorModNode::make(a, b) : floormod(a, b))
    TESSEL_FOLD(Div, isZero(b) ? DivNode::make(a, b) : truncdiv(a, b))
    TESSEL_FOLD(Mod, isZero(b) ? ModNode::make(a, b) : truncmod(a, b))
    TESSEL_FOLD(Min, min(a, b))
    TESSEL_FOLD(Max, max(a, b))
#undef TESSEL_FOLD
#define TESSEL_FOLD_CMP(N, OP)                                                                     \
    Expr visit(const N##Node* op) override {                                                       \
        Expr a = mutate(op->a), b = mutate(op->b);                                                 \
        bool constant = isIntConst(a) && isIntConst(b);                                            \
        if (a.sameAs(op->a) && b.sameAs(op->b) && !constant) return Expr(op);                      \
        if (constant) return a OP b;                                                               \
        return N##Node::make(a, b);                                                                \
    }
    TESSEL_FOLD_CMP(EQ, ==)
    TESSEL_FOLD_CMP(NE, !=)
    TESSEL_FOLD_CMP(LT, <)
    TESSEL_FOLD_CMP(LE, <=)
    TESSEL_FOLD_CMP(GT, >)
    TESSEL_FOLD_CMP(GE, >=)
#undef TESSEL_FOLD_CMP
    Expr visit(const AndNode* op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.sameAs(op->a) && b.sameAs(op->b) && !isIntConst(a) && !isIntConst(b)) return Expr(op);
        if (a.type().isScalar()) return a && b;
        return AndNode::make(a, b);
    }
    Expr visit(const OrNode* op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.sameAs(op->a) && b.sameAs(op->b) && !isIntConst(a) && !isIntConst(b)) return Expr(op);
        if (a.type().isScalar()) return a || b;
        return OrNode::make(a, b);
    }
    Expr visit(const NotNode* op) override {
        Expr a = mutate(op->a);
        if (a.sameAs(op->a) && !isIntConst(a)) return Expr(op);
        return a.type().isScalar() ? !a : NotNode::make(a);
    }
};

class FoldingSubstituter : public ConstantFolder {
public:
    explicit FoldingSubstituter(const VarMap& m) : map_(m) {}
    using ConstantFolder::mutate;
    using ConstantFolder::visit;

protected:
    Expr visit(const VarNode* op) override {
        auto it = map_.find(op);
        return it == map_.end() ? Expr(op) : it->second;
    }

private:
    const VarMap& map_;
};

} // namespace

Expr foldConstants(const Expr& e) {
    return ConstantFolder().mutate(e);
}
Stmt foldConstants(const Stmt& s) {
    return ConstantFolder().mutate(s);
}

Stmt substituteAndFold(const Stmt& s, const VarMap& map) {
    if (map.empty()) return s;
    return FoldingSubstituter(map).mutate(s);
}

Expr substituteAndFold(const Expr& e, const VarMap& map) {
    if (map.empty()) return e;
    return FoldingSubstituter(map).mutate(e);
}

} // namespace tessel::tir::arith
