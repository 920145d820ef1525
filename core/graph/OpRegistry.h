/// \file
/// The operator registry: one record per graph operator.
///
/// Each record gives the operator's ONNX name, a one-line doc, its pattern
/// kind (what FuseOps uses to decide what fuses with what), its attributes
/// with kinds and defaults, how many inputs and outputs it takes, its
/// shape-and-type inference function (following ONNX's semantics) and, where
/// the operator can be computed at compile time, its constant evaluator. An
/// OpRegistry object holds records in order and refuses a second record of
/// the same name; registerGraphOps() fills one with every built-in operator
/// through one explicit function per family (graph/ops/*.cpp), with no static
/// self-registration. A compile looks operators up in the registry of its
/// driver::Context (the graph passes and the importer take it through their
/// options); the free functions graphOps(), findOp() and inferOutputTypes()
/// work on a process-wide default registry filled once by the same
/// function, for code without a context. Inference errors (a wrong input count, a rank that does
/// not fit, shapes that do not broadcast) are CompileErrors whose message
/// starts with the node and its operator: `node 'conv1' (Conv): ...`.
#pragma once

#include "graph/Graph.h"
#include "ir/AxisMath.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::graph {

/// How an operator's outputs depend on its inputs; drives operator fusion.
/// The meanings (and the ordering: a larger kind fuses less) are TVM's
/// (`include/tvm/relay/op_attr_types.h`).
enum class OpPattern {
    /// Each output element depends on the input element at the same index
    /// only, and shapes are equal (Relu, Exp, Cast).
    ElementWise = 0,
    /// Element-wise after numpy broadcasting of the inputs (Add, Mul, Pow):
    /// an output element reads one element of each input, at the index found
    /// by dropping or zeroing the broadcast axes.
    Broadcast = 1,
    /// Each output element reads some input elements at indices that are an
    /// injective function of its own index, with no reduction (Reshape,
    /// Transpose, Concat, Squeeze).
    Injective = 2,
    /// A commutative reduction over some axes (ReduceSum, ReduceMax).
    CommReduce = 3,
    /// A complex operator whose output can take element-wise operators after
    /// it into the same kernel (Conv, Gemm, MatMul, pooling): FuseOps fuses
    /// the following element-wise and broadcast operators into it.
    OutEWiseFusable = 4,
    /// Nothing fuses with it (Softmax, BatchNormalization before
    /// simplify-inference turns it into scale and shift).
    Opaque = 8,
};

/// "elementwise", "broadcast", "injective", "reduce", "out-elementwise-fusable", "opaque".
const char* opPatternName(OpPattern p);

/// What an operator does with inputs stored in a blocked layout (TensorType::layout).
enum class LayoutPolicy {
    /// Takes plain tensors only: a blocked input is an error (alter-layout
    /// puts a LayoutTransform back to the plain layout before such operators).
    Plain,
    /// Computes element by element on the stored shapes: every input of more
    /// than one element has one and the same layout, and so do the outputs
    /// (the default of the element-wise and broadcast operators).
    Elementwise,
    /// The inference function reads and gives layouts itself (Conv, pooling,
    /// Concat, LayoutTransform).
    Custom,
};

/// One attribute an operator understands.
struct AttrSchema {
    std::string name;
    AttrKind kind = AttrKind::Int;
    /// The default; nullopt when the attribute is required or its default
    /// depends on the inputs (Conv's kernel_shape is read from the weights).
    std::optional<AttrValue> defaultValue;
    std::string doc;
};

/// What an inference function sees: the node (its attributes and name) and
/// its inputs as they are now (with their inferred types). An absent optional
/// input is an undefined Value.
class InferContext {
public:
    InferContext(const Node& node, const std::vector<Value>& inputs)
        : node_(node), inputs_(inputs) {}

