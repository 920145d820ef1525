// Element-wise and broadcast operators: arithmetic, activations, comparisons,
// logic, Cast, Where, and inference-mode BatchNormalization / Dropout.
#include "topi/TopiUtil.h"

#include <cmath>

namespace tessel::topi {

using namespace tir;

namespace {

Expr call1(Intrinsic op, Expr x) { return call(op, {std::move(x)}); }

/// x as a float of x's type, or float32 for integers (for libm-style math).
Expr zeroOf(const Expr& x) { return makeZero(x.type()); }

/// Folds a variadic broadcast operator (Sum, Max, Min, Mean) over its inputs.
Tensor variadic(const OpContext& ctx, const std::function<Expr(Expr, Expr)>& f, bool mean) {
    std::vector<Tensor> ins;
    for (int i = 0; i < ctx.numInputs(); ++i)
        if (ctx.hasInput(i)) ins.push_back(ctx.input(i));
    if (ins.empty()) ctx.fail("needs at least one input");
    DataType outType = ctx.outputType().dtype;
    return te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr acc = broadcastRead(ins[0], i);
            for (size_t k = 1; k < ins.size(); ++k) acc = f(acc, broadcastRead(ins[k], i));
            if (mean) acc = acc / constant(acc.type(), double(ins.size()));
            return acc.type() == outType ? acc : cast(outType, acc);
        },
        ctx.name(), ins.size() == 1 ? tag::kElemWise : tag::kBroadcast);
}

TopiOp unaryOp(std::string name, std::function<Expr(const OpContext&, Expr)> f) {
    return {std::move(name), [f](const OpContext& ctx) {
                return std::vector<Tensor>{unary(ctx, [&](Expr x) { return f(ctx, x); })};
            }};
}

TopiOp binaryOp(std::string name, std::function<Expr(Expr, Expr)> f) {
    return {std::move(name), [f](const OpContext& ctx) {
                return std::vector<Tensor>{binary(ctx, ctx.input(0), ctx.input(1), f)};
            }};
}

Expr divide(Expr a, Expr b) {
    // ONNX's integer Div truncates toward zero, as C does.
    if (a.type().isIntOrUInt()) return truncdiv(a, b);
    return a / b;
}

Expr power(Expr a, Expr b) {
    DataType t = a.type();
    if (t.isFloat()) return call(Intrinsic::Pow, {a, b.type() == t ? b : cast(t, b)});
    // Integer bases: compute in double and convert back (exact for the small
    // results ONNX tests use).
    Expr r = call(Intrinsic::Pow, {cast(DataType::float64(), a), cast(DataType::float64(), b)});
    return cast(t, r);
}

std::vector<Tensor> clip(const OpContext& ctx) {
    // Opset 6 keeps min and max as attributes; opset 11 moved them to
    // (optional, scalar) inputs, which may be constants or computed tensors.
    DataType t = ctx.outputType().dtype;
    auto bound = [&](int input, const char* attr) -> std::optional<Tensor> {
        if (ctx.hasInput(input)) return ctx.input(input);
        if (!ctx.attrs().has(attr)) return std::nullopt;
        double v = ctx.attrs().getFloat(attr, 0);
        return te::compute({}, [&](const std::vector<Var>&) { return constant(t, v); },
                           ctx.name() + "_" + attr, tag::kElemWise);
    };
    auto lo = bound(1, "min"), hi = bound(2, "max");
    Tensor x = ctx.input(0);
    return {te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr v = x(std::vector<Expr>(i.begin(), i.end()));
            if (lo) v = tir::max(v, broadcastRead(*lo, i));
            if (hi) v = tir::min(v, broadcastRead(*hi, i));
            return v;
        },
        ctx.name(), tag::kElemWise)};
}

std::vector<Tensor> castOp(const OpContext& ctx) {
    DataType to = ctx.outputType().dtype;
    return {unary(ctx, [&](Expr x) {
        if (to.isBool()) return x != zeroOf(x);
        return cast(to, x);
    })};
}

std::vector<Tensor> where(const OpContext& ctx) {
    Tensor c = ctx.input(0), a = ctx.input(1), b = ctx.input(2);
    return {te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            return select(broadcastRead(c, i), broadcastRead(a, i), broadcastRead(b, i));
        },
        ctx.name(), tag::kBroadcast)};
}

