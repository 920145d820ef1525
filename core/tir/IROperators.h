/// \file
/// Building TIR expressions the way a user writes them: operands of different
/// types are promoted (int -> float, narrow -> wide, scalar -> broadcast), and
/// integer constants fold on the spot. Node `make()`s never promote; these do.
#pragma once

#include "tir/IR.h"

#include <optional>

namespace tessel::tir {

Expr makeConst(DataType t, double value);
Expr makeConst(DataType t, int64_t value);
inline Expr makeConst(DataType t, int value) { return makeConst(t, int64_t(value)); }
Expr makeZero(DataType t);

/// The value of an integer constant (scalar IntImm, or a Broadcast of one).
std::optional<int64_t> asConstInt(const Expr& e);
std::optional<double> asConstFloat(const Expr& e);
inline bool isConstInt(const Expr& e, int64_t v) {
    auto c = asConstInt(e);
    return c && *c == v;
}
inline bool isZero(const Expr& e) { return isConstInt(e, 0); }
inline bool isOne(const Expr& e) { return isConstInt(e, 1); }

/// Converts both operands to one common type.
void promote(Expr& a, Expr& b);
Expr cast(DataType t, Expr e);

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator-(Expr a);
Expr operator*(Expr a, Expr b);
/// True division for floats; truncating division for integers.
Expr operator/(Expr a, Expr b);
Expr operator%(Expr a, Expr b);
Expr floordiv(Expr a, Expr b);
Expr floormod(Expr a, Expr b);
Expr truncdiv(Expr a, Expr b);
Expr truncmod(Expr a, Expr b);
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);
Expr operator==(Expr a, Expr b);
Expr operator!=(Expr a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);
Expr operator&&(Expr a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator!(Expr a);
Expr select(Expr c, Expr t, Expr f);
Expr call(Intrinsic op, std::vector<Expr> args);
inline Expr exp(Expr x) { return call(Intrinsic::Exp, {std::move(x)}); }
inline Expr sqrt(Expr x) { return call(Intrinsic::Sqrt, {std::move(x)}); }
inline Expr fma(Expr a, Expr b, Expr c) { return call(Intrinsic::Fma, {std::move(a), std::move(b), std::move(c)}); }

/// True when `e` is `likely(c)`, the hint on a guard that is almost always true.
inline bool isLikely(const Expr& e) {
    auto* c = e.as<CallNode>();
    return c && c->op == Intrinsic::Likely && c->args.size() == 1;
}
/// The condition inside `likely(c)`, or `e` itself.
inline Expr stripLikely(const Expr& e) { return isLikely(e) ? e.as<CallNode>()->args[0] : e; }

} // namespace tessel::tir
