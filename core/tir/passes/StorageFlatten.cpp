#include "tir/passes/StorageFlatten.h"

#include "ir/Check.h"
#include "tir/ExprEquality.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"

#include <optional>
#include <unordered_map>

namespace tessel::tir {

namespace {

/// How accesses to one N-d buffer map to its flat replacement.
struct FlatLayout {
    Buffer flat;
    std::vector<Expr> mins;    // subtracted from each index (the realized region's start)
    std::vector<Expr> strides; // row-major, in elements
};

Expr product(const std::vector<Expr>& v) {
    if (v.empty()) return Expr(1);
    Expr p = v[0];
    for (size_t i = 1; i < v.size(); ++i)
        p = p * v[i];
    return p;
}

/// A 1-d buffer of `size` elements that keeps `b`'s name, data variable, type and scope.
Buffer flatBufferLike(const Buffer& b, Expr size) {
    auto* n = new BufferNode;
    n->name = b->name;
    n->data = b->data;
    n->dtype = b->dtype;
    n->shape = {std::move(size)};
    n->scope = b->scope;
    n->alignment = b->alignment;
    return Buffer(n);
}

/// One buffer_dim_align: the stride of `axis` is k * factor + offset.
struct DimAlign {
    int64_t axis = 0, factor = 1, offset = 0;
};

/// Row-major strides of constant `extents` with the alignments applied,
/// and the elements the region then takes; nullopt when an extent is not
/// constant.
std::optional<std::pair<std::vector<int64_t>, int64_t>> alignedStrides(const std::vector<Expr>& extents,
                                                                       const std::vector<DimAlign>& aligns) {
    std::vector<int64_t> strides(extents.size());
    int64_t stride = 1;
    for (size_t i = extents.size(); i-- > 0;) {
        for (auto& a : aligns)
            if (a.axis == int64_t(i)) stride += ((a.offset - stride % a.factor) % a.factor + a.factor) % a.factor;
        strides[i] = stride;
        auto e = asConstInt(extents[i]);
        if (!e) return std::nullopt;
        stride *= *e;
    }
    return std::make_pair(strides, stride);
}

FlatLayout makeLayout(const Buffer& b, std::vector<Expr> mins, const std::vector<Expr>& extents,
                      const std::vector<DimAlign>& aligns = {}) {
    FlatLayout l;
    l.mins = std::move(mins);
    l.strides.resize(extents.size());
    if (!aligns.empty() && !extents.empty()) {
        if (auto padded = alignedStrides(extents, aligns)) {
            const DataType t = extents.back().type();
            for (size_t i = 0; i < extents.size(); ++i) l.strides[i] = makeConst(t, padded->first[i]);
            l.flat = flatBufferLike(b, makeConst(t, padded->second));
            return l;
        }
    }
    Expr stride = Expr(1);
    if (!extents.empty()) stride = makeConst(extents.back().type(), int64_t(1));
    for (size_t i = extents.size(); i-- > 0;) {
        l.strides[i] = stride;
        stride = stride * extents[i];
    }
    bool alreadyFlat = extents.size() == 1 && isZero(l.mins[0]);
    l.flat = alreadyFlat ? b : flatBufferLike(b, product(extents));
    return l;
}

/// The (buffer data, alignment) of a buffer_dim_align attribute's value.
std::optional<std::pair<const VarNode*, DimAlign>> dimAlignOf(const Expr& value) {
    auto* call = value.as<CallNode>();
    if (!call || call->op != Intrinsic::Extern || call->name != "tvm_tuple" || call->args.size() != 4) return std::nullopt;
    auto* data = call->args[0].as<VarNode>();
    auto axis = asConstInt(call->args[1]), factor = asConstInt(call->args[2]), offset = asConstInt(call->args[3]);
    if (!data || !axis || !factor || !offset || *factor < 1) return std::nullopt;
    return std::make_pair(data, DimAlign{*axis, *factor, *offset});
}

class StorageFlattener : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    /// Registers a parameter (or any buffer seen without a realization): its full shape.
    const FlatLayout& layoutOf(const Buffer& b) {
        auto it = layouts_.find(b.get());
        if (it != layouts_.end()) return it->second;
        std::vector<Expr> mins;
        for (auto& s : b->shape)
            mins.push_back(makeZero(s.type()));
        return layouts_.emplace(b.get(), makeLayout(b, mins, b->shape)).first->second;
    }

protected:
    Stmt visit(const BufferRealizeNode* op) override {
        std::vector<Expr> mins, extents;
        for (auto& r : op->bounds) {
            mins.push_back(mutate(r.min));
            extents.push_back(mutate(r.extent));
        }
        std::vector<DimAlign> aligns;
        if (auto it = aligns_.find(op->buffer->data.get()); it != aligns_.end()) aligns = it->second;
        FlatLayout layout = makeLayout(op->buffer, mins, extents, aligns);
        // A rank-0 (scalar) buffer is one element.
        if (layout.flat.sameAs(op->buffer))
            layout.flat = flatBufferLike(op->buffer, extents.empty() ? makeConst(DataType::int32(), int64_t(1)) : extents[0]);
        Buffer flat = layout.flat;

        // A nested realization of the same buffer shadows the outer one.
        auto it = layouts_.find(op->buffer.get());
        std::optional<FlatLayout> outer;
        if (it != layouts_.end()) outer = it->second;
        layouts_.insert_or_assign(op->buffer.get(), std::move(layout));
        Stmt body = mutate(op->body);
        if (outer)
            layouts_.insert_or_assign(op->buffer.get(), *outer);
        else
            layouts_.erase(op->buffer.get());
        return AllocateNode::make(flat, body);
    }

