#include "tir/IROperators.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/arith/IntDiv.h"

#include <algorithm>
#include <cmath>

namespace tessel::tir {

Expr makeConst(DataType t, double value) {
    DataType s = t.element();
    Expr c = s.isFloat() ? FloatImmNode::make(s, value) : IntImmNode::make(s, static_cast<int64_t>(value));
    return t.lanes() > 1 ? BroadcastNode::make(c, t.lanes()) : c;
}

Expr makeConst(DataType t, int64_t value) {
    DataType s = t.element();
    Expr c = s.isFloat() ? FloatImmNode::make(s, static_cast<double>(value)) : IntImmNode::make(s, value);
    return t.lanes() > 1 ? BroadcastNode::make(c, t.lanes()) : c;
}

Expr makeZero(DataType t) { return makeConst(t, int64_t(0)); }

std::optional<int64_t> asConstInt(const Expr& e) {
    if (auto* i = e.as<IntImmNode>()) return i->value;
    if (auto* b = e.as<BroadcastNode>()) return asConstInt(b->value);
    return std::nullopt;
}

std::optional<double> asConstFloat(const Expr& e) {
    if (auto* f = e.as<FloatImmNode>()) return f->value;
    if (auto* b = e.as<BroadcastNode>()) return asConstFloat(b->value);
    return std::nullopt;
}

Expr cast(DataType t, Expr e) {
    if (e.type() == t) return e;
    if (auto c = asConstInt(e); c && e.type().isScalar()) return makeConst(t, *c);
    if (auto c = asConstFloat(e); c && e.type().isScalar() && t.isScalar()) {
        if (t.isFloat()) return makeConst(t, *c);
    }
    if (e.type().isScalar() && t.isVector()) return BroadcastNode::make(cast(t.element(), e), t.lanes());
    return CastNode::make(t, e);
}

void promote(Expr& a, Expr& b) {
    TESSEL_CHECK(a.defined() && b.defined(), "undefined operand");
    DataType ta = a.type(), tb = b.type();
    if (ta == tb) return;
    int lanes = std::max(ta.lanes(), tb.lanes());
    DataType ea = ta.element(), eb = tb.element(), common = ea;
    if (ea != eb) {
        if (ea.isFloat() != eb.isFloat())
            common = ea.isFloat() ? ea : eb;
        else if (ea.isBool() != eb.isBool())
            common = ea.isBool() ? eb : ea;
        else
            common = ea.bits() >= eb.bits() ? ea : eb;
        // An integer literal adopts the other side's type rather than widening it.
        if (ea.isIntOrUInt() && eb.isIntOrUInt() && !ea.isBool() && !eb.isBool()) {
            if (a.as<IntImmNode>()) common = eb;
            else if (b.as<IntImmNode>()) common = ea;
        }
        if (ea.isFloat() && eb.isFloat()) {
            if (a.as<FloatImmNode>()) common = eb;
            else if (b.as<FloatImmNode>()) common = ea;
        }
    }
    a = cast(common.withLanes(lanes), a);
    b = cast(common.withLanes(lanes), b);
}

namespace {
template <class F> std::optional<Expr> foldInt(const Expr& a, const Expr& b, F f) {
    auto x = a.as<IntImmNode>(), y = b.as<IntImmNode>();
    if (x && y) return IntImmNode::make(a.type(), f(x->value, y->value));
    return std::nullopt;
}
template <class F> std::optional<Expr> foldFloat(const Expr& a, const Expr& b, F f) {
    auto x = a.as<FloatImmNode>(), y = b.as<FloatImmNode>();
    if (x && y) return FloatImmNode::make(a.type(), f(x->value, y->value));
    return std::nullopt;
}
} // namespace

Expr operator+(Expr a, Expr b) {
    promote(a, b);
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return x + y; })) return *r;
    if (auto r = foldFloat(a, b, [](double x, double y) { return x + y; })) return *r;
    if (isZero(b) && a.type().isIntOrUInt()) return a;
    if (isZero(a) && a.type().isIntOrUInt()) return b;
    return AddNode::make(a, b);
}

Expr operator-(Expr a, Expr b) {
    promote(a, b);
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return x - y; })) return *r;
    if (auto r = foldFloat(a, b, [](double x, double y) { return x - y; })) return *r;
    if (isZero(b) && a.type().isIntOrUInt()) return a;
    return SubNode::make(a, b);
}

Expr operator-(Expr a) {
    if (auto i = a.as<IntImmNode>()) return IntImmNode::make(a.type(), -i->value);
    if (auto f = a.as<FloatImmNode>()) return FloatImmNode::make(a.type(), -f->value);
    return makeZero(a.type()) - a;
}

Expr operator*(Expr a, Expr b) {
    promote(a, b);
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return x * y; })) return *r;
    if (auto r = foldFloat(a, b, [](double x, double y) { return x * y; })) return *r;
    if (a.type().isIntOrUInt()) {
        if (isOne(b)) return a;
        if (isOne(a)) return b;
        if (isZero(a) || isZero(b)) return makeZero(a.type());
    }
    return MulNode::make(a, b);
}

Expr operator/(Expr a, Expr b) {
    promote(a, b);
    if (a.type().isIntOrUInt()) return truncdiv(a, b);
    if (auto r = foldFloat(a, b, [](double x, double y) { return x / y; })) return *r;
    return DivNode::make(a, b);
}

