#include "tir/arith/Analyzer.h"

#include "ir/Check.h"
#include "tir/ExprEquality.h"
#include "tir/IROperators.h"
#include "tir/arith/RewriteSimplify.h"

namespace tessel::tir::arith {

namespace {
/// Passes of the rewriter at most before simplify gives up on a fixed point.
constexpr int kMaxPasses = 8;
} // namespace

void Analyzer::record(const VarNode* v) {
    Undo u{v, false, ConstIntBound::everything(), Expr(), false};
    if (auto it = bounds_.find(v); it != bounds_.end()) {
        u.hadBound = true;
        u.bound = it->second;
    }
    if (auto it = values_.find(v); it != values_.end()) {
        u.hadValue = true;
        u.value = it->second;
    }
    undo_.push_back(std::move(u));
}

void Analyzer::bind(const Var& v, const ConstIntBound& b) {
    TESSEL_CHECK(v.defined(), "binding an undefined variable");
    record(v.get());
    bounds_[v.get()] = b;
    values_.erase(v.get());
}

void Analyzer::bind(const Var& v, const Range& r) {
    Expr mn = simplify(r.min), ext = simplify(r.extent);
    ConstIntBound bmin = constIntBound(mn), bext = constIntBound(ext);
    ConstIntBound b{bmin.min, ConstIntBound::kPosInf};
    if (bmin.max != ConstIntBound::kPosInf && bext.max != ConstIntBound::kPosInf) {
        __int128 hi = static_cast<__int128>(bmin.max) + bext.max - 1;
        if (hi < ConstIntBound::kPosInf) b.max = static_cast<int64_t>(hi);
    }
    if (b.max < b.min) b.max = b.min; // an empty loop: any point is sound
    bind(v, b);
}

void Analyzer::bind(const Var& v, const Expr& value) {
    Expr s = simplify(value);
    bind(v, constIntBound(s));
    if (s.as<IntImmNode>() || s.as<FloatImmNode>()) values_[v.get()] = s;
}

void Analyzer::pushScope() {
    scopes_.push_back(undo_.size());
}

void Analyzer::popScope() {
    TESSEL_CHECK(!scopes_.empty(), "popScope without pushScope");
    size_t mark = scopes_.back();
    scopes_.pop_back();
    while (undo_.size() > mark) {
        Undo& u = undo_.back();
        if (u.hadBound)
            bounds_[u.var] = u.bound;
        else
            bounds_.erase(u.var);
        if (u.hadValue)
            values_[u.var] = u.value;
        else
            values_.erase(u.var);
        undo_.pop_back();
    }
}

ConstIntBound Analyzer::constIntBound(const Expr& e) const {
    return arith::constIntBound(e, bounds_);
}

bool Analyzer::canProve(const Expr& cond) {
    Expr s = simplify(cond);
    auto c = asConstInt(s);
    return c && *c != 0;
}

bool Analyzer::canProveGreaterEqual(const Expr& e, int64_t lower) const {
    return constIntBound(e).min >= lower;
}

Expr Analyzer::simplify(const Expr& e) {
    if (!e.defined()) return e;
    int steps = 0;
    Expr cur = e;
    for (int i = 0; i < kMaxPasses; ++i) {
        Expr next = rewriteOnce(cur, *this, steps);
        if (next.sameAs(cur) || structuralEqual(next, cur)) break;
        cur = next;
        if (steps > kMaxRewriteSteps) break;
    }
    return structuralEqual(cur, e) ? e : cur;
}

const Expr* Analyzer::knownValue(const VarNode* v) const {
    auto it = values_.find(v);
    return it == values_.end() ? nullptr : &it->second;
}

} // namespace tessel::tir::arith
