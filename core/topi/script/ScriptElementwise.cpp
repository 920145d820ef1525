// topi's element-wise and broadcast computes (topi/Elementwise.h): the
// arithmetic and comparisons of topi (an operand may be a number), the unary
// functions, cast, clip, where, and the activations of topi.nn.
#include "topi/script/Bindings.h"

#include "topi/Elementwise.h"
#include "topi/TopiUtil.h"

#include <limits>

namespace tessel::topi::script {

using te::Tensor;
using ts::Value;

namespace {

std::string quoted(const char* s) {
    return std::string("\"") + s + "\"";
}

using BinaryFn = Tensor (*)(const Tensor&, const Tensor&, const std::string&);
using UnaryFn = Tensor (*)(const Tensor&, const std::string&);

/// The dtype both operands take: the tensors' (which must agree).
DataType operandType(Call& c, size_t a, size_t b) {
    auto ta = c.tensorDType(a), tb = c.tensorDType(b);
    if (!ta && !tb)
        c.failCall("needs a Tensor operand (" + c.param(a) + " and " + c.param(b) + " are not)");
    if (ta && tb && *ta != *tb)
        c.fail(b, "the operands' dtypes differ (" + ta->str() + " and " + tb->str() +
                      "); convert one with topi.cast");
    return ta ? *ta : *tb;
}

/// logical_and / or / xor / not take bool tensors.
void requireBool(const Call& c, size_t i, DataType t) {
    if (!t.isBool())
        c.fail(i, c.param(i) + " must be a bool tensor (such as topi.greater's), not " + t.str());
}

Body binary(BinaryFn f, std::string defaultName) {
    const bool logical = defaultName.starts_with("logical_");
    return [f, defaultName, logical](Call& c) {
        const DataType t = operandType(c, 0, 1);
        if (logical) requireBool(c, c.tensorDType(0) ? 0 : 1, t);
        Tensor a = c.operand(0, t), b = c.operand(1, t);
        return c.result(f(a, b, c.name(2, defaultName)));
    };
}

Body variadic(Tensor (*f)(const std::vector<Tensor>&, const std::string&),
              std::string defaultName) {
    return [f, defaultName](Call& c) {
        const DataType t = operandType(c, 0, 1);
        Tensor a = c.operand(0, t), b = c.operand(1, t);
        return c.result(f({a, b}, c.name(2, defaultName)));
    };
}

Body unary(UnaryFn f, std::string defaultName) {
    const bool logical = defaultName.starts_with("logical_");
    return [f, defaultName, logical](Call& c) {
        Tensor x = c.tensor(0);
        if (logical) requireBool(c, 0, x->dtype);
        return c.result(f(x, c.name(1, defaultName)));
    };
}

Value clip(Call& c) {
    Tensor x = c.tensor(0);
    const std::string name = c.name(3, "clip");
    const bool numbers =
        (!c.has(1) || c.args.value(1).isNumber()) && (!c.has(2) || c.args.value(2).isNumber());
    if (numbers) {
        const double lo = c.has(1) ? c.number(1) : -std::numeric_limits<double>::infinity();
        const double hi = c.has(2) ? c.number(2) : std::numeric_limits<double>::infinity();
        if (lo > hi)
            c.fail(2, "'a_max' (" + std::to_string(hi) + ") is below 'a_min' (" +
                          std::to_string(lo) + ")");
        return c.result(topi::clip(x, lo, hi, name));
    }
    Tensor lo = c.has(1) ? c.operand(1, x->dtype) : Tensor();
    Tensor hi = c.has(2) ? c.operand(2, x->dtype) : Tensor();
    if (lo.defined() && lo->dtype != x->dtype)
        c.fail(1, "'a_min' must have the dtype of 'x' (" + x->dtype.str() + ")");
    if (hi.defined() && hi->dtype != x->dtype)
        c.fail(2, "'a_max' must have the dtype of 'x' (" + x->dtype.str() + ")");
    return c.result(topi::clip(x, lo, hi, name));
}

Value where(Call& c) {
    Tensor cond = c.tensor(0);
    if (!cond->dtype.isBool())
        c.fail(0, "'condition' must be a bool tensor (such as topi.greater's), not " +
                      cond->dtype.str());
    const DataType t = operandType(c, 1, 2);
    Tensor a = c.operand(1, t), b = c.operand(2, t);
    return c.result(topi::where(cond, a, b, c.name(3, "where")));
}

Value elemwiseSum(Call& c) {
    auto xs = c.tensors(0);
    for (size_t i = 1; i < xs.size(); ++i)
        if (xs[i]->dtype != xs[0]->dtype)
            c.fail(0, "the tensors' dtypes differ (" + xs[0]->dtype.str() + " and " +
                          xs[i]->dtype.str() + ")");
    return c.result(topi::elemwiseSum(xs, c.name(1, "elemwise_sum")));
}

} // namespace

void addElementwiseBindings(std::vector<Binding>& out) {
    struct Bin {
        const char* name;
        BinaryFn f;
    };
    static const Bin kBinary[] = {
        {"add", topi::add},
        {"subtract", topi::subtract},
        {"multiply", topi::multiply},
        {"divide", topi::divide},
        {"power", topi::power},
        {"equal", topi::equal},
        {"less", topi::less},
        {"greater", topi::greater},
        {"less_equal", topi::lessEqual},
        {"greater_equal", topi::greaterEqual},
        {"logical_and", topi::logicalAnd},
        {"logical_or", topi::logicalOr},
        {"logical_xor", topi::logicalXor},
    };
    for (auto& b : kBinary)
        out.push_back({std::string("topi.") + b.name,
                       {{"lhs"}, {"rhs"}, {"name", quoted(b.name)}},
                       "element-wise with numpy broadcasting; an operand may be a number",
                       binary(b.f, b.name)});
    out.push_back({"topi.maximum",
                   {{"lhs"}, {"rhs"}, {"name", "\"maximum\""}},
                   "element-wise maximum with broadcasting",
                   variadic(topi::maximum, "maximum")});
    out.push_back({"topi.minimum",
                   {{"lhs"}, {"rhs"}, {"name", "\"minimum\""}},
                   "element-wise minimum with broadcasting",
                   variadic(topi::minimum, "minimum")});
    struct Un {
        const char* name;
        UnaryFn f;
    };
    static const Un kUnary[] = {
        {"exp", topi::exp},           {"log", topi::log},
        {"sqrt", topi::sqrt},         {"tanh", topi::tanh},
        {"sigmoid", topi::sigmoid},   {"erf", topi::erf},
        {"sin", topi::sin},           {"cos", topi::cos},
        {"floor", topi::floor},       {"ceil", topi::ceil},
        {"round", topi::round},       {"negative", topi::negative},
        {"abs", topi::abs},           {"reciprocal", topi::reciprocal},
        {"sign", topi::sign},         {"logical_not", topi::logicalNot},
        {"identity", topi::identity},
    };
    for (auto& u : kUnary)
        out.push_back({std::string("topi.") + u.name,
                       {{"x"}, {"name", quoted(u.name)}},
                       "element-wise",
                       unary(u.f, u.name)});
    out.push_back({"topi.cast",
                   {{"x"}, {"dtype"}, {"name", "\"cast\""}},
                   "x converted to dtype (\"float32\", \"int32\" ...)",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       return c.result(topi::cast(x, c.dtype(1), c.name(2, "cast")));
                   }});
    out.push_back({"topi.clip",
                   {{"x"}, {"a_min", "None"}, {"a_max", "None"}, {"name", "\"clip\""}},
                   "min(max(x, a_min), a_max); the bounds are numbers or tensors",
                   clip});
    out.push_back({"topi.where",
                   {{"condition"}, {"x"}, {"y"}, {"name", "\"where\""}},
                   "x where condition, else y, the three broadcast",
                   where});
    out.push_back({"topi.elemwise_sum",
                   {{"xs"}, {"name", "\"elemwise_sum\""}},
                   "the sum of a list of tensors, broadcast",
                   elemwiseSum});

