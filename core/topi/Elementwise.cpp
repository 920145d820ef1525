#include "topi/Elementwise.h"

#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

#include <cmath>
#include <limits>

namespace tessel::topi {

using namespace tir;

namespace {

Expr call1(Intrinsic op, Expr x) { return call(op, {std::move(x)}); }

Expr zeroOf(const Expr& x) { return makeZero(x.type()); }

/// The broadcast shape of all `inputs`.
std::vector<int64_t> broadcastAll(const std::vector<Tensor>& inputs) {
    std::vector<int64_t> shape = staticShape(inputs[0]);
    for (size_t k = 1; k < inputs.size(); ++k)
        shape = broadcastShape(shape, staticShape(inputs[k]));
    return shape;
}

/// Folds `f` over the inputs, broadcast together (the mean divides by their count).
Tensor variadic(const std::vector<Tensor>& ins, const std::function<Expr(Expr, Expr)>& f, bool mean,
                const std::string& name) {
    if (ins.empty()) throw CompileError("needs at least one input");
    return te::compute(
        toExprs(broadcastAll(ins)),
        [&](const std::vector<Var>& i) {
            Expr acc = broadcastRead(ins[0], i);
            for (size_t k = 1; k < ins.size(); ++k)
                acc = f(acc, broadcastRead(ins[k], i));
            if (mean) acc = acc / constant(acc.type(), double(ins.size()));
            return acc;
        },
        name, ins.size() == 1 ? tag::kElemWise : tag::kBroadcast);
}

} // namespace

Tensor unary(const Tensor& x, const std::function<Expr(Expr)>& f, const std::string& name) {
    return te::compute(
        toExprs(staticShape(x)), [&](const std::vector<Var>& i) { return f(x(exprs(i))); }, name,
        tag::kElemWise);
}

Tensor binary(const Tensor& a, const Tensor& b, const std::function<Expr(Expr, Expr)>& f,
              const std::string& name) {
    return te::compute(
        toExprs(broadcastShape(staticShape(a), staticShape(b))),
        [&](const std::vector<Var>& i) { return f(broadcastRead(a, i), broadcastRead(b, i)); },
        name, tag::kBroadcast);
}

// --- binary --------------------------------------------------------------------------------

Tensor add(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x + y; }, name);
}
Tensor subtract(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x - y; }, name);
}
Tensor multiply(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x * y; }, name);
}
Tensor divide(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(
        a, b,
        [](Expr x, Expr y) {
            // ONNX's integer Div truncates toward zero, as C does.
            if (x.type().isIntOrUInt()) return truncdiv(x, y);
            return x / y;
        },
        name);
}
Tensor power(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(
        a, b,
        [](Expr x, Expr y) {
            DataType t = x.type();
            if (t.isFloat()) return call(Intrinsic::Pow, {x, y.type() == t ? y : tir::cast(t, y)});
            // Integer bases: compute in double and convert back (exact for the
            // small results ONNX tests use).
            Expr r = call(Intrinsic::Pow, {tir::cast(DataType::float64(), x), tir::cast(DataType::float64(), y)});
            return tir::cast(t, r);
        },
        name);
}
Tensor equal(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x == y; }, name);
}
Tensor less(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x < y; }, name);
}
Tensor greater(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x > y; }, name);
}
Tensor lessEqual(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x <= y; }, name);
}
Tensor greaterEqual(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x >= y; }, name);
}
Tensor logicalAnd(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x && y; }, name);
}
Tensor logicalOr(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x || y; }, name);
}
Tensor logicalXor(const Tensor& a, const Tensor& b, const std::string& name) {
    return binary(a, b, [](Expr x, Expr y) { return x != y; }, name);
}
Tensor prelu(const Tensor& x, const Tensor& slope, const std::string& name) {
    return binary(x, slope, [](Expr v, Expr s) { return select(v < zeroOf(v), v * s, v); }, name);
}

// --- unary -----------------------------------------------------------------------------------

