#include "tir/IR.h"

#include "ir/Check.h"

#include <cmath>
#include <limits>

namespace tessel::tir {

const char* nodeKindName(NodeKind k) {
    switch (k) {
#define TESSEL_EXPR_NODE(N)                                                                        \
    case NodeKind::N: return #N;
#define TESSEL_STMT_NODE(N)                                                                        \
    case NodeKind::N: return #N;
#include "tir/NodeKinds.def"
    }
    return "?";
}

Expr::Expr(int v) : Expr(IntImmNode::make(DataType::int32(), v)) {}
Expr::Expr(int64_t v) : Expr(IntImmNode::make(DataType::int64(), v)) {}
Expr::Expr(double v) : Expr(FloatImmNode::make(DataType::float32(), v)) {}

Expr IntImmNode::make(DataType t, int64_t value) {
    TESSEL_CHECK(t.isScalar() && t.isIntOrUInt(), "IntImm needs a scalar integer type, got " + t.str());
    if (t.isBool()) value = value != 0;
    return Expr(new IntImmNode(t, value));
}

Expr FloatImmNode::make(DataType t, double value) {
    TESSEL_CHECK(t.isScalar() && t.isFloat(), "FloatImm needs a scalar float type, got " + t.str());
    if (t.bits() == 32) value = static_cast<float>(value);
    return Expr(new FloatImmNode(t, value));
}

Expr StringImmNode::make(std::string value) { return Expr(new StringImmNode(std::move(value))); }

Var::Var(std::string name, DataType t) : Expr(new VarNode(std::move(name), t)) {}

Range Range::fromMinMax(Expr min, Expr maxExclusive) {
    return Range(min, SubNode::make(maxExclusive, min));
}

Buffer Buffer::make(std::string name, DataType dtype, std::vector<Expr> shape, std::string scope) {
    auto* n = new BufferNode;
    n->data = Var(name, DataType::handle());
    n->name = std::move(name);
    n->dtype = dtype;
    n->shape = std::move(shape);
    n->scope = std::move(scope);
    return Buffer(n);
}

Buffer Buffer::withShape(std::vector<Expr> shape) const {
    auto* n = new BufferNode;
    n->name = get()->name;
    n->data = get()->data;
    n->dtype = get()->dtype;
    n->shape = std::move(shape);
    n->scope = get()->scope;
    n->alignment = get()->alignment;
    return Buffer(n);
}

Expr Buffer::flatIndex(const std::vector<Expr>& indices) const {
    TESSEL_CHECK(indices.size() == get()->shape.size() || get()->shape.size() == 1,
                 "wrong number of indices for buffer " + get()->name);
    if (indices.size() == 1) return indices[0];
    Expr idx = indices[0];
    for (size_t i = 1; i < indices.size(); ++i)
        idx = AddNode::make(MulNode::make(idx, get()->shape[i]), indices[i]);
    return idx;
}

IterVar IterVar::make(Range dom, Var var, IterVarKind kind, std::string threadTag) {
    auto* n = new IterVarNode;
    n->dom = std::move(dom);
    n->var = std::move(var);
    n->kind = kind;
    n->threadTag = std::move(threadTag);
    return IterVar(n);
}

namespace {
void checkSameType(const Expr& a, const Expr& b, const char* op) {
    TESSEL_CHECK(a.defined() && b.defined(), std::string("undefined operand of ") + op);
    TESSEL_CHECK(a.type() == b.type(), std::string("operand types differ in ") + op + ": " +
                                           a.type().str() + " vs " + b.type().str());
}
} // namespace

template <class T, NodeKind K> Expr BinaryNode<T, K>::make(Expr a, Expr b) {
    checkSameType(a, b, nodeKindName(K));
    DataType t = a.type();
    if constexpr (K == NodeKind::EQ || K == NodeKind::NE || K == NodeKind::LT || K == NodeKind::LE ||
                  K == NodeKind::GT || K == NodeKind::GE) {
        t = DataType::boolean(a.type().lanes());
    } else if constexpr (K == NodeKind::And || K == NodeKind::Or) {
        TESSEL_CHECK(t.isBool(), "logical operator needs bool operands, got " + t.str());
    }
    return Expr(new T(t, std::move(a), std::move(b)));
}

template struct BinaryNode<AddNode, NodeKind::Add>;
template struct BinaryNode<SubNode, NodeKind::Sub>;
template struct BinaryNode<MulNode, NodeKind::Mul>;
template struct BinaryNode<DivNode, NodeKind::Div>;
template struct BinaryNode<ModNode, NodeKind::Mod>;
template struct BinaryNode<FloorDivNode, NodeKind::FloorDiv>;
template struct BinaryNode<FloorModNode, NodeKind::FloorMod>;
template struct BinaryNode<MinNode, NodeKind::Min>;
template struct BinaryNode<MaxNode, NodeKind::Max>;
template struct BinaryNode<EQNode, NodeKind::EQ>;
template struct BinaryNode<NENode, NodeKind::NE>;
template struct BinaryNode<LTNode, NodeKind::LT>;
template struct BinaryNode<LENode, NodeKind::LE>;
template struct BinaryNode<GTNode, NodeKind::GT>;
template struct BinaryNode<GENode, NodeKind::GE>;
template struct BinaryNode<AndNode, NodeKind::And>;
template struct BinaryNode<OrNode, NodeKind::Or>;

Expr CastNode::make(DataType t, Expr value) {
    TESSEL_CHECK(value.defined(), "cast of undefined value");
    TESSEL_CHECK(t.lanes() == value.type().lanes(), "cast changes lane count");
    return Expr(new CastNode(t, std::move(value)));
}

Expr NotNode::make(Expr a) {
    TESSEL_CHECK(a.defined() && a.type().isBool(), "not needs a bool operand");
    DataType t = a.type();
    return Expr(new NotNode(t, std::move(a)));
}

Expr SelectNode::make(Expr c, Expr x, Expr y) {
    checkSameType(x, y, "select");
    TESSEL_CHECK(c.defined() && c.type().isBool(), "select condition must be bool");
    TESSEL_CHECK(c.type().lanes() == 1 || c.type().lanes() == x.type().lanes(),
                 "select condition lanes differ from its values");
    DataType t = x.type();
    return Expr(new SelectNode(t, std::move(c), std::move(x), std::move(y)));
}

Expr RampNode::make(Expr base, Expr stride, int lanes) {
    checkSameType(base, stride, "ramp");
    TESSEL_CHECK(base.type().isScalar() && lanes > 1, "ramp needs scalar base and lanes > 1");
    DataType t = base.type().withLanes(lanes);
    return Expr(new RampNode(t, std::move(base), std::move(stride), lanes));
}

Expr BroadcastNode::make(Expr value, int lanes) {
    TESSEL_CHECK(value.defined() && value.type().isScalar() && lanes > 1,
                 "broadcast needs a scalar value and lanes > 1");
    DataType t = value.type().withLanes(lanes);
    return Expr(new BroadcastNode(t, std::move(value), lanes));
}

Expr LetNode::make(Var var, Expr value, Expr body) {
    TESSEL_CHECK(var.type() == value.type(), "let value type differs from its variable");
    DataType t = body.type();
    return Expr(new LetNode(t, std::move(var), std::move(value), std::move(body)));
}

namespace {
struct IntrinsicInfo {
    Intrinsic op;
    const char* name;
};
constexpr IntrinsicInfo kIntrinsics[] = {
    {Intrinsic::Exp, "exp"},         {Intrinsic::Log, "log"},     {Intrinsic::Sqrt, "sqrt"},
    {Intrinsic::Rsqrt, "rsqrt"},     {Intrinsic::Fma, "fma"},     {Intrinsic::Tanh, "tanh"},
    {Intrinsic::Sigmoid, "sigmoid"}, {Intrinsic::Pow, "pow"},     {Intrinsic::Abs, "abs"},
    {Intrinsic::Erf, "erf"},         {Intrinsic::Floor, "floor"}, {Intrinsic::Ceil, "ceil"},
    {Intrinsic::Round, "round"},     {Intrinsic::Trunc, "trunc"}, {Intrinsic::Sin, "sin"},
    {Intrinsic::Cos, "cos"},         {Intrinsic::Likely, "likely"}, {Intrinsic::Prefetch, "prefetch"},
    {Intrinsic::Extern, "extern"},   {Intrinsic::StorageSync, "tvm_storage_sync"},
    {Intrinsic::PairDotI16, "pair_dot_i16"}, {Intrinsic::RoundEven, "round_even"},
};
} // namespace

const char* intrinsicName(Intrinsic op) {
    for (auto& i : kIntrinsics)
        if (i.op == op) return i.name;
    return "?";
}

bool intrinsicFromName(const std::string& name, Intrinsic& out) {
    for (auto& i : kIntrinsics)
        if (name == i.name && i.op != Intrinsic::Extern) {
            out = i.op;
            return true;
        }
    return false;
}

Expr CallNode::make(DataType t, Intrinsic op, std::vector<Expr> args) {
    for (auto& a : args) TESSEL_CHECK(a.defined(), std::string("undefined argument of ") + intrinsicName(op));
    return Expr(new CallNode(t, op, intrinsicName(op), std::move(args)));
}

Expr CallNode::makeExtern(DataType t, std::string symbol, std::vector<Expr> args) {
    return Expr(new CallNode(t, Intrinsic::Extern, std::move(symbol), std::move(args)));
}

Expr BufferLoadNode::make(Buffer buffer, std::vector<Expr> indices) {
    TESSEL_CHECK(buffer.defined(), "load from undefined buffer");
    int lanes = 1;
    for (auto& i : indices) {
        TESSEL_CHECK(i.defined() && i.type().isIntOrUInt(), "buffer index must be an integer");
        lanes = std::max(lanes, i.type().lanes());
    }
    DataType t = buffer->dtype.withLanes(lanes);
    return Expr(new BufferLoadNode(t, std::move(buffer), std::move(indices)));
}

Expr ProducerLoadNode::make(DataProducer producer, std::vector<Expr> indices) {
    TESSEL_CHECK(producer.defined(), "load from undefined producer");
    DataType t = producer->producerType();
    return Expr(new ProducerLoadNode(t, std::move(producer), std::move(indices)));
}

const char* reduceKindName(ReduceKind k) {
    switch (k) {
    case ReduceKind::Sum: return "sum";
    case ReduceKind::Prod: return "prod";
    case ReduceKind::Min: return "min";
    case ReduceKind::Max: return "max";
    }
    return "?";
}

Expr reduceIdentity(ReduceKind k, DataType t) {
    DataType s = t.element();
    auto lit = [&](double f, int64_t i) -> Expr {
        return s.isFloat() ? FloatImmNode::make(s, f) : IntImmNode::make(s, i);
    };
    constexpr double inf = std::numeric_limits<double>::infinity();
    int64_t imax = s.bits() >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (s.bits() - 1)) - 1;
    int64_t imin = s.bits() >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (s.bits() - 1));
    if (s.code() == DataType::Code::UInt) imin = 0;
    switch (k) {
    case ReduceKind::Sum: return lit(0, 0);
    case ReduceKind::Prod: return lit(1, 1);
    case ReduceKind::Min: return lit(inf, imax);
    case ReduceKind::Max: return lit(-inf, imin);
    }
    return {};
}