    // Activations, in topi.nn as TVM has them.
    out.push_back(
        {"topi.nn.relu", {{"x"}, {"name", "\"relu\""}}, "max(x, 0)", unary(topi::relu, "relu")});
    out.push_back({"topi.nn.leaky_relu",
                   {{"x"}, {"alpha", "0.01"}, {"name", "\"leaky_relu\""}},
                   "x, or alpha * x below 0",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       return c.result(topi::leakyRelu(x, c.has(1) ? c.number(1) : 0.01,
                                                       c.name(2, "leaky_relu")));
                   }});
    out.push_back({"topi.nn.prelu",
                   {{"x"}, {"slope"}, {"name", "\"prelu\""}},
                   "x, or slope * x below 0 (slope broadcast against x)",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       Tensor slope = c.operand(1, x->dtype);
                       if (slope->dtype != x->dtype)
                           c.fail(1, "'slope' must have the dtype of 'x' (" + x->dtype.str() + ")");
                       return c.result(topi::prelu(x, slope, c.name(2, "prelu")));
                   }});
    out.push_back({"topi.nn.elu",
                   {{"x"}, {"alpha", "1.0"}, {"name", "\"elu\""}},
                   "x, or alpha * (exp(x) - 1) below 0",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       return c.result(
                           topi::elu(x, c.has(1) ? c.number(1) : 1.0, c.name(2, "elu")));
                   }});
    out.push_back({"topi.nn.selu",
                   {{"x"}, {"name", "\"selu\""}},
                   "ONNX's Selu",
                   unary(
                       [](const Tensor& x, const std::string& n) {
                           return topi::selu(x, 1.67326319217681884765625,
                                             1.05070102214813232421875, n);
                       },
                       "selu")});
    out.push_back({"topi.nn.softplus",
                   {{"x"}, {"name", "\"softplus\""}},
                   "log(exp(x) + 1)",
                   unary(topi::softplus, "softplus")});
    out.push_back({"topi.nn.hard_sigmoid",
                   {{"x"}, {"alpha", "0.2"}, {"beta", "0.5"}, {"name", "\"hard_sigmoid\""}},
                   "max(0, min(1, alpha * x + beta))",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       return c.result(topi::hardSigmoid(x, c.has(1) ? c.number(1) : 0.2,
                                                         c.has(2) ? c.number(2) : 0.5,
                                                         c.name(3, "hard_sigmoid")));
                   }});
    out.push_back({"topi.nn.hard_swish",
                   {{"x"}, {"name", "\"hard_swish\""}},
                   "x * hard_sigmoid(x, 1/6, 1/2)",
                   unary(topi::hardSwish, "hard_swish")});
}

} // namespace tessel::topi::script
