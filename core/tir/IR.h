/// \file
/// TIR: the loop-level IR that schedules lower to and codegen consumes.
///
/// Nodes are immutable structs with public fields behind intrusive handles
/// (`Expr`, `Stmt`), created through a checking `make()`. The list of kinds is
/// NodeKinds.def; IRVisitor and IRMutator follow from it. Before storage
/// flattening, buffer accesses are multi-dimensional and TE tensors appear as
/// ProducerLoad; afterwards every access is one flat index into a Buffer.
#pragma once

#include "ir/DataType.h"
#include "ir/Object.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessel::tir {

enum class NodeKind : uint8_t {
#define TESSEL_EXPR_NODE(N) N,
#define TESSEL_STMT_NODE(N) N,
#include "tir/NodeKinds.def"
};
const char* nodeKindName(NodeKind k);

struct BaseExprNode : Object {
    BaseExprNode(NodeKind k, DataType t) : kind(k), type(t) {}
    const NodeKind kind;
    const DataType type;
};

struct BaseStmtNode : Object {
    explicit BaseStmtNode(NodeKind k) : kind(k) {}
    const NodeKind kind;
};

/// An expression handle. `as<T>()` is a kind-checked downcast (no RTTI cost).
class Expr : public Ref<BaseExprNode> {
public:
    using Ref::Ref;
    Expr(const Ref<BaseExprNode>& r) : Ref(r) {}
    /// Integer and float literals convert implicitly, as in TVM's Python API.
    Expr(int v);
    Expr(int64_t v);
    Expr(double v);
    DataType type() const { return get()->type; }
    NodeKind kind() const { return get()->kind; }
    template <class T> const T* as() const {
        return get() && get()->kind == T::kKind ? static_cast<const T*>(get()) : nullptr;
    }
};

class Stmt : public Ref<BaseStmtNode> {
public:
    using Ref::Ref;
    Stmt(const Ref<BaseStmtNode>& r) : Ref(r) {}
    NodeKind kind() const { return get()->kind; }
    template <class T> const T* as() const {
        return get() && get()->kind == T::kKind ? static_cast<const T*>(get()) : nullptr;
    }
};

template <class T, NodeKind K> struct ExprNode : BaseExprNode {
    static constexpr NodeKind kKind = K;
    explicit ExprNode(DataType t) : BaseExprNode(K, t) {}
};
template <class T, NodeKind K> struct StmtNode : BaseStmtNode {
    static constexpr NodeKind kKind = K;
    StmtNode() : BaseStmtNode(K) {}
};

// ---------------------------------------------------------------------------
// Leaves

struct IntImmNode : ExprNode<IntImmNode, NodeKind::IntImm> {
    IntImmNode(DataType t, int64_t v) : ExprNode(t), value(v) {}
    int64_t value;
    static Expr make(DataType t, int64_t value);
};

struct FloatImmNode : ExprNode<FloatImmNode, NodeKind::FloatImm> {
    FloatImmNode(DataType t, double v) : ExprNode(t), value(v) {}
    double value;
    static Expr make(DataType t, double value);
};

struct StringImmNode : ExprNode<StringImmNode, NodeKind::StringImm> {
    explicit StringImmNode(std::string v) : ExprNode(DataType::handle()), value(std::move(v)) {}
    std::string value;
    static Expr make(std::string value);
};

/// A variable; identity is the node's address, the name is only for printing.
struct VarNode : ExprNode<VarNode, NodeKind::Var> {
    VarNode(std::string n, DataType t) : ExprNode(t), name(std::move(n)) {}
    std::string name;
};

class Var : public Expr {
public:
    Var() = default;
    explicit Var(std::string name, DataType t = DataType::int32());
    explicit Var(const VarNode* n) : Expr(n) {}
    const VarNode* get() const { return static_cast<const VarNode*>(Expr::get()); }
    const VarNode* operator->() const { return get(); }
    const std::string& name() const { return get()->name; }
};

struct VarHash {
    size_t operator()(const Var& v) const { return std::hash<const void*>()(v.get()); }
};

/// A half-open interval [min, min + extent).
struct Range {
    Expr min;
    Expr extent;
    Range() = default;
    Range(Expr m, Expr e) : min(std::move(m)), extent(std::move(e)) {}
    static Range fromMinMax(Expr min, Expr maxExclusive);
};

