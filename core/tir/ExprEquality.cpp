#include "tir/ExprEquality.h"

#include <cstdint>
#include <cstring>
#include <functional>

namespace tessel::tir {

namespace {

uint64_t floatBits(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}

bool equalList(const std::vector<Expr>& a, const std::vector<Expr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!structuralEqual(a[i], b[i])) return false;
    return true;
}

template <class T> bool equalBinary(const Expr& a, const Expr& b) {
    auto* x = a.as<T>();
    auto* y = b.as<T>();
    return structuralEqual(x->a, y->a) && structuralEqual(x->b, y->b);
}

bool equalNodes(const Expr& a, const Expr& b) {
    switch (a.kind()) {
    case NodeKind::IntImm:
        return a.as<IntImmNode>()->value == b.as<IntImmNode>()->value;
    case NodeKind::FloatImm:
        return floatBits(a.as<FloatImmNode>()->value) == floatBits(b.as<FloatImmNode>()->value);
    case NodeKind::StringImm:
        return a.as<StringImmNode>()->value == b.as<StringImmNode>()->value;
    case NodeKind::Var:
        return a.get() == b.get();
    case NodeKind::Cast:
        return structuralEqual(a.as<CastNode>()->value, b.as<CastNode>()->value);
#define TESSEL_EQUAL_BINARY(N)                                                                     \
    case NodeKind::N:                                                                              \
        return equalBinary<N##Node>(a, b);
        TESSEL_EQUAL_BINARY(Add)
        TESSEL_EQUAL_BINARY(Sub)
        TESSEL_EQUAL_BINARY(Mul)
        TESSEL_EQUAL_BINARY(Div)
        TESSEL_EQUAL_BINARY(Mod)
        TESSEL_EQUAL_BINARY(FloorDiv)
        TESSEL_EQUAL_BINARY(FloorMod)
        TESSEL_EQUAL_BINARY(Min)
        TESSEL_EQUAL_BINARY(Max)
        TESSEL_EQUAL_BINARY(EQ)
        TESSEL_EQUAL_BINARY(NE)
        TESSEL_EQUAL_BINARY(LT)
        TESSEL_EQUAL_BINARY(LE)
        TESSEL_EQUAL_BINARY(GT)
        TESSEL_EQUAL_BINARY(GE)
        TESSEL_EQUAL_BINARY(And)
        TESSEL_EQUAL_BINARY(Or)
#undef TESSEL_EQUAL_BINARY
    case NodeKind::Not:
        return structuralEqual(a.as<NotNode>()->a, b.as<NotNode>()->a);
    case NodeKind::Select: {
        auto *x = a.as<SelectNode>(), *y = b.as<SelectNode>();
        return structuralEqual(x->condition, y->condition) && structuralEqual(x->trueValue, y->trueValue) &&
               structuralEqual(x->falseValue, y->falseValue);
    }
    case NodeKind::Ramp: {
        auto *x = a.as<RampNode>(), *y = b.as<RampNode>();
        return x->lanes == y->lanes && structuralEqual(x->base, y->base) &&
               structuralEqual(x->stride, y->stride);
    }
    case NodeKind::Broadcast: {
        auto *x = a.as<BroadcastNode>(), *y = b.as<BroadcastNode>();
        return x->lanes == y->lanes && structuralEqual(x->value, y->value);
    }
    case NodeKind::Let: {
        auto *x = a.as<LetNode>(), *y = b.as<LetNode>();
        return x->var.get() == y->var.get() && structuralEqual(x->value, y->value) &&
               structuralEqual(x->body, y->body);
    }
    case NodeKind::Call: {
        auto *x = a.as<CallNode>(), *y = b.as<CallNode>();
        return x->op == y->op && x->name == y->name && equalList(x->args, y->args);
    }
    case NodeKind::BufferLoad: {
        auto *x = a.as<BufferLoadNode>(), *y = b.as<BufferLoadNode>();
        return x->buffer.get() == y->buffer.get() && equalList(x->indices, y->indices);
    }
    case NodeKind::ProducerLoad: {
        auto *x = a.as<ProducerLoadNode>(), *y = b.as<ProducerLoadNode>();
        return x->producer.get() == y->producer.get() && equalList(x->indices, y->indices);
    }
    case NodeKind::Reduce: {
        auto *x = a.as<ReduceNode>(), *y = b.as<ReduceNode>();
        if (x->combiner != y->combiner || x->axis.size() != y->axis.size()) return false;
        for (size_t i = 0; i < x->axis.size(); ++i)
            if (x->axis[i].get() != y->axis[i].get()) return false;
        return structuralEqual(x->source, y->source) && structuralEqual(x->condition, y->condition);
    }
    default:
        return false;
    }
}

void hashCombine(size_t& seed, size_t v) {
    seed ^= v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

size_t hashPointer(const void* p) {
    return std::hash<const void*>()(p);
}

size_t hashNode(const Expr& e) {
    size_t h = static_cast<size_t>(e.kind()) * 0x100000001b3ULL;
    DataType t = e.type();
    hashCombine(h, (size_t(t.code()) << 24) | (size_t(t.bits()) << 16) | size_t(t.lanes()));
    auto list = [&](const std::vector<Expr>& v) {
        for (auto& x : v)
            hashCombine(h, structuralHash(x));
    };
    switch (e.kind()) {
    case NodeKind::IntImm:
        hashCombine(h, std::hash<int64_t>()(e.as<IntImmNode>()->value));
        break;
    case NodeKind::FloatImm:
        hashCombine(h, std::hash<uint64_t>()(floatBits(e.as<FloatImmNode>()->value)));
        break;
    case NodeKind::StringImm:
        hashCombine(h, std::hash<std::string>()(e.as<StringImmNode>()->value));
        break;
    case NodeKind::Var:
        hashCombine(h, hashPointer(e.get()));
        break;
    case NodeKind::Cast:
        hashCombine(h, structuralHash(e.as<CastNode>()->value));
        break;
#define TESSEL_HASH_BINARY(N)                                                                      \
    case NodeKind::N:                                                                              \
        hashCombine(h, structuralHash(e.as<N##Node>()->a));                                        \
        hashCombine(h, structuralHash(e.as<N##Node>()->b));                                        \
        break;
        TESSEL_HASH_BINARY(Add)
        TESSEL_HASH_BINARY(Sub)
        TESSEL_HASH_BINARY(Mul)
        TESSEL_HASH_BINARY(Div)
        TESSEL_HASH_BINARY(Mod)
        TESSEL_HASH_BINARY(FloorDiv)
        TESSEL_HASH_BINARY(FloorMod)
        TESSEL_HASH_BINARY(Min)
        TESSEL_HASH_BINARY(Max)
        TESSEL_HASH_BINARY(EQ)
        TESSEL_HASH_BINARY(NE)
        TESSEL_HASH_BINARY(LT)
        TESSEL_HASH_BINARY(LE)
        TESSEL_HASH_BINARY(GT)
        TESSEL_HASH_BINARY(GE)
        TESSEL_HASH_BINARY(And)
        TESSEL_HASH_BINARY(Or)
#undef TESSEL_HASH_BINARY
    case NodeKind::Not:
        hashCombine(h, structuralHash(e.as<NotNode>()->a));
        break;
    case NodeKind::Select: {
        auto* op = e.as<SelectNode>();
        list({op->condition, op->trueValue, op->falseValue});
        break;
    }
    case NodeKind::Ramp: {
        auto* op = e.as<RampNode>();
        list({op->base, op->stride});
        hashCombine(h, size_t(op->lanes));
        break;
    }
    case NodeKind::Broadcast: {
        auto* op = e.as<BroadcastNode>();
        hashCombine(h, structuralHash(op->value));
        hashCombine(h, size_t(op->lanes));
        break;
    }
    case NodeKind::Let: {
        auto* op = e.as<LetNode>();
        hashCombine(h, hashPointer(op->var.get()));
        list({op->value, op->body});
        break;
    }
    case NodeKind::Call: {
        auto* op = e.as<CallNode>();
        hashCombine(h, size_t(op->op));
        hashCombine(h, std::hash<std::string>()(op->name));
        list(op->args);
        break;
    }
    case NodeKind::BufferLoad: {
        auto* op = e.as<BufferLoadNode>();
        hashCombine(h, hashPointer(op->buffer.get()));
        list(op->indices);
        break;
    }
    case NodeKind::ProducerLoad: {
        auto* op = e.as<ProducerLoadNode>();
        hashCombine(h, hashPointer(op->producer.get()));
        list(op->indices);
        break;
    }
    case NodeKind::Reduce: {
        auto* op = e.as<ReduceNode>();
        hashCombine(h, size_t(op->combiner));
        for (auto& a : op->axis)
            hashCombine(h, hashPointer(a.get()));
        hashCombine(h, structuralHash(op->source));
        hashCombine(h, structuralHash(op->condition));
        break;
    }
    default:
        break;
    }
    return h;
}

} // namespace

bool structuralEqual(const Expr& a, const Expr& b) {
    if (a.sameAs(b)) return true;
    if (!a.defined() || !b.defined()) return false;
    if (a.kind() != b.kind() || a.type() != b.type()) return false;
    return equalNodes(a, b);
}

size_t structuralHash(const Expr& e) {
    if (!e.defined()) return 0x5bd1e995;
    return hashNode(e);
}

} // namespace tessel::tir