Expr reduceCombine(ReduceKind k, Expr acc, Expr value) {
    switch (k) {
    case ReduceKind::Sum: return AddNode::make(std::move(acc), std::move(value));
    case ReduceKind::Prod: return MulNode::make(std::move(acc), std::move(value));
    case ReduceKind::Min: return MinNode::make(std::move(acc), std::move(value));
    case ReduceKind::Max: return MaxNode::make(std::move(acc), std::move(value));
    }
    return {};
}

Expr ReduceNode::make(ReduceKind k, Expr source, std::vector<IterVar> axis, Expr condition) {
    TESSEL_CHECK(source.defined(), "reduce of undefined source");
    for (auto& a : axis) TESSEL_CHECK(a.defined() && a->kind == IterVarKind::CommReduce,
                                      "reduce axis must be a reduce_axis");
    DataType t = source.type();
    return Expr(new ReduceNode(t, k, std::move(source), std::move(axis), std::move(condition)));
}

Stmt LetStmtNode::make(Var var, Expr value, Stmt body) {
    TESSEL_CHECK(var.type() == value.type(), "let value type differs from its variable");
    auto* n = new LetStmtNode;
    n->var = std::move(var);
    n->value = std::move(value);
    n->body = std::move(body);
    return Stmt(n);
}

