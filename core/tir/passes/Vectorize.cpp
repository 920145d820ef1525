#include "tir/passes/Vectorize.h"

#include "tir/ExprEquality.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"
#include "tir/arith/ConstantFold.h"

#include <unordered_map>

namespace tessel::tir {

namespace {

/// Thrown inside a Vectorizer when the loop must stay scalar.
struct CannotVectorize {};

/// True when `e` reads `buffer`.
bool readsBuffer(const Expr& e, const BufferNode* buffer) {
    bool found = false;
    postOrderVisit(e, [&](const Object* n) {
        auto* l = dynamic_cast<const BufferLoadNode*>(n);
        if (l && (l->buffer.get() == buffer || l->buffer->data.sameAs(buffer->data))) found = true;
    });
    return found;
}

int lanesOf(const Expr& e) {
    return e.type().lanes();
}

/// Rewrites the body of one vectorized loop, with its variable as a ramp.
class Vectorizer : public IRMutator {
public:
    Vectorizer(const Var& x, const Expr& min, int lanes, const VectorizeOptions& o)
        : x_(x.get()), lanes_(lanes), options_(o) {
        ramp_ = RampNode::make(min, makeConst(min.type(), int64_t(1)), lanes);
    }
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    // ---- expressions -------------------------------------------------------

    Expr visit(const VarNode* op) override {
        if (op == x_) return ramp_;
        auto it = letVars_.find(op);
        return it == letVars_.end() ? Expr(op) : it->second;
    }

    Expr visit(const AddNode* op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.sameAs(op->a) && b.sameAs(op->b)) return Expr(op);
        if (lanesOf(a) == 1 && lanesOf(b) == 1) return AddNode::make(a, b);
        auto *ra = a.as<RampNode>(), *rb = b.as<RampNode>();
        if (ra && rb) return makeRamp(ra->base + rb->base, ra->stride + rb->stride);
        if (ra && isScalarLike(b)) return makeRamp(ra->base + scalarOf(b), ra->stride);
        if (rb && isScalarLike(a)) return makeRamp(scalarOf(a) + rb->base, rb->stride);
        return AddNode::make(widen(a), widen(b));
    }

    Expr visit(const SubNode* op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.sameAs(op->a) && b.sameAs(op->b)) return Expr(op);
        if (lanesOf(a) == 1 && lanesOf(b) == 1) return SubNode::make(a, b);
        auto *ra = a.as<RampNode>(), *rb = b.as<RampNode>();
        if (ra && rb) return makeRamp(ra->base - rb->base, ra->stride - rb->stride);
        if (ra && isScalarLike(b)) return makeRamp(ra->base - scalarOf(b), ra->stride);
        if (rb && isScalarLike(a)) return makeRamp(scalarOf(a) - rb->base, -rb->stride);
        return SubNode::make(widen(a), widen(b));
    }

    Expr visit(const MulNode* op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.sameAs(op->a) && b.sameAs(op->b)) return Expr(op);
        if (lanesOf(a) == 1 && lanesOf(b) == 1) return MulNode::make(a, b);
        auto *ra = a.as<RampNode>(), *rb = b.as<RampNode>();
        if (ra && isScalarLike(b))
            return makeRamp(ra->base * scalarOf(b), ra->stride * scalarOf(b));
        if (rb && isScalarLike(a))
            return makeRamp(scalarOf(a) * rb->base, scalarOf(a) * rb->stride);
        return MulNode::make(widen(a), widen(b));
    }

#define TESSEL_VECTORIZE_BINARY(N)                                                                 \
    Expr visit(const N##Node* op) override {                                                       \
        Expr a = mutate(op->a), b = mutate(op->b);                                                 \
        if (a.sameAs(op->a) && b.sameAs(op->b)) return Expr(op);                                   \
        if (lanesOf(a) == 1 && lanesOf(b) == 1) return N##Node::make(a, b);                        \
        return N##Node::make(widen(a), widen(b));                                                  \
    }
    TESSEL_VECTORIZE_BINARY(Div)
    TESSEL_VECTORIZE_BINARY(Mod)
    TESSEL_VECTORIZE_BINARY(FloorDiv)
    TESSEL_VECTORIZE_BINARY(FloorMod)
    TESSEL_VECTORIZE_BINARY(Min)
    TESSEL_VECTORIZE_BINARY(Max)
    TESSEL_VECTORIZE_BINARY(EQ)
    TESSEL_VECTORIZE_BINARY(NE)
    TESSEL_VECTORIZE_BINARY(LT)
    TESSEL_VECTORIZE_BINARY(LE)
    TESSEL_VECTORIZE_BINARY(GT)
    TESSEL_VECTORIZE_BINARY(GE)
    TESSEL_VECTORIZE_BINARY(And)
    TESSEL_VECTORIZE_BINARY(Or)
