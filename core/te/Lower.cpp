#include "te/Lower.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"
#include "tir/Substitute.h"
#include "tir/arith/Analyzer.h"
#include "tir/arith/Simplify.h"
#include "tir/passes/SplitHostDevice.h"
#include "tir/passes/StorageFlatten.h"

#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tessel::te {

using namespace tir;

namespace {

using StagePtr = std::shared_ptr<StageData>;

/// The realization of `st`'s buffer `b` over `bounds` around `body`, under
/// one buffer_dim_align attribute per storage_align() of the stage.
Stmt realizeStage(const StageData& st, const Buffer& b, std::vector<Range> bounds, Stmt body) {
    Stmt s = BufferRealizeNode::make(b, std::move(bounds), std::move(body));
    for (auto it = st.storageAlign.rbegin(); it != st.storageAlign.rend(); ++it)
        s = AttrStmtNode::make(kBufferDimAlign,
                               CallNode::makeExtern(DataType::int32(), "tvm_tuple",
                                                    {b->data, makeConst(DataType::int32(), int64_t(it->axis)),
                                                     makeConst(DataType::int32(), it->factor),
                                                     makeConst(DataType::int32(), it->offset)}),
                               s);
    return s;
}

const ComputeOpNode* asCompute(const Operation& op) { return dynamic_cast<const ComputeOpNode*>(op.get()); }

Expr simp(const Expr& e) { return arith::simplify(e); }

/// Rewrites every tensor read: `rewrite(op, indices)` gets the operation the
/// read resolves to (through cache_read/cache_write replacements) and the
/// already rewritten indices, and returns the new expression.
class RewriteReads : public IRMutator {
public:
    using Rewrite = std::function<Expr(const Operation&, const ProducerLoadNode*, std::vector<Expr>)>;
    RewriteReads(const ScheduleData& sch, Rewrite rewrite) : sch_(sch), rewrite_(std::move(rewrite)) {}
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Expr visit(const ProducerLoadNode* op) override {
        std::vector<Expr> idx;
        mutateAll(op->indices, idx);
        auto* t = dynamic_cast<const TensorNode*>(op->producer.get());
        return rewrite_(sch_.resolve(t->op), op, std::move(idx));
    }

private:
    const ScheduleData& sch_;
    Rewrite rewrite_;
};

/// Replaces reads of inlined operations by their bodies.
Expr inlineReads(const ScheduleData& sch, const std::unordered_map<const OperationNode*, Expr>& inlined, const Expr& e) {
    return RewriteReads(sch, [&](const Operation& src, const ProducerLoadNode* op, std::vector<Expr> idx) {
        auto it = inlined.find(src.get());
        if (it == inlined.end()) return ProducerLoadNode::make(op->producer, idx);
        auto* c = asCompute(src);
        VarMap m;
        for (size_t i = 0; i < c->axis.size(); ++i) m[c->axis[i]->var.get()] = idx[i];
        return substitute(it->second, m);
    }).mutate(e);
}

/// Replaces tensor reads by loads of their buffers.
Expr bindBuffers(const ScheduleData& sch, const std::unordered_map<const OperationNode*, Buffer>& bufs, const Expr& e) {
    return RewriteReads(sch, [&](const Operation& src, const ProducerLoadNode*, std::vector<Expr> idx) {
        auto it = bufs.find(src.get());
        TESSEL_CHECK(it != bufs.end(), "no buffer for tensor " + src->name);
        return BufferLoadNode::make(it->second, idx);
    }).mutate(e);
}

/// An interval [min, max] of an index expression, or unknown.
struct Interval {
    Expr min, max;
    bool known() const { return min.defined(); }
};

Interval evalBound(const Expr& e, const std::unordered_map<const VarNode*, Range>& relax) {
    auto point = [&](const Expr& x) -> Interval {
        bool uses = false;
        postOrderVisit(x, [&](const Object* n) {
            if (auto* v = dynamic_cast<const VarNode*>(n)) uses |= relax.count(v) > 0;
        });
        return uses ? Interval{} : Interval{x, x};
    };
    if (auto* v = e.as<VarNode>()) {
        auto it = relax.find(v);
        if (it == relax.end()) return {e, e};
        return {it->second.min, it->second.min + it->second.extent - 1};
    }
    if (e.as<IntImmNode>()) return {e, e};
    if (auto* op = e.as<AddNode>()) {
        auto a = evalBound(op->a, relax), b = evalBound(op->b, relax);
        if (!a.known() || !b.known()) return {};
        return {a.min + b.min, a.max + b.max};
    }
    if (auto* op = e.as<SubNode>()) {
        auto a = evalBound(op->a, relax), b = evalBound(op->b, relax);
        if (!a.known() || !b.known()) return {};
        return {a.min - b.max, a.max - b.min};
    }
    if (auto* op = e.as<MulNode>()) {
        auto a = evalBound(op->a, relax), b = evalBound(op->b, relax);
        if (!a.known() || !b.known()) return {};
        auto cb = asConstInt(op->b), ca = asConstInt(op->a);
        if (cb) return *cb >= 0 ? Interval{a.min * op->b, a.max * op->b} : Interval{a.max * op->b, a.min * op->b};
        if (ca) return *ca >= 0 ? Interval{op->a * b.min, op->a * b.max} : Interval{op->a * b.max, op->a * b.min};
        return point(e);
    }
    if (auto* op = e.as<FloorDivNode>()) {
        auto c = asConstInt(op->b);
        auto a = evalBound(op->a, relax);
        if (!c || *c <= 0 || !a.known()) return point(e);
        return {floordiv(a.min, op->b), floordiv(a.max, op->b)};
    }
    if (auto* op = e.as<FloorModNode>()) {
        auto c = asConstInt(op->b);
        if (!c || *c <= 0) return point(e);
        Interval p = point(e);
        if (p.known()) return p;
        return {Expr(0), Expr(int(*c - 1))};
    }
    if (auto* op = e.as<MinNode>()) {
        auto a = evalBound(op->a, relax), b = evalBound(op->b, relax);
        if (!a.known() || !b.known()) return {};
        return {tir::min(a.min, b.min), tir::min(a.max, b.max)};
    }
    if (auto* op = e.as<MaxNode>()) {
        auto a = evalBound(op->a, relax), b = evalBound(op->b, relax);
        if (!a.known() || !b.known()) return {};
        return {tir::max(a.min, b.min), tir::max(a.max, b.max)};
    }
    return point(e);
}

/// Every index tuple with which `e` reads `buf`.
std::vector<std::vector<Expr>> accessesOf(const Expr& e, const Buffer& buf) {
    std::vector<std::vector<Expr>> out;
    postOrderVisit(e, [&](const Object* n) {
        auto* x = dynamic_cast<const BaseExprNode*>(n);
        if (!x || x->kind != NodeKind::BufferLoad) return;
        auto* l = static_cast<const BufferLoadNode*>(x);
        if (l->buffer.get() == buf.get()) out.push_back(l->indices);
    });
    return out;
}

class Lowerer {
public:
    Lowerer(const Schedule& sch, const std::vector<Tensor>& args, LoweringRecord* record)
        : sch_(sch), data_(sch.data()), args_(args), record_(record) {}

