/// \file
/// The graph IR: a typed dataflow graph of operators for whole models.
///
/// A model is a Graph of Nodes. There are three kinds of node: graph inputs,
/// constants (weights, shape tensors) and operator applications (`Conv`,
/// `Add`, ...). Every node has one or more outputs; an output is a Value, the
/// SSA value other nodes take as input. A Value is a small handle (the
/// producing node and an output index), so "which node made this tensor" is
/// never lost, and inputs and constants are Values like any other.
///
/// Ownership follows Halide: a Node is an immutable record behind an
/// intrusive reference (Ref<Node>), created once by Node::make() and never
/// changed. Nodes form a DAG with edges only from consumers to producers, so
/// there are no reference cycles and no dangling producer pointers. The Graph
/// itself is a mutable container (inputs, constants, nodes in topological
/// order, outputs) that builders append to. A pass never edits a node: it
/// builds a new Graph, making new nodes where something changed (keeping the
/// node's id, so the IDE can follow a node through passes) and sharing the
/// unchanged ones. Copying a Graph is therefore cheap and safe (clone()).
///
/// \code
///   graph::Graph g("block");
///   graph::Value x = g.addInput("x", graph::TensorType::parse("float32[1, 64, 56, 56]"));
///   graph::Value w = g.addConstant("w", graph::Constant::zeros(DataType::float32(), {64, 64, 3,
///   3})); graph::Attributes a; a.set("pads", std::vector<int64_t>{1, 1, 1, 1}); graph::Value y =
///   g.addOp("Conv", {x, w}, a, "conv1"); g.setOutputs({g.addOp("Relu", {y})}); g =
///   graph::inferShapes(g);   // passes/InferShapes.h
/// \endcode
#pragma once

#include "ir/DataType.h"
#include "ir/Object.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tessel::graph {

/// The type of a tensor: an element type, a shape and a layout. A dimension
/// of -1 is unknown (a dynamic batch, or not yet inferred). A type whose dtype
/// is void is unknown altogether: the type of an operator's output before
/// shape inference ran. The layout is empty for the plain layout (ONNX's
/// order, what every tensor has until alter-layout); otherwise it is the
/// stored layout in ir/Layout.h's notation ("NCHW16c") and `shape` is the
/// stored shape ([1, 4, 56, 56, 16] for a logical [1, 64, 56, 56]).
struct TensorType {
    DataType dtype;
    std::vector<int64_t> shape;
    std::string layout;

    TensorType() = default;
    TensorType(DataType d, std::vector<int64_t> s, std::string l = {})
        : dtype(d), shape(std::move(s)), layout(std::move(l)) {}

    /// False for the unknown type (void dtype).
    bool known() const { return !dtype.isVoid(); }
    int rank() const { return static_cast<int>(shape.size()); }
    /// True when every dimension is known.
    bool isStatic() const;
    /// The product of the dimensions (INT64_MAX when it does not fit in 64
    /// bits), or -1 when one is unknown.
    int64_t numElements() const;

    /// True when the tensor is stored in a blocked layout.
    bool blocked() const { return !layout.empty(); }
    /// The type with the logical shape and no layout (itself when plain).
    TensorType logical() const;
    /// This type's logical tensor stored in `layout` (empty: plain); nullopt
    /// when the layout does not fit it (rank, or a block that does not divide).
    std::optional<TensorType> inLayout(const std::string& layout) const;

    /// "float32[1, 3, 224, 224]", "float32[?, 1000]", "int64[]" (a scalar),
    /// "float32<NCHW16c>[1, 4, 56, 56, 16]" (blocked), "?" (unknown).
    std::string str() const;
    /// Parses what str() prints (spaces optional); nullopt on malformed text.
    static std::optional<TensorType> parse(std::string_view text);

    bool operator==(const TensorType&) const = default;
};