// ---------------------------------------------------------------------------
// Buffers, iteration variables, producers

/// A named, typed, shaped region of memory. `data` is the handle variable that
/// codegen binds to the pointer. Before flattening `shape` is N-d; after, the
/// buffers that StorageFlatten creates are 1-d.
struct BufferNode : Object {
    std::string name;
    Var data;
    DataType dtype;
    std::vector<Expr> shape;
    std::string scope; // "global", "local"
    int alignment = 64;
};

class Buffer : public Ref<BufferNode> {
public:
    using Ref::Ref;
    static Buffer make(std::string name, DataType dtype, std::vector<Expr> shape,
                       std::string scope = "global");
    /// Row-major flat index of an N-d access.
    Expr flatIndex(const std::vector<Expr>& indices) const;
    /// The same buffer (name, data variable, type, scope) with another shape.
    Buffer withShape(std::vector<Expr> shape) const;
};

enum class IterVarKind : uint8_t { DataPar, CommReduce, Ordered, Opaque, ThreadIndex };

/// An iteration axis: a variable with a domain (TVM's IterVar).
struct IterVarNode : Object {
    Var var;
    Range dom;
    IterVarKind kind = IterVarKind::DataPar;
    std::string threadTag;
};

class IterVar : public Ref<IterVarNode> {
public:
    using Ref::Ref;
    static IterVar make(Range dom, Var var, IterVarKind kind, std::string threadTag = {});
};

/// Something that produces a tensor (a TE operation's output). TIR only needs
/// its name, shape and type; te::Tensor implements it.
struct DataProducerNode : Object {
    virtual std::string producerName() const = 0;
    virtual std::vector<Expr> producerShape() const = 0;
    virtual DataType producerType() const = 0;
};
using DataProducer = Ref<DataProducerNode>;

// ---------------------------------------------------------------------------
// Arithmetic and logic

template <class T, NodeKind K> struct BinaryNode : ExprNode<T, K> {
    BinaryNode(DataType t, Expr x, Expr y) : ExprNode<T, K>(t), a(std::move(x)), b(std::move(y)) {}
    Expr a, b;
    static Expr make(Expr a, Expr b);
};

#define TESSEL_BINARY(N)                                                                           \
    struct N##Node : BinaryNode<N##Node, NodeKind::N> {                                            \
        using BinaryNode::BinaryNode;                                                              \
    };
TESSEL_BINARY(Add)
TESSEL_BINARY(Sub)
TESSEL_BINARY(Mul)
TESSEL_BINARY(Div)
TESSEL_BINARY(Mod)
TESSEL_BINARY(FloorDiv)
TESSEL_BINARY(FloorMod)
TESSEL_BINARY(Min)
TESSEL_BINARY(Max)
TESSEL_BINARY(EQ)
TESSEL_BINARY(NE)
TESSEL_BINARY(LT)
TESSEL_BINARY(LE)
TESSEL_BINARY(GT)
TESSEL_BINARY(GE)
TESSEL_BINARY(And)
TESSEL_BINARY(Or)
#undef TESSEL_BINARY

struct CastNode : ExprNode<CastNode, NodeKind::Cast> {
    CastNode(DataType t, Expr v) : ExprNode(t), value(std::move(v)) {}
    Expr value;
    static Expr make(DataType t, Expr value);
};

struct NotNode : ExprNode<NotNode, NodeKind::Not> {
    NotNode(DataType t, Expr v) : ExprNode(t), a(std::move(v)) {}
    Expr a;
    static Expr make(Expr a);
};

struct SelectNode : ExprNode<SelectNode, NodeKind::Select> {
    SelectNode(DataType t, Expr c, Expr x, Expr y)
        : ExprNode(t), condition(std::move(c)), trueValue(std::move(x)), falseValue(std::move(y)) {}
    Expr condition, trueValue, falseValue;
    static Expr make(Expr condition, Expr trueValue, Expr falseValue);
};

/// base, base + stride, ..., base + (lanes-1) * stride.
struct RampNode : ExprNode<RampNode, NodeKind::Ramp> {
    RampNode(DataType t, Expr b, Expr s, int l) : ExprNode(t), base(std::move(b)), stride(std::move(s)), lanes(l) {}
    Expr base, stride;
    int lanes;
    static Expr make(Expr base, Expr stride, int lanes);
};