    PrimFunc run(const std::string& name) {
        prepare();
        std::vector<Buffer> params;
        std::unordered_set<const OperationNode*> argOps;
        for (auto& a : args_) {
            Operation op = data_.resolve(a->op);
            auto it = bufs_.find(op.get());
            if (it == bufs_.end()) {
                auto st = stageByOp_.find(op.get());
                if (st != stageByOp_.end() && st->second->attach == AttachKind::Inline)
                    throw CompileError("argument '" + a.name() + "' was inlined (compute_inline) and has no buffer");
                throw CompileError("argument '" + a.name() + "' is not part of the schedule");
            }
            if (!argOps.insert(op.get()).second)
                throw CompileError("argument '" + a.name() + "' is listed twice");
            params.push_back(it->second);
        }
        std::vector<Stmt> seq;
        std::vector<StagePtr> realizeAtRoot;
        for (auto& st : data_.stages) {
            if (st->op->opKind() == OpKind::Placeholder) {
                if (!argOps.count(st->op.get()))
                    throw CompileError("input '" + st->op->name + "' is not among the function's arguments");
                continue;
            }
            if (st->attach != AttachKind::Root) continue;
            seq.push_back(makeStage(st, fullRanges(st)));
            if (!argOps.count(st->op.get())) realizeAtRoot.push_back(st);
        }
        for (auto& st : data_.stages)
            if (st->attach == AttachKind::Scope && !placed_.count(st.get()))
                throw CompileError("compute_at: stage '" + st->op->name + "' is attached to a loop that is not lowered");
        Stmt body = SeqStmtNode::make(seq);
        for (auto it = realizeAtRoot.rbegin(); it != realizeAtRoot.rend(); ++it) {
            const Buffer& b = bufs_.at((*it)->op.get());
            std::vector<Range> bounds;
            for (auto& d : b->shape) bounds.emplace_back(Expr(0), d);
            body = realizeStage(**it, b, bounds, body);
        }
        return PrimFunc::make(name, params, body);
    }

private:
    void prepare() {
        std::unordered_map<const OperationNode*, Expr> inlined;
        for (auto& st : data_.stages) {
            stageByOp_[st->op.get()] = st;
            if (st->op->opKind() == OpKind::Placeholder) {
                auto* p = static_cast<const PlaceholderOpNode*>(st->op.get());
                bufs_[st->op.get()] = Buffer::make(p->name, p->dtype, p->shape, "global");
                continue;
            }
            auto* c = asCompute(st->op);
            if (c->numOutputs() != 1) throw CompileError("'" + c->name + "': multi-output computes are not supported yet");
            Expr body = inlineReads(data_, inlined, c->body[0]);
            if (st->attach == AttachKind::Inline) {
                inlined[st->op.get()] = body;
                continue;
            }
            bodies_[st->op.get()] = body;
            Buffer b = Buffer::make(c->name, body.type(), c->outputShape(0), st->scope);
            bufs_[st->op.get()] = b;
            if (record_) record_->buffers[b->data.get()] = {st, b->data};
        }
        for (auto& [op, body] : bodies_) body = bindBuffers(data_, bufs_, body);
        for (auto& st : data_.stages) {
            if (st->attach != AttachKind::Scope) continue;
            StagePtr parent = st->attachStage.lock();
            if (!parent || parent->attach == AttachKind::Inline)
                throw CompileError("compute_at: the stage '" + st->op->name + "' is attached to is gone (inlined?)");
            children_[parent.get()][st->attachIter.get()].push_back(st);
        }
    }

