// The rewrite rules of the expression simplifier. Every rule function takes
// operands that are already simplified and returns a simplified result, so
// rules may call each other on the pieces they build. Integer arithmetic goes
// through LinearForm; division and modulo by constants split off the part of
// the dividend that is a multiple of the divisor and decide the rest from
// bounds; comparisons are decided from the bound of (a - b). Float arithmetic
// is folded only when both operands are literals, and only identities that
// hold bit for bit (x*1, x/1, x-0) are applied, so float results never change.
#include "tir/arith/RewriteSimplify.h"

#include "tir/ExprEquality.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/Substitute.h"
#include "tir/arith/Analyzer.h"
#include "tir/arith/IntDiv.h"
#include "tir/arith/LinearForm.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace tessel::tir::arith {

namespace {

constexpr int64_t kPosInf = ConstIntBound::kPosInf;
constexpr int64_t kNegInf = ConstIntBound::kNegInf;

bool isSignedInt(const Expr& e) {
    return e.type().isInt();
}
bool isScalarSignedInt(const Expr& e) {
    return e.type().isInt() && e.type().isScalar();
}

/// The value of a scalar integer literal.
const IntImmNode* intLit(const Expr& e) {
    return e.as<IntImmNode>();
}
const FloatImmNode* floatLit(const Expr& e) {
    return e.as<FloatImmNode>();
}

/// The constant of a scalar literal or a broadcast literal.
std::optional<int64_t> constInt(const Expr& e) {
    return asConstInt(e);
}

Expr makeBool(int lanes, bool v) {
    return makeIntConst(DataType::boolean(lanes), v ? 1 : 0);
}

bool isPositiveZero(double v) {
    return v == 0.0 && !std::signbit(v);
}

/// True when `x` lies in [lo, hi] with finite ends.
bool within(const ConstIntBound& b, int64_t lo, int64_t hi) {
    return b.min >= lo && b.max <= hi;
}

class Rewriter : public IRMutator {
public:
    Rewriter(Analyzer& an, int& steps) : an_(an), steps_(steps) {}
    using IRMutator::visit;

    Expr mutate(const Expr& e) override {
        Expr r = IRMutator::mutate(e);
        if (!r.sameAs(e) && structuralEqual(r, e)) return e; // keep sharing
        return r;
    }
    using IRMutator::mutate;

    // ---------------------------------------------------------------- rules