Expr operator%(Expr a, Expr b) { return truncmod(std::move(a), std::move(b)); }

Expr truncdiv(Expr a, Expr b) {
    promote(a, b);
    if (auto y = asConstInt(b); y && *y == 0) throw CompileError("division by zero");
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return x / y; })) return *r;
    if (isOne(b)) return a;
    return DivNode::make(a, b);
}

Expr truncmod(Expr a, Expr b) {
    promote(a, b);
    if (auto y = asConstInt(b); y && *y == 0) throw CompileError("modulo by zero");
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return x % y; })) return *r;
    if (isOne(b)) return makeZero(a.type());
    return ModNode::make(a, b);
}

Expr floordiv(Expr a, Expr b) {
    promote(a, b);
    if (a.type().isFloat()) return call(Intrinsic::Floor, {DivNode::make(a, b)});
    if (auto y = asConstInt(b); y && *y == 0) throw CompileError("division by zero");
    if (auto r = foldInt(a, b, arith::floorDivInt)) return *r;
    if (isOne(b)) return a;
    return FloorDivNode::make(a, b);
}

Expr floormod(Expr a, Expr b) {
    promote(a, b);
    if (auto y = asConstInt(b); y && *y == 0) throw CompileError("modulo by zero");
    if (auto r = foldInt(a, b, arith::floorModInt)) return *r;
    if (isOne(b)) return makeZero(a.type());
    return FloorModNode::make(a, b);
}

Expr min(Expr a, Expr b) {
    promote(a, b);
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return std::min(x, y); })) return *r;
    if (auto r = foldFloat(a, b, [](double x, double y) { return std::fmin(x, y); })) return *r;
    if (a.sameAs(b)) return a;
    return MinNode::make(a, b);
}

Expr max(Expr a, Expr b) {
    promote(a, b);
    if (auto r = foldInt(a, b, [](int64_t x, int64_t y) { return std::max(x, y); })) return *r;
    if (auto r = foldFloat(a, b, [](double x, double y) { return std::fmax(x, y); })) return *r;
    if (a.sameAs(b)) return a;
    return MaxNode::make(a, b);
}

#define TESSEL_COMPARE(OP, NODE)                                                                   \
    Expr operator OP(Expr a, Expr b) {                                                             \
        promote(a, b);                                                                             \
        auto x = a.as<IntImmNode>(), y = b.as<IntImmNode>();                                       \
        if (x && y) return IntImmNode::make(DataType::boolean(), x->value OP y->value);            \
        return NODE::make(a, b);                                                                   \
    }
TESSEL_COMPARE(==, EQNode)
TESSEL_COMPARE(!=, NENode)
TESSEL_COMPARE(<, LTNode)
TESSEL_COMPARE(<=, LENode)
TESSEL_COMPARE(>, GTNode)
TESSEL_COMPARE(>=, GENode)
#undef TESSEL_COMPARE

Expr operator&&(Expr a, Expr b) {
    if (isOne(a)) return b;
    if (isOne(b)) return a;
    if (isZero(a) || isZero(b)) return IntImmNode::make(DataType::boolean(), 0);
    return AndNode::make(a, b);
}

Expr operator||(Expr a, Expr b) {
    if (isZero(a)) return b;
    if (isZero(b)) return a;
    if (isOne(a) || isOne(b)) return IntImmNode::make(DataType::boolean(), 1);
    return OrNode::make(a, b);
}

Expr operator!(Expr a) {
    if (auto c = a.as<IntImmNode>()) return IntImmNode::make(DataType::boolean(), !c->value);
    return NotNode::make(a);
}

Expr select(Expr c, Expr t, Expr f) {
    promote(t, f);
    if (auto k = c.as<IntImmNode>()) return k->value ? t : f;
    return SelectNode::make(c, t, f);
}

Expr call(Intrinsic op, std::vector<Expr> args) {
    TESSEL_CHECK(!args.empty(), std::string("no arguments to ") + intrinsicName(op));
    if (op == Intrinsic::Fma || op == Intrinsic::Pow) {
        for (size_t i = 1; i < args.size(); ++i) promote(args[0], args[i]);
        for (size_t i = 1; i < args.size(); ++i) promote(args[0], args[i]);
    }
    DataType t = args[0].type();
    if (op == Intrinsic::PairDotI16) {
        // Two int16 halves per int32 lane in, one int32 out.
        int lanes = 1;
        for (auto& a : args) lanes = std::max(lanes, a.type().lanes());
        t = DataType::int32(lanes);
        for (auto& a : args)
            if (a.type().element() != DataType::int32()) a = cast(DataType::int32(a.type().lanes()), a);
        return CallNode::make(t, op, std::move(args));
    }
    if (t.isIntOrUInt() && op != Intrinsic::Abs && op != Intrinsic::Likely && op != Intrinsic::Prefetch) {
        t = DataType::float32(t.lanes());
        for (auto& a : args) a = cast(t, a);
    }
    if (op == Intrinsic::Likely) t = args[0].type();
    if (op == Intrinsic::Prefetch) t = DataType::int32();
    return CallNode::make(t, op, std::move(args));
}

} // namespace tessel::tir