Tensor relu(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return tir::max(v, zeroOf(v)); }, name);
}
Tensor sigmoid(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Sigmoid, v); }, name);
}
Tensor tanh(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Tanh, v); }, name);
}
Tensor exp(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Exp, v); }, name);
}
Tensor log(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Log, v); }, name);
}
Tensor sqrt(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Sqrt, v); }, name);
}
Tensor erf(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Erf, v); }, name);
}
Tensor sin(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Sin, v); }, name);
}
Tensor cos(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Cos, v); }, name);
}
Tensor floor(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Floor, v); }, name);
}
Tensor ceil(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Ceil, v); }, name);
}
Tensor round(const Tensor& x, const std::string& name) {
    // ONNX's Round: halves to even.
    return unary(x, [](Expr v) { return call1(Intrinsic::RoundEven, v); }, name);
}
Tensor negative(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return zeroOf(v) - v; }, name);
}
Tensor abs(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return v.type().isUInt() ? v : call1(Intrinsic::Abs, v); }, name);
}
Tensor reciprocal(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return makeConst(v.type(), 1.0) / v; }, name);
}
Tensor sign(const Tensor& x, const std::string& name) {
    return unary(
        x,
        [](Expr v) {
            Expr one = constant(v.type(), 1), z = zeroOf(v);
            return select(v > z, one, select(v < z, z - one, z));
        },
        name);
}
Tensor softplus(const Tensor& x, const std::string& name) {
    return unary(
        x, [](Expr v) { return call1(Intrinsic::Log, call1(Intrinsic::Exp, v) + makeConst(v.type(), 1.0)); },
        name);
}
Tensor leakyRelu(const Tensor& x, double alpha, const std::string& name) {
    return unary(
        x,
        [alpha](Expr v) {
            Expr a = makeConst(v.type(), alpha);
            return select(v < zeroOf(v), v * a, v);
        },
        name);
}
Tensor elu(const Tensor& x, double alpha, const std::string& name) {
    return unary(
        x,
        [alpha](Expr v) {
            Expr a = makeConst(v.type(), alpha);
            return select(v < zeroOf(v), a * (call1(Intrinsic::Exp, v) - makeConst(v.type(), 1.0)), v);
        },
        name);
}
Tensor selu(const Tensor& x, double alpha, double gamma, const std::string& name) {
    return unary(
        x,
        [alpha, gamma](Expr v) {
            Expr a = makeConst(v.type(), alpha);
            Expr g = makeConst(v.type(), gamma);
            return select(v > zeroOf(v), g * v, g * (a * call1(Intrinsic::Exp, v) - a));
        },
        name);
}
Tensor hardSigmoid(const Tensor& x, double alpha, double beta, const std::string& name) {
    return unary(
        x,
        [alpha, beta](Expr v) {
            Expr a = makeConst(v.type(), alpha);
            Expr b = makeConst(v.type(), beta);
            return tir::max(zeroOf(v), tir::min(makeConst(v.type(), 1.0), a * v + b));
        },
        name);
}
Tensor hardSwish(const Tensor& x, const std::string& name) {
    return unary(
        x,
        [](Expr v) {
            Expr t = v * makeConst(v.type(), 1.0 / 6.0) + makeConst(v.type(), 0.5);
            return v * tir::max(zeroOf(v), tir::min(makeConst(v.type(), 1.0), t));
        },
        name);
}
Tensor celu(const Tensor& x, double alpha, const std::string& name) {
    return unary(
        x,
        [alpha](Expr v) {
            Expr a = makeConst(v.type(), alpha);
            Expr neg = a * (call1(Intrinsic::Exp, v / a) - makeConst(v.type(), 1.0));
            return tir::max(zeroOf(v), v) + tir::min(zeroOf(v), neg);
        },
        name);
}
Tensor thresholdedRelu(const Tensor& x, double alpha, const std::string& name) {
    return unary(x, [alpha](Expr v) { return select(v > makeConst(v.type(), alpha), v, zeroOf(v)); }, name);
}
Tensor shrink(const Tensor& x, double bias, double lambd, const std::string& name) {
    return unary(
        x,
        [bias, lambd](Expr v) {
            // Compared and shifted in double, as ONNX's attributes are floats
            // whatever the tensor's type.
            DataType t = v.type();
            Expr d = t.isFloat() ? v : tir::cast(DataType::float64(), v);
            DataType dt = d.type();
            Expr l = makeConst(dt, lambd), b = makeConst(dt, bias);
            Expr r = select(d < zeroOf(d) - l, d + b, select(d > l, d - b, zeroOf(d)));
            return t.isFloat() ? r : tir::cast(t, r);
        },
        name);
}
Tensor softsign(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return v / (makeConst(v.type(), 1.0) + call1(Intrinsic::Abs, v)); }, name);
}