/// The most elements a tensor may have (2^53). A type beyond it is an error
/// where it enters a graph (the importer's types, every output shape inference
/// gives), so the shape arithmetic of inference on a graph's dimensions stays
/// far from int64 overflow.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 53;
/// True when the known dimensions of `t` alone multiply to more than kMaxTensorElements.
bool tooManyElements(const TensorType& t);

/// The DataType of an ONNX TensorProto element type code (1 = float, 7 =
/// int64, ...); nullopt for codes Tessel does not support (strings, complex).
std::optional<DataType> dataTypeFromOnnx(int64_t code);

/// A constant tensor with its own buffer (row-major, little-endian, as ONNX
/// stores raw data). Immutable once made.
class Constant : public Object {
public:
    DataType dtype;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;
    /// The stored layout (TensorType::layout): empty for a plain constant;
    /// `shape` and `bytes` are then the stored ones.
    std::string layout;

    /// Checks that `bytes` holds exactly numElements() elements of `dtype`
    /// (InternalError otherwise) and that no dimension is negative.
    static Ref<Constant> make(DataType dtype, std::vector<int64_t> shape,
                              std::vector<uint8_t> bytes);
    /// A floating-point tensor (float32 or float64).
    static Ref<Constant> fromFloats(std::vector<int64_t> shape, const std::vector<double>& values,
                                    DataType dtype = DataType::float32());
    /// An integer tensor (int8 ... int64, uint8 ... uint64 or bool).
    static Ref<Constant> fromInts(std::vector<int64_t> shape, const std::vector<int64_t>& values,
                                  DataType dtype = DataType::int64());
    /// A tensor of zeros.
    static Ref<Constant> zeros(DataType dtype, std::vector<int64_t> shape);
    /// This tensor's elements stored in `layout` (empty: plain): moved to their
    /// stored positions, with the stored shape. Throws CompileError when the
    /// layout does not fit the logical shape.
    Ref<Constant> inLayout(const std::string& layout) const;

    int64_t numElements() const;
    TensorType type() const { return {dtype, shape, layout}; }
    /// The elements converted to int64 (floats truncated toward zero).
    std::vector<int64_t> toInts() const;
    /// The elements converted to double.
    std::vector<double> toDoubles() const;

private:
    Constant() = default;
};

/// One attribute value: an integer, a float, a string, a list of integers, a
/// list of floats or a constant tensor (ONNX's INT, FLOAT, STRING, INTS,
/// FLOATS and TENSOR attributes). Graph-valued attributes are Node::subgraphs;
/// the other ONNX kinds (STRINGS, TENSORS, ...) are kept on opaque nodes as
/// their printed text (a string), to be shown, never computed with.
using AttrValue = std::variant<int64_t, double, std::string, std::vector<int64_t>,
                               std::vector<double>, Ref<Constant>>;

/// The kind of an AttrValue, in the variant's order.
enum class AttrKind { Int, Float, String, Ints, Floats, Tensor };
AttrKind attrKind(const AttrValue& v);
/// "int", "float", "string", "ints", "floats", "tensor".
const char* attrKindName(AttrKind k);
/// The printed form of a value: `3`, `0.5`, `"SAME_UPPER"`, `[1, 1]`, `tensor float32[3]`.
std::string attrValueStr(const AttrValue& v);

/// The attributes of a node: names to values, kept in insertion order (the
/// order the printer shows). Getters take a default for an absent attribute
/// and throw CompileError when the attribute has another kind. A float getter
/// accepts an integer value (ONNX writers sometimes store 1 for 1.0).
class Attributes {
public:
    using Entry = std::pair<std::string, AttrValue>;

    /// Sets (or replaces, keeping its position) attribute `name`.
    void set(const std::string& name, AttrValue value);
    /// Removes `name`; false when it was absent.
    bool erase(const std::string& name);
    bool has(const std::string& name) const { return find(name) != nullptr; }
    /// The value called `name`, or null.
    const AttrValue* find(const std::string& name) const;
    const std::vector<Entry>& entries() const { return entries_; }
    bool empty() const { return entries_.empty(); }
    size_t size() const { return entries_.size(); }