    const Node& node() const { return node_; }
    const Attributes& attrs() const { return node_.attrs; }
    int numInputs() const { return static_cast<int>(inputs_.size()); }
    int numOutputs() const { return node_.numOutputs(); }
    /// True when input i exists and is not absent.
    bool hasInput(int i) const {
        return i < numInputs() && inputs_[static_cast<size_t>(i)].defined();
    }
    const Value& inputValue(int i) const { return inputs_[static_cast<size_t>(i)]; }
    /// The type of input i; fails when it is absent.
    const TensorType& input(int i) const;
    /// The constant behind input i, or null when the input is absent or not a constant.
    Ref<Constant> constantInput(int i) const;

    /// Throws CompileError("node 'n' (Op): message").
    [[noreturn]] void fail(const std::string& message) const;

private:
    const Node& node_;
    const std::vector<Value>& inputs_;
};

/// Computes the types of a node's outputs (as many as the node has).
using InferFn = std::function<std::vector<TensorType>(const InferContext&)>;

/// What a constant evaluator sees: the node, its inputs as constants (null
/// for an absent optional input) and the output types that inference gave
/// for those constants (always static: evaluateConstant() checks first).
class EvalContext {
public:
    EvalContext(const Node& node, const std::vector<Ref<Constant>>& inputs,
                const std::vector<TensorType>& outputs)
        : node_(node), inputs_(inputs), outputs_(outputs) {}

    const Node& node() const { return node_; }
    const Attributes& attrs() const { return node_.attrs; }
    int numInputs() const { return static_cast<int>(inputs_.size()); }
    /// True when input i exists and is not absent.
    bool hasInput(int i) const { return i < numInputs() && inputs_[static_cast<size_t>(i)]; }
    /// The constant of input i; the input must be present.
    const Constant& input(int i) const { return *inputs_[static_cast<size_t>(i)]; }
    /// The type inference gave output i.
    const TensorType& output(int i = 0) const { return outputs_[static_cast<size_t>(i)]; }

    /// Throws CompileError("node 'n' (Op): message"): the inputs make the
    /// operator itself fail (an index out of range, an integer division by zero).
    [[noreturn]] void fail(const std::string& message) const;

private:
    const Node& node_;
    const std::vector<Ref<Constant>>& inputs_;
    const std::vector<TensorType>& outputs_;
};

/// One constant per output, or nullopt when the evaluator does not handle
/// these inputs (an element type it cannot compute in).
using EvalResult = std::optional<std::vector<Ref<Constant>>>;
/// Evaluates an operator on constant inputs.
using EvalFn = std::function<EvalResult(const EvalContext&)>;
/// Computes an operator's outputs from the static types of its inputs alone
/// (Shape, Size): it folds even when the input values are computed at run time.
using TypeEvalFn =
    std::function<std::vector<Ref<Constant>>(const Node&, const std::vector<TensorType>&)>;

/// The record of one operator.
struct OpInfo {
    std::string name; ///< ONNX operator name, e.g. "Conv"
    std::string doc;  ///< one line
    OpPattern pattern = OpPattern::Opaque;
    std::vector<AttrSchema> attributes;
    int minInputs = 1;
    int maxInputs = 1; ///< -1: any number (variadic)
    int minOutputs = 1;
    int maxOutputs = 1; ///< -1: any number (Split: as many as the node has)
    InferFn infer;
    /// Constant evaluation (graph/ConstantEval.h); null when the operator is
    /// only computed by kernels.
    EvalFn evaluate;
    /// Evaluation from input types alone; null for almost every operator.
    TypeEvalFn evaluateFromTypes;
    /// How it takes blocked layouts; op() (graph/ops) makes it Elementwise
    /// for element-wise and broadcast operators.
    LayoutPolicy layouts = LayoutPolicy::Plain;
    /// The operator has no kernel compute: it must be folded to a constant
    /// before code generation (Constant). Such a record has an evaluator,
    /// and fold-constant folds it whatever its size.
    bool foldOnly = false;
    /// The graph pass that rewrites the operator into others before lowering
    /// (RNN, GRU, LSTM: "expand-recurrent"); empty for operators with a compute.
    std::string expandedBy;
    /// A control-flow operator (If, Loop, Scan): it runs its subgraphs on the
    /// host (driver/ControlFlowProgram.h), never as a kernel; compileGraph
    /// splits the graph around it.
    bool controlFlow = false;
    /// An operator whose output shape depends on its input values (NonZero,
    /// Compress, Unique, NonMaxSuppression): it runs on the same host executor
    /// (driver/HostOps.h), never as a kernel, and its inference gives -1 for
    /// the lengths that are data; compileGraph splits the graph around it.
    bool dataDependent = false;

