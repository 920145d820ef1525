#include "topi/TopiUtil.h"

#include "ir/AxisMath.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"

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

std::vector<Expr> exprs(const std::vector<Var>& vars) {
    return {vars.begin(), vars.end()};
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

std::vector<int64_t> broadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const size_t r = std::max(a.size(), b.size());
    std::vector<int64_t> out(r);
    for (size_t i = 0; i < r; ++i) {
        const int64_t x = i + a.size() >= r ? a[i + a.size() - r] : 1;
        const int64_t y = i + b.size() >= r ? b[i + b.size() - r] : 1;
        if (x != y && x != 1 && y != 1) {
            auto str = [](const std::vector<int64_t>& s) {
                std::string t = "[";
                for (size_t k = 0; k < s.size(); ++k)
                    t += (k ? ", " : "") + std::to_string(s[k]);
                return t + "]";
            };
            throw CompileError("shapes " + str(a) + " and " + str(b) + " do not broadcast");
        }
        out[i] = x == 1 ? y : x;
    }
    return out;
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

int64_t normalizeAxis(int64_t axis, int64_t rank) {
    if (auto a = tessel::normalizeAxis(axis, rank)) return *a;
    throw CompileError("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
}

Tensor literalTensor(const std::vector<int64_t>& shape, Expr value, const std::string& name) {
    return te::compute(
        toExprs(shape), [value](const std::vector<Var>&) { return value; }, name, tag::kElemWise);
}

std::optional<Expr> literalOf(const Tensor& t) {
    auto* op = dynamic_cast<const te::ComputeOpNode*>(t->op.get());
    if (!op || !op->reduceAxis.empty() || op->body.size() != 1) return std::nullopt;
    const Expr& body = op->body[0];
    if (body.as<IntImmNode>() || body.as<FloatImmNode>()) return body;
    return std::nullopt;
}

Expr scalarOf(const Tensor& t, DataType type) {
    if (auto lit = literalOf(t)) {
        if (auto* f = lit->as<FloatImmNode>())
            return type.isFloat() ? makeConst(type, f->value)
                                  : makeConst(type, static_cast<int64_t>(f->value));
        const int64_t v = lit->as<IntImmNode>()->value;
        return type.isFloat() ? makeConst(type, double(v)) : makeConst(type, v);
    }
    Expr v = t(std::vector<Expr>(t->shape.size(), intImm(0)));
    return v.type() == type ? v : cast(type, v);
}

} // namespace tessel::topi
