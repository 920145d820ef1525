// Strategies of the element-wise and broadcast operators: arithmetic,
// activations, comparisons, logic, Cast, Where, and inference-mode
// BatchNormalization / Dropout.
#include "lower/Strategy.h"

#include "topi/Elementwise.h"
#include "topi/Nn.h"
#include "topi/TopiUtil.h"

namespace tessel::lower {

namespace {

using te::Tensor;
using Tensors = std::vector<Tensor>;
using UnaryFn = Tensor (*)(const Tensor&, const std::string&);
using BinaryFn = Tensor (*)(const Tensor&, const Tensor&, const std::string&);
using VariadicFn = Tensor (*)(const std::vector<Tensor>&, const std::string&);

OpStrategy unaryOp(std::string op, const char* compute, UnaryFn f) {
    return {std::move(op), compute, [f](const OpContext& c) { return Tensors{f(c.input(0), c.name())}; }};
}

OpStrategy binaryOp(std::string op, const char* compute, BinaryFn f) {
    return {std::move(op), compute,
            [f](const OpContext& c) { return Tensors{f(c.input(0), c.input(1), c.name())}; }};
}

OpStrategy variadicOp(std::string op, const char* compute, VariadicFn f) {
    return {std::move(op), compute, [f](const OpContext& c) {
                std::vector<Tensor> ins;
                for (int i = 0; i < c.numInputs(); ++i)
                    if (c.hasInput(i)) ins.push_back(c.input(i));
                return Tensors{f(ins, c.name())};
            }};
}

double attrFloat(const OpContext& c, const char* name, double fallback) {
    return c.attrs().getFloat(name, fallback);
}

Tensors clip(const OpContext& ctx) {
    // Opset 6 keeps min and max as attributes; opset 11 moved them to
    // (optional, scalar) inputs, which may be constants or computed tensors.
    const DataType t = ctx.outputType().dtype;
    auto bound = [&](int input, const char* attr) -> Tensor {
        if (ctx.hasInput(input)) return ctx.input(input);
        if (!ctx.attrs().has(attr)) return {};
        return topi::literalTensor({}, topi::constant(t, ctx.attrs().getFloat(attr, 0)),
                                   ctx.name() + "_" + attr);
    };
    return {topi::clip(ctx.input(0), bound(1, "min"), bound(2, "max"), ctx.name())};
}

Tensors identity(const OpContext& ctx) {
    // Dropout (opset 12+) takes training_mode as input 2; Tessel compiles inference only.
    if (ctx.node().op == "Dropout" && ctx.hasInput(2)) {
        auto c = ctx.constant(2);
        if (!c || c->toInts().at(0) != 0) ctx.fail("training mode is not supported (Tessel compiles inference only)");
    }
    Tensors out{topi::identity(ctx.input(0), ctx.name())};
    if (ctx.numOutputs() > 1) // Dropout's mask in inference: every element kept
        out.push_back(topi::literalTensor(ctx.outputType(1).shape, tir::makeConst(DataType::boolean(), int64_t(1)),
                                          ctx.name() + "_mask"));
    return out;
}

Tensors batchNorm(const OpContext& ctx) {
    if (ctx.attrs().getInt("training_mode", 0) != 0)
        ctx.fail("training mode is not supported (Tessel compiles inference only)");
    Tensors out{topi::nn::batchNorm(ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3), ctx.input(4),
                                    ctx.attrs().getFloat("epsilon", 1e-5), ctx.name())};
    // Training-only outputs (running mean/var) are not computed in inference.
    for (int k = 1; k < ctx.numOutputs(); ++k)
        out.push_back(Tensor());
    return out;
}

} // namespace

