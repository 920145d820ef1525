#include "tir/BufferCopies.h"

#include "tir/IRMutator.h"
#include "tir/IROperators.h"

namespace tessel::tir {

namespace {

class Redirect : public IRMutator {
public:
    Redirect(const BufferCopies& copies, const Expr& which) : copies_(copies), which_(which) {}
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Expr visit(const BufferLoadNode* op) override {
        Expr e = IRMutator::visit(op);
        auto* l = e.as<BufferLoadNode>();
        auto it = copies_.find(l->buffer->data.get());
        if (it == copies_.end()) return e;
        return BufferLoadNode::make(it->second.enlarged, {shifted(l->indices[0], it->second.size)});
    }
    Stmt visit(const BufferStoreNode* op) override {
        Stmt s = IRMutator::visit(op);
        auto* w = s.as<BufferStoreNode>();
        auto it = copies_.find(w->buffer->data.get());
        if (it == copies_.end()) return s;
        return BufferStoreNode::make(it->second.enlarged, w->value, {shifted(w->indices[0], it->second.size)});
    }

private:
    Expr shifted(const Expr& index, const Expr& size) const {
        if (isZero(which_)) return index;
        Expr offset = cast(index.type().element(), which_ * size);
        if (index.type().lanes() > 1) offset = BroadcastNode::make(offset, index.type().lanes());
        return index + offset;
    }
    const BufferCopies& copies_;
    const Expr& which_;
};

} // namespace

Stmt redirectToCopy(const Stmt& s, const BufferCopies& copies, const Expr& which) {
    return Redirect(copies, which).mutate(s);
}

} // namespace tessel::tir
