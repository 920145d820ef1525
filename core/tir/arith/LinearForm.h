/// \file
/// Canonical linear form of a signed integer expression.
///
/// A scalar signed integer expression is read as `c1*t1 + c2*t2 + ... + k`:
/// Add, Sub, multiplication by a constant and integer literals are taken
/// apart, every other subexpression is an opaque term (a variable, a
/// floordiv, a product of two non-constants, a load ...). Like terms
/// (structuralEqual) are collected. `toExpr` builds the canonical expression back:
/// terms with a positive coefficient first, then the negative ones, each group
/// in order of first appearance, then the constant, e.g. `x*4 + y - z*2 + 3`.
/// The simplifier normalizes every integer Add, Sub and Mul through this form.
#pragma once

#include "tir/IR.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tessel::tir::arith {

struct LinearForm {
    DataType type = DataType::int32();
    /// (term, coefficient) in order of first appearance; no zero coefficients
    /// after normalize().
    std::vector<std::pair<Expr, int64_t>> terms;
    int64_t constant = 0;

    LinearForm() = default;
    explicit LinearForm(DataType t) : type(t) {}

    /// Takes `e` (a scalar signed integer expression) apart.
    static LinearForm of(const Expr& e);

    /// Adds `coeff * term`, collecting it into an equal term when there is one.
    void addTerm(const Expr& term, int64_t coeff);
    /// Adds `scale * other`.
    void add(const LinearForm& other, int64_t scale = 1);
    /// Multiplies every coefficient and the constant by `k`.
    void scale(int64_t k);
    /// Drops zero coefficients and merges `floordiv(e, c)*(k*c) + floormod(e, c)*k` into `e*k`.
    void normalize();

    bool isConstant() const { return terms.empty(); }
    /// The gcd of the (absolute) term coefficients; 0 when there are no terms.
    int64_t termGcd() const;

    /// The canonical expression (see the file comment).
    Expr toExpr() const;
};

/// The integer constant of type `t` (vector types get a Broadcast), wrapped to
/// the type's width as two's complement arithmetic would.
Expr makeIntConst(DataType t, int64_t v);
/// `v` wrapped to the width of integer type `t`.
int64_t wrapToType(DataType t, int64_t v);

} // namespace tessel::tir::arith
