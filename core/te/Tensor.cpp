#include "te/Tensor.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"
#include "tir/arith/ConstIntBound.h"

#include <unordered_set>

namespace tessel::te {

using namespace tir;

Tensor Operation::output(int i) const {
    TESSEL_CHECK(defined() && i >= 0 && i < get()->numOutputs(), "operation has no output " + std::to_string(i));
    auto* n = new TensorNode;
    n->op = *this;
    n->valueIndex = i;
    n->shape = get()->outputShape(i);
    n->dtype = get()->outputType(i);
    return Tensor(n);
}

std::string TensorNode::producerName() const {
    if (op->numOutputs() == 1) return op->name;
    return op->name + "_v" + std::to_string(valueIndex);
}

Expr Tensor::operator()(std::vector<Expr> indices) const {
    if (static_cast<int>(indices.size()) != ndim())
        throw CompileError("tensor '" + name() + "' has " + std::to_string(ndim()) + " dimension" +
                           (ndim() == 1 ? "" : "s") + " but is indexed with " + std::to_string(indices.size()));
    for (auto& i : indices) {
        if (!i.defined() || !i.type().isIntOrUInt() || i.type().isBool())
            throw CompileError("index of tensor '" + name() + "' must be an integer expression");
        if (i.type() != DataType::int32()) i = cast(DataType::int32(), i);
    }
    return ProducerLoadNode::make(DataProducer(get()), std::move(indices));
}

std::vector<Expr> ComputeOpNode::outputShape(int) const {
    std::vector<Expr> s;
    for (auto& iv : axis) s.push_back(iv->dom.extent);
    return s;
}

std::vector<Tensor> ComputeOpNode::inputTensors() const {
    std::vector<Tensor> out;
    for (auto& b : body) {
        postOrderVisit(b, [&](const Object* n) {
            auto* e = dynamic_cast<const BaseExprNode*>(n);
            if (!e || e->kind != NodeKind::ProducerLoad) return;
            auto* load = static_cast<const ProducerLoadNode*>(e);
            auto* t = dynamic_cast<const TensorNode*>(load->producer.get());
            TESSEL_CHECK(t, "producer is not a tensor");
            Tensor tensor(t);
            for (auto& o : out)
                if (o.same(tensor)) return;
            out.push_back(tensor);
        });
    }
    return out;
}

namespace {
void checkShape(const std::vector<Expr>& shape, const std::string& name) {
    for (auto& d : shape) {
        if (!d.defined() || !d.type().isIntOrUInt())
            throw CompileError("shape of '" + name + "' must be integers");
        if (auto c = asConstInt(d); c && *c <= 0)
            throw CompileError("shape of '" + name + "' has a dimension of " + std::to_string(*c) +
                               "; dimensions must be positive");
    }
}
std::vector<Expr> int32Shape(std::vector<Expr> shape) {
    for (auto& d : shape) d = cast(DataType::int32(), d);
    return shape;
}
/// Rejects reads that provably leave the tensor read (A[i + 5] over i < 16 of a
/// 16-element A): such a kernel would read or write memory it does not own.
void checkReadsInBounds(const std::string& name, const std::vector<IterVar>& axes, const Expr& body) {
    arith::VarBoundMap bounds;
    for (auto& iv : axes) {
        auto mn = asConstInt(iv->dom.min), ex = asConstInt(iv->dom.extent);
        if (mn && ex) bounds[iv->var.get()] = arith::ConstIntBound{*mn, *mn + *ex - 1};
    }
    // Reads under a Select's branch are guarded by its condition (padding:
    // if_then_else(i >= 1, A[i - 1], 0)); only unconditional reads are checked.
    std::vector<const ProducerLoadNode*> loads;
    std::function<void(const Expr&)> collect = [&](const Expr& x) {
        if (!x.defined()) return;
        if (auto* sel = x.as<SelectNode>()) {
            collect(sel->condition);
            return;
        }
        if (auto* load = x.as<ProducerLoadNode>()) loads.push_back(load);
        if (auto* r = x.as<ReduceNode>()) {
            if (!r->condition.defined()) collect(r->source); // `where=` guards the source
            return;
        }
        struct Children : IRVisitor {
            std::vector<Expr> kids;
            using IRVisitor::visit;
            void visitExpr(const Expr& k) override { kids.push_back(k); }
        } c;
        c.IRVisitor::visitExpr(x);
        for (auto& k : c.kids) collect(k);
    };
    collect(body);
    for (const ProducerLoadNode* load : loads) {
        auto shape = load->producer->producerShape();
        for (size_t d = 0; d < load->indices.size() && d < shape.size(); ++d) {
            auto extent = asConstInt(shape[d]);
            if (!extent) continue;
            bool allBound = true; // only variables with known ranges (no symbolic sizes, no data)
            postOrderVisit(load->indices[d], [&](const Object* o) {
                auto* x = dynamic_cast<const BaseExprNode*>(o);
                if (x && (x->kind == NodeKind::Var ? !bounds.count(static_cast<const VarNode*>(x)) : x->kind == NodeKind::ProducerLoad))
                    allBound = false;
            });
            if (!allBound) continue;
            auto b = arith::constIntBound(load->indices[d], bounds);
            if (b.min < 0 || b.max >= *extent)
                throw CompileError("compute '" + name + "' reads " + load->producer->producerName() + "[" +
                                   toString(load->indices[d]) + "] in dimension " + std::to_string(d) +
                                   " at indices " + std::to_string(b.min) + " to " + std::to_string(b.max) +
                                   ", outside 0 to " + std::to_string(*extent - 1));
        }
    }
}

} // namespace

Tensor placeholder(std::vector<Expr> shape, DataType dtype, std::string name) {
    checkShape(shape, name);
    auto* n = new PlaceholderOpNode;
    n->name = std::move(name);
    n->shape = int32Shape(std::move(shape));
    n->dtype = dtype;
    return Operation(n).output(0);
}

Tensor compute(std::vector<Expr> shape, const ComputeFunction& fcompute, std::string name, std::string tag,
               std::vector<std::string> axisNames) {
    checkShape(shape, name);
    shape = int32Shape(std::move(shape));
    auto* n = new ComputeOpNode;
    Operation op(n);
    n->name = std::move(name);
    n->tag = std::move(tag);
    std::vector<Var> vars;
    static const char* kDefault[] = {"i", "j", "k", "l", "m", "n"};
    for (size_t d = 0; d < shape.size(); ++d) {
        std::string an = d < axisNames.size() ? axisNames[d]
                         : d < 6             ? kDefault[d]
                                             : "ax" + std::to_string(d);
        Var v(an);
        vars.push_back(v);
        n->axis.push_back(IterVar::make(Range(Expr(0), shape[d]), v, IterVarKind::DataPar));
    }
    Expr body = fcompute(vars);
    if (!body.defined()) throw CompileError("compute '" + n->name + "' returned no expression");
    if (auto* r = body.as<ReduceNode>()) {
        n->reduceAxis = r->axis;
    } else {
        // A reduction may only be the whole body, as in TVM.
        bool nested = false;
        postOrderVisit(body, [&](const Object* o) {
            auto* e = dynamic_cast<const BaseExprNode*>(o);
            nested |= e && e->kind == NodeKind::Reduce;
        });
        if (nested)
            throw CompileError("compute '" + n->name +
                               "': a reduction (te.sum, te.max ...) must be the whole body of the compute");
    }
    std::vector<IterVar> all = n->axis;
    all.insert(all.end(), n->reduceAxis.begin(), n->reduceAxis.end());
    checkReadsInBounds(n->name, all, body);
    n->body = {body};
    return op.output(0);
}

IterVar reduceAxis(Range dom, std::string name) {
    if (!dom.min.defined() || !dom.extent.defined() || !dom.min.type().isIntOrUInt() ||
        !dom.extent.type().isIntOrUInt())
        throw CompileError("reduce_axis needs an integer range");
    if (auto e = asConstInt(dom.extent); e && *e <= 0)
        throw CompileError("reduce_axis '" + name + "' has an empty range");
    return IterVar::make(Range(cast(DataType::int32(), dom.min), cast(DataType::int32(), dom.extent)),
                         Var(std::move(name)), IterVarKind::CommReduce);
}

namespace {
Expr makeReduce(ReduceKind k, Expr source, std::vector<IterVar> axis, Expr where) {
    if (!source.defined()) throw CompileError(std::string("te.") + reduceKindName(k) + " of nothing");
    if (axis.empty()) throw CompileError(std::string("te.") + reduceKindName(k) + " needs at least one reduce_axis");
    for (auto& a : axis)
        if (!a.defined() || a->kind != IterVarKind::CommReduce)
            throw CompileError(std::string("te.") + reduceKindName(k) + ": axis must be made by te.reduce_axis");
    if (where.defined() && !where.type().isBool())
        throw CompileError(std::string("te.") + reduceKindName(k) + ": 'where' must be a condition");
    return ReduceNode::make(k, std::move(source), std::move(axis), std::move(where));
}
} // namespace

Expr sum(Expr s, std::vector<IterVar> a, Expr w) { return makeReduce(ReduceKind::Sum, s, a, w); }
Expr max(Expr s, std::vector<IterVar> a, Expr w) { return makeReduce(ReduceKind::Max, s, a, w); }
Expr min(Expr s, std::vector<IterVar> a, Expr w) { return makeReduce(ReduceKind::Min, s, a, w); }
Expr prod(Expr s, std::vector<IterVar> a, Expr w) { return makeReduce(ReduceKind::Prod, s, a, w); }

std::vector<Operation> postOrderOps(const std::vector<Operation>& outputs) {
    std::vector<Operation> order;
    std::unordered_set<const OperationNode*> seen;
    std::function<void(const Operation&)> visit = [&](const Operation& op) {
        if (!seen.insert(op.get()).second) return;
        for (auto& t : op->inputTensors()) visit(t->op);
        order.push_back(op);
    };
    for (auto& o : outputs) visit(o);
    return order;
}

std::string typeText(const Tensor& t) {
    std::string s = t->dtype.str() + "[";
    for (size_t i = 0; i < t->shape.size(); ++i) {
        auto c = tir::asConstInt(t->shape[i]);
        s += (i ? ", " : "") + (c ? std::to_string(*c) : tir::toString(t->shape[i]));
    }
    return s + "]";
}

} // namespace tessel::te
