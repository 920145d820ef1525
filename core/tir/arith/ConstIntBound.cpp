#include "tir/arith/ConstIntBound.h"

#include "tir/IROperators.h"
#include "tir/arith/IntDiv.h"
#include "tir/arith/LinearForm.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <optional>

namespace tessel::tir::arith {

namespace {

constexpr int64_t kPos = ConstIntBound::kPosInf;
constexpr int64_t kNeg = ConstIntBound::kNegInf;

bool isInf(int64_t v) {
    return v == kPos || v == kNeg;
}

int64_t clampWide(__int128 v) {
    if (v >= kPos) return kPos;
    if (v <= kNeg) return kNeg;
    return static_cast<int64_t>(v);
}

/// a + b where an infinite operand stays infinite (never inf + -inf: callers
/// add lower ends to lower ends and upper ends to upper ends).
int64_t satAdd(int64_t a, int64_t b) {
    if (isInf(a)) return a;
    if (isInf(b)) return b;
    return clampWide(static_cast<__int128>(a) + b);
}

int64_t satMul(int64_t a, int64_t b) {
    if (a == 0 || b == 0) return 0;
    if (isInf(a) || isInf(b)) return (a > 0) == (b > 0) ? kPos : kNeg;
    return clampWide(static_cast<__int128>(a) * b);
}

/// One corner of a / b, b != 0 (b may be infinite: the quotient tends to 0).
int64_t divCorner(int64_t a, int64_t b, bool floor) {
    if (isInf(b)) {
        if (isInf(a)) return (a > 0) == (b > 0) ? kPos : kNeg; // conservative ends
        if (!floor || a == 0) return 0;
        return ((a < 0) != (b < 0)) ? -1 : 0;
    }
    if (isInf(a)) return (a > 0) == (b > 0) ? kPos : kNeg;
    return floor ? floorDivInt(a, b) : a / b;
}

/// max(|min|, |max|); kNegInf is -kPosInf, so negation never overflows.
int64_t magnitude(const ConstIntBound& b) {
    return std::max(std::abs(b.min), std::abs(b.max));
}

ConstIntBound fromCorners(std::initializer_list<int64_t> v) {
    return {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())};
}

/// A divisor bound with 0 removed (division by zero is undefined, so the
/// analysis may assume the divisor is not zero).
ConstIntBound excludeZero(ConstIntBound b) {
    if (b.min == 0) b.min = 1;
    if (b.max == 0) b.max = -1;
    return b;
}

ConstIntBound divide(const ConstIntBound& a, ConstIntBound b, bool floor) {
    b = excludeZero(b);
    if (b.min > b.max) return ConstIntBound::everything();
    if (b.min > 0 || b.max < 0)
        return fromCorners({divCorner(a.min, b.min, floor), divCorner(a.min, b.max, floor),
                            divCorner(a.max, b.min, floor), divCorner(a.max, b.max, floor)});
    // The divisor can take either sign: |a / b| <= |a|.
    int64_t m = magnitude(a);
    return {-m, m};
}

ConstIntBound floorMod(const ConstIntBound& a, ConstIntBound b) {
    b = excludeZero(b);
    if (b.min > b.max) return ConstIntBound::everything();
    if (b.min > 0) {
        if (a.min >= 0 && a.max < b.min) return a;
        // A dividend within one block of a constant divisor: the remainder is
        // the dividend shifted by the block's start (exact, and not [0, b - 1]).
        if (b.isPoint() && !isInf(a.min) && !isInf(a.max)) {
            int64_t q = floorDivInt(a.min, b.min);
            if (q == floorDivInt(a.max, b.min)) return {a.min - q * b.min, a.max - q * b.min};
        }
        if (a.min >= 0) return {0, std::min(a.max, satAdd(b.max, -1))};
        return {0, satAdd(b.max, -1)};
    }
    if (b.max < 0) {
        if (a.max <= 0 && a.min > b.max) return a;
        return {satAdd(b.min, 1), 0};
    }
    int64_t m = satAdd(magnitude(b), -1);
    return {-m, m};
}

ConstIntBound truncMod(const ConstIntBound& a, ConstIntBound b) {
    b = excludeZero(b);
    if (b.min > b.max) return ConstIntBound::everything();
    int64_t m = satAdd(magnitude(b), -1);
    if (a.min >= 0) return {0, std::min(a.max, m)};
    if (a.max <= 0) return {std::max(a.min, -m), 0};
    return {std::max(a.min, -m), std::min(a.max, m)};
}

class BoundAnalyzer {
public:
    explicit BoundAnalyzer(const VarBoundMap& vars) : vars_(vars) {}

