/// \file
/// Helpers shared by the operator computes: shapes as TE extents, numpy
/// broadcasting, safe padded reads, axis normalisation, and literal operands
/// (one-element tensors whose value is known at compile time, which computes
/// fold into their arithmetic).
#pragma once

#include "te/Tensor.h"
#include "tir/IROperators.h"
#include "topi/Tags.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::topi {

using te::Expr;
using te::Tensor;
using te::Var;

std::vector<Expr> toExprs(const std::vector<int64_t>& dims);
/// The static shape of `t` (every extent of a topi tensor is a constant).
std::vector<int64_t> staticShape(const Tensor& t);
Expr intImm(int64_t v);
/// A constant of type `t` (float or integer or bool).
Expr constant(DataType t, double v);
/// The axis variables as index expressions.
std::vector<Expr> exprs(const std::vector<Var>& vars);

/// Reads `t` at the index of an output element `idx` of a broadcast result
/// (numpy rules: `t`'s axes align to the right; an axis of extent 1 reads 0).
Expr broadcastRead(const Tensor& t, const std::vector<Var>& idx);
/// The numpy broadcast of two shapes; CompileError when they do not broadcast.
std::vector<int64_t> broadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

/// t[idx] where idx may leave the tensor: reads a clamped (always valid)
/// index and selects `padValue` outside. Both sides of a Select are
/// evaluated, so the clamp is what keeps the read inside the buffer.
Expr paddedRead(const Tensor& t, const std::vector<Expr>& idx, Expr padValue);

/// The constant extent of a loop, or `fallback` when it is not a constant
/// (a leaf made by split or fuse has no domain until lowering).
int64_t extentOr(const te::IterVar& iv, int64_t fallback);

/// The largest divisor of n that is at most limit (1 when none is larger).
int64_t largestDivisorAtMost(int64_t n, int64_t limit);

/// `x` clamped to [lo, hi].
Expr clampIndex(Expr x, int64_t lo, int64_t hi);

/// An axis in [-rank, rank) made non-negative; CompileError otherwise.
int64_t normalizeAxis(int64_t axis, int64_t rank);

/// A tensor of `shape` whose every element is `value` (tag elemwise): how a
/// caller passes an operand known at compile time (a scalar weight, a bound
/// given as an attribute) so that the consumer reads the literal once the
/// schedule inlines it.
Tensor literalTensor(const std::vector<int64_t>& shape, Expr value, const std::string& name);
/// The value of a tensor made by literalTensor() (a compute whose body is a
/// constant), or nullopt.
std::optional<Expr> literalOf(const Tensor& t);
/// Element 0 of the one-element tensor `t` as `type`: the literal itself when
/// `t` is a literal tensor, else a read of it (cast when needed).
Expr scalarOf(const Tensor& t, DataType type);

} // namespace tessel::topi
