/// \file
/// Element-wise and broadcast computes (TVM's topi.add, topi.exp,
/// topi.nn.relu ...): arithmetic, activations, comparisons, logic, Cast,
/// Where, Clip, and the variadic Max/Min/Sum/Mean.
///
/// Unary computes keep the input's shape; binary and variadic ones broadcast
/// their operands with numpy's rules. The result's dtype is the expression's
/// (a comparison gives bool). Unary stages are tagged elemwise, broadcasting
/// ones broadcast; both are inlined into their consumers inside a fused
/// function. `name` names the stage (the model compiler passes the graph
/// node's name).
#pragma once

#include "te/Tensor.h"

#include <functional>
#include <string>
#include <vector>

namespace tessel::topi {

// --- builders --------------------------------------------------------------------------

/// out[i...] = f(x[i...]), tagged elemwise.
te::Tensor unary(const te::Tensor& x, const std::function<te::Expr(te::Expr)>& f,
                 const std::string& name);
/// out[i...] = f(a[bcast], b[bcast]), tagged broadcast.
te::Tensor binary(const te::Tensor& a, const te::Tensor& b,
                  const std::function<te::Expr(te::Expr, te::Expr)>& f, const std::string& name);

// --- binary, broadcasting ------------------------------------------------------------------

te::Tensor add(const te::Tensor& a, const te::Tensor& b, const std::string& name = "add");
te::Tensor subtract(const te::Tensor& a, const te::Tensor& b, const std::string& name = "subtract");
te::Tensor multiply(const te::Tensor& a, const te::Tensor& b, const std::string& name = "multiply");
/// Integer division truncates toward zero (ONNX, C); floats divide.
te::Tensor divide(const te::Tensor& a, const te::Tensor& b, const std::string& name = "divide");
/// a ** b in a's type (integer bases computed in double and converted back).
te::Tensor power(const te::Tensor& a, const te::Tensor& b, const std::string& name = "power");
te::Tensor equal(const te::Tensor& a, const te::Tensor& b, const std::string& name = "equal");
te::Tensor less(const te::Tensor& a, const te::Tensor& b, const std::string& name = "less");
te::Tensor greater(const te::Tensor& a, const te::Tensor& b, const std::string& name = "greater");
te::Tensor lessEqual(const te::Tensor& a, const te::Tensor& b, const std::string& name = "less_equal");
te::Tensor greaterEqual(const te::Tensor& a, const te::Tensor& b,
                        const std::string& name = "greater_equal");
te::Tensor logicalAnd(const te::Tensor& a, const te::Tensor& b, const std::string& name = "logical_and");
te::Tensor logicalOr(const te::Tensor& a, const te::Tensor& b, const std::string& name = "logical_or");
te::Tensor logicalXor(const te::Tensor& a, const te::Tensor& b, const std::string& name = "logical_xor");
/// x where x >= 0, x * slope elsewhere (slope broadcast against x).
te::Tensor prelu(const te::Tensor& x, const te::Tensor& slope, const std::string& name = "prelu");

// --- unary -----------------------------------------------------------------------------------

te::Tensor relu(const te::Tensor& x, const std::string& name = "relu");
te::Tensor sigmoid(const te::Tensor& x, const std::string& name = "sigmoid");
te::Tensor tanh(const te::Tensor& x, const std::string& name = "tanh");
te::Tensor exp(const te::Tensor& x, const std::string& name = "exp");
te::Tensor log(const te::Tensor& x, const std::string& name = "log");
te::Tensor sqrt(const te::Tensor& x, const std::string& name = "sqrt");
te::Tensor erf(const te::Tensor& x, const std::string& name = "erf");
te::Tensor sin(const te::Tensor& x, const std::string& name = "sin");
te::Tensor cos(const te::Tensor& x, const std::string& name = "cos");
te::Tensor floor(const te::Tensor& x, const std::string& name = "floor");
te::Tensor ceil(const te::Tensor& x, const std::string& name = "ceil");
/// Rounds halves to even (numpy.round, ONNX Round).
te::Tensor round(const te::Tensor& x, const std::string& name = "round");
te::Tensor negative(const te::Tensor& x, const std::string& name = "negative");
te::Tensor abs(const te::Tensor& x, const std::string& name = "abs");
te::Tensor reciprocal(const te::Tensor& x, const std::string& name = "reciprocal");
/// 1, 0 or -1 in x's type.
te::Tensor sign(const te::Tensor& x, const std::string& name = "sign");
/// log(exp(x) + 1).
te::Tensor softplus(const te::Tensor& x, const std::string& name = "softplus");
te::Tensor leakyRelu(const te::Tensor& x, double alpha = 0.01, const std::string& name = "leaky_relu");
/// alpha * (exp(x) - 1) for x < 0, x elsewhere.
te::Tensor elu(const te::Tensor& x, double alpha = 1.0, const std::string& name = "elu");
/// ONNX's Selu; the defaults are its constants.
te::Tensor selu(const te::Tensor& x, double alpha = 1.67326319217681884765625,
                double gamma = 1.05070102214813232421875, const std::string& name = "selu");
/// max(0, min(1, alpha * x + beta)).
te::Tensor hardSigmoid(const te::Tensor& x, double alpha = 0.2, double beta = 0.5,
                       const std::string& name = "hard_sigmoid");
/// x * max(0, min(1, x / 6 + 1 / 2)).
te::Tensor hardSwish(const te::Tensor& x, const std::string& name = "hard_swish");
/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
te::Tensor celu(const te::Tensor& x, double alpha = 1.0, const std::string& name = "celu");
/// x where x > alpha, 0 elsewhere.
te::Tensor thresholdedRelu(const te::Tensor& x, double alpha = 1.0, const std::string& name = "thresholded_relu");
/// x - bias where x > lambd, x + bias where x < -lambd, 0 elsewhere (integers through double).
te::Tensor shrink(const te::Tensor& x, double bias = 0.0, double lambd = 0.5, const std::string& name = "shrink");
/// x / (1 + |x|).
te::Tensor softsign(const te::Tensor& x, const std::string& name = "softsign");
/// Trigonometric and hyperbolic functions from sin, cos, exp, log, sqrt and a
/// polynomial arctangent (float precision).
te::Tensor tan(const te::Tensor& x, const std::string& name = "tan");
te::Tensor asin(const te::Tensor& x, const std::string& name = "asin");
te::Tensor acos(const te::Tensor& x, const std::string& name = "acos");
te::Tensor atan(const te::Tensor& x, const std::string& name = "atan");
te::Tensor sinh(const te::Tensor& x, const std::string& name = "sinh");
te::Tensor cosh(const te::Tensor& x, const std::string& name = "cosh");
te::Tensor asinh(const te::Tensor& x, const std::string& name = "asinh");
te::Tensor acosh(const te::Tensor& x, const std::string& name = "acosh");
te::Tensor atanh(const te::Tensor& x, const std::string& name = "atanh");
/// Bool: x is NaN.
te::Tensor isNan(const te::Tensor& x, const std::string& name = "is_nan");
/// Bool: x is -inf (when `negative`) or +inf (when `positive`).
te::Tensor isInf(const te::Tensor& x, bool negative = true, bool positive = true, const std::string& name = "is_inf");
/// The remainder of a / b, broadcast: floats as C's fmod; integers with the
/// divisor's sign (numpy's mod) unless `fmod`; a zero integer divisor gives 0.
te::Tensor mod(const te::Tensor& a, const te::Tensor& b, bool fmod = false, const std::string& name = "mod");
/// a << b (`left`) or a >> b on unsigned integers, broadcast; 0 for shifts of the width or more.
te::Tensor bitShift(const te::Tensor& a, const te::Tensor& b, bool left, const std::string& name = "bit_shift");
te::Tensor logicalNot(const te::Tensor& x, const std::string& name = "logical_not");
/// A copy of x (a stage of its own, inlined like any element-wise one).
te::Tensor identity(const te::Tensor& x, const std::string& name = "identity");
/// x converted to `dtype` (to bool: x != 0).
te::Tensor cast(const te::Tensor& x, DataType dtype, const std::string& name = "cast");

/// min(max(x, lo), hi) with `lo` and `hi` broadcast against x; an undefined
/// bound is no bound.
te::Tensor clip(const te::Tensor& x, const te::Tensor& lo, const te::Tensor& hi,
                const std::string& name = "clip");
/// clip() with literal bounds (stages `name`_min and `name`_max).
te::Tensor clip(const te::Tensor& x, double lo, double hi, const std::string& name = "clip");

/// cond ? a : b, the three broadcast together.
te::Tensor where(const te::Tensor& cond, const te::Tensor& a, const te::Tensor& b,
                 const std::string& name = "where");

// --- variadic, broadcasting (one input: a copy, tagged elemwise) ------------------------------

te::Tensor maximum(const std::vector<te::Tensor>& inputs, const std::string& name = "maximum");
te::Tensor minimum(const std::vector<te::Tensor>& inputs, const std::string& name = "minimum");
te::Tensor elemwiseSum(const std::vector<te::Tensor>& inputs, const std::string& name = "elemwise_sum");
te::Tensor elemwiseMean(const std::vector<te::Tensor>& inputs, const std::string& name = "elemwise_mean");

} // namespace tessel::topi