    ConstIntBound bound(const Expr& e) {
        if (!e.defined()) return ConstIntBound::everything();
        ConstIntBound typeRange = ConstIntBound::ofType(e.type().element());
        ConstIntBound r = raw(e);
        ConstIntBound clipped = r.intersect(typeRange);
        return clipped.min <= clipped.max ? clipped : r;
    }

private:
    template <class T> std::pair<ConstIntBound, ConstIntBound> operands(const Expr& e) {
        auto* op = e.as<T>();
        return {bound(op->a), bound(op->b)};
    }

    ConstIntBound raw(const Expr& e) {
        DataType t = e.type();
        if (!t.isIntOrUInt()) return ConstIntBound::everything();
        switch (e.kind()) {
        case NodeKind::IntImm:
            return ConstIntBound::point(e.as<IntImmNode>()->value);
        case NodeKind::Var: {
            auto* v = e.as<VarNode>();
            if (auto it = local_.find(v); it != local_.end()) return it->second;
            if (auto it = vars_.find(v); it != vars_.end()) return it->second;
            return ConstIntBound::ofType(t.element());
        }
        case NodeKind::Add: {
            auto [a, b] = operands<AddNode>(e);
            return {satAdd(a.min, b.min), satAdd(a.max, b.max)};
        }
        case NodeKind::Sub: {
            auto [a, b] = operands<SubNode>(e);
            return {satAdd(a.min, -b.max), satAdd(a.max, -b.min)};
        }
        case NodeKind::Mul: {
            auto [a, b] = operands<MulNode>(e);
            return fromCorners({satMul(a.min, b.min), satMul(a.min, b.max), satMul(a.max, b.min),
                                satMul(a.max, b.max)});
        }
        case NodeKind::FloorDiv: {
            auto [a, b] = operands<FloorDivNode>(e);
            return divide(a, b, true);
        }
        case NodeKind::Div: {
            auto [a, b] = operands<DivNode>(e);
            return divide(a, b, false);
        }
        case NodeKind::FloorMod: {
            auto [a, b] = operands<FloorModNode>(e);
            return floorMod(a, b);
        }
        case NodeKind::Mod: {
            auto [a, b] = operands<ModNode>(e);
            return truncMod(a, b);
        }
        case NodeKind::Min: {
            auto [a, b] = operands<MinNode>(e);
            return {std::min(a.min, b.min), std::min(a.max, b.max)};
        }
        case NodeKind::Max: {
            auto [a, b] = operands<MaxNode>(e);
            return {std::max(a.min, b.min), std::max(a.max, b.max)};
        }
        case NodeKind::Select: {
            auto* op = e.as<SelectNode>();
            return bound(op->trueValue).unionWith(bound(op->falseValue));
        }
        case NodeKind::Cast: {
            auto* op = e.as<CastNode>();
            ConstIntBound target = ConstIntBound::ofType(t.element());
            if (t.isBool()) return target;
            if (!op->value.type().isIntOrUInt()) return target;
            ConstIntBound v = bound(op->value);
            // A value that does not fit wraps around: only the whole type range is sound.
            return (v.min >= target.min && v.max <= target.max) ? v : target;
        }
        case NodeKind::Let: {
            auto* op = e.as<LetNode>();
            ConstIntBound v = bound(op->value);
            auto saved = local_.find(op->var.get()) != local_.end()
                             ? std::optional<ConstIntBound>(local_[op->var.get()])
                             : std::nullopt;
            local_[op->var.get()] = v;
            ConstIntBound r = bound(op->body);
            if (saved)
                local_[op->var.get()] = *saved;
            else
                local_.erase(op->var.get());
            return r;
        }
        case NodeKind::Ramp: {
            auto* op = e.as<RampNode>();
            ConstIntBound base = bound(op->base), stride = bound(op->stride);
            int64_t n = op->lanes - 1;
            int64_t lo = std::min<int64_t>(0, satMul(stride.min, n));
            int64_t hi = std::max<int64_t>(0, satMul(stride.max, n));
            return {satAdd(base.min, lo), satAdd(base.max, hi)};
        }
        case NodeKind::Broadcast:
            return bound(e.as<BroadcastNode>()->value);
        case NodeKind::EQ:
        case NodeKind::NE:
        case NodeKind::LT:
        case NodeKind::LE:
        case NodeKind::GT:
        case NodeKind::GE:
        case NodeKind::And:
        case NodeKind::Or:
        case NodeKind::Not:
            return {0, 1};
        case NodeKind::Call: {
            auto* op = e.as<CallNode>();
            if (isLikely(e)) return bound(op->args[0]);
            return ConstIntBound::ofType(t.element());
        }
        default:
            return ConstIntBound::ofType(t.element());
        }
    }