    Expr add(const Expr& a, const Expr& b) {
        if (!step()) return AddNode::make(a, b);
        DataType t = a.type();
        if (auto x = intLit(a), y = intLit(b); x && y) return makeIntConst(t, x->value + y->value);
        if (auto x = floatLit(a), y = floatLit(b); x && y)
            return FloatImmNode::make(t, x->value + y->value);
        if (auto r = vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return add(x, y); }))
            return *r;
        if (auto ra = a.as<RampNode>()) {
            if (auto bb = b.as<BroadcastNode>())
                return makeRamp(add(ra->base, bb->value), ra->stride, ra->lanes);
            if (auto rb = b.as<RampNode>())
                return makeRamp(add(ra->base, rb->base), add(ra->stride, rb->stride), ra->lanes);
        }
        if (auto ba = a.as<BroadcastNode>(); ba && b.as<RampNode>()) {
            auto rb = b.as<RampNode>();
            return makeRamp(add(ba->value, rb->base), rb->stride, rb->lanes);
        }
        if (isScalarSignedInt(a)) {
            LinearForm f = LinearForm::of(a);
            f.add(LinearForm::of(b));
            f.normalize();
            return f.toExpr();
        }
        if (t.isIntOrUInt()) {
            if (isZero(b)) return a;
            if (isZero(a)) return b;
        }
        return AddNode::make(a, b);
    }

    Expr sub(const Expr& a, const Expr& b) {
        if (!step()) return SubNode::make(a, b);
        DataType t = a.type();
        if (auto x = intLit(a), y = intLit(b); x && y) return makeIntConst(t, x->value - y->value);
        if (auto x = floatLit(a), y = floatLit(b); x && y)
            return FloatImmNode::make(t, x->value - y->value);
        if (auto r = vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return sub(x, y); }))
            return *r;
        if (auto ra = a.as<RampNode>()) {
            if (auto bb = b.as<BroadcastNode>())
                return makeRamp(sub(ra->base, bb->value), ra->stride, ra->lanes);
            if (auto rb = b.as<RampNode>())
                return makeRamp(sub(ra->base, rb->base), sub(ra->stride, rb->stride), ra->lanes);
        }
        if (auto ba = a.as<BroadcastNode>(); ba && b.as<RampNode>()) {
            auto rb = b.as<RampNode>();
            return makeRamp(sub(ba->value, rb->base), sub(makeZero(rb->stride.type()), rb->stride),
                            rb->lanes);
        }
        if (isScalarSignedInt(a)) {
            LinearForm f = LinearForm::of(a);
            f.add(LinearForm::of(b), -1);
            f.normalize();
            return f.toExpr();
        }
        if (t.isIntOrUInt()) {
            if (isZero(b)) return a;
            if (t.isInt() && structuralEqual(a, b)) return makeZero(t);
        }
        if (t.isFloat()) {
            if (auto c = asConstFloat(b); c && isPositiveZero(*c)) return a;
        }
        return SubNode::make(a, b);
    }

    Expr mul(const Expr& a, const Expr& b) {
        if (!step()) return MulNode::make(a, b);
        DataType t = a.type();
        if (auto x = intLit(a), y = intLit(b); x && y) return makeIntConst(t, x->value * y->value);
        if (auto x = floatLit(a), y = floatLit(b); x && y)
            return FloatImmNode::make(t, x->value * y->value);
        if (auto r = vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return mul(x, y); }))
            return *r;
        if (auto ra = a.as<RampNode>(); ra && b.as<BroadcastNode>()) {
            Expr c = b.as<BroadcastNode>()->value;
            return makeRamp(mul(ra->base, c), mul(ra->stride, c), ra->lanes);
        }
        if (auto rb = b.as<RampNode>(); rb && a.as<BroadcastNode>()) {
            Expr c = a.as<BroadcastNode>()->value;
            return makeRamp(mul(rb->base, c), mul(rb->stride, c), rb->lanes);
        }
        if (isScalarSignedInt(a)) {
            const IntImmNode* c = intLit(b) ? intLit(b) : intLit(a);
            if (c) {
                LinearForm f = LinearForm::of(intLit(b) ? a : b);
                f.scale(c->value);
                f.normalize();
                return f.toExpr();
            }
        }
        if (t.isIntOrUInt()) {
            if (isOne(b)) return a;
            if (isOne(a)) return b;
            if (isZero(a)) return a;
            if (isZero(b)) return b;
        }
        if (t.isFloat()) {
            if (auto c = asConstFloat(b); c && *c == 1.0) return a;
            if (auto c = asConstFloat(a); c && *c == 1.0) return b;
        }
        return MulNode::make(a, b);
    }

    Expr floorDiv(const Expr& a, const Expr& b) {
        if (!step()) return FloorDivNode::make(a, b);
        DataType t = a.type();
        if (auto x = intLit(a), y = intLit(b); x && y && y->value != 0)
            return makeIntConst(t, floorDivInt(x->value, y->value));
        if (t.isIntOrUInt() && isOne(b)) return a;
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return floorDiv(x, y); }))
            return *r;
        if (!isSignedInt(a)) return FloorDivNode::make(a, b);
        if (auto r = rampDivMod(a, b, /*isDiv=*/true)) return *r;
        if (t.isScalar()) {
            if (auto c = intLit(b); c && c->value > 0) {
                // floordiv(floordiv(e, c1), c2) = floordiv(e, c1*c2)
                if (auto inner = a.as<FloorDivNode>()) {
                    auto c1 = intLit(inner->b);
                    if (c1 && c1->value > 0 && fitsType(t, c1->value * c->value))
                        return floorDiv(inner->a, makeIntConst(t, c1->value * c->value));
                }
                return floorDivByConst(LinearForm::of(a), c->value);
            }
        }
        ConstIntBound ba = bound(a), bb = bound(b);
        if (bb.min > 0 && ba.min >= 0 && ba.max < bb.min) return makeZero(t);
        return FloorDivNode::make(a, b);
    }

    Expr floorMod(const Expr& a, const Expr& b) {
        if (!step()) return FloorModNode::make(a, b);
        DataType t = a.type();
        if (auto x = intLit(a), y = intLit(b); x && y && y->value != 0)
            return makeIntConst(t, floorModInt(x->value, y->value));
        if (t.isIntOrUInt() && isOne(b)) return makeZero(t);
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return floorMod(x, y); }))
            return *r;
        if (!isSignedInt(a)) return FloorModNode::make(a, b);
        if (auto r = rampDivMod(a, b, /*isDiv=*/false)) return *r;
        if (t.isScalar()) {
            if (auto c = intLit(b); c && c->value > 0) {
                // floormod(floormod(e, c1), c2) = floormod(e, c2) when c2 divides c1
                if (auto inner = a.as<FloorModNode>()) {
                    auto c1 = intLit(inner->b);
                    if (c1 && c1->value > 0 && c1->value % c->value == 0)
                        return floorMod(inner->a, b);
                }
                return floorModByConst(LinearForm::of(a), c->value);
            }
        }
        ConstIntBound ba = bound(a), bb = bound(b);
        if (bb.min > 0 && ba.min >= 0 && ba.max < bb.min) return a;
        return FloorModNode::make(a, b);
    }

    Expr truncDiv(const Expr& a, const Expr& b) {
        if (!step()) return DivNode::make(a, b);
        DataType t = a.type();
        if (t.isFloat()) {
            if (auto x = floatLit(a), y = floatLit(b); x && y && y->value != 0.0)
                return FloatImmNode::make(t, x->value / y->value);
            if (auto c = asConstFloat(b); c && *c == 1.0) return a;
            return DivNode::make(a, b);
        }
        if (auto x = intLit(a), y = intLit(b); x && y && y->value != 0) {
            if (t.isUInt())
                return makeIntConst(t, int64_t(uint64_t(x->value) / uint64_t(y->value)));
            return makeIntConst(t, x->value / y->value);
        }
        if (t.isIntOrUInt() && isOne(b)) return a;
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return truncDiv(x, y); }))
            return *r;
        if (isSignedInt(a) && bound(a).min >= 0 && bound(b).min > 0) return floorDiv(a, b);
        return DivNode::make(a, b);
    }

    Expr truncMod(const Expr& a, const Expr& b) {
        if (!step()) return ModNode::make(a, b);
        DataType t = a.type();
        if (t.isFloat()) return ModNode::make(a, b);
        if (auto x = intLit(a), y = intLit(b); x && y && y->value != 0) {
            if (t.isUInt())
                return makeIntConst(t, int64_t(uint64_t(x->value) % uint64_t(y->value)));
            return makeIntConst(t, x->value % y->value);
        }
        if (t.isIntOrUInt() && isOne(b)) return makeZero(t);
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return truncMod(x, y); }))
            return *r;
        if (isSignedInt(a) && bound(a).min >= 0 && bound(b).min > 0) return floorMod(a, b);
        return ModNode::make(a, b);
    }

    Expr minMax(bool isMin, const Expr& a, const Expr& b) {
        auto make = [&](const Expr& x, const Expr& y) {
            return isMin ? MinNode::make(x, y) : MaxNode::make(x, y);
        };
        if (!step()) return make(a, b);
        if (auto x = intLit(a), y = intLit(b); x && y)
            return isMin ? (x->value <= y->value ? a : b) : (x->value >= y->value ? a : b);
        if (auto x = floatLit(a), y = floatLit(b);
            x && y && !std::isnan(x->value) && !std::isnan(y->value)) {
            // min(-0, +0) depends on the target's min instruction: leave it alone
            if (x->value == y->value && std::signbit(x->value) != std::signbit(y->value))
                return make(a, b);
            if (x->value == y->value) return a;
            return isMin ? (x->value < y->value ? a : b) : (x->value > y->value ? a : b);
        }
        if (auto r = vectorBinary(
                a, b, [&](const Expr& x, const Expr& y) { return minMax(isMin, x, y); }))
            return *r;
        if (structuralEqual(a, b)) return a;
        if (isSignedInt(a)) {
            // sign of a - b decides
            ConstIntBound d = differenceBound(a, b);
            if (d.max <= 0) return isMin ? a : b;
            if (d.min >= 0) return isMin ? b : a;
            ConstIntBound ba = bound(a), bb = bound(b);
            if (ba.max <= bb.min) return isMin ? a : b;
            if (bb.max <= ba.min) return isMin ? b : a;
            // min(min(x, c1), c2) = min(x, min(c1, c2))
            if (intLit(b)) {
                if (auto inner = a.as<MinNode>(); isMin && inner && intLit(inner->b))
                    return minMax(true, inner->a, minMax(true, inner->b, b));
                if (auto inner = a.as<MaxNode>(); !isMin && inner && intLit(inner->b))
                    return minMax(false, inner->a, minMax(false, inner->b, b));
            }
            // constants go to the right
            if (intLit(a) && !intLit(b)) return minMax(isMin, b, a);
        }
        return make(a, b);
    }

    /// LT, LE, EQ, NE (GT and GE are turned around into LT and LE).
    Expr compare(NodeKind k, const Expr& a, const Expr& b) {
        if (k == NodeKind::GT) return compare(NodeKind::LT, b, a);
        if (k == NodeKind::GE) return compare(NodeKind::LE, b, a);
        auto make = [&](const Expr& x, const Expr& y) -> Expr {
            switch (k) {
            case NodeKind::LT:
                return LTNode::make(x, y);
            case NodeKind::LE:
                return LENode::make(x, y);
            case NodeKind::EQ:
                return EQNode::make(x, y);
            default:
                return NENode::make(x, y);
            }
        };
        if (!step()) return make(a, b);
        int lanes = a.type().lanes();
        auto decide = [&](auto x, auto y) {
            switch (k) {
            case NodeKind::LT:
                return x < y;
            case NodeKind::LE:
                return x <= y;
            case NodeKind::EQ:
                return x == y;
            default:
                return x != y;
            }
        };
        if (auto x = intLit(a), y = intLit(b); x && y) {
            if (a.type().isUInt())
                return makeBool(1, decide(uint64_t(x->value), uint64_t(y->value)));
            return makeBool(1, decide(x->value, y->value));
        }
        if (auto x = floatLit(a), y = floatLit(b); x && y)
            return makeBool(1, decide(x->value, y->value));
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return compare(k, x, y); }))
            return *r;
        if (!isSignedInt(a)) return make(a, b);

        if (auto decided = decideComparison(k, differenceBound(a, b)))
            return makeBool(lanes, *decided);
        if (!a.type().isScalar()) return make(a, b);

        // Canonical form: (positive terms) op (negated negative terms) + constant,
        // with the gcd of the coefficients divided out.
        LinearForm f = LinearForm::of(a);
        f.add(LinearForm::of(b), -1);
        f.normalize();
        if (f.isConstant()) return make(a, b); // decided above unless unbounded
        int64_t g = f.termGcd();
        int64_t rhs = -f.constant; // sum(terms) op rhs
        if (g > 1) {
            switch (k) {
            case NodeKind::LT:
                rhs = -floorDivInt(-rhs, g);
                break; // ceil(rhs / g)
            case NodeKind::LE:
                rhs = floorDivInt(rhs, g);
                break;
            case NodeKind::EQ:
                if (floorModInt(rhs, g) != 0) return makeBool(1, false);
                rhs /= g;
                break;
            default:
                if (floorModInt(rhs, g) != 0) return makeBool(1, true);
                rhs /= g;
                break;
            }
            for (auto& tc : f.terms)
                tc.second /= g;
        }
        // lhs - right op rhs  <=>  lhs op right + rhs; with no lhs terms: -rhs op right
        LinearForm lhs(a.type()), right(a.type());
        for (auto& [term, c] : f.terms) {
            if (c > 0)
                lhs.addTerm(term, c);
            else
                right.addTerm(term, -c);
        }
        if (lhs.isConstant()) return make(makeIntConst(a.type(), -rhs), right.toExpr());
        right.constant = rhs;
        return make(lhs.toExpr(), right.toExpr());
    }

    Expr logicAnd(const Expr& a, const Expr& b) {
        if (!step()) return AndNode::make(a, b);
        if (isOne(a)) return b;
        if (isOne(b)) return a;
        if (isZero(a)) return a;
        if (isZero(b)) return b;
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return logicAnd(x, y); }))
            return *r;
        if (structuralEqual(a, b)) return a;
        if (isNegationOf(a, b)) return makeBool(a.type().lanes(), false);
        return AndNode::make(a, b);
    }

    Expr logicOr(const Expr& a, const Expr& b) {
        if (!step()) return OrNode::make(a, b);
        if (isZero(a)) return b;
        if (isZero(b)) return a;
        if (isOne(a)) return a;
        if (isOne(b)) return b;
        if (auto r =
                vectorBinary(a, b, [&](const Expr& x, const Expr& y) { return logicOr(x, y); }))
            return *r;
        if (structuralEqual(a, b)) return a;
        if (isNegationOf(a, b)) return makeBool(a.type().lanes(), true);
        return OrNode::make(a, b);
    }

    Expr logicNot(const Expr& a) {
        if (!step()) return NotNode::make(a);
        if (auto c = constInt(a)) return makeBool(a.type().lanes(), *c == 0);
        if (auto bc = a.as<BroadcastNode>())
            return BroadcastNode::make(logicNot(bc->value), bc->lanes);
        if (auto n = a.as<NotNode>()) return n->a;
        if (auto op = a.as<EQNode>()) return compare(NodeKind::NE, op->a, op->b);
        if (auto op = a.as<NENode>()) return compare(NodeKind::EQ, op->a, op->b);
        // !(x < y) == y <= x only without NaN, i.e. for integers
        if (auto op = a.as<LTNode>(); op && op->a.type().isIntOrUInt())
            return compare(NodeKind::LE, op->b, op->a);
        if (auto op = a.as<LENode>(); op && op->a.type().isIntOrUInt())
            return compare(NodeKind::LT, op->b, op->a);
        if (auto op = a.as<GTNode>(); op && op->a.type().isIntOrUInt())
            return compare(NodeKind::LE, op->a, op->b);
        if (auto op = a.as<GENode>(); op && op->a.type().isIntOrUInt())
            return compare(NodeKind::LT, op->a, op->b);
        return NotNode::make(a);
    }

    Expr select(const Expr& c, const Expr& t, const Expr& f) {
        if (!step()) return SelectNode::make(c, t, f);
        if (auto v = constInt(c)) return *v ? t : f;
        if (structuralEqual(t, f)) return t;
        return SelectNode::make(c, t, f);
    }

    Expr cast(DataType t, const Expr& v) {
        if (!step()) return CastNode::make(t, v);
        DataType from = v.type();
        if (from == t) return v;
        if (auto i = intLit(v)) {
            if (t.isIntOrUInt()) return makeIntConst(t, i->value);
            if (t.isFloat() && i->value >= -(int64_t(1) << 53) && i->value <= (int64_t(1) << 53)) {
                double d = from.isUInt() ? double(uint64_t(i->value)) : double(i->value);
                return FloatImmNode::make(t, d);
            }
        }
        if (auto f = floatLit(v)) {
            if (t.isFloat()) return FloatImmNode::make(t, f->value);
            if (t.isBool()) return makeBool(1, f->value != 0.0);
            if (t.isInt() && std::isfinite(f->value)) {
                double tr = std::trunc(f->value);
                ConstIntBound range = ConstIntBound::ofType(t);
                if (tr >= -9.0e18 && tr <= 9.0e18 && int64_t(tr) >= range.min &&
                    int64_t(tr) <= range.max)
                    return makeIntConst(t, int64_t(tr));
            }
        }
        if (auto b = v.as<BroadcastNode>())
            return BroadcastNode::make(cast(t.element(), b->value), b->lanes);
        return CastNode::make(t, v);
    }