    /// A buffer_dim_align goes; its realization (the body) takes the alignment.
    Stmt visit(const AttrStmtNode* op) override {
        if (op->key != kBufferDimAlign) return IRMutator::visit(op);
        auto align = dimAlignOf(op->value);
        TESSEL_CHECK(align.has_value(), "buffer_dim_align without a (buffer, axis, factor, offset) tuple");
        std::vector<DimAlign>& list = aligns_[align->first];
        list.push_back(align->second);
        Stmt body = mutate(op->body);
        list.pop_back();
        if (list.empty()) aligns_.erase(align->first);
        return body;
    }

    Expr visit(const BufferLoadNode* op) override {
        std::vector<Expr> idx;
        bool changed = mutateAll(op->indices, idx);
        const FlatLayout& l = layoutOf(op->buffer);
        if (l.flat.sameAs(op->buffer))
            return changed ? BufferLoadNode::make(op->buffer, idx) : Expr(op);
        return BufferLoadNode::make(l.flat, {flatIndex(l, idx, op->buffer)});
    }

    Stmt visit(const BufferStoreNode* op) override {
        Expr value = mutate(op->value);
        std::vector<Expr> idx;
        bool changed = mutateAll(op->indices, idx) || !value.sameAs(op->value);
        const FlatLayout& l = layoutOf(op->buffer);
        if (l.flat.sameAs(op->buffer))
            return changed ? BufferStoreNode::make(op->buffer, value, idx) : Stmt(op);
        return BufferStoreNode::make(l.flat, value, {flatIndex(l, idx, op->buffer)});
    }

private:
    static Expr flatIndex(const FlatLayout& l, const std::vector<Expr>& idx, const Buffer& b) {
        TESSEL_CHECK(idx.size() == l.strides.size(),
                     "buffer " + b->name + " accessed with " + std::to_string(idx.size()) +
                         " indices but has " + std::to_string(l.strides.size()) + " dimensions");
        Expr flat;
        for (size_t i = 0; i < idx.size(); ++i) {
            // `i - i` (a region starting at the access's own variable, after compute_at) is 0.
            Expr offset =
                structuralEqual(idx[i], l.mins[i]) ? makeZero(idx[i].type()) : idx[i] - l.mins[i];
            Expr term = offset * l.strides[i];
            flat = flat.defined() ? flat + term : term;
        }
        return flat.defined() ? flat : makeConst(DataType::int32(), int64_t(0)); // a scalar
    }

    std::unordered_map<const BufferNode*, FlatLayout> layouts_;
    /// The alignments of the buffer_dim_align attributes around, by buffer data.
    std::unordered_map<const VarNode*, std::vector<DimAlign>> aligns_;
};

} // namespace

PrimFunc storageFlatten(const PrimFunc& f, const StorageFlattenOptions&) {
    StorageFlattener flattener;
    std::vector<Buffer> params;
    bool paramsChanged = false;
    for (auto& p : f->params) {
        params.push_back(flattener.layoutOf(p).flat);
        paramsChanged |= !params.back().sameAs(p);
    }
    Stmt body = flattener.mutate(f->body);
    if (!paramsChanged && body.sameAs(f->body)) return f;
    return PrimFunc::make(f->name, params, body);
}

} // namespace tessel::tir