    std::map<const IterVarNode*, Range> fullRanges(const StagePtr& st) {
        std::map<const IterVarNode*, Range> r;
        auto* c = asCompute(st->op);
        for (auto& iv : c->axis) r[iv.get()] = iv->dom;
        for (auto& iv : c->reduceAxis) r[iv.get()] = iv->dom;
        return r;
    }

    struct Nest {
        std::map<const IterVarNode*, Range> range;
        std::map<const IterVarNode*, Expr> value;
        std::vector<Expr> guards;        // all
        std::vector<Expr> dataGuards;    // only data-parallel roots
    };

    Nest deriveNest(const StagePtr& st, const std::map<const IterVarNode*, Range>& roots) {
        Nest n;
        n.range = roots;
        for (auto& r : st->relations) {
            if (r.kind == IterRelation::Kind::Split) {
                Range p = n.range.at(r.parent.get());
                Expr f = r.factor;
                Expr ceil = simp(floordiv(p.extent + f - 1, f));
                if (r.byNParts) {
                    n.range[r.outer.get()] = Range(Expr(0), f);
                    n.range[r.inner.get()] = Range(Expr(0), ceil);
                } else {
                    n.range[r.outer.get()] = Range(Expr(0), ceil);
                    n.range[r.inner.get()] = Range(Expr(0), f);
                }
            } else {
                Range a = n.range.at(r.outer.get()), b = n.range.at(r.inner.get());
                n.range[r.fused.get()] = Range(Expr(0), simp(a.extent * b.extent));
            }
        }
        // Every loop runs from 0; a root loop's variable is offset by its range's min.
        for (auto& l : st->leafIterVars) {
            auto root = roots.find(l.get());
            n.value[l.get()] = root == roots.end() || isZero(root->second.min) ? Expr(l->var) : root->second.min + l->var;
        }
        for (auto it = st->relations.rbegin(); it != st->relations.rend(); ++it) {
            auto& r = *it;
            if (r.kind == IterRelation::Kind::Split) {
                Range p = n.range.at(r.parent.get());
                Expr innerExt = n.range.at(r.inner.get()).extent;
                n.value[r.parent.get()] = p.min + n.value.at(r.outer.get()) * innerExt + n.value.at(r.inner.get());
                auto ext = asConstInt(simp(p.extent));
                auto f = asConstInt(simp(innerExt));
                bool exact = ext && f && *ext % *f == 0 &&
                             (!r.byNParts || *ext / *f == *asConstInt(simp(n.range.at(r.outer.get()).extent)));
                if (!exact) {
                    Expr g = n.value.at(r.parent.get()) < p.min + p.extent;
                    n.guards.push_back(g);
                    if (r.parent->kind != IterVarKind::CommReduce) n.dataGuards.push_back(g);
                }
            } else {
                Range a = n.range.at(r.outer.get()), b = n.range.at(r.inner.get());
                Expr fv = n.value.at(r.fused.get());
                n.value[r.outer.get()] = a.min + floordiv(fv, b.extent);
                n.value[r.inner.get()] = b.min + floormod(fv, b.extent);
            }
        }
        return n;
    }

