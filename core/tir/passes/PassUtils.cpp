#include "tir/passes/PassUtils.h"

#include "tir/IRMutator.h"
#include "tir/IROperators.h"

#include <algorithm>
#include <limits>

namespace tessel::tir {

// ---------------------------------------------------------------------------
// Structural equality

namespace {

bool equalAll(const std::vector<Expr>& a, const std::vector<Expr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!structuralEqual(a[i], b[i])) return false;
    return true;
}

template <class T> bool equalBinary(const Expr& a, const Expr& b) {
    auto* x = a.as<T>();
    auto* y = b.as<T>();
    return structuralEqual(x->a, y->a) && structuralEqual(x->b, y->b);
}

} // namespace

bool structuralEqual(const Expr& a, const Expr& b) {
    if (a.sameAs(b)) return true;
    if (!a.defined() || !b.defined()) return false;
    if (a.kind() != b.kind() || a.type() != b.type()) return false;
    switch (a.kind()) {
    case NodeKind::IntImm:
        return a.as<IntImmNode>()->value == b.as<IntImmNode>()->value;
    case NodeKind::FloatImm:
        return a.as<FloatImmNode>()->value == b.as<FloatImmNode>()->value;
    case NodeKind::StringImm:
        return a.as<StringImmNode>()->value == b.as<StringImmNode>()->value;
    case NodeKind::Var:
        return false; // identity only, and a.sameAs(b) failed
    case NodeKind::Cast:
        return structuralEqual(a.as<CastNode>()->value, b.as<CastNode>()->value);
#define TESSEL_EQ_BINARY(N)                                                                        \
    case NodeKind::N:                                                                              \
        return equalBinary<N##Node>(a, b);
        TESSEL_EQ_BINARY(Add)
        TESSEL_EQ_BINARY(Sub)
        TESSEL_EQ_BINARY(Mul)
        TESSEL_EQ_BINARY(Div)
        TESSEL_EQ_BINARY(Mod)
        TESSEL_EQ_BINARY(FloorDiv)
        TESSEL_EQ_BINARY(FloorMod)
        TESSEL_EQ_BINARY(Min)
        TESSEL_EQ_BINARY(Max)
        TESSEL_EQ_BINARY(EQ)
        TESSEL_EQ_BINARY(NE)
        TESSEL_EQ_BINARY(LT)
        TESSEL_EQ_BINARY(LE)
        TESSEL_EQ_BINARY(GT)
        TESSEL_EQ_BINARY(GE)
        TESSEL_EQ_BINARY(And)
        TESSEL_EQ_BINARY(Or)
#undef TESSEL_EQ_BINARY
    case NodeKind::Not:
        return structuralEqual(a.as<NotNode>()->a, b.as<NotNode>()->a);
    case NodeKind::Select: {
        auto *x = a.as<SelectNode>(), *y = b.as<SelectNode>();
        return structuralEqual(x->condition, y->condition) &&
               structuralEqual(x->trueValue, y->trueValue) &&
               structuralEqual(x->falseValue, y->falseValue);
    }
    case NodeKind::Ramp: {
        auto *x = a.as<RampNode>(), *y = b.as<RampNode>();
        return x->lanes == y->lanes && structuralEqual(x->base, y->base) &&
               structuralEqual(x->stride, y->stride);
    }
    case NodeKind::Broadcast: {
        auto *x = a.as<BroadcastNode>(), *y = b.as<BroadcastNode>();
        return x->lanes == y->lanes && structuralEqual(x->value, y->value);
    }
    case NodeKind::Let: {
        auto *x = a.as<LetNode>(), *y = b.as<LetNode>();
        return x->var.sameAs(y->var) && structuralEqual(x->value, y->value) &&
               structuralEqual(x->body, y->body);
    }
    case NodeKind::Call: {
        auto *x = a.as<CallNode>(), *y = b.as<CallNode>();
        return x->op == y->op && x->name == y->name && equalAll(x->args, y->args);
    }
    case NodeKind::BufferLoad: {
        auto *x = a.as<BufferLoadNode>(), *y = b.as<BufferLoadNode>();
        return x->buffer.sameAs(y->buffer) && equalAll(x->indices, y->indices);
    }
    case NodeKind::ProducerLoad: {
        auto *x = a.as<ProducerLoadNode>(), *y = b.as<ProducerLoadNode>();
        return x->producer.sameAs(y->producer) && equalAll(x->indices, y->indices);
    }
    case NodeKind::Reduce:
        return false; // never compared by the passes
    default:
        return false;
    }
}

// ---------------------------------------------------------------------------
// Constant folding

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

// ---------------------------------------------------------------------------
// Constant bounds