#undef TESSEL_VECTORIZE_BINARY

    Expr visit(const CastNode* op) override {
        Expr v = mutate(op->value);
        if (v.sameAs(op->value)) return Expr(op);
        return CastNode::make(op->type.withLanes(lanesOf(v)), v);
    }

    Expr visit(const SelectNode* op) override {
        Expr c = mutate(op->condition), t = mutate(op->trueValue), f = mutate(op->falseValue);
        if (c.sameAs(op->condition) && t.sameAs(op->trueValue) && f.sameAs(op->falseValue))
            return Expr(op);
        if (lanesOf(c) == 1 && lanesOf(t) == 1 && lanesOf(f) == 1) return SelectNode::make(c, t, f);
        if (lanesOf(c) > 1) c = widen(c);
        return SelectNode::make(c, widen(t), widen(f));
    }

    Expr visit(const RampNode* op) override {
        Expr e = IRMutator::visit(op);
        if (!e.sameAs(Expr(op)))
            throw CannotVectorize{}; // a vector that varies: nested vectorization
        return e;
    }
    Expr visit(const BroadcastNode* op) override {
        Expr e = IRMutator::visit(op);
        if (!e.sameAs(Expr(op))) throw CannotVectorize{};
        return e;
    }

    Expr visit(const LetNode* op) override {
        Expr v = mutate(op->value);
        Var var = op->var;
        if (lanesOf(v) > 1) {
            var = Var(op->var.name(), v.type());
            letVars_[op->var.get()] = var;
        }
        Expr body = mutate(op->body);
        if (v.sameAs(op->value) && body.sameAs(op->body)) return Expr(op);
        return LetNode::make(var, v, body);
    }

    Expr visit(const CallNode* op) override {
        std::vector<Expr> args;
        if (!mutateAll(op->args, args)) return Expr(op);
        int lanes = 1;
        for (auto& a : args)
            lanes = std::max(lanes, lanesOf(a));
        if (lanes == 1) return IRMutator::visit(op);
        // Extern functions and prefetches take scalars.
        if (op->op == Intrinsic::Extern || op->op == Intrinsic::Prefetch) throw CannotVectorize{};
        for (auto& a : args)
            a = widen(a);
        return CallNode::make(op->type.withLanes(lanes), op->op, args);
    }

    Expr visit(const BufferLoadNode* op) override {
        std::vector<Expr> idx;
        if (!mutateAll(op->indices, idx)) return Expr(op);
        if (!allScalar(idx))
            for (auto& i : idx)
                i = widen(i);
        return BufferLoadNode::make(op->buffer, idx);
    }

    Expr visit(const ProducerLoadNode* op) override {
        return unchangedOrFail(op);
    }
    Expr visit(const ReduceNode* op) override {
        return unchangedOrFail(op);
    }

    // ---- statements --------------------------------------------------------

    Stmt visit(const BufferStoreNode* op) override {
        Expr value = mutate(op->value);
        std::vector<Expr> idx;
        bool indexVaries = mutateAll(op->indices, idx);
        if (!indexVaries) {
            // The same location every iteration: fine only when the store is
            // idempotent (an invariant value that does not read the buffer).
            if (!value.sameAs(op->value) || readsBuffer(op->value, op->buffer.get()))
                throw CannotVectorize{};
            return Stmt(op);
        }
        for (auto& i : idx)
            i = widen(i);
        return BufferStoreNode::make(op->buffer, widen(value), idx);
    }

    Stmt visit(const ForNode* op) override {
        Expr mn = mutate(op->min), ex = mutate(op->extent);
        if (!mn.sameAs(op->min) || !ex.sameAs(op->extent)) throw CannotVectorize{};
        Stmt body = mutate(op->body);
        if (body.sameAs(op->body)) return Stmt(op);
        if (op->forKind != ForKind::Parallel) return ForNode::remake(*op, mn, ex, body);
        return ForNode::make(op->loopVar, mn, ex, ForKind::Serial, body, op->annotations);
    }

    Stmt visit(const IfThenElseNode* op) override {
        Expr c = mutate(op->condition);
        if (lanesOf(c) == 1) {
            Stmt t = mutate(op->thenCase), e = mutate(op->elseCase);
            if (c.sameAs(op->condition) && t.sameAs(op->thenCase) && e.sameAs(op->elseCase))
                return Stmt(op);
            return IfThenElseNode::make(c, t, e);
        }
        // A varying condition: only a store (or two stores to one location) can become a select.
        auto* st = op->thenCase.as<BufferStoreNode>();
        if (!options_.selectStores || !st) throw CannotVectorize{};
        std::vector<Expr> idx;
        mutateAll(st->indices, idx);
        if (allScalar(idx)) throw CannotVectorize{};
        for (auto& i : idx)
            i = widen(i);
        Expr thenValue = widen(mutate(st->value));
        Expr elseValue;
        if (op->elseCase.defined()) {
            auto* se = op->elseCase.as<BufferStoreNode>();
            if (!se || !se->buffer.sameAs(st->buffer) || se->indices.size() != st->indices.size())
                throw CannotVectorize{};
            for (size_t i = 0; i < st->indices.size(); ++i)
                if (!structuralEqual(se->indices[i], st->indices[i])) throw CannotVectorize{};
            elseValue = widen(mutate(se->value));
        } else {
            // Keeping the old value reads and writes every lane: not for bounds guards.
            if (isLikely(op->condition)) throw CannotVectorize{};
            elseValue = BufferLoadNode::make(st->buffer, idx);
        }
        return BufferStoreNode::make(st->buffer, SelectNode::make(widen(c), thenValue, elseValue),
                                     idx);
    }

    Stmt visit(const LetStmtNode* op) override {
        Expr v = mutate(op->value);
        Var var = op->var;
        if (lanesOf(v) > 1) {
            var = Var(op->var.name(), v.type());
            letVars_[op->var.get()] = var;
        }
        Stmt body = mutate(op->body);
        if (v.sameAs(op->value) && body.sameAs(op->body)) return Stmt(op);
        return LetStmtNode::make(var, v, body);
    }

    Stmt visit(const AttrStmtNode* op) override {
        Expr v = mutate(op->value);
        if (!v.sameAs(op->value)) throw CannotVectorize{};
        return IRMutator::visit(op);
    }

    Stmt visit(const AllocateNode*) override {
        throw CannotVectorize{};
    }
    Stmt visit(const BufferRealizeNode*) override {
        throw CannotVectorize{};
    }