void addElementwiseStrategies(std::vector<OpStrategy>& s) {
    s.push_back(binaryOp("Add", "topi::add", topi::add));
    s.push_back(binaryOp("Sub", "topi::subtract", topi::subtract));
    s.push_back(binaryOp("Mul", "topi::multiply", topi::multiply));
    s.push_back(binaryOp("Div", "topi::divide", topi::divide));
    s.push_back(binaryOp("Pow", "topi::power", topi::power));
    s.push_back(variadicOp("Max", "topi::maximum", topi::maximum));
    s.push_back(variadicOp("Min", "topi::minimum", topi::minimum));
    s.push_back(variadicOp("Sum", "topi::elemwiseSum", topi::elemwiseSum));
    s.push_back(variadicOp("Mean", "topi::elemwiseMean", topi::elemwiseMean));

    s.push_back(unaryOp("Relu", "topi::relu", topi::relu));
    s.push_back(unaryOp("Sigmoid", "topi::sigmoid", topi::sigmoid));
    s.push_back(unaryOp("Tanh", "topi::tanh", topi::tanh));
    s.push_back(unaryOp("Exp", "topi::exp", topi::exp));
    s.push_back(unaryOp("Log", "topi::log", topi::log));
    s.push_back(unaryOp("Sqrt", "topi::sqrt", topi::sqrt));
    s.push_back(unaryOp("Erf", "topi::erf", topi::erf));
    s.push_back(unaryOp("Sin", "topi::sin", topi::sin));
    s.push_back(unaryOp("Cos", "topi::cos", topi::cos));
    s.push_back(unaryOp("Floor", "topi::floor", topi::floor));
    s.push_back(unaryOp("Ceil", "topi::ceil", topi::ceil));
    s.push_back(unaryOp("Round", "topi::round", topi::round));
    s.push_back(unaryOp("Neg", "topi::negative", topi::negative));
    s.push_back(unaryOp("Abs", "topi::abs", topi::abs));
    s.push_back(unaryOp("Reciprocal", "topi::reciprocal", topi::reciprocal));
    s.push_back(unaryOp("Sign", "topi::sign", topi::sign));
    s.push_back(unaryOp("Softplus", "topi::softplus", topi::softplus));
    s.push_back({"LeakyRelu", "topi::leakyRelu", [](const OpContext& c) {
                     return Tensors{topi::leakyRelu(c.input(0), attrFloat(c, "alpha", 0.01), c.name())};
                 }});
    s.push_back({"Elu", "topi::elu", [](const OpContext& c) {
                     return Tensors{topi::elu(c.input(0), attrFloat(c, "alpha", 1.0), c.name())};
                 }});
    s.push_back({"Selu", "topi::selu", [](const OpContext& c) {
                     return Tensors{topi::selu(c.input(0), attrFloat(c, "alpha", 1.67326319217681884765625),
                                               attrFloat(c, "gamma", 1.05070102214813232421875), c.name())};
                 }});
    s.push_back({"HardSigmoid", "topi::hardSigmoid", [](const OpContext& c) {
                     return Tensors{topi::hardSigmoid(c.input(0), attrFloat(c, "alpha", 0.2),
                                                      attrFloat(c, "beta", 0.5), c.name())};
                 }});
    s.push_back(unaryOp("HardSwish", "topi::hardSwish", topi::hardSwish));
    s.push_back(binaryOp("PRelu", "topi::prelu", topi::prelu));
    s.push_back({"Celu", "topi::celu", [](const OpContext& c) {
                     return Tensors{topi::celu(c.input(0), attrFloat(c, "alpha", 1.0), c.name())};
                 }});
    s.push_back({"ThresholdedRelu", "topi::thresholdedRelu", [](const OpContext& c) {
                     return Tensors{topi::thresholdedRelu(c.input(0), attrFloat(c, "alpha", 1.0), c.name())};
                 }});
    s.push_back({"Shrink", "topi::shrink", [](const OpContext& c) {
                     return Tensors{topi::shrink(c.input(0), attrFloat(c, "bias", 0.0), attrFloat(c, "lambd", 0.5),
                                                 c.name())};
                 }});
    s.push_back(unaryOp("Softsign", "topi::softsign", topi::softsign));
    s.push_back(unaryOp("Tan", "topi::tan", topi::tan));
    s.push_back(unaryOp("Asin", "topi::asin", topi::asin));
    s.push_back(unaryOp("Acos", "topi::acos", topi::acos));
    s.push_back(unaryOp("Atan", "topi::atan", topi::atan));
    s.push_back(unaryOp("Sinh", "topi::sinh", topi::sinh));
    s.push_back(unaryOp("Cosh", "topi::cosh", topi::cosh));
    s.push_back(unaryOp("Asinh", "topi::asinh", topi::asinh));
    s.push_back(unaryOp("Acosh", "topi::acosh", topi::acosh));
    s.push_back(unaryOp("Atanh", "topi::atanh", topi::atanh));
    s.push_back(unaryOp("IsNaN", "topi::isNan", topi::isNan));
    s.push_back({"IsInf", "topi::isInf", [](const OpContext& c) {
                     return Tensors{topi::isInf(c.input(0), c.attrs().getInt("detect_negative", 1) != 0,
                                                c.attrs().getInt("detect_positive", 1) != 0, c.name())};
                 }});
    s.push_back({"Mod", "topi::mod", [](const OpContext& c) {
                     return Tensors{topi::mod(c.input(0), c.input(1), c.attrs().getInt("fmod", 0) != 0, c.name())};
                 }});
    s.push_back({"BitShift", "topi::bitShift", [](const OpContext& c) {
                     return Tensors{topi::bitShift(c.input(0), c.input(1),
                                                   c.attrs().getString("direction", "") == "LEFT", c.name())};
                 }});
    s.push_back({"CastLike", "topi::cast", [](const OpContext& c) {
                     return Tensors{topi::cast(c.input(0), c.outputType().dtype, c.name())};
                 }});
    s.push_back({"Clip", "topi::clip", clip});
    s.push_back({"Cast", "topi::cast", [](const OpContext& c) {
                     return Tensors{topi::cast(c.input(0), c.outputType().dtype, c.name())};
                 }});
    s.push_back({"Identity", "topi::identity", identity});
    s.push_back({"Dropout", "topi::identity", identity});
    s.push_back({"BatchNormalization", "topi::nn::batchNorm", batchNorm});
    s.push_back({"Where", "topi::where", [](const OpContext& c) {
                     return Tensors{topi::where(c.input(0), c.input(1), c.input(2), c.name())};
                 }});

    s.push_back(binaryOp("Equal", "topi::equal", topi::equal));
    s.push_back(binaryOp("Less", "topi::less", topi::less));
    s.push_back(binaryOp("Greater", "topi::greater", topi::greater));
    s.push_back(binaryOp("LessOrEqual", "topi::lessEqual", topi::lessEqual));
    s.push_back(binaryOp("GreaterOrEqual", "topi::greaterEqual", topi::greaterEqual));
    s.push_back(binaryOp("And", "topi::logicalAnd", topi::logicalAnd));
    s.push_back(binaryOp("Or", "topi::logicalOr", topi::logicalOr));
    s.push_back(binaryOp("Xor", "topi::logicalXor", topi::logicalXor));
    s.push_back(unaryOp("Not", "topi::logicalNot", topi::logicalNot));
    // Element by element on the stored shapes: these computes take any layout
    // the graph gave (alter-layout stores every operand alike), except the
    // batch norm, which reads its parameters per logical channel.
    for (auto& r : s)
        if (r.op != "BatchNormalization") r.layouts = true;
}

} // namespace tessel::lower