namespace {

/// atan(v) by Cephes' atanf: the argument reduced to |v| <= tan(pi/8), then a
/// polynomial (about 1e-7 relative error, float's precision).
Expr atanOf(Expr v) {
    DataType t = v.type();
    auto c = [&](double d) { return makeConst(t, d); };
    Expr a = call1(Intrinsic::Abs, v);
    Expr big = a > c(2.414213562373095), mid = a > c(0.4142135623730950);
    Expr r = select(big, zeroOf(v) - c(1.0) / a, select(mid, (a - c(1.0)) / (a + c(1.0)), a));
    Expr base = select(big, c(M_PI / 2), select(mid, c(M_PI / 4), zeroOf(v)));
    Expr z = r * r;
    Expr p = (((c(8.05374449538e-2) * z - c(1.38776856032e-1)) * z + c(1.99777106478e-1)) * z -
              c(3.33329491539e-1)) * z * r + r;
    Expr y = base + p;
    return select(v < zeroOf(v), zeroOf(v) - y, y);
}

} // namespace

Tensor tan(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return call1(Intrinsic::Sin, v) / call1(Intrinsic::Cos, v); }, name);
}
Tensor atan(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return atanOf(v); }, name);
}
Tensor asin(const Tensor& x, const std::string& name) {
    // asin(v) = atan(v / sqrt(1 - v^2)); at |v| = 1 the quotient is infinite and atan gives pi/2.
    return unary(
        x, [](Expr v) { return atanOf(v / call1(Intrinsic::Sqrt, makeConst(v.type(), 1.0) - v * v)); }, name);
}
Tensor acos(const Tensor& x, const std::string& name) {
    // acos(v) = 2 atan(sqrt((1 - v) / (1 + v))): accurate near v = 1, where pi/2 - asin(v) cancels.
    return unary(
        x,
        [](Expr v) {
            Expr one = makeConst(v.type(), 1.0);
            return makeConst(v.type(), 2.0) * atanOf(call1(Intrinsic::Sqrt, (one - v) / (one + v)));
        },
        name);
}
Tensor sinh(const Tensor& x, const std::string& name) {
    return unary(
        x,
        [](Expr v) {
            return (call1(Intrinsic::Exp, v) - call1(Intrinsic::Exp, zeroOf(v) - v)) * makeConst(v.type(), 0.5);
        },
        name);
}
Tensor cosh(const Tensor& x, const std::string& name) {
    return unary(
        x,
        [](Expr v) {
            return (call1(Intrinsic::Exp, v) + call1(Intrinsic::Exp, zeroOf(v) - v)) * makeConst(v.type(), 0.5);
        },
        name);
}
Tensor asinh(const Tensor& x, const std::string& name) {
    // log(|v| + sqrt(v^2 + 1)) with v's sign: no cancellation for negative v.
    return unary(
        x,
        [](Expr v) {
            Expr a = call1(Intrinsic::Abs, v);
            Expr r = call1(Intrinsic::Log, a + call1(Intrinsic::Sqrt, a * a + makeConst(v.type(), 1.0)));
            return select(v < zeroOf(v), zeroOf(v) - r, r);
        },
        name);
}
Tensor acosh(const Tensor& x, const std::string& name) {
    return unary(
        x,
        [](Expr v) {
            return call1(Intrinsic::Log, v + call1(Intrinsic::Sqrt, v * v - makeConst(v.type(), 1.0)));
        },
        name);
}
Tensor atanh(const Tensor& x, const std::string& name) {
    return unary(
        x,
        [](Expr v) {
            Expr one = makeConst(v.type(), 1.0);
            return makeConst(v.type(), 0.5) * call1(Intrinsic::Log, (one + v) / (one - v));
        },
        name);
}
Tensor isNan(const Tensor& x, const std::string& name) {
    // Only NaN differs from itself (the codegen sets no no-NaNs flag).
    return unary(x, [](Expr v) { return v != v; }, name);
}
Tensor isInf(const Tensor& x, bool negative, bool positive, const std::string& name) {
    return unary(
        x,
        [negative, positive](Expr v) {
            Expr inf = makeConst(v.type(), std::numeric_limits<double>::infinity());
            Expr pos = v == inf, neg = v == zeroOf(v) - inf;
            if (negative && positive) return pos || neg;
            if (positive) return pos;
            if (negative) return neg;
            return v != v && v == v; // false, of the right shape
        },
        name);
}
Tensor mod(const Tensor& a, const Tensor& b, bool fmod, const std::string& name) {
    return binary(
        a, b,
        [fmod](Expr x, Expr y) {
            if (x.type().isFloat()) // C's fmod: the dividend's sign
                return x - call1(Intrinsic::Trunc, x / y) * y;
            // A zero divisor gives 0 instead of a trap (ONNX leaves it undefined).
            Expr zero = zeroOf(y);
            Expr safe = select(y == zero, makeConst(y.type(), int64_t(1)), y);
            Expr m = fmod || x.type().isUInt() ? truncmod(x, safe) : floormod(x, safe);
            return select(y == zero, zeroOf(x), m);
        },
        name);
}
Tensor bitShift(const Tensor& a, const Tensor& b, bool left, const std::string& name) {
    return binary(
        a, b,
        [left](Expr x, Expr y) {
            // No shift in TIR: x * 2^y or x / 2^y in the unsigned type, which
            // wraps and truncates as a shift does; shifts of the type's width
            // or more give 0.
            DataType t = x.type();
            const int64_t bits = t.bits();
            Expr inRange = y < makeConst(y.type(), bits);
            Expr p = tir::cast(t, call(Intrinsic::Pow, {makeConst(DataType::float64(), 2.0),
                                                        tir::cast(DataType::float64(), tir::min(y, makeConst(y.type(), bits - 1)))}));
            Expr r = left ? x * p : truncdiv(x, p);
            return select(inRange, r, zeroOf(x));
        },
        name);
}
Tensor logicalNot(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return !v; }, name);
}
Tensor identity(const Tensor& x, const std::string& name) {
    return unary(x, [](Expr v) { return v; }, name);
}
Tensor cast(const Tensor& x, DataType dtype, const std::string& name) {
    return unary(
        x,
        [dtype](Expr v) {
            if (dtype.isBool()) return v != zeroOf(v);
            return tir::cast(dtype, v);
        },
        name);
}