struct BroadcastNode : ExprNode<BroadcastNode, NodeKind::Broadcast> {
    BroadcastNode(DataType t, Expr v, int l) : ExprNode(t), value(std::move(v)), lanes(l) {}
    Expr value;
    int lanes;
    static Expr make(Expr value, int lanes);
};

struct LetNode : ExprNode<LetNode, NodeKind::Let> {
    LetNode(DataType t, Var v, Expr val, Expr b) : ExprNode(t), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
    Var var;
    Expr value, body;
    static Expr make(Var var, Expr value, Expr body);
};

/// Intrinsics that codegen knows. Pure math maps to LLVM intrinsics or libm.
enum class Intrinsic : uint8_t {
    Exp, Log, Sqrt, Rsqrt, Fma, Tanh, Sigmoid, Pow, Abs, Erf, Floor, Ceil, Round, Trunc,
    Sin, Cos, Likely, Prefetch, Extern,
    /// round_even(x): the nearest integer, halves to even (ONNX's rounding in
    /// Round and QuantizeLinear; one vroundps on x86, frintn on AArch64).
    RoundEven,
    /// T.tvm_storage_sync(): every thread of a GPU block waits here until all
    /// have arrived and their shared-memory writes are visible (__syncthreads);
    /// inserted by the thread-sync pass, a no-op on a CPU. Returns int32 0.
    StorageSync,
    /// pair_dot_i16(a, b): each int32 lane holds two signed int16 halves;
    /// returns lo16(a)*lo16(b) + hi16(a)*hi16(b) as int32 (wrapping), the
    /// x86 pmaddwd step that int8 convolutions are built on.
    PairDotI16
};
const char* intrinsicName(Intrinsic op);
/// nullopt-like: returns false when `name` is no intrinsic.
bool intrinsicFromName(const std::string& name, Intrinsic& out);

struct CallNode : ExprNode<CallNode, NodeKind::Call> {
    CallNode(DataType t, Intrinsic o, std::string n, std::vector<Expr> a)
        : ExprNode(t), op(o), name(std::move(n)), args(std::move(a)) {}
    Intrinsic op;
    std::string name; // intrinsicName(op), or the symbol for Extern
    std::vector<Expr> args;
    static Expr make(DataType t, Intrinsic op, std::vector<Expr> args);
    static Expr makeExtern(DataType t, std::string symbol, std::vector<Expr> args);
};

struct BufferLoadNode : ExprNode<BufferLoadNode, NodeKind::BufferLoad> {
    BufferLoadNode(DataType t, Buffer b, std::vector<Expr> i) : ExprNode(t), buffer(std::move(b)), indices(std::move(i)) {}
    Buffer buffer;
    std::vector<Expr> indices;
    static Expr make(Buffer buffer, std::vector<Expr> indices);
};

/// A read of a TE tensor, before schedule lowering binds it to a buffer.
struct ProducerLoadNode : ExprNode<ProducerLoadNode, NodeKind::ProducerLoad> {
    ProducerLoadNode(DataType t, DataProducer p, std::vector<Expr> i) : ExprNode(t), producer(std::move(p)), indices(std::move(i)) {}
    DataProducer producer;
    std::vector<Expr> indices;
    static Expr make(DataProducer producer, std::vector<Expr> indices);
};

enum class ReduceKind : uint8_t { Sum, Prod, Min, Max };
const char* reduceKindName(ReduceKind k);
/// The identity of the combiner for a type: 0, 1, +inf, -inf (or the int limits).
Expr reduceIdentity(ReduceKind k, DataType t);
/// combine(acc, value) for a combiner.
Expr reduceCombine(ReduceKind k, Expr acc, Expr value);

/// A commutative reduction of `source` over `axis` (only inside TE computes).
struct ReduceNode : ExprNode<ReduceNode, NodeKind::Reduce> {
    ReduceNode(DataType t, ReduceKind k, Expr s, std::vector<IterVar> a, Expr c)
        : ExprNode(t), combiner(k), source(std::move(s)), axis(std::move(a)), condition(std::move(c)) {}
    ReduceKind combiner;
    Expr source;
    std::vector<IterVar> axis;
    Expr condition; // may be undefined: always true
    static Expr make(ReduceKind k, Expr source, std::vector<IterVar> axis, Expr condition = {});
};