private:
    template <class T> Expr unchangedOrFail(const T* op) {
        Expr e = IRMutator::visit(op);
        if (!e.sameAs(Expr(op))) throw CannotVectorize{};
        return e;
    }

    static bool allScalar(const std::vector<Expr>& v) {
        for (auto& e : v)
            if (lanesOf(e) > 1) return false;
        return true;
    }

    static bool isScalarLike(const Expr& e) {
        return lanesOf(e) == 1 || e.as<BroadcastNode>();
    }
    static Expr scalarOf(const Expr& e) {
        if (auto* b = e.as<BroadcastNode>()) return b->value;
        return e;
    }

    Expr makeRamp(const Expr& base, const Expr& stride) const {
        if (isZero(stride)) return BroadcastNode::make(base, lanes_);
        return RampNode::make(base, stride, lanes_);
    }

    /// `e` with the loop's lane count: scalars are broadcast.
    Expr widen(const Expr& e) const {
        if (lanesOf(e) == lanes_) return e;
        if (lanesOf(e) == 1) return BroadcastNode::make(e, lanes_);
        throw CannotVectorize{};
    }

    const VarNode* x_;
    int lanes_;
    Expr ramp_;
    const VectorizeOptions& options_;
    std::unordered_map<const VarNode*, Expr> letVars_;
};

class LoopVectorizer : public IRMutator {
public:
    explicit LoopVectorizer(const VectorizeOptions& o) : options_(o) {}
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Stmt visit(const ForNode* op) override {
        Stmt inner = IRMutator::visit(op); // inner loops first
        auto* loop = inner.as<ForNode>();
        if (!loop || loop->forKind != ForKind::Vectorized) return inner;
        auto* ext = loop->extent.as<IntImmNode>();
        if (ext && ext->value == 1)
            return arith::substituteAndFold(loop->body, VarMap{{loop->loopVar.get(), loop->min}});
        if (ext && ext->value > 1 && ext->value <= options_.maxLanes && ext->value <= 65535) {
            try {
                Vectorizer v(loop->loopVar, loop->min, static_cast<int>(ext->value), options_);
                return v.mutate(loop->body);
            } catch (const CannotVectorize&) {
            }
        }
        return ForNode::make(loop->loopVar, loop->min, loop->extent, ForKind::Serial, loop->body,
                             loop->annotations);
    }

private:
    const VectorizeOptions& options_;
};

} // namespace

Stmt vectorizeLoops(const Stmt& s, const VectorizeOptions& options) {
    return LoopVectorizer(options).mutate(s);
}

PrimFunc vectorizeLoops(const PrimFunc& f, const VectorizeOptions& options) {
    Stmt body = vectorizeLoops(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