    int64_t getInt(const std::string& name, int64_t fallback) const;
    double getFloat(const std::string& name, double fallback) const;
    std::string getString(const std::string& name, const std::string& fallback) const;
    std::vector<int64_t> getInts(const std::string& name,
                                 const std::vector<int64_t>& fallback) const;
    std::vector<double> getFloats(const std::string& name,
                                  const std::vector<double>& fallback) const;
    /// The tensor attribute `name`, or null when absent.
    Ref<Constant> getTensor(const std::string& name) const;

    /// `{strides=[1, 1], pads=[1, 1, 1, 1]}`; empty text when there are none.
    std::string str() const;

    bool operator==(const Attributes& o) const;

private:
    std::vector<Entry> entries_;
};

class Node;
class OpRegistry;

/// An SSA value: output `index` of node `producer` (an operator, a graph
/// input or a constant). A default-constructed Value is "absent" (ONNX's
/// empty input name, for optional inputs such as Clip's min).
class Value {
public:
    Value() = default;
    Value(Ref<Node> producer, int index);
    Value(const Value&);
    Value(Value&&) noexcept;
    Value& operator=(const Value&);
    Value& operator=(Value&&) noexcept;
    ~Value();

    bool defined() const { return producer_.defined(); }
    const Node* producer() const { return producer_.get(); }
    const Ref<Node>& producerRef() const { return producer_; }
    int index() const { return index_; }
    /// The value's type (unknown before shape inference for operator outputs).
    const TensorType& type() const;
    /// The tensor name: the input's or constant's name, or the operator
    /// output's name given by the builder (ONNX tensor names); may be empty.
    const std::string& name() const;
    bool isInput() const;
    bool isConstant() const;
    /// The constant behind this value, or null when it is not a constant.
    Ref<Constant> constant() const;

    bool operator==(const Value& o) const {
        return producer_.get() == o.producer_.get() && index_ == o.index_;
    }

private:
    Ref<Node> producer_;
    int index_ = 0;
};

/// Hashing for Values, to key unordered containers.
struct ValueHash {
    size_t operator()(const Value& v) const {
        return std::hash<const void*>()(v.producer()) * 31 + static_cast<size_t>(v.index());
    }
};

enum class NodeKind { Input, Constant, Op };

class Graph;

/// A graph held by an operator's attribute: an If's then_branch and
/// else_branch, a Loop's or Scan's body. Its inputs are the subgraph's own
/// inputs, then the outer values it reads by name (ONNX's outer scope). On a
/// control-flow node (Node::makeControlFlow) the outer values are also the
/// node's last inputs, subgraph by subgraph, so passes keep and remap them;
/// `outer` then gives only their count, and the node's inputs are current.
struct Subgraph {
    /// The attribute's name ("else_branch"; "name[i]" for a GRAPHS list).
    std::string attr;
    std::shared_ptr<const Graph> graph;
    /// The outer values the subgraph reads, in order: its last outer.size()
    /// inputs stand for them.
    std::vector<Value> outer;
};

/// A node of the graph: an immutable record.
class Node : public Object {
public:
    NodeKind kind = NodeKind::Op;
    /// Stable integer id, unique within a graph; kept when a pass remakes the node.
    int64_t id = 0;
    /// The operator name (`Conv`); empty for inputs and constants.
    std::string op;
    /// The node's name (ONNX node name; for inputs and constants, the tensor name).
    std::string name;
    std::vector<Value> inputs;
    Attributes attrs;
    /// One type per output (unknown before shape inference).
    std::vector<TensorType> outputTypes;
    /// One name per output (may be empty strings); same length as outputTypes.
    std::vector<std::string> outputNames;
    /// The tensor of a Constant node; null otherwise.
    Ref<Constant> constant;
    /// The operator's domain: empty for ONNX's default domain, else the
    /// model's ("com.microsoft").
    std::string domain;
    /// The graph-valued attributes, imported as graphs of their own.
    std::vector<Subgraph> subgraphs;
    /// Why the node cannot be compiled, or empty. A node with a reason is
    /// *opaque*: the importer keeps what the model says (operator, domain,
    /// attributes, the types the model gives or infers) so the graph can be
    /// shown, and graph::unsupportedConstructs lists it; the compiler refuses
    /// a graph that holds one. Graph inputs of a type Tessel cannot hold
    /// (sequences, strings) carry a reason too.
    std::string unsupported;

