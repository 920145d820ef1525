#include "tir/passes/LoopPartition.h"

#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"
#include "tir/Substitute.h"
#include "tir/arith/ConstIntBound.h"
#include "tir/arith/ConstantFold.h"
#include "tir/arith/IntDiv.h"

#include <optional>

namespace tessel::tir {

namespace {

using arith::ConstIntBound;
using arith::VarBoundMap;

/// Binds a loop variable with constant bounds to [min, min + extent - 1];
/// false (nothing bound) otherwise.
bool bindLoopVar(VarBoundMap& env, const ForNode* op) {
    auto mn = asConstInt(op->min), ex = asConstInt(op->extent);
    if (!mn || !ex || *ex <= 0) return false;
    env[op->loopVar.get()] = {*mn, *mn + *ex - 1};
    return true;
}

/// Binds a let variable of integer type to the bound of its value.
bool bindLetVar(VarBoundMap& env, const LetStmtNode* op) {
    if (!op->value.type().isIntOrUInt() || !op->value.type().isScalar()) return false;
    env[op->var.get()] = arith::constIntBound(op->value, env);
    return true;
}

/// `e` as `coeff * x + rest` with `rest` free of `x`; nullopt when not linear.
struct Linear {
    int64_t coeff;
    Expr rest;
};

std::optional<Linear> linearIn(const Expr& e, const VarNode* x) {
    if (!e.type().isScalar() || !e.type().isIntOrUInt()) return std::nullopt;
    if (!usesVar(e, x)) return Linear{0, e};
    if (e.as<VarNode>() == x) return Linear{1, makeZero(e.type())};
    if (auto* op = e.as<AddNode>()) {
        auto a = linearIn(op->a, x), b = linearIn(op->b, x);
        if (!a || !b) return std::nullopt;
        return Linear{a->coeff + b->coeff, a->rest + b->rest};
    }
    if (auto* op = e.as<SubNode>()) {
        auto a = linearIn(op->a, x), b = linearIn(op->b, x);
        if (!a || !b) return std::nullopt;
        return Linear{a->coeff - b->coeff, a->rest - b->rest};
    }
    if (auto* op = e.as<MulNode>()) {
        auto a = linearIn(op->a, x), b = linearIn(op->b, x);
        if (!a || !b) return std::nullopt;
        if (auto k = asConstInt(b->rest); k && b->coeff == 0)
            return Linear{a->coeff * *k, a->rest * b->rest};
        if (auto k = asConstInt(a->rest); k && a->coeff == 0)
            return Linear{b->coeff * *k, a->rest * b->rest};
        return std::nullopt;
    }
    return std::nullopt;
}

/// Visits a loop body looking for the first point where a condition linear
/// in `x` changes from "always true" to "not always" (or similarly for false).
class SplitFinder : public IRVisitor {
public:
    SplitFinder(const VarNode* x, int64_t lo, int64_t end, VarBoundMap env, bool onlyLikely)
        : x_(x), lo_(lo), end_(end), env_(std::move(env)), onlyLikely_(onlyLikely) {}

    std::optional<int64_t> point;
    using IRVisitor::visit;

protected:
    void visit(const ForNode* op) override {
        if (point) return;
        bool bound = bindLoopVar(env_, op);
        IRVisitor::visit(op);
        if (bound) env_.erase(op->loopVar.get());
    }
    void visit(const IfThenElseNode* op) override {
        if (point) return;
        consider(op->condition, false);
        IRVisitor::visit(op);
    }

private:
    void consider(const Expr& cond, bool underLikely) {
        if (point) return;
        if (isLikely(cond)) return consider(stripLikely(cond), true);
        if (auto* a = cond.as<AndNode>()) {
            consider(a->a, underLikely);
            consider(a->b, underLikely);
            return;
        }
        if (onlyLikely_ && !underLikely) return;
        // Normalize to `lhs - rhs + adjust < 0`.
        Expr lhs, rhs;
        int64_t adjust = 0;
        if (auto* c = cond.as<LTNode>())
            lhs = c->a, rhs = c->b;
        else if (auto* c = cond.as<LENode>())
            lhs = c->a, rhs = c->b, adjust = -1;
        else if (auto* c = cond.as<GTNode>())
            lhs = c->b, rhs = c->a;
        else if (auto* c = cond.as<GENode>())
            lhs = c->b, rhs = c->a, adjust = -1;
        else
            return;
        auto a = linearIn(lhs, x_), b = linearIn(rhs, x_);
        if (!a || !b) return;
        int64_t c = a->coeff - b->coeff;
        if (c == 0) return;
        // The condition is `c*x + r < 0` with r = rest_a - rest_b + adjust in [rmin, rmax].
        ConstIntBound r = arith::differenceBound(a->rest, b->rest, env_);
        if (r.min == ConstIntBound::kNegInf || r.max == ConstIntBound::kPosInf) return;
        int64_t rmin = r.min + adjust, rmax = r.max + adjust;
        int64_t candidates[2];
        if (c > 0) {
            candidates[0] = arith::floorDivInt(-rmax - 1, c) + 1; // first x not always true
            candidates[1] = arith::ceilDivInt(-rmin, c);          // first x always false
        } else {
            candidates[0] = arith::floorDivInt(rmax, -c) + 1; // first x always true
            candidates[1] = arith::floorDivInt(rmin, -c) + 1; // first x not always false
        }
        for (int64_t p : candidates)
            if (p > lo_ && p < end_) {
                point = p;
                return;
            }
    }

