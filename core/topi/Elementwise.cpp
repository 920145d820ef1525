#include "topi/Elementwise.h"

#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

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
    // floor(x + 0.5) rounds halves up, so an odd result at an exact half steps back by one.
    return unary(
        x,
        [](Expr v) {
            DataType t = v.type();
            Expr f = call1(Intrinsic::Floor, v + makeConst(t, 0.5));
            Expr isHalf = f - v == makeConst(t, 0.5);
            Expr odd = f - makeConst(t, 2.0) * call1(Intrinsic::Floor, f * makeConst(t, 0.5)) != zeroOf(v);
            return select(isHalf && odd, f - makeConst(t, 1.0), f);
        },
        name);
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