    const VarBoundMap& vars_;
    VarBoundMap local_;
};

} // namespace

ConstIntBound ConstIntBound::ofType(DataType t) {
    if (t.isBool()) return {0, 1};
    if (t.isInt()) {
        if (t.bits() >= 64) return everything();
        return {-(int64_t(1) << (t.bits() - 1)), (int64_t(1) << (t.bits() - 1)) - 1};
    }
    if (t.isUInt()) {
        if (t.bits() >= 63) return {0, kPosInf};
        return {0, (int64_t(1) << t.bits()) - 1};
    }
    return everything();
}

ConstIntBound ConstIntBound::unionWith(const ConstIntBound& o) const {
    return {std::min(min, o.min), std::max(max, o.max)};
}

ConstIntBound ConstIntBound::intersect(const ConstIntBound& o) const {
    return {std::max(min, o.min), std::min(max, o.max)};
}

ConstIntBound constIntBound(const Expr& e, const VarBoundMap& vars) {
    return BoundAnalyzer(vars).bound(e);
}

ConstIntBound differenceBound(const Expr& a, const Expr& b, const VarBoundMap& vars) {
    if (a.type().isInt() && a.type().isScalar()) {
        LinearForm f = LinearForm::of(a);
        f.add(LinearForm::of(b), -1);
        f.normalize();
        if (f.isConstant()) return ConstIntBound::point(f.constant);
        return constIntBound(f.toExpr(), vars);
    }
    // Unsigned values (or anything else): the two intervals, as integers; a
    // difference in the type would wrap around.
    ConstIntBound x = constIntBound(a, vars), y = constIntBound(b, vars);
    return {satAdd(x.min, -y.max), satAdd(x.max, -y.min)};
}

std::optional<bool> decideComparison(NodeKind k, const ConstIntBound& d) {
    switch (k) {
    case NodeKind::LT:
        if (d.max < 0) return true;
        if (d.min >= 0) return false;
        break;
    case NodeKind::LE:
        if (d.max <= 0) return true;
        if (d.min > 0) return false;
        break;
    case NodeKind::GT:
        if (d.min > 0) return true;
        if (d.max <= 0) return false;
        break;
    case NodeKind::GE:
        if (d.min >= 0) return true;
        if (d.max < 0) return false;
        break;
    case NodeKind::EQ:
        if (d.isPoint() && d.min == 0) return true;
        if (!d.contains(0)) return false;
        break;
    case NodeKind::NE:
        if (d.isPoint() && d.min == 0) return false;
        if (!d.contains(0)) return true;
        break;
    default:
        break;
    }
    return std::nullopt;
}

namespace {

template <class T> std::optional<bool> decideCompare(const Expr& c, const VarBoundMap& vars) {
    auto* op = c.as<T>();
    if (!op->a.type().isIntOrUInt() || !op->a.type().isScalar()) return std::nullopt;
    return decideComparison(c.kind(), differenceBound(op->a, op->b, vars));
}

} // namespace

std::optional<bool> decideCondition(const Expr& cond, const VarBoundMap& vars) {
    Expr c = stripLikely(cond);
    if (!c.defined() || !c.type().isScalar()) return std::nullopt;
    switch (c.kind()) {
    case NodeKind::IntImm:
        return c.as<IntImmNode>()->value != 0;
    case NodeKind::Not: {
        auto r = decideCondition(c.as<NotNode>()->a, vars);
        if (!r) return std::nullopt;
        return !*r;
    }
    case NodeKind::And: {
        auto* op = c.as<AndNode>();
        auto a = decideCondition(op->a, vars), b = decideCondition(op->b, vars);
        if ((a && !*a) || (b && !*b)) return false;
        if (a && b) return true;
        return std::nullopt;
    }
    case NodeKind::Or: {
        auto* op = c.as<OrNode>();
        auto a = decideCondition(op->a, vars), b = decideCondition(op->b, vars);
        if ((a && *a) || (b && *b)) return true;
        if (a && b) return false;
        return std::nullopt;
    }
    case NodeKind::LT:
        return decideCompare<LTNode>(c, vars);
    case NodeKind::LE:
        return decideCompare<LENode>(c, vars);
    case NodeKind::GT:
        return decideCompare<GTNode>(c, vars);
    case NodeKind::GE:
        return decideCompare<GENode>(c, vars);
    case NodeKind::EQ:
        return decideCompare<EQNode>(c, vars);
    case NodeKind::NE:
        return decideCompare<NENode>(c, vars);
    default:
        return std::nullopt;
    }
}

} // namespace tessel::tir::arith