    const VarNode* x_;
    int64_t lo_, end_;
    VarBoundMap env_;
    bool onlyLikely_;
};

/// Removes conditions that are decided over the known variable ranges.
class ConditionEliminator : public IRMutator {
public:
    explicit ConditionEliminator(VarBoundMap env) : env_(std::move(env)) {}
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Stmt visit(const ForNode* op) override {
        bool bound = bindLoopVar(env_, op);
        Stmt s = IRMutator::visit(op);
        if (bound) env_.erase(op->loopVar.get());
        auto* loop = s.as<ForNode>();
        return loop && isNoOp(loop->body) ? loop->body : s;
    }
    Stmt visit(const LetStmtNode* op) override {
        bool bound = bindLetVar(env_, op);
        Stmt s = IRMutator::visit(op);
        if (bound) env_.erase(op->var.get());
        return s;
    }
    Stmt visit(const IfThenElseNode* op) override {
        Expr c = resolve(op->condition);
        if (auto k = c.as<IntImmNode>()) {
            if (k->value) return mutate(op->thenCase);
            return op->elseCase.defined() ? mutate(op->elseCase) : noOp();
        }
        Stmt t = mutate(op->thenCase), e = mutate(op->elseCase);
        if (c.sameAs(op->condition) && t.sameAs(op->thenCase) && e.sameAs(op->elseCase))
            return Stmt(op);
        return IfThenElseNode::make(c, t, e);
    }

private:
    /// The condition with its decided conjuncts replaced by constants.
    Expr resolve(const Expr& cond) {
        if (auto d = arith::decideCondition(cond, env_))
            return IntImmNode::make(DataType::boolean(), *d);
        if (auto* a = cond.as<AndNode>()) {
            Expr x = resolve(a->a), y = resolve(a->b);
            if (x.sameAs(a->a) && y.sameAs(a->b)) return cond;
            return x && y;
        }
        if (auto* o = cond.as<OrNode>()) {
            Expr x = resolve(o->a), y = resolve(o->b);
            if (x.sameAs(o->a) && y.sameAs(o->b)) return cond;
            return x || y;
        }
        if (isLikely(cond)) {
            Expr inner = stripLikely(cond);
            Expr r = resolve(inner);
            if (r.sameAs(inner)) return cond;
            return r.as<IntImmNode>() ? r : call(Intrinsic::Likely, {r});
        }
        return cond;
    }

    VarBoundMap env_;
};

class LoopPartitioner : public IRMutator {
public:
    explicit LoopPartitioner(const LoopPartitionOptions& o) : options_(o) {}
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Stmt visit(const ForNode* op) override {
        auto mn = asConstInt(op->min), ex = asConstInt(op->extent);
        if (!mn || !ex || *ex <= 0 || !op->min.type().isScalar()) return IRMutator::visit(op);
        // A loop bound to GPU threads keeps its range: its iterations are threads.
        int budget = op->forKind == ForKind::ThreadBinding ? 0 : options_.maxSplits;
        return partition(op, op->body, *mn, *ex, budget, false);
    }
    Stmt visit(const LetStmtNode* op) override {
        bool bound = bindLetVar(env_, op);
        Stmt s = IRMutator::visit(op);
        if (bound) env_.erase(op->var.get());
        return s;
    }

private:
    /// Partitions loop `op` restricted to [lo, lo + ext) with body `body`.
    Stmt partition(const ForNode* op, Stmt body, int64_t lo, int64_t ext, int& budget,
                   bool isPart) {
        const VarNode* x = op->loopVar.get();
        env_[x] = {lo, lo + ext - 1};
        body = ConditionEliminator(env_).mutate(body);
        std::optional<int64_t> point;
        if (budget > 0 && !isNoOp(body)) {
            SplitFinder finder(x, lo, lo + ext, env_, options_.onlyLikely);
            finder.visitStmt(body);
            point = finder.point;
        }
        env_.erase(x);
        if (isNoOp(body)) return body;

        if (point) {
            --budget;
            Stmt first = partition(op, body, lo, *point - lo, budget, true);
            Stmt second = partition(op, body, *point, lo + ext - *point, budget, true);
            return SeqStmtNode::make({first, second});
        }
        if (isPart && ext == 1) {
            Stmt b = arith::substituteAndFold(body, VarMap{{x, makeConst(op->loopVar.type(), lo)}});
            return mutate(b);
        }
        env_[x] = {lo, lo + ext - 1};
        Stmt b = mutate(body);
        env_.erase(x);
        if (isNoOp(b)) return b; // every inner iteration was proven dead
        if (!isPart && b.sameAs(op->body)) return Stmt(op);
        if (!isPart)
            return ForNode::remake(*op, op->min, op->extent, b);
        return ForNode::remake(*op, makeConst(op->min.type(), lo), makeConst(op->extent.type(), ext), b);
    }

    const LoopPartitionOptions& options_;
    VarBoundMap env_;
};

} // namespace

Stmt loopPartition(const Stmt& s, const LoopPartitionOptions& options) {
    return LoopPartitioner(options).mutate(s);
}

PrimFunc loopPartition(const PrimFunc& f, const LoopPartitionOptions& options) {
    Stmt body = loopPartition(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