std::vector<Tensor> identity(const OpContext& ctx) {
    // Dropout (opset 12+) takes training_mode as input 2; Tessel compiles inference only.
    if (ctx.node().op == "Dropout" && ctx.hasInput(2)) {
        auto c = ctx.constant(2);
        if (!c || c->toInts().at(0) != 0) ctx.fail("training mode is not supported (Tessel compiles inference only)");
    }
    std::vector<Tensor> out{unary(ctx, [](Expr x) { return x; })};
    if (ctx.node().numOutputs() > 1) {
        // Dropout's mask in inference: every element kept.
        out.push_back(te::compute(
            ctx.outputShape(1), [](const std::vector<Var>&) { return makeConst(DataType::boolean(), int64_t(1)); },
            ctx.name() + "_mask", tag::kElemWise));
    }
    return out;
}

std::vector<Tensor> batchNorm(const OpContext& ctx) {
    // Inference form: y = (x - mean) / sqrt(var + eps) * scale + bias, per channel (axis 1).
    Tensor x = ctx.input(0), scale = ctx.input(1), bias = ctx.input(2), mean = ctx.input(3),
           var = ctx.input(4);
    double eps = ctx.attrs().getFloat("epsilon", 1e-5);
    if (ctx.attrs().getInt("training_mode", 0) != 0)
        ctx.fail("training mode is not supported (Tessel compiles inference only)");
    std::vector<Tensor> out{te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr c = i.size() > 1 ? Expr(i[1]) : intImm(0);
            Expr v = x(std::vector<Expr>(i.begin(), i.end()));
            DataType t = v.type();
            Expr inv = makeConst(t, 1.0) / call1(Intrinsic::Sqrt, var({c}) + makeConst(t, eps));
            return (v - mean({c})) * inv * scale({c}) + bias({c});
        },
        ctx.name(), tag::kBroadcast)};
    // Training-only outputs (running mean/var) are not computed in inference.
    for (int k = 1; k < ctx.node().numOutputs(); ++k) out.push_back(Tensor());
    return out;
}

std::vector<Tensor> prelu(const OpContext& ctx) {
    return {binary(ctx, ctx.input(0), ctx.input(1), [](Expr x, Expr s) {
        return select(x < zeroOf(x), x * s, x);
    })};
}

} // namespace

