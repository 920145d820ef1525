#include "tir/passes/StorageRewrite.h"

#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/Substitute.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace tessel::tir {

namespace {

/// Number of elements of a buffer, when constant.
std::optional<int64_t> constantSize(const Buffer& b) {
    int64_t n = 1;
    for (auto& s : b->shape) {
        auto c = asConstInt(s);
        if (!c || *c < 0) return std::nullopt;
        n *= *c;
    }
    return n;
}

/// Drops allocations whose buffer is never used.
class UnusedAllocRemover : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Stmt visit(const AllocateNode* op) override {
        Stmt body = mutate(op->body);
        if (!usesVar(body, op->buffer->data.get())) return body;
        return body.sameAs(op->body) ? Stmt(op) : AllocateNode::make(op->buffer, body);
    }
};

/// Replaces buffers (by their data variable) in loads, stores and variable uses.
class BufferReplacer : public IRMutator {
public:
    explicit BufferReplacer(const std::unordered_map<const VarNode*, Buffer>& m) : map_(m) {}
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Expr visit(const VarNode* op) override {
        auto it = map_.find(op);
        return it == map_.end() ? Expr(op) : Expr(it->second->data);
    }
    Expr visit(const BufferLoadNode* op) override {
        std::vector<Expr> idx;
        bool changed = mutateAll(op->indices, idx);
        auto it = map_.find(op->buffer->data.get());
        if (it != map_.end()) return BufferLoadNode::make(it->second, idx);
        return changed ? BufferLoadNode::make(op->buffer, idx) : Expr(op);
    }
    Stmt visit(const BufferStoreNode* op) override {
        Expr v = mutate(op->value);
        std::vector<Expr> idx;
        bool changed = mutateAll(op->indices, idx) || !v.sameAs(op->value);
        auto it = map_.find(op->buffer->data.get());
        if (it != map_.end()) return BufferStoreNode::make(it->second, v, idx);
        return changed ? BufferStoreNode::make(op->buffer, v, idx) : Stmt(op);
    }

private:
    const std::unordered_map<const VarNode*, Buffer>& map_;
};

Stmt planRegion(const Stmt& body, const StorageRewriteOptions& options);

/// Takes the constant-size allocations out of a region (not out of nested
/// parallel loops, which are regions of their own and planned separately).
class AllocLifter : public IRMutator {
public:
    explicit AllocLifter(const StorageRewriteOptions& o) : options_(o) {}
    std::vector<Buffer> lifted;
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    Stmt visit(const AllocateNode* op) override {
        if (!constantSize(op->buffer)) return IRMutator::visit(op);
        if (loopDepth_ > 0 && !options_.hoist) return IRMutator::visit(op);
        lifted.push_back(op->buffer);
        return mutate(op->body);
    }
    Stmt visit(const ForNode* op) override {
        if (op->forKind == ForKind::Parallel) {
            Stmt body = planRegion(op->body, options_);
            return body.sameAs(op->body) ? Stmt(op)
                                         : ForNode::remake(*op, op->min, op->extent, body);
        }
        ++loopDepth_;
        Stmt s = IRMutator::visit(op);
        --loopDepth_;
        return s;
    }

private:
    const StorageRewriteOptions& options_;
    int loopDepth_ = 0;
};

/// A group of buffers sharing one allocation.
struct Slot {
    std::vector<Buffer> members;
    int64_t size = 0;
    int lastUse = -1;
};

Stmt planRegion(const Stmt& body, const StorageRewriteOptions& options) {
    AllocLifter lifter(options);
    Stmt stripped = lifter.mutate(body);
    if (lifter.lifted.empty()) return stripped;

    // Live ranges over the region's top-level statements.
    std::vector<Stmt> items;
    if (auto* seq = stripped.as<SeqStmtNode>())
        items = seq->seq;
    else
        items = {stripped};
    struct Live {
        Buffer buffer;
        int first = -1, last = -1;
    };
    std::vector<Live> lives;
    for (auto& b : lifter.lifted) {
        Live l{b};
        for (int i = 0; i < static_cast<int>(items.size()); ++i)
            if (usesVar(items[i], b->data.get())) {
                if (l.first < 0) l.first = i;
                l.last = i;
            }
        if (l.first >= 0) lives.push_back(l);
    }
    std::stable_sort(lives.begin(), lives.end(),
                     [](const Live& a, const Live& b) { return a.first < b.first; });

    std::vector<Slot> slots;
    for (auto& l : lives) {
        int64_t size = *constantSize(l.buffer);
        Slot* target = nullptr;
        if (options.reuse) {
            for (auto& s : slots) {
                const Buffer& rep = s.members[0];
                if (s.lastUse < l.first && rep->scope == l.buffer->scope &&
                    rep->dtype == l.buffer->dtype) {
                    target = &s;
                    break;
                }
            }
        }
        if (!target) {
            slots.push_back(Slot{});
            target = &slots.back();
        }
        target->members.push_back(l.buffer);
        target->size = std::max(target->size, size);
        target->lastUse = l.last;
    }

    // One buffer per slot; every member's accesses go to it.
    std::unordered_map<const VarNode*, Buffer> replace;
    std::vector<Buffer> allocs;
    for (auto& s : slots) {
        Buffer rep = s.members[0];
        if (*constantSize(rep) != s.size || rep->shape.size() != 1) {
            auto* n = new BufferNode;
            n->name = rep->name;
            n->data = rep->data;
            n->dtype = rep->dtype;
            n->shape = {
                makeConst(rep->shape.empty() ? DataType::int32() : rep->shape[0].type(), s.size)};
            n->scope = rep->scope;
            n->alignment = rep->alignment;
            Buffer merged(n);
            replace[rep->data.get()] = merged;
            rep = merged;
        }
        for (size_t i = 1; i < s.members.size(); ++i)
            replace[s.members[i]->data.get()] = rep;
        allocs.push_back(rep);
    }
    Stmt result = replace.empty() ? stripped : BufferReplacer(replace).mutate(stripped);
    for (size_t i = allocs.size(); i-- > 0;)
        result = AllocateNode::make(allocs[i], result);
    return result;
}

} // namespace

Stmt storageRewrite(const Stmt& s, const StorageRewriteOptions& options) {
    Stmt body = UnusedAllocRemover().mutate(s);
    Stmt planned = planRegion(body, options);
    // Keep the input when planning only rebuilt the same structure.
    return toString(planned) == toString(s) ? s : planned;
}

PrimFunc storageRewrite(const PrimFunc& f, const StorageRewriteOptions& options) {
    Stmt body = storageRewrite(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