    static ForKind forKindOf(const StagePtr& st, const IterVar& iv) {
        if (st->bindings.count(iv.get())) return ForKind::ThreadBinding;
        auto it = st->annotations.find(iv.get());
        if (it == st->annotations.end()) return ForKind::Serial;
        switch (it->second) {
        case IterAnnotation::Vectorize: return ForKind::Vectorized;
        case IterAnnotation::Unroll: return ForKind::Unrolled;
        case IterAnnotation::Parallel: return ForKind::Parallel;
        default: return ForKind::Serial;
        }
    }

    Stmt makeLoop(const StagePtr& st, const IterVar& iv, const Var& var, const Range& r, Stmt body) {
        ForKind k = forKindOf(st, iv);
        Expr ext = simp(r.extent);
        if (k == ForKind::Vectorized && !asConstInt(ext))
            throw CompileError("vectorize: loop '" + iv->var.name() + "' of stage '" + st->op->name +
                               "' has extent " + toString(ext) +
                               ", which is not a constant; split it by a constant factor first");
        std::vector<std::pair<std::string, Expr>> ann;
        if (auto p = st->pragmas.find(iv.get()); p != st->pragmas.end())
            for (auto& [key, v] : p->second) ann.emplace_back("pragma_" + key, v);
        if (record_) record_->loops[var.get()] = {st, iv, var, !var.sameAs(iv->var)};
        std::string thread;
        if (k == ForKind::ThreadBinding) thread = st->bindings.at(iv.get())->threadTag;
        if (st->launchMinBlocks > 0 && k == ForKind::ThreadBinding && !tir::isVirtualThreadTag(thread))
            ann.emplace_back(tir::kLaunchMinBlocks, makeConst(DataType::int32(), st->launchMinBlocks));
        return ForNode::make(var, Expr(0), ext, k, body, ann, thread);
    }

    static Stmt guarded(const std::vector<Expr>& guards, Stmt s) {
        if (guards.empty()) return s;
        Expr c = guards[0];
        for (size_t i = 1; i < guards.size(); ++i) c = c && guards[i];
        // likely(): the guard of a non-dividing split, which loop-partition peels off
        // and vectorize must not turn into an out-of-bounds select.
        return IfThenElseNode::make(call(Intrinsic::Likely, {c}), s);
    }