void addElementwiseOps(std::vector<TopiOp>& ops) {
    ops.push_back(binaryOp("Add", [](Expr a, Expr b) { return a + b; }));
    ops.push_back(binaryOp("Sub", [](Expr a, Expr b) { return a - b; }));
    ops.push_back(binaryOp("Mul", [](Expr a, Expr b) { return a * b; }));
    ops.push_back(binaryOp("Div", divide));
    ops.push_back(binaryOp("Pow", power));
    ops.push_back({"Max", [](const OpContext& c) {
                       return std::vector<Tensor>{variadic(c, [](Expr a, Expr b) { return tir::max(a, b); }, false)};
                   }});
    ops.push_back({"Min", [](const OpContext& c) {
                       return std::vector<Tensor>{variadic(c, [](Expr a, Expr b) { return tir::min(a, b); }, false)};
                   }});
    ops.push_back({"Sum", [](const OpContext& c) {
                       return std::vector<Tensor>{variadic(c, [](Expr a, Expr b) { return a + b; }, false)};
                   }});
    ops.push_back({"Mean", [](const OpContext& c) {
                       return std::vector<Tensor>{variadic(c, [](Expr a, Expr b) { return a + b; }, true)};
                   }});

    ops.push_back(unaryOp("Relu", [](const OpContext&, Expr x) { return tir::max(x, zeroOf(x)); }));
    ops.push_back(unaryOp("Sigmoid", [](const OpContext&, Expr x) { return call1(Intrinsic::Sigmoid, x); }));
    ops.push_back(unaryOp("Tanh", [](const OpContext&, Expr x) { return call1(Intrinsic::Tanh, x); }));
    ops.push_back(unaryOp("Exp", [](const OpContext&, Expr x) { return call1(Intrinsic::Exp, x); }));
    ops.push_back(unaryOp("Log", [](const OpContext&, Expr x) { return call1(Intrinsic::Log, x); }));
    ops.push_back(unaryOp("Sqrt", [](const OpContext&, Expr x) { return call1(Intrinsic::Sqrt, x); }));
    ops.push_back(unaryOp("Erf", [](const OpContext&, Expr x) { return call1(Intrinsic::Erf, x); }));
    ops.push_back(unaryOp("Sin", [](const OpContext&, Expr x) { return call1(Intrinsic::Sin, x); }));
    ops.push_back(unaryOp("Cos", [](const OpContext&, Expr x) { return call1(Intrinsic::Cos, x); }));
    ops.push_back(unaryOp("Floor", [](const OpContext&, Expr x) { return call1(Intrinsic::Floor, x); }));
    ops.push_back(unaryOp("Ceil", [](const OpContext&, Expr x) { return call1(Intrinsic::Ceil, x); }));
    // ONNX rounds halves to even (numpy.round); floor(x + 0.5) rounds them up,
    // so an odd result at an exact half steps back by one.
    ops.push_back(unaryOp("Round", [](const OpContext&, Expr x) {
        DataType t = x.type();
        Expr f = call1(Intrinsic::Floor, x + makeConst(t, 0.5));
        Expr isHalf = f - x == makeConst(t, 0.5);
        Expr odd = f - makeConst(t, 2.0) * call1(Intrinsic::Floor, f * makeConst(t, 0.5)) != zeroOf(x);
        return select(isHalf && odd, f - makeConst(t, 1.0), f);
    }));
    ops.push_back(unaryOp("Neg", [](const OpContext&, Expr x) { return zeroOf(x) - x; }));
    ops.push_back(unaryOp("Abs", [](const OpContext&, Expr x) {
        return x.type().isUInt() ? x : call1(Intrinsic::Abs, x);
    }));
    ops.push_back(unaryOp("Reciprocal", [](const OpContext&, Expr x) { return makeConst(x.type(), 1.0) / x; }));
    ops.push_back(unaryOp("Sign", [](const OpContext&, Expr x) {
        Expr one = constant(x.type(), 1), z = zeroOf(x);
        return select(x > z, one, select(x < z, z - one, z));
    }));
    ops.push_back(unaryOp("Softplus", [](const OpContext&, Expr x) {
        return call1(Intrinsic::Log, call1(Intrinsic::Exp, x) + makeConst(x.type(), 1.0));
    }));
    ops.push_back(unaryOp("LeakyRelu", [](const OpContext& c, Expr x) {
        Expr a = makeConst(x.type(), c.attrs().getFloat("alpha", 0.01));
        return select(x < zeroOf(x), x * a, x);
    }));
    ops.push_back(unaryOp("Elu", [](const OpContext& c, Expr x) {
        Expr a = makeConst(x.type(), c.attrs().getFloat("alpha", 1.0));
        return select(x < zeroOf(x), a * (call1(Intrinsic::Exp, x) - makeConst(x.type(), 1.0)), x);
    }));
    ops.push_back(unaryOp("Selu", [](const OpContext& c, Expr x) {
        Expr a = makeConst(x.type(), c.attrs().getFloat("alpha", 1.67326319217681884765625));
        Expr g = makeConst(x.type(), c.attrs().getFloat("gamma", 1.05070102214813232421875));
        return select(x > zeroOf(x), g * x, g * (a * call1(Intrinsic::Exp, x) - a));
    }));
    ops.push_back(unaryOp("HardSigmoid", [](const OpContext& c, Expr x) {
        Expr a = makeConst(x.type(), c.attrs().getFloat("alpha", 0.2));
        Expr b = makeConst(x.type(), c.attrs().getFloat("beta", 0.5));
        return tir::max(zeroOf(x), tir::min(makeConst(x.type(), 1.0), a * x + b));
    }));
    ops.push_back(unaryOp("HardSwish", [](const OpContext&, Expr x) {
        Expr t = x * makeConst(x.type(), 1.0 / 6.0) + makeConst(x.type(), 0.5);
        return x * tir::max(zeroOf(x), tir::min(makeConst(x.type(), 1.0), t));
    }));
    ops.push_back({"PRelu", prelu});
    ops.push_back({"Clip", clip});
    ops.push_back({"Cast", castOp});
    ops.push_back({"Identity", identity});
    ops.push_back({"Dropout", identity});
    ops.push_back({"BatchNormalization", batchNorm});
    ops.push_back({"Where", where});

    ops.push_back(binaryOp("Equal", [](Expr a, Expr b) { return a == b; }));
    ops.push_back(binaryOp("Less", [](Expr a, Expr b) { return a < b; }));
    ops.push_back(binaryOp("Greater", [](Expr a, Expr b) { return a > b; }));
    ops.push_back(binaryOp("LessOrEqual", [](Expr a, Expr b) { return a <= b; }));
    ops.push_back(binaryOp("GreaterOrEqual", [](Expr a, Expr b) { return a >= b; }));
    ops.push_back(binaryOp("And", [](Expr a, Expr b) { return a && b; }));
    ops.push_back(binaryOp("Or", [](Expr a, Expr b) { return a || b; }));
    ops.push_back(binaryOp("Xor", [](Expr a, Expr b) { return a != b; }));
    ops.push_back(unaryOp("Not", [](const OpContext&, Expr x) { return !x; }));
}

} // namespace tessel::topi
