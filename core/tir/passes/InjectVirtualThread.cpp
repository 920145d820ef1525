#include "tir/passes/InjectVirtualThread.h"

#include "tir/BufferCopies.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"
#include "tir/Substitute.h"
#include "tir/arith/ConstantFold.h"

#include <unordered_map>
#include <unordered_set>

namespace tessel::tir {

namespace {

using VarSet = std::unordered_set<const VarNode*>;

/// Calls `f` on every variable `n` reads: plain variables and the data of loaded buffers.
template <class F> void forEachUse(const Object* n, F&& f) {
    auto* e = dynamic_cast<const BaseExprNode*>(n);
    if (!e) return;
    if (e->kind == NodeKind::Var) f(static_cast<const VarNode*>(e));
    else if (e->kind == NodeKind::BufferLoad) f(static_cast<const BufferLoadNode*>(e)->buffer->data.get());
}

/// v, and what is defined from it in `s` (stored buffers, lets), to a fixed point.
VarSet dependentsOf(const Stmt& s, const VarNode* v) {
    std::unordered_map<const VarNode*, std::vector<const VarNode*>> feeds;
    auto defines = [&](const VarNode* target, const Expr& from) {
        postOrderVisit(from, [&](const Object* n) { forEachUse(n, [&](const VarNode* u) { feeds[u].push_back(target); }); });
    };
    postOrderVisit(s, [&](const Object* n) {
        auto* st = dynamic_cast<const BaseStmtNode*>(n);
        if (!st) return;
        if (st->kind == NodeKind::BufferStore) {
            auto* w = static_cast<const BufferStoreNode*>(st);
            defines(w->buffer->data.get(), w->value);
            for (auto& i : w->indices) defines(w->buffer->data.get(), i);
        } else if (st->kind == NodeKind::LetStmt) {
            auto* l = static_cast<const LetStmtNode*>(st);
            defines(l->var.get(), l->value);
        }
    });
    // Everything v feeds, transitively: a worklist of variables whose
    // readers are not yet visited.
    VarSet out{v};
    std::vector<const VarNode*> unvisited{v};
    while (!unvisited.empty()) {
        const VarNode* u = unvisited.back();
        unvisited.pop_back();
        if (auto it = feeds.find(u); it != feeds.end())
            for (auto* t : it->second)
                if (out.insert(t).second) unvisited.push_back(t);
    }
    return out;
}

/// True when `x` reads one of `vars` or stores into one of them.
template <class Node> bool touches(const Node& x, const VarSet& vars) {
    bool hit = false;
    postOrderVisit(x, [&](const Object* n) {
        if (hit) return;
        forEachUse(n, [&](const VarNode* u) { hit = hit || vars.count(u); });
        auto* st = dynamic_cast<const BaseStmtNode*>(n);
        if (st && st->kind == NodeKind::BufferStore) hit = hit || vars.count(static_cast<const BufferStoreNode*>(st)->buffer->data.get());
    });
    return hit;
}

bool containsLoop(const Stmt& s) {
    bool found = false;
    postOrderVisit(s, [&](const Object* n) {
        auto* st = dynamic_cast<const BaseStmtNode*>(n);
        found = found || (st && st->kind == NodeKind::For);
    });
    return found;
}

/// Interleaves the iterations of one vthread loop (variable v, n iterations from min).
class Injector {
public:
    Injector(const ForNode& loop, int64_t n, const InjectVirtualThreadOptions& options)
        : v_(loop.loopVar), min_(loop.min), n_(n), options_(options),
          dependent_(dependentsOf(loop.body, loop.loopVar.get())) {}

    Stmt inject(const Stmt& s) {
        if (!touches(s, dependent_)) return s;
        switch (s.kind()) {
        case NodeKind::SeqStmt: {
            std::vector<Stmt> seq;
            for (auto& c : s.as<SeqStmtNode>()->seq) seq.push_back(inject(c));
            return SeqStmtNode::make(std::move(seq));
        }
        case NodeKind::For: {
            auto* op = s.as<ForNode>();
            if (touches(op->min, dependent_) || touches(op->extent, dependent_)) return copies(s);
            return ForNode::remake(*op, op->min, op->extent, inject(op->body));
        }
        case NodeKind::IfThenElse: {
            auto* op = s.as<IfThenElseNode>();
            if (touches(op->condition, dependent_)) return copies(s);
            return IfThenElseNode::make(op->condition, inject(op->thenCase),
                                        op->elseCase.defined() ? inject(op->elseCase) : Stmt());
        }
        case NodeKind::LetStmt: {
            auto* op = s.as<LetStmtNode>();
            if (touches(op->value, dependent_)) return copies(s);
            return LetStmtNode::make(op->var, op->value, inject(op->body));
        }
        case NodeKind::AttrStmt: {
            auto* op = s.as<AttrStmtNode>();
            if (touches(op->value, dependent_)) return copies(s);
            return AttrStmtNode::make(op->key, op->value, inject(op->body));
        }
        case NodeKind::Allocate: {
            auto* op = s.as<AllocateNode>();
            const Buffer& b = op->buffer;
            if (!dependent_.count(b->data.get())) return AllocateNode::make(b, inject(op->body));
            auto size = b->shape.size() == 1 ? asConstInt(b->shape[0]) : std::nullopt;
            // Not flat or not constant: each copy allocates its own.
            if (!size) return copies(s);
            Buffer enlarged = b.withShape({makeConst(b->shape[0].type(), *size * n_)});
            perVthread_[b->data.get()] = BufferCopy{enlarged, b->shape[0]};
            return AllocateNode::make(enlarged, inject(op->body));
        }
        default: return copies(s);
        }
    }

private:
    /// `s` once per vthread: written out where it holds no loop (the
    /// arithmetic of the copies can overlap), else a serial loop over them.
    Stmt copies(const Stmt& s) {
        Stmt body = redirectToCopy(s, perVthread_, v_ - min_);
        if (n_ < options_.maxUnrolled && !containsLoop(body)) {
            std::vector<Stmt> seq;
            for (int64_t i = 0; i < n_; ++i)
                seq.push_back(arith::substituteAndFold(body, VarMap{{v_.get(), arith::foldConstants(min_ + makeConst(v_.type(), i))}}));
            return SeqStmtNode::make(std::move(seq));
        }
        Var each(v_->name + "_s", v_.type());
        return ForNode::make(each, min_, makeConst(v_.type(), n_), ForKind::Serial, substitute(body, v_, each));
    }

    Var v_;
    Expr min_;
    int64_t n_;
    const InjectVirtualThreadOptions& options_;
    VarSet dependent_;
    BufferCopies perVthread_;
};

class VirtualThreads : public IRMutator {
public:
    explicit VirtualThreads(const InjectVirtualThreadOptions& options) : options_(options) {}
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Stmt visit(const ForNode* op) override {
        // Inner vthreads first: an outer one then copies their copies.
        Stmt s = IRMutator::visit(op);
        auto* loop = s.as<ForNode>();
        if (loop->forKind != ForKind::ThreadBinding || !isVirtualThreadTag(loop->threadTag)) return s;
        auto n = asConstInt(loop->extent);
        if (!n || *n < 1) return s;
        return Injector(*loop, *n, options_).inject(loop->body);
    }

private:
    const InjectVirtualThreadOptions& options_;
};

} // namespace

Stmt injectVirtualThread(const Stmt& s, const InjectVirtualThreadOptions& options) {
    return VirtualThreads(options).mutate(s);
}

PrimFunc injectVirtualThread(const PrimFunc& f, const InjectVirtualThreadOptions& options) {
    Stmt body = injectVirtualThread(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