    Stmt makeStage(const StagePtr& st, const std::map<const IterVarNode*, Range>& roots) {
        placed_.insert(st.get());
        auto* c = asCompute(st->op);
        const Buffer& buf = bufs_.at(st->op.get());
        Nest nest = deriveNest(st, roots);
        VarMap rootMap;
        std::vector<Expr> index;
        for (auto& iv : c->axis) {
            rootMap[iv->var.get()] = nest.value.at(iv.get());
            index.push_back(nest.value.at(iv.get()));
        }
        for (auto& iv : c->reduceAxis) rootMap[iv->var.get()] = nest.value.at(iv.get());
        // A stage computed at a consumer's loop covers the region the consumer
        // reads there, which can reach past the stage's own domain (the last block
        // of a non-dividing tile). Guard those points, as TVM's MakeBoundCheck
        // does; the simplifier drops the guards it can prove, loop-partition the rest.
        if (st->attach == AttachKind::Scope) {
            arith::Analyzer an;
            for (auto& [v, r] : scopeRanges_) an.bind(v, r);
            for (auto& l : st->leafIterVars) an.bind(l->var, Range(Expr(0), nest.range.at(l.get()).extent));
            for (auto& iv : c->axis) {
                Expr v = nest.value.at(iv.get());
                for (Expr g : {v < iv->dom.min + iv->dom.extent, iv->dom.min <= v}) {
                    if (an.canProve(g)) continue;
                    g = simp(g);
                    nest.guards.push_back(g);
                    nest.dataGuards.push_back(g);
                }
            }
        }
        Expr body = bodies_.at(st->op.get());
        Stmt update, init;
        if (auto* red = body.as<ReduceNode>()) {
            Expr src = substitute(red->source, rootMap);
            Stmt upd = BufferStoreNode::make(buf, reduceCombine(red->combiner, BufferLoadNode::make(buf, index), src), index);
            if (red->condition.defined()) upd = IfThenElseNode::make(substitute(red->condition, rootMap), upd);
            update = guarded(nest.guards, upd);
            init = guarded(nest.dataGuards, BufferStoreNode::make(buf, reduceIdentity(red->combiner, buf->dtype), index));
        } else {
            update = guarded(nest.guards, BufferStoreNode::make(buf, substitute(body, rootMap), index));
        }
        // Reads of this stage's body, for the regions of stages attached to it.
        Expr reads = body.as<ReduceNode>() ? substitute(body.as<ReduceNode>()->source, rootMap)
                                           : substitute(body, rootMap);
        auto regions = childRegions(st, reads, nest);
        const auto& leaves = st->leafIterVars;
        size_t firstReduce = leaves.size();
        for (size_t i = 0; i < leaves.size(); ++i)
            if (leaves[i]->kind == IterVarKind::CommReduce) {
                firstReduce = i;
                break;
            }
        Stmt s = update;
        for (size_t p = leaves.size(); p-- > 0;) {
            s = attachChildren(st, p, nest, s, regions);
            s = makeLoop(st, leaves[p], leaves[p]->var, nest.range.at(leaves[p].get()), s);
            if (p == firstReduce && init.defined()) s = SeqStmtNode::make({makeInit(st, nest, p, init), s});
        }
        if (firstReduce == leaves.size() && init.defined())
            s = SeqStmtNode::make({init, s}); // all reduce axes of extent... (no reduce leaf: degenerate)
        return s;
    }

    /// The init nest of a reduction: the data-parallel leaves inside position p, with fresh variables.
    Stmt makeInit(const StagePtr& st, const Nest& nest, size_t p, Stmt init) {
        const auto& leaves = st->leafIterVars;
        VarMap fresh;
        std::vector<std::pair<IterVar, Var>> loops;
        for (size_t i = p; i < leaves.size(); ++i) {
            if (leaves[i]->kind == IterVarKind::CommReduce) continue;
            Var v(leaves[i]->var.name() + "_init");
            fresh[leaves[i]->var.get()] = v;
            loops.emplace_back(leaves[i], v);
        }
        Stmt s = substitute(init, fresh);
        for (auto it = loops.rbegin(); it != loops.rend(); ++it)
            s = makeLoop(st, it->first, it->second, nest.range.at(it->first.get()), s);
        return s;
    }