protected:
    // ------------------------------------------------------------- visitors

    Expr visit(const VarNode* op) override {
        if (const Expr* value = an_.knownValue(op)) return *value;
        if (op->type.isInt() && op->type.isScalar()) {
            ConstIntBound b = an_.constIntBound(Expr(op));
            if (b.isPoint() && b.min != kPosInf && b.min != kNegInf)
                return makeIntConst(op->type, b.min);
        }
        return Expr(op);
    }
    Expr visit(const CastNode* op) override { return cast(op->type, mutate(op->value)); }
    Expr visit(const AddNode* op) override { return add(mutate(op->a), mutate(op->b)); }
    Expr visit(const SubNode* op) override { return sub(mutate(op->a), mutate(op->b)); }
    Expr visit(const MulNode* op) override { return mul(mutate(op->a), mutate(op->b)); }
    Expr visit(const DivNode* op) override { return truncDiv(mutate(op->a), mutate(op->b)); }
    Expr visit(const ModNode* op) override { return truncMod(mutate(op->a), mutate(op->b)); }
    Expr visit(const FloorDivNode* op) override { return floorDiv(mutate(op->a), mutate(op->b)); }
    Expr visit(const FloorModNode* op) override { return floorMod(mutate(op->a), mutate(op->b)); }
    Expr visit(const MinNode* op) override { return minMax(true, mutate(op->a), mutate(op->b)); }
    Expr visit(const MaxNode* op) override { return minMax(false, mutate(op->a), mutate(op->b)); }
    Expr visit(const EQNode* op) override {
        return compare(NodeKind::EQ, mutate(op->a), mutate(op->b));
    }
    Expr visit(const NENode* op) override {
        return compare(NodeKind::NE, mutate(op->a), mutate(op->b));
    }
    Expr visit(const LTNode* op) override {
        return compare(NodeKind::LT, mutate(op->a), mutate(op->b));
    }
    Expr visit(const LENode* op) override {
        return compare(NodeKind::LE, mutate(op->a), mutate(op->b));
    }
    Expr visit(const GTNode* op) override {
        return compare(NodeKind::GT, mutate(op->a), mutate(op->b));
    }
    Expr visit(const GENode* op) override {
        return compare(NodeKind::GE, mutate(op->a), mutate(op->b));
    }
    Expr visit(const AndNode* op) override { return logicAnd(mutate(op->a), mutate(op->b)); }
    Expr visit(const OrNode* op) override { return logicOr(mutate(op->a), mutate(op->b)); }
    Expr visit(const NotNode* op) override { return logicNot(mutate(op->a)); }
    Expr visit(const SelectNode* op) override {
        return select(mutate(op->condition), mutate(op->trueValue), mutate(op->falseValue));
    }
    Expr visit(const RampNode* op) override {
        return makeRamp(mutate(op->base), mutate(op->stride), op->lanes);
    }
    Expr visit(const BroadcastNode* op) override {
        Expr v = mutate(op->value);
        return v.sameAs(op->value) ? Expr(op) : BroadcastNode::make(v, op->lanes);
    }
    Expr visit(const LetNode* op) override {
        Expr value = mutate(op->value);
        if (value.as<IntImmNode>() || value.as<FloatImmNode>() || value.as<VarNode>())
            return mutate(substitute(op->body, op->var, value));
        Expr body;
        {
            Analyzer::Scope scope(an_);
            an_.bind(op->var, value);
            body = mutate(op->body);
        }
        if (!usesVar(body, op->var.get())) return body;
        if (value.sameAs(op->value) && body.sameAs(op->body)) return Expr(op);
        return LetNode::make(op->var, value, body);
    }
    Expr visit(const CallNode* op) override {
        Expr e = IRMutator::visit(op);
        // likely(c) is only a hint: a constant condition needs no hint.
        if (isLikely(e) && stripLikely(e).as<IntImmNode>()) return stripLikely(e);
        return e;
    }
    Expr visit(const ReduceNode* op) override {
        Analyzer::Scope scope(an_);
        for (auto& iv : op->axis)
            an_.bind(iv->var, iv->dom);
        return IRMutator::visit(op);
    }

