#include "topi/TopiUtil.h"

#include "graph/OpRegistry.h"
#include "ir/Check.h"

#include <algorithm>

namespace tessel::topi {

using namespace tir;

std::vector<Expr> toExprs(const std::vector<int64_t>& dims) {
    std::vector<Expr> out;
    for (int64_t d : dims)
        out.push_back(intImm(d));
    return out;
}

std::vector<int64_t> staticShape(const Tensor& t) {
    std::vector<int64_t> out;
    for (auto& d : t->shape) {
        auto c = asConstInt(d);
        TESSEL_CHECK(c.has_value(), "tensor '" + t.name() + "' has a non-constant extent");
        out.push_back(*c);
    }
    return out;
}

Expr intImm(int64_t v) {
    return makeConst(DataType::int32(), v);
}

Expr constant(DataType t, double v) {
    if (t.isFloat()) return makeConst(t, v);
    return makeConst(t, static_cast<int64_t>(v));
}

Expr broadcastRead(const Tensor& t, const std::vector<Var>& idx) {
    auto shape = staticShape(t);
    size_t r = shape.size();
    TESSEL_CHECK(r <= idx.size(), "broadcast read of a tensor of higher rank");
    std::vector<Expr> at;
    for (size_t i = 0; i < r; ++i) {
        size_t o = idx.size() - r + i;
        at.push_back(shape[i] == 1 ? intImm(0) : Expr(idx[o]));
    }
    return t(at);
}

Tensor unary(const OpContext& ctx, const std::function<Expr(Expr)>& f) {
    Tensor x = ctx.input(0);
    DataType outType = ctx.outputType().dtype;
    return te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr v = f(x(std::vector<Expr>(i.begin(), i.end())));
            return v.type() == outType ? v : cast(outType, v);
        },
        ctx.name(), tag::kElemWise);
}

Tensor binary(const OpContext& ctx, const Tensor& a, const Tensor& b,
              const std::function<Expr(Expr, Expr)>& f) {
    DataType outType = ctx.outputType().dtype;
    return te::compute(
        ctx.outputShape(),
        [&](const std::vector<Var>& i) {
            Expr v = f(broadcastRead(a, i), broadcastRead(b, i));
            return v.type() == outType ? v : cast(outType, v);
        },
        ctx.name(), tag::kBroadcast);
}

int64_t extentOr(const te::IterVar& iv, int64_t fallback) {
    if (!iv->dom.extent.defined()) return fallback;
    auto c = asConstInt(iv->dom.extent);
    return c ? *c : fallback;
}

int64_t largestDivisorAtMost(int64_t n, int64_t limit) {
    for (int64_t d = std::min(n, limit); d > 1; --d)
        if (n % d == 0) return d;
    return 1;
}

Expr clampIndex(Expr x, int64_t lo, int64_t hi) {
    return tir::min(tir::max(std::move(x), intImm(lo)), intImm(hi));
}

Expr paddedRead(const Tensor& t, const std::vector<Expr>& idx, Expr padValue) {
    auto shape = staticShape(t);
    TESSEL_CHECK(shape.size() == idx.size(), "padded read with the wrong rank");
    Expr inside;
    std::vector<Expr> clamped;
    for (size_t i = 0; i < idx.size(); ++i) {
        // Axes whose index provably stays inside need neither a clamp nor a test;
        // the caller passes plain axis variables for those, which simplify later.
        Expr ok = idx[i] >= intImm(0) && idx[i] < intImm(shape[i]);
        inside = inside.defined() ? (inside && ok) : ok;
        clamped.push_back(clampIndex(idx[i], 0, shape[i] - 1));
    }
    Expr v = t(clamped);
    if (!inside.defined()) return v;
    return select(inside, v, padValue.type() == v.type() ? padValue : cast(v.type(), padValue));
}

int64_t normalizedAxis(const OpContext& ctx, int64_t axis, int64_t rank) {
    auto a = graph::normalizeAxis(axis, rank);
    if (!a)
        ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " +
                 std::to_string(rank));
    return *a;
}

} // namespace tessel::topi