    bool opaque() const { return !unsupported.empty(); }

    /// An operator node. outputTypes may be empty (numOutputs unknown types are
    /// made) or give one type per output; outputNames likewise.
    static Ref<Node> makeOp(int64_t id, std::string op, std::vector<Value> inputs, Attributes attrs,
                            int numOutputs, std::string name = {},
                            std::vector<TensorType> outputTypes = {},
                            std::vector<std::string> outputNames = {});
    /// An opaque operator node (see `unsupported`): `reason` must not be empty.
    static Ref<Node> makeOpaque(int64_t id, std::string op, std::string domain,
                                std::vector<Value> inputs, Attributes attrs,
                                std::vector<Subgraph> subgraphs, std::string reason,
                                std::string name, std::vector<TensorType> outputTypes,
                                std::vector<std::string> outputNames);
    /// A control-flow operator node (If, Loop, Scan) that compiles: `inputs`
    /// are the operator's own inputs followed by every subgraph's outer values
    /// (Subgraph::outer), in subgraph order.
    static Ref<Node> makeControlFlow(int64_t id, std::string op, std::vector<Value> inputs,
                                     Attributes attrs, std::vector<Subgraph> subgraphs,
                                     std::string name, std::vector<std::string> outputNames);
    /// The number of the operator's own inputs: inputs less the subgraphs'
    /// outer values (all inputs for an opaque node, whose outer values are not inputs).
    int numOwnInputs() const;
    static Ref<Node> makeInput(int64_t id, std::string name, TensorType type);
    /// A graph input of a type Tessel cannot hold: its type is unknown and
    /// `reason` says why.
    static Ref<Node> makeUnsupportedInput(int64_t id, std::string name, std::string reason);
    static Ref<Node> makeConstant(int64_t id, std::string name, Ref<Constant> value);

    int numOutputs() const { return static_cast<int>(outputTypes.size()); }
    Value output(int i = 0) const;
    std::vector<Value> outputs() const;

    /// A copy of this node (same id, op, name, attributes) with other inputs.
    Ref<Node> withInputs(std::vector<Value> newInputs) const;
    /// A copy with other output types (same count).
    Ref<Node> withOutputTypes(std::vector<TensorType> types) const;
    /// A copy with other inputs and output types.
    Ref<Node> with(std::vector<Value> newInputs, std::vector<TensorType> types) const;

    /// "node 'conv1' (Conv)", or "node %5 (Conv)" when unnamed; "input 'x'", "constant 'w'".
    std::string describe() const;

private:
    Node() = default;
    friend class Graph;
};

/// A whole model: graph inputs, constants, operator nodes in topological
/// order, and graph outputs.
class Graph {
public:
    explicit Graph(std::string name = "main") : name_(std::move(name)) {}

    const std::string& name() const { return name_; }
    void setName(std::string name) { name_ = std::move(name); }

    // --- builders -----------------------------------------------------------

    /// Adds a graph input called `name` (unique among inputs and constants).
    Value addInput(const std::string& name, TensorType type);
    /// Adds a constant called `name`.
    Value addConstant(const std::string& name, Ref<Constant> value);
    /// Adds a node made elsewhere (Node::makeUnsupportedInput) as a graph input.
    Value addInputNode(Ref<Node> input);
    /// Appends an operator node. Its inputs must already be in the graph, so a
    /// graph built this way is always in topological order. Output types are
    /// unknown until shape inference (passes/InferShapes.h).
    Ref<Node> addNode(const std::string& op, std::vector<Value> inputs, Attributes attrs = {},
                      int numOutputs = 1, const std::string& name = {});
    /// addNode for a one-output operator: its Value.
    Value addOp(const std::string& op, std::vector<Value> inputs, Attributes attrs = {},
                const std::string& name = {});
    /// Appends a node made elsewhere (a pass remaking a node keeps its id);
    /// inputs, constants and operators all go to their own list.
    void append(Ref<Node> node);
    void setOutputs(std::vector<Value> outputs) { outputs_ = std::move(outputs); }

