#include "tir/arith/LinearForm.h"

#include "tir/ExprEquality.h"

#include <cstdlib>
#include <numeric>

namespace tessel::tir::arith {

int64_t wrapToType(DataType t, int64_t v) {
    int bits = t.bits();
    if (t.isBool()) return v != 0;
    if (bits >= 64 || bits <= 0) return v;
    uint64_t mask = (uint64_t(1) << bits) - 1;
    uint64_t u = static_cast<uint64_t>(v) & mask;
    if (t.isInt() && (u >> (bits - 1)) & 1) u |= ~mask; // sign-extend
    return static_cast<int64_t>(u);
}

Expr makeIntConst(DataType t, int64_t v) {
    Expr c = IntImmNode::make(t.element(), wrapToType(t.element(), v));
    return t.lanes() > 1 ? BroadcastNode::make(c, t.lanes()) : c;
}

namespace {

void decompose(const Expr& e, int64_t scale, LinearForm& out) {
    if (scale == 0) return;
    if (auto* i = e.as<IntImmNode>()) {
        out.constant += scale * i->value;
        return;
    }
    if (auto* op = e.as<AddNode>()) {
        decompose(op->a, scale, out);
        decompose(op->b, scale, out);
        return;
    }
    if (auto* op = e.as<SubNode>()) {
        decompose(op->a, scale, out);
        decompose(op->b, -scale, out);
        return;
    }
    if (auto* op = e.as<MulNode>()) {
        if (auto* c = op->b.as<IntImmNode>()) {
            decompose(op->a, scale * c->value, out);
            return;
        }
        if (auto* c = op->a.as<IntImmNode>()) {
            decompose(op->b, scale * c->value, out);
            return;
        }
    }
    out.addTerm(e, scale);
}

bool isPosConst(const Expr& e, int64_t& c) {
    auto* i = e.as<IntImmNode>();
    if (!i || i->value <= 0) return false;
    c = i->value;
    return true;
}

} // namespace

LinearForm LinearForm::of(const Expr& e) {
    LinearForm f(e.type());
    decompose(e, 1, f);
    f.normalize();
    return f;
}

void LinearForm::addTerm(const Expr& term, int64_t coeff) {
    for (auto& [t, c] : terms) {
        if (structuralEqual(t, term)) {
            c += coeff;
            return;
        }
    }
    terms.emplace_back(term, coeff);
}

void LinearForm::add(const LinearForm& other, int64_t scale) {
    for (auto& [t, c] : other.terms)
        addTerm(t, c * scale);
    constant += other.constant * scale;
}

void LinearForm::scale(int64_t k) {
    for (auto& tc : terms)
        tc.second *= k;
    constant *= k;
}

void LinearForm::normalize() {
    auto dropZeros = [&] {
        std::erase_if(terms, [](const std::pair<Expr, int64_t>& tc) { return tc.second == 0; });
    };
    dropZeros();
    // floordiv(e, c) * (k*c) + floormod(e, c) * k  ->  e * k
    for (bool merged = true; merged;) {
        merged = false;
        for (size_t i = 0; i < terms.size() && !merged; ++i) {
            auto* mod = terms[i].first.as<FloorModNode>();
            int64_t c = 0;
            if (!mod || !isPosConst(mod->b, c)) continue;
            int64_t k = terms[i].second;
            for (size_t j = 0; j < terms.size(); ++j) {
                auto* div = terms[j].first.as<FloorDivNode>();
                int64_t c2 = 0;
                if (!div || !isPosConst(div->b, c2) || c2 != c || terms[j].second != k * c ||
                    !structuralEqual(div->a, mod->a))
                    continue;
                Expr e = mod->a;
                terms[i].second = 0;
                terms[j].second = 0;
                dropZeros();
                LinearForm inner(type);
                decompose(e, k, inner);
                add(inner);
                dropZeros();
                merged = true;
                break;
            }
        }
    }
}

int64_t LinearForm::termGcd() const {
    int64_t g = 0;
    for (auto& tc : terms)
        g = std::gcd(g, std::abs(tc.second));
    return g;
}

Expr LinearForm::toExpr() const {
    auto scaled = [&](const Expr& t, int64_t c) -> Expr {
        return c == 1 ? t : MulNode::make(t, makeIntConst(type, c));
    };
    Expr result;
    for (auto& [t, c] : terms) {
        if (c <= 0) continue;
        Expr s = scaled(t, c);
        result = result.defined() ? AddNode::make(result, s) : s;
    }
    bool constantUsed = false;
    if (!result.defined() && constant > 0) {
        result = makeIntConst(type, constant);
        constantUsed = true;
    }
    for (auto& [t, c] : terms) {
        if (c >= 0) continue;
        if (!result.defined()) result = makeIntConst(type, 0);
        result = SubNode::make(result, scaled(t, -c));
    }
    if (!result.defined()) return makeIntConst(type, constant);
    if (!constantUsed && constant > 0) result = AddNode::make(result, makeIntConst(type, constant));
    if (!constantUsed && constant < 0)
        result = SubNode::make(result, makeIntConst(type, -constant));
    return result;
}

} // namespace tessel::tir::arith
