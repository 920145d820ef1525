#include "topi/ScheduleGpu.h"

#include "ir/Diagnostic.h"
#include "tir/ExprEquality.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"
#include "tir/Substitute.h"
#include "topi/GpuTiles.h"
#include "topi/TopiUtil.h"

#include <map>
#include <optional>

namespace tessel::topi {

namespace {

using tir::Expr;

/// The sides of a transpose tile: a warp's 32 elements each way.
constexpr int64_t kTile = 32;
/// Rows of threads of a transpose block (threadIdx.y): each thread copies
/// kTile / kTileRows elements of the tile.
constexpr int64_t kTileRows = 8;
/// Both tiled output axes must be at least this long: shorter, most of a
/// tile's threads would idle and the plain reads are near-coalesced anyway.
constexpr int64_t kMinTiledExtent = 16;
/// Input reads followed through inlined stages before giving up.
constexpr size_t kMaxReads = 64;

/// An index as a sum of variables times constants plus a constant: each
/// variable's coefficient (the constant is dropped); nullopt otherwise.
std::optional<std::map<const tir::VarNode*, int64_t>> linearCoefficients(const Expr& e) {
    using Coefs = std::map<const tir::VarNode*, int64_t>;
    if (e.as<tir::IntImmNode>()) return Coefs{};
    if (auto* v = e.as<tir::VarNode>()) return Coefs{{v, 1}};
    if (auto* c = e.as<tir::CastNode>()) {
        if (!c->type.isInt() || !c->value.type().isInt()) return std::nullopt;
        return linearCoefficients(c->value);
    }
    auto combine = [](const Expr& a, const Expr& b, int64_t sign) -> std::optional<Coefs> {
        auto x = linearCoefficients(a), y = linearCoefficients(b);
        if (!x || !y) return std::nullopt;
        for (auto& [v, k] : *y) (*x)[v] += sign * k;
        return x;
    };
    if (auto* a = e.as<tir::AddNode>()) return combine(a->a, a->b, 1);
    if (auto* s = e.as<tir::SubNode>()) return combine(s->a, s->b, -1);
    if (auto* m = e.as<tir::MulNode>()) {
        auto scale = [](const Expr& x, int64_t k) -> std::optional<Coefs> {
            auto c = linearCoefficients(x);
            if (!c) return std::nullopt;
            for (auto& [v, w] : *c) w *= k;
            return c;
        };
        if (auto k = tir::asConstInt(m->b)) return scale(m->a, *k);
        if (auto k = tir::asConstInt(m->a)) return scale(m->b, *k);
    }
    return std::nullopt;
}

/// One read of an input (a placeholder) at indices in the output's axis variables.
struct InputRead {
    te::Operation input;
    std::vector<Expr> indices;
};

/// The reads of inputs by `body` (in the output's variables), following
/// reads of compute stages without a reduction (the ones scheduleFusedGpu
/// inlines). False when a reduction is met or there are too many reads.
/// The indices are taken as they are, not simplified: the tile's region
/// is what schedule lowering's bound inference makes of them, which follows
/// sums and products of variables and constants only.
bool collectReads(const Expr& body, std::vector<InputRead>& reads) {
    bool ok = true;
    std::vector<std::pair<const te::TensorNode*, std::vector<Expr>>> loads;
    tir::postOrderVisit(body, [&](const Object* n) {
        auto* load = dynamic_cast<const tir::ProducerLoadNode*>(n);
        if (!load) return;
        auto* t = dynamic_cast<const te::TensorNode*>(load->producer.get());
        if (!t) {
            ok = false;
            return;
        }
        loads.emplace_back(t, load->indices);
    });
    for (auto& [t, indices] : loads) {
        if (!ok || reads.size() >= kMaxReads) return false;
        if (t->op->opKind() == te::OpKind::Placeholder) {
            reads.push_back({t->op, indices});
            continue;
        }
        const te::ComputeOpNode* c = computeOf(t->op);
        if (!c || !c->reduceAxis.empty() || c->body.size() != 1) return false;
        tir::VarMap at;
        for (size_t d = 0; d < c->axis.size(); ++d) at[c->axis[d]->var.get()] = indices[d];
        if (!collectReads(tir::substitute(c->body[0], at), reads)) return false;
    }
    return ok;
}

/// Which output axis a tiled transpose pairs with the innermost one, and
/// the inputs it stages in shared memory.
struct TransposeTiles {
    size_t rowAxis = 0;
    std::vector<te::Tensor> inputs;
    /// For each input: the axis of it the output's innermost axis walks.
    std::vector<size_t> walkedAxis;
};

/// For a read `indices` of an input in the output's variables `vars`: the
/// output axis whose variable alone moves along the input's innermost
/// axis (coefficient 1) and the input axis the output's innermost
/// variable alone moves along (coefficient 1, not the innermost); nullopt
/// when the read is not such a transpose.
std::optional<std::pair<size_t, size_t>> transposedRead(const std::vector<Expr>& indices,
                                                        const std::vector<tir::Var>& vars) {
    const size_t n = vars.size();
    const tir::VarNode* inner = vars.back().get();
    std::vector<std::map<const tir::VarNode*, int64_t>> coefs;
    for (auto& i : indices) {
        auto c = linearCoefficients(i);
        if (!c) return std::nullopt;
        coefs.push_back(*c);
    }
    auto uses = [&](size_t axis, const tir::VarNode* v) {
        auto it = coefs[axis].find(v);
        return it == coefs[axis].end() ? int64_t(0) : it->second;
    };
    if (indices.empty()) return std::nullopt;
    const size_t last = indices.size() - 1;
    if (uses(last, inner) != 0) return std::nullopt;
    // The output axis along the input's rows: coefficient 1 there, nowhere else.
    std::optional<size_t> row;
    for (size_t b = 0; b + 1 < n && !row; ++b)
        if (uses(last, vars[b].get()) == 1) row = b;
    if (!row) return std::nullopt;
    std::optional<size_t> walked;
    for (size_t a = 0; a < indices.size(); ++a) {
        if (a != last && uses(a, vars[*row].get()) != 0) return std::nullopt;
        const int64_t k = uses(a, inner);
        if (k == 0) continue;
        if (k != 1 || walked) return std::nullopt;
        walked = a;
    }
    if (!walked) return std::nullopt;
    return std::make_pair(*row, *walked);
}

/// The tiles when `outputs` are one output whose every other stage is
/// inlined (no reduction) and whose innermost axis reads some input with
/// a stride (a transpose of that input's last axis with another).
std::optional<TransposeTiles> transposeTiles(const std::vector<te::Tensor>& outputs) {
    if (outputs.size() != 1 || outputs[0].ndim() < 2) return std::nullopt;
    const te::ComputeOpNode* out = computeOf(outputs[0]->op);
    if (!out || !out->reduceAxis.empty() || out->body.size() != 1) return std::nullopt;
    for (auto& e : outputs[0]->shape)
        if (!tir::asConstInt(e)) return std::nullopt;
    const std::vector<int64_t> shape = staticShape(outputs[0]);
    std::vector<tir::Var> vars;
    for (auto& iv : out->axis) vars.push_back(iv->var);
    std::vector<InputRead> reads;
    if (!collectReads(out->body[0], reads)) return std::nullopt;

    // Per input: its one way of being read (a second, different read would
    // widen the tile's region), and whether that is a transpose.
    std::map<const te::OperationNode*, std::optional<std::pair<size_t, size_t>>> pattern;
    std::map<const te::OperationNode*, const InputRead*> first;
    std::vector<te::Operation> order;
    for (auto& r : reads) {
        auto [it, fresh] = first.emplace(r.input.get(), &r);
        if (fresh) {
            order.push_back(r.input);
            pattern[r.input.get()] = transposedRead(r.indices, vars);
            continue;
        }
        bool same = it->second->indices.size() == r.indices.size();
        for (size_t d = 0; same && d < r.indices.size(); ++d)
            same = tir::structuralEqual(it->second->indices[d], r.indices[d]);
        if (!same) pattern[r.input.get()] = std::nullopt;
    }
    std::optional<TransposeTiles> tiles;
    for (auto& op : order) {
        const auto& p = pattern[op.get()];
        if (!p) continue;
        if (!tiles) {
            if (shape[p->first] < kMinTiledExtent || shape.back() < kMinTiledExtent) continue;
            tiles = TransposeTiles{p->first, {}, {}};
        }
        if (p->first != tiles->rowAxis) continue;
        tiles->inputs.push_back(op.output(0));
        tiles->walkedAxis.push_back(p->second);
    }
    return tiles;
}

/// The tiled transpose: a block per 32 x 32 tile of the output's row axis
/// and innermost axis (and per element of the others), 8 x 32 threads.
te::Schedule scheduleTransposeTiles(const te::Tensor& out, const TransposeTiles& tiles) {
    te::Schedule s = te::createSchedule({out->op});
    // Each input read across its rows gets a shared tile, which the stages
    // reading it (inlined below) read instead.
    std::vector<te::Tensor> cached;
    for (const te::Tensor& in : tiles.inputs) {
        std::vector<te::Operation> readers;
        for (auto& op : te::postOrderOps({out->op}))
            if (const te::ComputeOpNode* c = computeOf(op))
                for (auto& t : c->inputTensors())
                    if (t.same(in)) readers.push_back(op);
        cached.push_back(s.cacheRead(in, "shared", readers));
    }
    std::vector<te::Operation> keep;
    for (auto& t : cached) keep.push_back(t->op);
    inlineEpilogue(s, keep);

    te::Stage o = s[out];
    const std::vector<te::IterVar> axes = computeOf(o.op())->axis;
    auto [io, ii] = o.split(axes[tiles.rowAxis], intImm(kTile));
    auto [jo, tx] = o.split(axes.back(), intImm(kTile));
    auto [rows, ty] = o.split(ii, intImm(kTileRows));
    std::vector<te::IterVar> blocks;
    for (size_t d = 0; d + 1 < axes.size(); ++d)
        if (d != tiles.rowAxis) blocks.push_back(axes[d]);
    blocks.insert(blocks.end(), {io, jo});
    std::vector<te::IterVar> order = blocks;
    order.insert(order.end(), {ty, tx, rows});
    o.reorder(order);
    te::IterVar block = blocks[0];
    for (size_t d = 1; d < blocks.size(); ++d) block = o.fuse(block, blocks[d]);
    bindLoops(o, {{block, "blockIdx.x"}, {ty, "threadIdx.y"}, {tx, "threadIdx.x"}});

    // The tile: loaded by all threads along the input's rows (coalesced),
    // each row padded by one element so that the output's threads, reading
    // down a column, hit 32 different banks.
    for (size_t i = 0; i < cached.size(); ++i) {
        te::Stage st = s[cached[i]];
        st.computeAt(o, block);
        st.storageAlign(computeOf(st.op())->axis[tiles.walkedAxis[i]], kTile, 1);
        cooperativeFetch(st, {{"threadIdx.y", kTileRows}, {"threadIdx.x", kTile}});
    }
    return s;
}

} // namespace

bool tiledTransposeApplies(const std::vector<te::Tensor>& outputs) { return transposeTiles(outputs).has_value(); }

te::Schedule scheduleFusedGpu(const std::vector<te::Tensor>& outputs, int threadsPerBlock) {
    if (auto tiles = transposeTiles(outputs)) return scheduleTransposeTiles(outputs[0], *tiles);
    std::vector<te::Operation> ops;
    for (auto& t : outputs) ops.push_back(t->op);
    te::Schedule s = te::createSchedule(ops);
    for (te::Stage st : s.stages()) {
        if (st.op()->opKind() != te::OpKind::Compute) continue;
        auto* c = static_cast<const te::ComputeOpNode*>(st.op().get());
        if (!st.data().isOutput && c->reduceAxis.empty()) {
            st.computeInline();
            continue;
        }
        std::vector<tir::IterVar> axes;
        for (auto& iv : st.data().leafIterVars)
            if (iv->kind != tir::IterVarKind::CommReduce) axes.push_back(iv);
        if (axes.empty())
            throw CompileError("stage '" + st.op()->name + "' has no data-parallel axis to run on GPU threads");
        tir::IterVar fused = axes[0];
        for (size_t i = 1; i < axes.size(); ++i) fused = st.fuse(fused, axes[i]);
        int64_t extent = 1;
        for (auto& iv : axes) extent *= tir::asConstInt(iv->dom.extent).value_or(threadsPerBlock);
        const int64_t threads = std::min<int64_t>(threadsPerBlock, std::max<int64_t>(1, extent));
        auto [block, thread] = st.split(fused, tir::Expr(static_cast<int>(threads)));
        st.bind(block, te::threadAxis("blockIdx.x"));
        st.bind(thread, te::threadAxis("threadIdx.x"));
    }
    return s;
}

} // namespace tessel::topi