Stmt AttrStmtNode::make(std::string key, Expr value, Stmt body) {
    auto* n = new AttrStmtNode;
    n->key = std::move(key);
    n->value = std::move(value);
    n->body = std::move(body);
    return Stmt(n);
}

const char* forKindName(ForKind k) {
    switch (k) {
    case ForKind::Serial: return "serial";
    case ForKind::Parallel: return "parallel";
    case ForKind::Vectorized: return "vectorized";
    case ForKind::Unrolled: return "unroll";
    case ForKind::ThreadBinding: return "thread_binding";
    }
    return "?";
}

bool isVirtualThreadTag(const std::string& tag) {
    return tag == "vthread" || tag == "vthread.x" || tag == "vthread.y" || tag == "vthread.z";
}

Stmt ForNode::make(Var loopVar, Expr min, Expr extent, ForKind kind, Stmt body,
                   std::vector<std::pair<std::string, Expr>> annotations, std::string threadTag) {
    TESSEL_CHECK((kind == ForKind::ThreadBinding) == !threadTag.empty(),
                 "a thread-binding loop needs a thread tag, and only it");
    TESSEL_CHECK(min.defined() && extent.defined() && body.defined(), "incomplete for loop");
    TESSEL_CHECK(min.type().isIntOrUInt() && extent.type().isIntOrUInt(), "loop bounds must be integers");
    auto* n = new ForNode;
    n->loopVar = std::move(loopVar);
    n->min = std::move(min);
    n->extent = std::move(extent);
    n->forKind = kind;
    n->body = std::move(body);
    n->annotations = std::move(annotations);
    n->threadTag = std::move(threadTag);
    return Stmt(n);
}

