/// \file
/// Helpers shared by the operator computes: shapes as TE extents, numpy
/// broadcasting reads, element-wise builders and safe padded reads.
#pragma once

#include "te/Tensor.h"
#include "tir/IROperators.h"
#include "topi/Topi.h"

#include <cstdint>
#include <functional>
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

/// Reads `t` at the index of an output element `idx` of a broadcast result
/// (numpy rules: `t`'s axes align to the right; an axis of extent 1 reads 0).
Expr broadcastRead(const Tensor& t, const std::vector<Var>& idx);

/// out[i...] = f(in[i...]) with the node's output type; tag elemwise.
Tensor unary(const OpContext& ctx, const std::function<Expr(Expr)>& f);
/// out[i...] = f(a[bcast], b[bcast]); tag broadcast.
Tensor binary(const OpContext& ctx, const Tensor& a, const Tensor& b,
              const std::function<Expr(Expr, Expr)>& f);

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

/// An axis attribute in [-rank, rank) made non-negative; ctx.fail otherwise.
int64_t normalizedAxis(const OpContext& ctx, int64_t axis, int64_t rank);

} // namespace tessel::topi