    /// The body a stage reads through, in its own root variables.
    Expr readsOf(const StagePtr& st) const {
        Expr b = bodies_.at(st->op.get());
        if (auto* r = b.as<ReduceNode>()) return r->source;
        return b;
    }

    /// Regions of the stages attached to `st`, as ranges over st's loop variables.
    /// A child's region covers what `st` reads of it inside its loop, and what any
    /// stage attached deeper in `st` (or later at the same loop) reads of it.
    std::unordered_map<const StageData*, std::vector<Range>> childRegions(const StagePtr& st, const Expr& reads,
                                                                          const Nest& nest) {
        std::unordered_map<const StageData*, std::vector<Range>> regions;
        auto cit = children_.find(st.get());
        if (cit == children_.end()) return regions;
        const auto& leaves = st->leafIterVars;
        // (position, child) from the innermost loop outwards, consumers before producers.
        std::vector<std::pair<size_t, StagePtr>> order;
        for (size_t p = leaves.size(); p-- > 0;) {
            auto lit = cit->second.find(leaves[p].get());
            if (lit == cit->second.end()) continue;
            for (auto it = lit->second.rbegin(); it != lit->second.rend(); ++it) order.emplace_back(p, *it);
        }
        for (size_t i = 0; i < order.size(); ++i) {
            auto [p, child] = order[i];
            std::unordered_map<const VarNode*, Range> relaxS;
            // Loops run from 0 (a root leaf's value adds its range's min): relax
            // the variables over [0, extent).
            auto loopRange = [&](size_t j) { return Range(Expr(0), nest.range.at(leaves[j].get()).extent); };
            for (size_t j = p + 1; j < leaves.size(); ++j) relaxS[leaves[j]->var.get()] = loopRange(j);
            // A "shared" stage is computed once per GPU block for all its threads
            // (TVM's InferBound relaxes the thread loops around it the same way).
            if (child->scope == "shared") {
                for (size_t j = 0; j <= p && j < leaves.size(); ++j)
                    if (isBlockShared(st, leaves[j])) relaxS[leaves[j]->var.get()] = loopRange(j);
                for (auto& [v, r] : threadScopes_) relaxS[v.get()] = r;
            }
            const Buffer& cb = bufs_.at(child->op.get());
            auto* cc = asCompute(child->op);
            std::vector<Expr> mn(cc->axis.size()), mx(cc->axis.size());
            std::vector<bool> unknown(cc->axis.size(), false);
            auto addAccesses = [&](const Expr& body, const std::unordered_map<const VarNode*, Range>& relaxInner) {
                for (auto& acc : accessesOf(body, cb)) {
                    for (size_t d = 0; d < acc.size(); ++d) {
                        Interval in = evalBound(acc[d], relaxInner);
                        if (!in.known()) {
                            unknown[d] = true;
                            continue;
                        }
                        Interval lo = evalBound(in.min, relaxS), hi = evalBound(in.max, relaxS);
                        if (!lo.known() || !hi.known()) {
                            unknown[d] = true;
                            continue;
                        }
                        mn[d] = mn[d].defined() ? tir::min(mn[d], lo.min) : lo.min;
                        mx[d] = mx[d].defined() ? tir::max(mx[d], hi.max) : hi.max;
                    }
                }
            };
            addAccesses(reads, {});
            // Consumers attached inside (processed earlier in `order`, so their regions exist).
            for (size_t j = 0; j < i; ++j) {
                const StagePtr& q = order[j].second;
                auto* qc = asCompute(q->op);
                const auto& qr = regions.at(q.get());
                std::unordered_map<const VarNode*, Range> relaxQ;
                for (size_t d = 0; d < qc->axis.size(); ++d) relaxQ[qc->axis[d]->var.get()] = qr[d];
                for (auto& iv : qc->reduceAxis) relaxQ[iv->var.get()] = iv->dom;
                addAccesses(readsOf(q), relaxQ);
            }
            if (!mn[0].defined() && !unknown[0])
                throw CompileError("compute_at: stage '" + child->op->name + "' is not read by stage '" + st->op->name +
                                   "' or by the stages computed inside it");
            std::vector<Range> region;
            for (size_t d = 0; d < cc->axis.size(); ++d) {
                if (unknown[d] || !mn[d].defined()) region.push_back(cc->axis[d]->dom);
                else region.emplace_back(simp(mn[d]), simp(mx[d] - mn[d] + 1));
            }
            regions[child.get()] = region;
        }
        return regions;
    }

