#include "tir/passes/InjectDoubleBuffer.h"

#include "tir/BufferCopies.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"
#include "tir/Substitute.h"
#include "tir/arith/ConstantFold.h"
#include "tir/passes/ThreadSync.h"

#include <map>
#include <set>

namespace tessel::tir {

namespace {

constexpr const char* kMark = "double_buffer_write";

bool isSync(const Stmt& s) {
    auto* e = s.as<EvaluateNode>();
    auto* c = e ? e->value.as<CallNode>() : nullptr;
    return c && c->op == Intrinsic::StorageSync;
}

/// The marked buffer of a "double_buffer_write" statement, or null.
const VarNode* markOf(const Stmt& s) {
    auto* a = s.as<AttrStmtNode>();
    return a && a->key == kMark ? a->value.as<VarNode>() : nullptr;
}

/// Drops the marks: they have done their work.
class Unmark : public IRMutator {
public:
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == kMark) return mutate(op->body);
        return IRMutator::visit(op);
    }
};

/// `s` unmarked, its doubled buffers accessed in half `half`.
Stmt inHalf(const Stmt& s, const BufferCopies& doubled, const Expr& half) {
    return redirectToCopy(Unmark().mutate(s), doubled, half);
}

/// Replaces each doubled buffer's allocation.
class Reallocate : public IRMutator {
public:
    explicit Reallocate(const std::map<const VarNode*, Buffer>& doubled) : doubled_(doubled) {}
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Stmt visit(const AllocateNode* op) override {
        Stmt body = mutate(op->body);
        auto it = doubled_.find(op->buffer->data.get());
        return AllocateNode::make(it != doubled_.end() ? it->second : op->buffer, body);
    }

private:
    const std::map<const VarNode*, Buffer>& doubled_;
};

class Injector : public IRMutator {
public:
    std::map<const VarNode*, Buffer> doubled;
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Stmt visit(const ForNode* op) override {
        Stmt s = IRMutator::visit(op);
        auto* loop = s.as<ForNode>();
        if (loop->forKind == ForKind::ThreadBinding || loop->forKind == ForKind::Parallel) return s;
        auto* seq = loop->body.as<SeqStmtNode>();
        if (!seq) return s;
        // The marked fills, and every shared buffer the body writes: all must be marked.
        std::map<const VarNode*, Buffer> marked;
        std::set<const VarNode*> written;
        for (auto& c : seq->seq) {
            const VarNode* m = markOf(c);
            postOrderVisit(c, [&](const Object* n) {
                auto* st = dynamic_cast<const BaseStmtNode*>(n);
                if (!st || st->kind != NodeKind::BufferStore) return;
                auto* w = static_cast<const BufferStoreNode*>(st);
                if (w->buffer->scope != "shared") return;
                written.insert(w->buffer->data.get());
                if (m && w->buffer->data.get() == m) marked.emplace(m, w->buffer);
            });
        }
        if (marked.empty() || written.size() != marked.size()) return s;
        for (auto& [v, b] : marked)
            if (b->shape.size() != 1 || !asConstInt(b->shape[0])) return s;
        auto ext = asConstInt(loop->extent);
        if (!ext || *ext < 1) return s;

        BufferCopies twice;
        for (auto& [v, b] : marked)
            twice.emplace(v, BufferCopy{b.withShape({makeConst(b->shape[0].type(), *asConstInt(b->shape[0]) * 2)}), b->shape[0]});
        const Var& x = loop->loopVar;
        const Expr lo = loop->min;
        std::vector<Stmt> fills, rest;
        for (auto& c : seq->seq) {
            if (markOf(c)) fills.push_back(c);
            else if (!isSync(c)) rest.push_back(c);
        }
        // Before the loop: the first iteration's tiles into half 0.
        std::vector<Stmt> prologue;
        for (auto& f : fills)
            prologue.push_back(inHalf(arith::substituteAndFold(f, VarMap{{x.get(), lo}}), twice, Expr(0)));
        prologue.push_back(storageSync());
        // In iteration x: the next tiles into the other half, this one read.
        std::vector<Stmt> body;
        Expr next = x + 1;
        Expr nextHalf = floormod(x - lo + 1, 2), thisHalf = floormod(x - lo, 2);
        for (auto& f : fills)
            body.push_back(IfThenElseNode::make(next < lo + loop->extent,
                                                inHalf(substitute(f, x, next), twice, nextHalf)));
        for (auto& r : rest) body.push_back(inHalf(r, twice, thisHalf));
        body.push_back(storageSync());
        for (auto& [v, c] : twice) doubled[v] = c.enlarged;
        prologue.push_back(ForNode::remake(*loop, loop->min, loop->extent, SeqStmtNode::make(body)));
        return SeqStmtNode::make(prologue);
    }
};

} // namespace

Stmt injectDoubleBuffer(const Stmt& s, const InjectDoubleBufferOptions&) {
    Injector inj;
    Stmt out = inj.mutate(s);
    if (inj.doubled.empty()) return out;
    return Reallocate(inj.doubled).mutate(out);
}

PrimFunc injectDoubleBuffer(const PrimFunc& f, const InjectDoubleBufferOptions& options) {
    Stmt body = injectDoubleBuffer(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