    /// The attribute called `name`, or null.
    const AttrSchema* findAttr(const std::string& name) const;
    /// "2 to 3 inputs", "1 input", "at least 1 input".
    std::string inputCountText() const;
    std::string outputCountText() const;
};

/// A set of operator records in registration order. The built-in operators
/// come from registerGraphOps(); more can be added at run time (a plugin's).
/// Records never move once added: pointers from find() stay valid.
class OpRegistry {
public:
    using const_iterator = std::deque<OpInfo>::const_iterator;

    OpRegistry() = default;
    // The name index points into the records: moving keeps them, copying would not.
    OpRegistry(const OpRegistry&) = delete;
    OpRegistry& operator=(const OpRegistry&) = delete;
    OpRegistry(OpRegistry&&) = default;
    OpRegistry& operator=(OpRegistry&&) = default;

    /// Adds `info` after the records already there. Throws CompileError when
    /// an operator of that name is registered, or when the record has no
    /// name, no doc or no inference function, or is fold-only without an
    /// evaluator.
    const OpInfo& add(OpInfo info);
    /// The operator called `name`, or null.
    const OpInfo* find(std::string_view name) const;

    const_iterator begin() const { return ops_.begin(); }
    const_iterator end() const { return ops_.end(); }
    size_t size() const { return ops_.size(); }
    bool empty() const { return ops_.empty(); }

    /// Infers the output types of `node` given its (possibly remapped)
    /// inputs: checks that the operator is registered here, the input and
    /// output counts, and that every present input has a known type, then
    /// calls the operator's inference function. Every CompileError it throws
    /// names the node and its operator.
    std::vector<TensorType> inferOutputTypes(const Node& node,
                                             const std::vector<Value>& inputs) const;

private:
    std::deque<OpInfo> ops_;
    std::map<std::string, const OpInfo*, std::less<>> byName_;
};

/// Adds every built-in operator to `registry`, family by family (graph/ops).
void registerGraphOps(OpRegistry& registry);

/// The process-wide registry of the built-in operators, filled once by
/// registerGraphOps(); what the free functions below use, and the graph
/// passes and the importer when their options name no registry.
const OpRegistry& defaultOpRegistry();

/// Every built-in operator, in registration order (the default registry).
const OpRegistry& graphOps();
/// The built-in operator called `name`, or null.
const OpInfo* findOp(std::string_view name);

/// defaultOpRegistry().inferOutputTypes(node, inputs).
std::vector<TensorType> inferOutputTypes(const Node& node, const std::vector<Value>& inputs);

/// `registry`, or the default registry when it is null: what a null
/// `ops` in the graph passes' options and the importer's options means.
inline const OpRegistry& opsOrDefault(const OpRegistry* registry) {
    return registry ? *registry : defaultOpRegistry();
}

// --- helpers shared by inference functions and graph passes -------------------

/// Numpy (ONNX multidirectional) broadcasting of two shapes; -1 dims stay
/// unknown unless the other side fixes them. Nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b);
// normalizeAxis, SliceRange and sliceRange: ir/AxisMath.h (topi reads ONNX's rules the same way).
using tessel::normalizeAxis;
using tessel::SliceRange;
using tessel::sliceRange;

} // namespace tessel::graph