    Stmt attachChildren(const StagePtr& st, size_t p, const Nest& nest, Stmt inner,
                        const std::unordered_map<const StageData*, std::vector<Range>>& regions) {
        auto cit = children_.find(st.get());
        if (cit == children_.end()) return inner;
        auto lit = cit->second.find(st->leafIterVars[p].get());
        if (lit == cit->second.end()) return inner;
        std::vector<Stmt> pre;
        std::vector<std::pair<StagePtr, std::vector<Range>>> realizes;
        for (auto& child : lit->second) {
            const Buffer& cb = bufs_.at(child->op.get());
            auto* cc = asCompute(child->op);
            const auto& region = regions.at(child.get());
            std::map<const IterVarNode*, Range> roots;
            for (size_t d = 0; d < cc->axis.size(); ++d) roots[cc->axis[d].get()] = region[d];
            for (auto& iv : cc->reduceAxis) roots[iv.get()] = iv->dom;
            size_t threadsBefore = threadScopes_.size();
            for (size_t j = 0; j <= p; ++j) {
                Range r(Expr(0), nest.range.at(st->leafIterVars[j].get()).extent);
                scopeRanges_.emplace_back(st->leafIterVars[j]->var, r);
                if (isBlockShared(st, st->leafIterVars[j])) threadScopes_.emplace_back(st->leafIterVars[j]->var, r);
            }
            Stmt produce = makeStage(child, roots);
            // Marks the statement that fills a double-buffered stage, for inject-double-buffer.
            if (child->doubleBuffer) produce = AttrStmtNode::make("double_buffer_write", cb->data, produce);
            pre.push_back(produce);
            scopeRanges_.resize(scopeRanges_.size() - (p + 1));
            threadScopes_.resize(threadsBefore);
            realizes.emplace_back(child, region);
        }
        pre.push_back(inner);
        Stmt s = SeqStmtNode::make(pre);
        for (auto it = realizes.rbegin(); it != realizes.rend(); ++it)
            s = realizeStage(*it->first, bufs_.at(it->first->op.get()), it->second, s);
        return s;
    }

    const Schedule& sch_;
    const ScheduleData& data_;
    const std::vector<Tensor>& args_;
    LoweringRecord* record_;
    std::unordered_map<const OperationNode*, Buffer> bufs_;
    std::unordered_map<const OperationNode*, Expr> bodies_;
    std::unordered_map<const OperationNode*, StagePtr> stageByOp_;
    std::unordered_map<const StageData*, std::map<const IterVarNode*, std::vector<StagePtr>>> children_;
    std::unordered_set<const StageData*> placed_;
    /// A loop a "shared" stage inside it covers all of: threadIdx, and virtual
    /// threads, which run inside one real thread (TVM's InferBound ranks them so).
    static bool isBlockShared(const StagePtr& st, const IterVar& leaf) {
        auto b = st->bindings.find(leaf.get());
        if (b == st->bindings.end()) return false;
        const std::string& tag = b->second->threadTag;
        return tag.rfind("threadIdx.", 0) == 0 || tir::isVirtualThreadTag(tag);
    }

    /// Ranges of the loops enclosing the stage being built (for its bound guards).
    std::vector<std::pair<Var, Range>> scopeRanges_;
    /// Those of them bound to threadIdx.* or a virtual thread.
    std::vector<std::pair<Var, Range>> threadScopes_;
};

} // namespace

PrimFunc scheduleToPrimFunc(const Schedule& sch, const std::vector<Tensor>& args, const std::string& name,
                            LoweringRecord* record) {
    if (!sch.defined()) throw CompileError("no schedule to lower");
    if (args.empty()) throw CompileError("lowering needs the function's arguments (inputs and outputs)");
    return Lowerer(sch, args, record).run(name);
}

} // namespace tessel::te