int64_t floorDivide(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t ceilDivide(int64_t a, int64_t b) {
    return -floorDivide(-a, b);
}

namespace {

// Bounds are kept well inside int64 so that sums and products cannot overflow
// silently; anything larger is "unknown".
constexpr int64_t kBoundLimit = int64_t(1) << 40;

std::optional<IntInterval> checked(int64_t lo, int64_t hi) {
    if (lo < -kBoundLimit || hi > kBoundLimit) return std::nullopt;
    return IntInterval{lo, hi};
}

std::optional<IntInterval> boundImpl(const Expr& e, const VarIntervals& env) {
    if (!e.defined() || !e.type().isScalar() || !e.type().isIntOrUInt()) return std::nullopt;
    switch (e.kind()) {
    case NodeKind::IntImm: {
        int64_t v = e.as<IntImmNode>()->value;
        return checked(v, v);
    }
    case NodeKind::Var: {
        auto it = env.find(e.as<VarNode>());
        if (it == env.end()) return std::nullopt;
        return it->second;
    }
    case NodeKind::Cast: {
        auto* op = e.as<CastNode>();
        if (!op->value.type().isIntOrUInt() || op->type.bits() < op->value.type().bits())
            return std::nullopt;
        return boundImpl(op->value, env);
    }
    case NodeKind::Add: {
        auto* op = e.as<AddNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!a || !b) return std::nullopt;
        return checked(a->lo + b->lo, a->hi + b->hi);
    }
    case NodeKind::Sub: {
        auto* op = e.as<SubNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!a || !b) return std::nullopt;
        return checked(a->lo - b->hi, a->hi - b->lo);
    }
    case NodeKind::Mul: {
        auto* op = e.as<MulNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!a || !b) return std::nullopt;
        int64_t c[] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
        return checked(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
    }
    case NodeKind::FloorDiv: {
        auto* op = e.as<FloorDivNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!a || !b || b->lo != b->hi || b->lo <= 0) return std::nullopt;
        return checked(floorDivide(a->lo, b->lo), floorDivide(a->hi, b->lo));
    }
    case NodeKind::FloorMod: {
        auto* op = e.as<FloorModNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!b || b->lo != b->hi || b->lo <= 0) return std::nullopt;
        if (a && floorDivide(a->lo, b->lo) == floorDivide(a->hi, b->lo))
            return checked(a->lo - floorDivide(a->lo, b->lo) * b->lo,
                           a->hi - floorDivide(a->lo, b->lo) * b->lo);
        return checked(0, b->lo - 1);
    }
    case NodeKind::Min: {
        auto* op = e.as<MinNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!a || !b) return std::nullopt;
        return IntInterval{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    }
    case NodeKind::Max: {
        auto* op = e.as<MaxNode>();
        auto a = boundImpl(op->a, env), b = boundImpl(op->b, env);
        if (!a || !b) return std::nullopt;
        return IntInterval{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    }
    default:
        return std::nullopt;
    }
}

} // namespace

std::optional<IntInterval> constBound(const Expr& e, const VarIntervals& env) {
    return boundImpl(e, env);
}

Expr stripLikely(const Expr& e) {
    auto* c = e.as<CallNode>();
    if (c && c->op == Intrinsic::Likely && c->args.size() == 1) return c->args[0];
    return e;
}

std::optional<bool> decideCondition(const Expr& cond, const VarIntervals& env) {
    Expr c = stripLikely(cond);
    if (!c.defined() || !c.type().isScalar()) return std::nullopt;
    if (auto* k = c.as<IntImmNode>()) return k->value != 0;
    if (auto* op = c.as<NotNode>()) {
        auto r = decideCondition(op->a, env);
        if (!r) return std::nullopt;
        return !*r;
    }
    if (auto* op = c.as<AndNode>()) {
        auto a = decideCondition(op->a, env), b = decideCondition(op->b, env);
        if ((a && !*a) || (b && !*b)) return false;
        if (a && b) return true;
        return std::nullopt;
    }
    if (auto* op = c.as<OrNode>()) {
        auto a = decideCondition(op->a, env), b = decideCondition(op->b, env);
        if ((a && *a) || (b && *b)) return true;
        if (a && b) return false;
        return std::nullopt;
    }
    // Comparisons: bounds of both sides (through their difference, which is
    // tighter when the two sides share terms the interval cannot cancel).
    auto compare = [&](const Expr& a, const Expr& b) -> std::optional<IntInterval> {
        if (!a.type().isIntOrUInt()) return std::nullopt;
        return constBound(foldConstants(SubNode::make(a, b)), env);
    };
    if (auto* op = c.as<LTNode>()) {
        if (auto d = compare(op->a, op->b)) {
            if (d->hi < 0) return true;
            if (d->lo >= 0) return false;
        }
        return std::nullopt;
    }
    if (auto* op = c.as<LENode>()) {
        if (auto d = compare(op->a, op->b)) {
            if (d->hi <= 0) return true;
            if (d->lo > 0) return false;
        }
        return std::nullopt;
    }
    if (auto* op = c.as<GTNode>()) {
        if (auto d = compare(op->a, op->b)) {
            if (d->lo > 0) return true;
            if (d->hi <= 0) return false;
        }
        return std::nullopt;
    }
    if (auto* op = c.as<GENode>()) {
        if (auto d = compare(op->a, op->b)) {
            if (d->lo >= 0) return true;
            if (d->hi < 0) return false;
        }
        return std::nullopt;
    }
    if (auto* op = c.as<EQNode>()) {
        if (auto d = compare(op->a, op->b)) {
            if (d->lo == 0 && d->hi == 0) return true;
            if (d->lo > 0 || d->hi < 0) return false;
        }
        return std::nullopt;
    }
    if (auto* op = c.as<NENode>()) {
        if (auto d = compare(op->a, op->b)) {
            if (d->lo == 0 && d->hi == 0) return false;
            if (d->lo > 0 || d->hi < 0) return true;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace tessel::tir
