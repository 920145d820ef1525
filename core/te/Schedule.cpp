#include "te/Schedule.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/Substitute.h"

#include <algorithm>
#include <set>

namespace tessel::te {

using namespace tir;

namespace {
void checkScope(const char* primitive, const std::string& scope) {
    if (scope != "global" && scope != "shared" && scope != "local")
        throw CompileError(std::string(primitive) + ": scope must be \"global\", \"shared\" or \"local\", not \"" +
                           scope + "\"");
}
} // namespace

const char* iterAnnotationName(IterAnnotation a) {
    switch (a) {
    case IterAnnotation::None: return "serial";
    case IterAnnotation::Unroll: return "unroll";
    case IterAnnotation::Vectorize: return "vectorize";
    case IterAnnotation::Parallel: return "parallel";
    }
    return "?";
}

Operation ScheduleData::resolve(Operation op) const {
    for (bool changed = true; changed;) {
        changed = false;
        for (auto& [from, to] : replaced)
            if (from.get() == op.get()) {
                op = to;
                changed = true;
            }
    }
    return op;
}

namespace {

std::string ivName(IterVar iv) { return iv->var.name(); }

IterVar newIter(const std::string& name, IterVarKind kind) { return IterVar::make(Range(), Var(name), kind); }

/// The constant extent of a leaf when every root extent is constant.
std::optional<int64_t> constExtent(const StageData& s, IterVar iv) {
    if (iv->dom.extent.defined()) return asConstInt(iv->dom.extent);
    for (auto& r : s.relations) {
        if (r.kind == IterRelation::Kind::Split && (r.outer.sameAs(iv) || r.inner.sameAs(iv))) {
            auto p = constExtent(s, r.parent);
            auto f = asConstInt(r.factor);
            if (!p || !f) return std::nullopt;
            int64_t ceil = (*p + *f - 1) / *f;
            bool isInner = r.inner.sameAs(iv);
            return r.byNParts ? (isInner ? ceil : *f) : (isInner ? *f : ceil);
        }
        if (r.kind == IterRelation::Kind::Fuse && r.fused.sameAs(iv)) {
            auto a = constExtent(s, r.outer), b = constExtent(s, r.inner);
            if (!a || !b) return std::nullopt;
            return *a * *b;
        }
    }
    return std::nullopt;
}

} // namespace

std::string Stage::stageName() const { return d_->op->name; }

size_t Stage::leafIndex(IterVar iv) const {
    auto& l = d_->leafIterVars;
    for (size_t i = 0; i < l.size(); ++i)
        if (l[i].sameAs(iv)) return i;
    return l.size();
}

void Stage::checkLeaf(IterVar iv, const char* primitive) const {
    if (!iv.defined()) throw CompileError(std::string(primitive) + ": expected a loop (IterVar)");
    if (leafIndex(iv) < d_->leafIterVars.size()) {
        // A bound loop keeps its shape: what would split or annotate it is a mistake.
        static const std::set<std::string_view> changes = {"split", "tile", "fuse", "vectorize", "unroll", "parallel"};
        if (auto b = d_->bindings.find(iv.get()); b != d_->bindings.end() && changes.count(primitive))
            throw CompileError(std::string(primitive) + ": loop '" + ivName(iv) + "' is bound to " +
                               b->second->threadTag + "; " + primitive + " it before bind");
        return;
    }
    bool ours = std::any_of(d_->allIterVars.begin(), d_->allIterVars.end(), [&](auto& v) { return v.sameAs(iv); });
    if (ours)
        throw CompileError(std::string(primitive) + ": loop '" + ivName(iv) + "' of stage '" + stageName() +
                           "' was already split or fused; use the loops that replaced it");
    if (auto sch = d_->owner.lock()) {
        for (auto& other : sch->stages)
            for (auto& v : other->allIterVars)
                if (v.sameAs(iv))
                    throw CompileError(std::string(primitive) + ": loop '" + ivName(iv) + "' belongs to stage '" +
                                       other->op->name + "', not to stage '" + stageName() + "'");
    }
    throw CompileError(std::string(primitive) + ": '" + ivName(iv) + "' is not a loop of stage '" + stageName() + "'");
}

std::pair<IterVar, IterVar> Stage::split(IterVar parent, Expr factor) {
    checkLeaf(parent, "split");
    auto f = asConstInt(factor);
    if (!factor.defined() || !factor.type().isIntOrUInt() || (f && *f <= 0))
        throw CompileError("split: factor must be a positive integer");
    IterVar outer = newIter(ivName(parent) + "_outer", parent->kind);
    IterVar inner = newIter(ivName(parent) + "_inner", parent->kind);
    IterRelation r{IterRelation::Kind::Split, parent, outer, inner, cast(DataType::int32(), factor), false, {}};
    d_->relations.push_back(r);
    d_->allIterVars.push_back(outer);
    d_->allIterVars.push_back(inner);
    size_t i = leafIndex(parent);
    d_->leafIterVars[i] = outer;
    d_->leafIterVars.insert(d_->leafIterVars.begin() + i + 1, inner);
    return {outer, inner};
}

std::pair<IterVar, IterVar> Stage::splitByNParts(IterVar parent, Expr nparts) {
    checkLeaf(parent, "split");
    auto f = asConstInt(nparts);
    if (!nparts.defined() || !nparts.type().isIntOrUInt() || (f && *f <= 0))
        throw CompileError("split: nparts must be a positive integer");
    auto [outer, inner] = split(parent, Expr(1));
    auto& r = d_->relations.back();
    r.factor = cast(DataType::int32(), nparts);
    r.byNParts = true;
    return {outer, inner};
}

std::tuple<IterVar, IterVar, IterVar, IterVar> Stage::tile(IterVar x, IterVar y, Expr xf, Expr yf) {
    checkLeaf(x, "tile");
    checkLeaf(y, "tile");
    if (x.sameAs(y)) throw CompileError("tile: the two loops must differ");
    auto [xo, xi] = split(x, xf);
    auto [yo, yi] = split(y, yf);
    reorder({xo, yo, xi, yi});
    return {xo, yo, xi, yi};
}

IterVar Stage::fuse(IterVar outer, IterVar inner) {
    checkLeaf(outer, "fuse");
    checkLeaf(inner, "fuse");
    size_t a = leafIndex(outer), b = leafIndex(inner);
    if (b != a + 1)
        throw CompileError("fuse: loops '" + ivName(outer) + "' and '" + ivName(inner) +
                           "' must be adjacent, outer first (reorder them first)");
    if ((outer->kind == IterVarKind::CommReduce) != (inner->kind == IterVarKind::CommReduce))
        throw CompileError("fuse: cannot fuse a reduction loop with a data-parallel loop");
    IterVar fused = newIter(ivName(outer) + "_" + ivName(inner) + "_fused", outer->kind);
    IterRelation r{IterRelation::Kind::Fuse, {}, outer, inner, {}, false, fused};
    d_->relations.push_back(r);
    d_->allIterVars.push_back(fused);
    d_->leafIterVars[a] = fused;
    d_->leafIterVars.erase(d_->leafIterVars.begin() + b);
    return fused;
}

void Stage::reorder(std::vector<IterVar> order) {
    std::vector<size_t> pos;
    for (auto& iv : order) {
        checkLeaf(iv, "reorder");
        size_t p = leafIndex(iv);
        if (std::find(pos.begin(), pos.end(), p) != pos.end())
            throw CompileError("reorder: loop '" + ivName(iv) + "' is named twice");
        pos.push_back(p);
    }
    std::vector<size_t> sorted = pos;
    std::sort(sorted.begin(), sorted.end());
    auto leaves = d_->leafIterVars;
    for (size_t i = 0; i < order.size(); ++i) leaves[sorted[i]] = order[i];
    d_->leafIterVars = leaves;
}

void Stage::vectorize(IterVar iv) {
    checkLeaf(iv, "vectorize");
    if (iv->kind == IterVarKind::CommReduce)
        throw CompileError("vectorize: '" + ivName(iv) + "' is a reduction loop; only data-parallel loops can be vectorized");
    if (d_->attach == AttachKind::Root && !constExtent(*d_, iv))
        throw CompileError("vectorize: loop '" + ivName(iv) + "' has no constant extent; split it by a constant factor first");
    d_->annotations[iv.get()] = IterAnnotation::Vectorize;
}

void Stage::unroll(IterVar iv) {
    checkLeaf(iv, "unroll");
    d_->annotations[iv.get()] = IterAnnotation::Unroll;
}

void Stage::parallel(IterVar iv) {
    checkLeaf(iv, "parallel");
    if (iv->kind == IterVarKind::CommReduce)
        throw CompileError("parallel: '" + ivName(iv) + "' is a reduction loop; parallel threads would race on the result");
    d_->annotations[iv.get()] = IterAnnotation::Parallel;
}

void Stage::pragma(IterVar iv, std::string key, Expr value) {
    checkLeaf(iv, "pragma");
    if (key.empty()) throw CompileError("pragma: the name must not be empty");
    if (key == "llvm_unroll") {
        auto* n = value.as<tir::IntImmNode>();
        if (!n || n->value < 0)
            throw CompileError("pragma llvm_unroll: expected a count >= 0 (0: LLVM must not unroll the loop)");
    }
    d_->pragmas[iv.get()].emplace_back(std::move(key), std::move(value));
}

bool isThreadTag(std::string_view tag) {
    static const char* tags[] = {"blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z"};
    for (auto* t : tags)
        if (tag == t) return true;
    return tir::isVirtualThreadTag(std::string(tag));
}

IterVar threadAxis(const std::string& tag, Range dom) {
    if (!isThreadTag(tag))
        throw CompileError("thread_axis: unknown thread tag \"" + tag +
                           "\"; expected blockIdx.x/y/z, threadIdx.x/y/z or vthread (vthread.x/y/z)");
    if (dom.extent.defined()) {
        auto ext = asConstInt(dom.extent);
        if (!ext || *ext <= 0)
            throw CompileError("thread_axis: the extent of \"" + tag + "\" must be a positive constant");
    }
    return IterVar::make(dom, Var(tag), IterVarKind::ThreadIndex, tag);
}

void Stage::bind(IterVar iv, IterVar thread) {
    checkLeaf(iv, "bind");
    if (!thread.defined() || thread->kind != IterVarKind::ThreadIndex)
        throw CompileError("bind: the second argument must be a thread axis, as te.thread_axis(\"threadIdx.x\") makes");
    if (iv->kind == IterVarKind::CommReduce)
        throw CompileError("bind: '" + ivName(iv) +
                           "' is a reduction loop; threads would race on the result (bind a data-parallel loop, "
                           "or rfactor the reduction first)");
    if (auto a = d_->annotations.find(iv.get()); a != d_->annotations.end() && a->second != IterAnnotation::None)
        throw CompileError("bind: loop '" + ivName(iv) + "' is already " + iterAnnotationName(a->second) + "d");
    for (auto& [leaf, t] : d_->bindings)
        if (leaf != iv.get() && t->threadTag == thread->threadTag && !tir::isVirtualThreadTag(thread->threadTag))
            throw CompileError("bind: stage '" + stageName() + "' already binds a loop to " + thread->threadTag);
    d_->bindings[iv.get()] = thread;
}

void Stage::doubleBuffer() {
    if (d_->op->opKind() == OpKind::Placeholder)
        throw CompileError("double_buffer: '" + stageName() + "' is an input; double-buffer a cache_read of it");
    if (d_->isOutput) throw CompileError("double_buffer: '" + stageName() + "' is an output of the schedule");
    d_->doubleBuffer = true;
}

void Stage::launchBounds(int64_t minBlocks) {
    if (d_->op->opKind() == OpKind::Placeholder)
        throw CompileError("launch_bounds: '" + stageName() + "' is an input; give it to the stage its kernel computes");
    // 32 resident blocks per SM is the most any GPU since sm_50 holds.
    if (minBlocks < 1 || minBlocks > 32)
        throw CompileError("launch_bounds: min_blocks must be 1 to 32 (blocks per SM), not " + std::to_string(minBlocks));
    d_->launchMinBlocks = minBlocks;
}

void Stage::storageAlign(IterVar axis, int64_t factor, int64_t offset) {
    auto* c = dynamic_cast<const ComputeOpNode*>(d_->op.get());
    if (!c) throw CompileError("storage_align: '" + stageName() + "' is an input; align a cache_read of it");
    size_t index = c->axis.size();
    for (size_t i = 0; i < c->axis.size(); ++i)
        if (c->axis[i].sameAs(axis)) index = i;
    if (index == c->axis.size())
        throw CompileError("storage_align: '" + ivName(axis) + "' is not an axis of stage '" + stageName() +
                           "' (give one of " + stageName() + ".op.axis)");
    if (factor < 1 || offset < 0 || offset >= factor)
        throw CompileError("storage_align: the factor must be at least 1 and the offset in [0, factor), not " +
                           std::to_string(factor) + " and " + std::to_string(offset));
    for (auto& a : d_->storageAlign)
        if (a.axis == index) {
            a.factor = factor;
            a.offset = offset;
            return;
        }
    d_->storageAlign.push_back({index, factor, offset});
}

void Stage::computeAt(const Stage& parent, IterVar scope) {
    if (!parent.defined()) throw CompileError("compute_at: expected a stage");
    if (parent.d_ == d_) throw CompileError("compute_at: stage '" + stageName() + "' cannot be computed at itself");
    if (d_->op->opKind() == OpKind::Placeholder)
        throw CompileError("compute_at: '" + stageName() + "' is an input; only computed stages can move");
    if (d_->isOutput) throw CompileError("compute_at: '" + stageName() + "' is an output of the schedule and stays at root");
    parent.checkLeaf(scope, "compute_at");
    d_->attach = AttachKind::Scope;
    d_->attachStage = parent.d_;
    d_->attachIter = scope;
}

void Stage::computeInline() {
    if (d_->op->opKind() == OpKind::Placeholder) throw CompileError("compute_inline: '" + stageName() + "' is an input");
    if (d_->isOutput) throw CompileError("compute_inline: '" + stageName() + "' is an output of the schedule");
    auto* c = static_cast<const ComputeOpNode*>(d_->op.get());
    if (!c->reduceAxis.empty())
        throw CompileError("compute_inline: '" + stageName() + "' is a reduction and cannot be inlined");
    d_->attach = AttachKind::Inline;
}

void Stage::computeRoot() {
    d_->attach = AttachKind::Root;
    d_->attachStage.reset();
    d_->attachIter = {};
}

std::shared_ptr<StageData> Schedule::stageOf(const Operation& op) const {
    Operation r = d_->resolve(op);
    for (auto& s : d_->stages)
        if (s->op.get() == r.get()) return s;
    return nullptr;
}

Stage Schedule::operator[](const Operation& op) const {
    auto s = stageOf(op);
    if (!s) throw CompileError("'" + (op.defined() ? op->name : std::string("?")) + "' is not part of this schedule");
    return Stage(s);
}

Stage Schedule::find(const Operation& op) const {
    return Stage(stageOf(op));
}

bool Schedule::hasSources() const {
    return std::any_of(d_->stages.begin(), d_->stages.end(),
                       [](auto& s) { return !s->sources.empty(); });
}

void Stage::addSource(SourceLoc loc) {
    if (!loc.known()) return;
    d_->sources.stage.push_back(loc);
}

void Stage::addSource(const IterVar& iv, SourceLoc loc) {
    if (!loc.known() || !owns(iv)) return;
    d_->sources.iterVars[iv.get()].push_back(loc);
}

bool Stage::owns(const IterVar& iv) const {
    return std::any_of(d_->allIterVars.begin(), d_->allIterVars.end(),
                       [&](auto& v) { return v.sameAs(iv); });
}

std::vector<Stage> Schedule::stages() const {
    std::vector<Stage> out;
    for (auto& s : d_->stages) out.emplace_back(s);
    return out;
}

namespace {

std::shared_ptr<StageData> makeStage(const Operation& op, const std::shared_ptr<ScheduleData>& owner) {
    auto s = std::make_shared<StageData>();
    s->op = op;
    s->owner = owner;
    if (auto* c = dynamic_cast<const ComputeOpNode*>(op.get())) {
        for (auto& iv : c->axis) s->allIterVars.push_back(iv);
        for (auto& iv : c->reduceAxis) s->allIterVars.push_back(iv);
        s->leafIterVars = s->allIterVars;
    }
    return s;
}

/// Rewrites reads of `from` into reads of `to` (same indices).
class ReplaceReads : public IRMutator {
public:
    ReplaceReads(const Tensor& from, const Tensor& to) : from_(from), to_(to) {}
    using IRMutator::mutate;

protected:
    using IRMutator::visit;
    Expr visit(const ProducerLoadNode* op) override {
        std::vector<Expr> idx;
        mutateAll(op->indices, idx);
        auto* t = dynamic_cast<const TensorNode*>(op->producer.get());
        if (t && Tensor(t).same(from_)) return to_(idx);
        return ProducerLoadNode::make(op->producer, idx);
    }

private:
    Tensor from_, to_;
};

Operation withBody(const ComputeOpNode* c, std::vector<Expr> body, std::vector<IterVar> reduceAxis) {
    auto* n = new ComputeOpNode;
    n->name = c->name;
    n->tag = c->tag;
    n->axis = c->axis;
    n->reduceAxis = std::move(reduceAxis);
    n->body = std::move(body);
    return Operation(n);
}

} // namespace

Schedule createSchedule(const std::vector<Operation>& outputs) {
    if (outputs.empty()) throw CompileError("create_schedule: no output operation given");
    Schedule sch;
    sch.d_ = std::make_shared<ScheduleData>();
    sch.d_->outputs = outputs;
    for (auto& op : postOrderOps(outputs)) {
        auto st = makeStage(op, sch.d_);
        for (auto& o : outputs) st->isOutput |= o.get() == op.get();
        sch.d_->stages.push_back(st);
    }
    return sch;
}

void Schedule::replaceOp(const Operation& oldOp, const Operation& newOp, bool) {
    d_->replaced.emplace_back(oldOp, newOp);
    for (auto& o : d_->outputs)
        if (o.get() == oldOp.get()) o = newOp;
}

Tensor Schedule::cacheRead(const Tensor& t, const std::string& scope, const std::vector<Operation>& readers) {
    checkScope("cache_read", scope);
    auto producer = stageOf(t->op);
    if (!producer) throw CompileError("cache_read: '" + t.name() + "' is not part of this schedule");
    Tensor src = d_->resolve(t->op).output(t->valueIndex);
    if (readers.empty()) throw CompileError("cache_read: give the operations that should read the cache");
    std::string cname = t.name() + "_" + scope;
    std::vector<std::string> names;
    for (int d = 0; d < src.ndim(); ++d) names.push_back("ax" + std::to_string(d));
    Tensor cache = compute(src->shape, [&](const std::vector<Var>& v) {
        return src(std::vector<Expr>(v.begin(), v.end()));
    }, cname, "cache_read", names);
    auto cacheStage = makeStage(cache->op, d_);
    cacheStage->scope = scope;
    for (auto& r : readers) {
        auto rs = stageOf(r);
        if (!rs) throw CompileError("cache_read: reader '" + r->name + "' is not part of this schedule");
        auto* c = dynamic_cast<const ComputeOpNode*>(rs->op.get());
        if (!c) throw CompileError("cache_read: reader '" + r->name + "' is an input");
        bool reads = false;
        for (auto& in : c->inputTensors()) reads |= in.same(src);
        if (!reads) throw CompileError("cache_read: '" + r->name + "' does not read '" + t.name() + "'");
        ReplaceReads rr(src, cache);
        std::vector<Expr> body;
        for (auto& b : c->body) body.push_back(rr.mutate(b));
        // Reduce nodes keep their axis objects, so the reader's loops stay valid.
        Operation newOp = withBody(c, body, c->reduceAxis);
        replaceOp(rs->op, newOp, rs->isOutput);
        rs->op = newOp;
    }
    auto it = std::find(d_->stages.begin(), d_->stages.end(), producer);
    d_->stages.insert(it + 1, cacheStage);
    return cache;
}

Tensor Schedule::cacheWrite(const Tensor& t, const std::string& scope) {
    checkScope("cache_write", scope);
    auto st = stageOf(t->op);
    if (!st) throw CompileError("cache_write: '" + t.name() + "' is not part of this schedule");
    auto* c = dynamic_cast<const ComputeOpNode*>(st->op.get());
    if (!c) throw CompileError("cache_write: '" + t.name() + "' is an input");
    if (!st->relations.empty() || !st->annotations.empty() ||
        st->leafIterVars.size() != st->allIterVars.size())
        throw CompileError("cache_write: call it before any other schedule primitive on stage '" + t.name() + "'");
    if (c->numOutputs() != 1) throw CompileError("cache_write: multi-output operations are not supported");

    // The cache computes the original body over fresh axes; the stage keeps the
    // original axes and becomes a copy out of the cache.
    auto* cn = new ComputeOpNode;
    Operation cacheOp(cn);
    cn->name = c->name + "_" + scope;
    cn->tag = c->tag;
    VarMap vmap;
    for (auto& iv : c->axis) {
        IterVar n = IterVar::make(iv->dom, Var(iv->var.name() + "_c"), iv->kind);
        vmap[iv->var.get()] = n->var;
        cn->axis.push_back(n);
    }
    cn->reduceAxis = c->reduceAxis;
    cn->body = {substitute(c->body[0], vmap)};
    Tensor cache = cacheOp.output(0);
    std::vector<Expr> idx;
    for (auto& iv : c->axis) idx.push_back(iv->var);
    Operation copy = withBody(c, {cache(idx)}, {});
    replaceOp(st->op, copy, st->isOutput);

    auto cacheStage = makeStage(cacheOp, d_);
    cacheStage->scope = scope;
    st->op = copy;
    st->allIterVars.assign(c->axis.begin(), c->axis.end());
    st->leafIterVars = st->allIterVars;
    auto it = std::find(d_->stages.begin(), d_->stages.end(), st);
    d_->stages.insert(it, cacheStage);
    return cache;
}

} // namespace tessel::te
