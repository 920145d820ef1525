#include "tir/passes/ThreadSync.h"

#include "tir/IRMutator.h"
#include "tir/IRVisitor.h"

#include <set>

namespace tessel::tir {

namespace {

using BufferSet = std::set<const VarNode*>;

struct SharedAccess {
    BufferSet reads, writes;
};

SharedAccess sharedAccessesOf(const Stmt& s) {
    SharedAccess a;
    postOrderVisit(s, [&](const Object* n) {
        auto* x = dynamic_cast<const BaseExprNode*>(n);
        if (x && x->kind == NodeKind::BufferLoad) {
            auto* l = static_cast<const BufferLoadNode*>(x);
            if (l->buffer->scope == "shared") a.reads.insert(l->buffer->data.get());
        }
        auto* st = dynamic_cast<const BaseStmtNode*>(n);
        if (st && st->kind == NodeKind::BufferStore) {
            auto* w = static_cast<const BufferStoreNode*>(st);
            if (w->buffer->scope == "shared") a.writes.insert(w->buffer->data.get());
        }
    });
    return a;
}

bool intersects(const BufferSet& a, const BufferSet& b) {
    for (auto* v : a)
        if (b.count(v)) return true;
    return false;
}

bool isSync(const Stmt& s) {
    auto* e = s.as<EvaluateNode>();
    auto* c = e ? e->value.as<CallNode>() : nullptr;
    return c && c->op == Intrinsic::StorageSync;
}

class SyncInserter : public IRMutator {
public:
    using IRMutator::mutate;

protected:
    using IRMutator::visit;

    Stmt visit(const ForNode* op) override {
        bool bound = op->forKind == ForKind::ThreadBinding;
        if (bound) ++kernelDepth_;
        Stmt s = IRMutator::visit(op);
        if (bound) --kernelDepth_;
        if (kernelDepth_ == 0 || bound) return s;
        // A serial loop inside a kernel: the next iteration's writes must wait
        // for this one's reads (and writes) of the same shared buffers.
        auto* loop = s.as<ForNode>();
        SharedAccess a = sharedAccessesOf(loop->body);
        if (!intersects(a.writes, a.reads) || endsWithSync(loop->body)) return s;
        return ForNode::remake(*loop, loop->min, loop->extent, SeqStmtNode::make({loop->body, storageSync()}));
    }

    Stmt visit(const IfThenElseNode* op) override {
        // No barrier under a condition: threads that skip it would hang the block.
        ++conditional_;
        Stmt s = IRMutator::visit(op);
        --conditional_;
        return s;
    }

    Stmt visit(const SeqStmtNode* op) override {
        if (kernelDepth_ == 0 || conditional_ > 0) return IRMutator::visit(op);
        std::vector<Stmt> out;
        BufferSet written, read;
        for (auto& c : op->seq) {
            Stmt m = mutate(c);
            if (isSync(m)) {
                written.clear(), read.clear();
                out.push_back(m);
                continue;
            }
            SharedAccess a = sharedAccessesOf(m);
            if (intersects(a.reads, written) || intersects(a.writes, read) || intersects(a.writes, written)) {
                out.push_back(storageSync());
                written.clear(), read.clear();
            }
            written.insert(a.writes.begin(), a.writes.end());
            read.insert(a.reads.begin(), a.reads.end());
            out.push_back(m);
        }
        return SeqStmtNode::make(out);
    }

private:
    static bool endsWithSync(const Stmt& s) {
        if (isSync(s)) return true;
        auto* seq = s.as<SeqStmtNode>();
        return seq && !seq->seq.empty() && isSync(seq->seq.back());
    }

    int kernelDepth_ = 0;
    int conditional_ = 0;
};

} // namespace

Stmt storageSync() {
    return EvaluateNode::make(CallNode::make(DataType::int32(), Intrinsic::StorageSync, {}));
}

Stmt threadSync(const Stmt& s, const ThreadSyncOptions&) {
    return SyncInserter().mutate(s);
}

PrimFunc threadSync(const PrimFunc& f, const ThreadSyncOptions& options) {
    Stmt body = threadSync(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