private:
    bool step() { return ++steps_ <= kMaxRewriteSteps; }

    ConstIntBound bound(const Expr& e) const { return an_.constIntBound(e); }

    static bool fitsType(DataType t, int64_t v) {
        ConstIntBound r = ConstIntBound::ofType(t.element());
        return v >= r.min && v <= r.max;
    }

    /// The bound of a - b, using the linear form for scalars (so that common
    /// terms cancel) and the vector rules for vectors.
    ConstIntBound differenceBound(const Expr& a, const Expr& b) {
        if (a.type().isScalar()) return arith::differenceBound(a, b, an_.varBounds());
        return bound(sub(a, b));
    }

    /// True when `a` is the negation of `b` (as logicNot would write it).
    bool isNegationOf(const Expr& a, const Expr& b) {
        if (auto n = a.as<NotNode>(); n && structuralEqual(n->a, b)) return true;
        if (auto n = b.as<NotNode>(); n && structuralEqual(n->a, a)) return true;
        switch (b.kind()) {
        case NodeKind::LT:
        case NodeKind::LE:
        case NodeKind::EQ:
        case NodeKind::NE:
            return structuralEqual(logicNot(b), a);
        default:
            return false;
        }
    }

    static Expr makeRamp(const Expr& base, const Expr& stride, int lanes) {
        if (isZero(stride)) return BroadcastNode::make(base, lanes);
        return RampNode::make(base, stride, lanes);
    }

    /// Broadcast(a) op Broadcast(b) -> Broadcast(a op b).
    template <class F> std::optional<Expr> vectorBinary(const Expr& a, const Expr& b, F f) {
        auto x = a.as<BroadcastNode>(), y = b.as<BroadcastNode>();
        if (x && y && x->lanes == y->lanes)
            return BroadcastNode::make(f(x->value, y->value), x->lanes);
        return std::nullopt;
    }

    /// floordiv / floormod of a Ramp by a broadcast positive constant.
    std::optional<Expr> rampDivMod(const Expr& a, const Expr& b, bool isDiv) {
        auto r = a.as<RampNode>();
        auto bc = b.as<BroadcastNode>();
        if (!r || !bc) return std::nullopt;
        auto c = intLit(bc->value);
        auto s = intLit(r->stride);
        if (!c || c->value <= 0 || !s) return std::nullopt;
        DataType t = r->base.type();
        int64_t cv = c->value, sv = s->value;
        if (sv % cv == 0) {
            // every lane moves by whole blocks
            if (isDiv)
                return makeRamp(floorDiv(r->base, bc->value), makeIntConst(t, sv / cv), r->lanes);
            return BroadcastNode::make(floorMod(r->base, bc->value), r->lanes);
        }
        Expr m = floorMod(r->base, bc->value);
        ConstIntBound bm = bound(m);
        int64_t span = sv * int64_t(r->lanes - 1);
        bool oneBlock =
            sv >= 0 ? (bm.min >= 0 && bm.max < cv - span) : (bm.min >= -span && bm.max < cv);
        if (!oneBlock) return std::nullopt;
        if (isDiv) return BroadcastNode::make(floorDiv(r->base, bc->value), r->lanes);
        return makeRamp(m, r->stride, r->lanes);
    }

    /// Candidate divisors g of c (1 < g < c) taken from the coefficients of `f`, largest first.
    static std::vector<int64_t> splitCandidates(const LinearForm& f, int64_t c) {
        std::vector<int64_t> gs;
        for (auto& tc : f.terms) {
            int64_t g = std::gcd(std::abs(tc.second), c);
            if (g > 1 && g < c && std::find(gs.begin(), gs.end(), g) == gs.end()) gs.push_back(g);
        }
        std::sort(gs.rbegin(), gs.rend());
        return gs;
    }

    /// Splits `r` (its constant in [0, c)) into big + small where every term of
    /// big is a multiple of g, and small = the rest plus (constant mod g).
    static void splitBy(const LinearForm& r, int64_t g, LinearForm& bigOverG, LinearForm& small) {
        for (auto& [term, k] : r.terms) {
            if (k % g == 0)
                bigOverG.addTerm(term, k / g);
            else
                small.addTerm(term, k);
        }
        bigOverG.constant = floorDivInt(r.constant, g);
        small.constant = floorModInt(r.constant, g);
    }

    /// floordiv(f, c), c > 0.
    Expr floorDivByConst(const LinearForm& f, int64_t c) {
        DataType t = f.type;
        LinearForm q(t), r(t);
        for (auto& [term, k] : f.terms) {
            if (k % c == 0)
                q.addTerm(term, k / c);
            else
                r.addTerm(term, k);
        }
        q.constant = floorDivInt(f.constant, c);
        r.constant = floorModInt(f.constant, c);
        if (r.isConstant()) return q.toExpr();
        ConstIntBound br = bound(r.toExpr());
        if (br.min != kNegInf && br.max != kPosInf) {
            int64_t lo = floorDivInt(br.min, c), hi = floorDivInt(br.max, c);
            if (lo == hi) {
                q.constant += lo;
                return q.toExpr();
            }
        }
        for (int64_t g : splitCandidates(r, c)) {
            LinearForm big(t), small(t);
            splitBy(r, g, big, small);
            if (!within(bound(small.toExpr()), 0, g - 1)) continue;
            // floordiv(g*B + s, g*c') = floordiv(B, c') when 0 <= s < g
            q.add(LinearForm::of(floorDivByConst(big, c / g)));
            q.normalize();
            return q.toExpr();
        }
        q.addTerm(FloorDivNode::make(r.toExpr(), makeIntConst(t, c)), 1);
        return q.toExpr();
    }

    /// floormod(f, c), c > 0.
    Expr floorModByConst(const LinearForm& f, int64_t c) {
        DataType t = f.type;
        LinearForm r(t);
        for (auto& [term, k] : f.terms) {
            if (k % c == 0) continue;
            r.addTerm(term, std::abs(k) < c ? k : floorModInt(k, c));
        }
        r.constant = floorModInt(f.constant, c);
        if (r.isConstant()) return makeIntConst(t, r.constant);
        ConstIntBound br = bound(r.toExpr());
        if (br.min != kNegInf && br.max != kPosInf) {
            int64_t lo = floorDivInt(br.min, c), hi = floorDivInt(br.max, c);
            if (lo == hi) {
                r.constant -= lo * c;
                return r.toExpr();
            }
        }
        for (int64_t g : splitCandidates(r, c)) {
            LinearForm big(t), small(t);
            splitBy(r, g, big, small);
            if (!within(bound(small.toExpr()), 0, g - 1)) continue;
            // floormod(g*B + s, g*c') = g*floormod(B, c') + s when 0 <= s < g
            LinearForm res = LinearForm::of(floorModByConst(big, c / g));
            res.scale(g);
            res.add(small);
            res.normalize();
            return res.toExpr();
        }
        return FloorModNode::make(r.toExpr(), makeIntConst(t, c));
    }

    Analyzer& an_;
    int& steps_;
};

} // namespace

Expr rewriteOnce(const Expr& e, Analyzer& an, int& steps) {
    Rewriter r(an, steps);
    return r.mutate(e);
}

} // namespace tessel::tir::arith