Stmt ForNode::remake(const ForNode& op, Expr min, Expr extent, Stmt body) {
    return make(op.loopVar, std::move(min), std::move(extent), op.forKind, std::move(body), op.annotations,
                op.threadTag);
}

Stmt BufferStoreNode::make(Buffer buffer, Expr value, std::vector<Expr> indices) {
    TESSEL_CHECK(buffer.defined() && value.defined(), "incomplete buffer store");
    TESSEL_CHECK(value.type().element() == buffer->dtype,
                 "stored value type " + value.type().str() + " differs from buffer " + buffer->name +
                     " of " + buffer->dtype.str());
    auto* n = new BufferStoreNode;
    n->buffer = std::move(buffer);
    n->value = std::move(value);
    n->indices = std::move(indices);
    return Stmt(n);
}

Stmt BufferRealizeNode::make(Buffer buffer, std::vector<Range> bounds, Stmt body) {
    auto* n = new BufferRealizeNode;
    n->buffer = std::move(buffer);
    n->bounds = std::move(bounds);
    n->body = std::move(body);
    return Stmt(n);
}

Stmt AllocateNode::make(Buffer buffer, Stmt body) {
    auto* n = new AllocateNode;
    n->buffer = std::move(buffer);
    n->body = std::move(body);
    return Stmt(n);
}

Stmt IfThenElseNode::make(Expr condition, Stmt thenCase, Stmt elseCase) {
    TESSEL_CHECK(condition.defined() && condition.type().isBool(), "if condition must be bool");
    auto* n = new IfThenElseNode;
    n->condition = std::move(condition);
    n->thenCase = std::move(thenCase);
    n->elseCase = std::move(elseCase);
    return Stmt(n);
}

Stmt SeqStmtNode::make(std::vector<Stmt> seq) {
    std::vector<Stmt> flat;
    for (auto& s : seq) {
        if (!s.defined() || isNoOp(s)) continue;
        if (auto* inner = s.as<SeqStmtNode>())
            flat.insert(flat.end(), inner->seq.begin(), inner->seq.end());
        else
            flat.push_back(s);
    }
    if (flat.empty()) return noOp();
    if (flat.size() == 1) return flat[0];
    auto* n = new SeqStmtNode;
    n->seq = std::move(flat);
    return Stmt(n);
}

Stmt EvaluateNode::make(Expr value) {
    auto* n = new EvaluateNode;
    n->value = std::move(value);
    return Stmt(n);
}

Stmt noOp() { return EvaluateNode::make(Expr(0)); }

bool isNoOp(const Stmt& s) {
    auto* e = s.as<EvaluateNode>();
    return e && e->value.as<IntImmNode>();
}

PrimFunc PrimFunc::make(std::string name, std::vector<Buffer> params, Stmt body) {
    auto* n = new PrimFuncNode;
    n->name = std::move(name);
    n->params = std::move(params);
    n->body = std::move(body);
    return PrimFunc(n);
}

PrimFunc PrimFunc::withBody(Stmt body) const { return make(get()->name, get()->params, std::move(body)); }

} // namespace tessel::tir