// ---------------------------------------------------------------------------
// Statements

struct LetStmtNode : StmtNode<LetStmtNode, NodeKind::LetStmt> {
    Var var;
    Expr value;
    Stmt body;
    static Stmt make(Var var, Expr value, Stmt body);
};

/// A keyed annotation over a body ("pragma_<name>", "storage_scope" ...).
struct AttrStmtNode : StmtNode<AttrStmtNode, NodeKind::AttrStmt> {
    std::string key;
    Expr value;
    Stmt body;
    static Stmt make(std::string key, Expr value, Stmt body);
};

/// ThreadBinding: the loop is run by GPU threads or blocks (`threadTag` says
/// which: "blockIdx.x" ... "threadIdx.z", or "vthread"), TVM's
/// `T.thread_binding`; on a CPU it runs as a serial loop.
enum class ForKind : uint8_t { Serial, Parallel, Vectorized, Unrolled, ThreadBinding };
const char* forKindName(ForKind k);
/// "vthread", "vthread.x/y/z" (TVM's spellings): a virtual thread, which no
/// GPU launches; inject-virtual-thread interleaves its iterations inside
/// one real thread (tir/passes/InjectVirtualThread.h).
bool isVirtualThreadTag(const std::string& tag);

struct ForNode : StmtNode<ForNode, NodeKind::For> {
    Var loopVar;
    Expr min, extent;
    ForKind forKind = ForKind::Serial;
    Stmt body;
    /// Pragmas attached by the schedule: key -> value.
    std::vector<std::pair<std::string, Expr>> annotations;
    /// With ForKind::ThreadBinding: "blockIdx.x", "threadIdx.y", "vthread" ...
    std::string threadTag;
    static Stmt make(Var loopVar, Expr min, Expr extent, ForKind kind, Stmt body,
                     std::vector<std::pair<std::string, Expr>> annotations = {},
                     std::string threadTag = {});
    /// The same loop (kind, annotations, thread) over other bounds and body.
    static Stmt remake(const ForNode& op, Expr min, Expr extent, Stmt body);
};

struct BufferStoreNode : StmtNode<BufferStoreNode, NodeKind::BufferStore> {
    Buffer buffer;
    Expr value;
    std::vector<Expr> indices;
    static Stmt make(Buffer buffer, Expr value, std::vector<Expr> indices);
};

/// Declares that `buffer` holds the region `bounds` while `body` runs (N-d,
/// before flattening; StorageFlatten turns it into an Allocate).
struct BufferRealizeNode : StmtNode<BufferRealizeNode, NodeKind::BufferRealize> {
    Buffer buffer;
    std::vector<Range> bounds;
    Stmt body;
    static Stmt make(Buffer buffer, std::vector<Range> bounds, Stmt body);
};

/// Allocates a flat buffer (its shape's product of elements) around `body`.
struct AllocateNode : StmtNode<AllocateNode, NodeKind::Allocate> {
    Buffer buffer;
    Stmt body;
    static Stmt make(Buffer buffer, Stmt body);
};

struct IfThenElseNode : StmtNode<IfThenElseNode, NodeKind::IfThenElse> {
    Expr condition;
    Stmt thenCase;
    Stmt elseCase; // may be undefined
    static Stmt make(Expr condition, Stmt thenCase, Stmt elseCase = {});
};

struct SeqStmtNode : StmtNode<SeqStmtNode, NodeKind::SeqStmt> {
    std::vector<Stmt> seq;
    /// Flattens nested sequences and drops no-ops; one element returns it alone.
    static Stmt make(std::vector<Stmt> seq);
};

struct EvaluateNode : StmtNode<EvaluateNode, NodeKind::Evaluate> {
    Expr value;
    static Stmt make(Expr value);
};

/// A no-op statement (Evaluate(0)).
Stmt noOp();
bool isNoOp(const Stmt& s);

// ---------------------------------------------------------------------------
// Functions

/// A lowered function: buffer parameters in order, and a body.
struct PrimFuncNode : Object {
    std::string name;
    std::vector<Buffer> params;
    Stmt body;
};

class PrimFunc : public Ref<PrimFuncNode> {
public:
    using Ref::Ref;
    static PrimFunc make(std::string name, std::vector<Buffer> params, Stmt body);
    PrimFunc withBody(Stmt body) const;
};

} // namespace tessel::tir