    /// Tensors (graph inputs, outputs, weights) whose element type in the
    /// model is not the one Tessel computes with: the model's type by tensor
    /// name ("float16", "bfloat16"; computed as float32). A run converts
    /// inputs from and outputs back to these types.
    const std::map<std::string, std::string>& storedTypes() const { return storedTypes_; }
    void setStoredType(const std::string& tensor, const std::string& modelType) {
        storedTypes_[tensor] = modelType;
    }
    /// True when some node (here or in a subgraph) is opaque or some input
    /// has an unsupported type: the graph can be shown, not compiled.
    bool hasUnsupported() const;
    /// A fresh id, larger than every id in the graph.
    int64_t newId() { return nextId_++; }

    // --- access -------------------------------------------------------------

    const std::vector<Ref<Node>>& inputs() const { return inputs_; }
    const std::vector<Ref<Node>>& constants() const { return constants_; }
    /// Operator nodes, in topological order (after sortTopologically()).
    const std::vector<Ref<Node>>& nodes() const { return nodes_; }
    const std::vector<Value>& outputs() const { return outputs_; }
    /// The input called `name`, or an undefined Value.
    Value findInput(const std::string& name) const;
    /// The operator node with this id, or null.
    const Node* findNode(int64_t id) const;
    /// Operator nodes that use `v` as an input, in order.
    std::vector<const Node*> users(const Value& v) const;

    // --- whole-graph operations ---------------------------------------------

    /// Reorders the operator nodes so that every node follows its producers
    /// (stable: a graph already in order is unchanged). Throws CompileError
    /// when a node uses a value that is not in the graph.
    void sortTopologically();
    /// Checks the graph: every node input is defined in the graph before its
    /// use, ids and input/constant names are unique, operators are registered
    /// with input and output counts in range and attributes of the declared
    /// kinds, and every graph output is in the graph. Throws CompileError
    /// naming the node and its operator. The operators are looked up in
    /// `ops`; without it, in the default registry (graph/OpRegistry.h).
    void verify(const OpRegistry& ops) const;
    void verify() const;
    /// An independent copy: adding to or replacing nodes in one graph does not
    /// change the other (nodes are immutable and shared).
    Graph clone() const { return *this; }

    /// A new graph with every operator node replaced by `rewrite(node,
    /// newInputs)` in topological order, where newInputs are the node's inputs
    /// mapped through the earlier replacements; inputs, constants and ids are
    /// kept, and outputs are remapped. `rewrite` returns the node to use, with
    /// the same number of outputs: a node made with node.with(...), or the same
    /// node when nothing changed (it is then remade with the new inputs if an
    /// earlier replacement changed them).
    Graph rebuild(const std::function<Ref<Node>(const Node& node, std::vector<Value> newInputs)>&
                      rewrite) const;

private:
    void checkName(const std::string& name) const;

    std::string name_;
    std::vector<Ref<Node>> inputs_;
    std::vector<Ref<Node>> constants_;
    std::vector<Ref<Node>> nodes_;
    std::vector<Value> outputs_;
    std::map<std::string, std::string> storedTypes_;
    int64_t nextId_ = 0;
};

// Value's members need a complete Node.
inline Value::Value(Ref<Node> producer, int index)
    : producer_(std::move(producer)), index_(index) {}
inline Value::Value(const Value&) = default;
inline Value::Value(Value&&) noexcept = default;
inline Value& Value::operator=(const Value&) = default;
inline Value& Value::operator=(Value&&) noexcept = default;
inline Value::~Value() = default;

} // namespace tessel::graph