Tensor clip(const Tensor& x, const Tensor& lo, const Tensor& hi, const std::string& name) {
    return te::compute(
        toExprs(staticShape(x)),
        [&](const std::vector<Var>& i) {
            Expr v = x(exprs(i));
            if (lo.defined()) v = tir::max(v, broadcastRead(lo, i));
            if (hi.defined()) v = tir::min(v, broadcastRead(hi, i));
            return v;
        },
        name, tag::kElemWise);
}

Tensor clip(const Tensor& x, double lo, double hi, const std::string& name) {
    return clip(x, literalTensor({}, constant(x->dtype, lo), name + "_min"),
                literalTensor({}, constant(x->dtype, hi), name + "_max"), name);
}

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b, const std::string& name) {
    return te::compute(
        toExprs(broadcastAll({cond, a, b})),
        [&](const std::vector<Var>& i) {
            return select(broadcastRead(cond, i), broadcastRead(a, i), broadcastRead(b, i));
        },
        name, tag::kBroadcast);
}

// --- variadic ----------------------------------------------------------------------------------

Tensor maximum(const std::vector<Tensor>& inputs, const std::string& name) {
    return variadic(inputs, [](Expr a, Expr b) { return tir::max(a, b); }, false, name);
}
Tensor minimum(const std::vector<Tensor>& inputs, const std::string& name) {
    return variadic(inputs, [](Expr a, Expr b) { return tir::min(a, b); }, false, name);
}
Tensor elemwiseSum(const std::vector<Tensor>& inputs, const std::string& name) {
    return variadic(inputs, [](Expr a, Expr b) { return a + b; }, false, name);
}
Tensor elemwiseMean(const std::vector<Tensor>& inputs, const std::string& name) {
    return variadic(inputs, [](Expr a, Expr b) { return a + b; }, true, name);
}

} // namespace tessel::topi
