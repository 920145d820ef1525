/// \file
/// The operator registry: one record per graph operator.
///
/// Each record gives the operator's ONNX name, a one-line doc, its pattern
/// kind (what FuseOps uses to decide what fuses with what), its attributes
/// with kinds and defaults, how many inputs and outputs it takes, and its
/// shape-and-type inference function, following ONNX's semantics. All records
/// are listed in one explicit function, graphOps() in OpRegistry.cpp: there is
/// no static self-registration. Inference errors (a wrong input count, a rank
/// that does not fit, shapes that do not broadcast) are CompileErrors whose
/// message starts with the node and its operator: `node 'conv1' (Conv): ...`.
#pragma once

#include "graph/Graph.h"

#include <functional>
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

    /// The attribute called `name`, or null.
    const AttrSchema* findAttr(const std::string& name) const;
    /// "2 to 3 inputs", "1 input", "at least 1 input".
    std::string inputCountText() const;
    std::string outputCountText() const;
};

/// Every operator, in a fixed order.
const std::vector<OpInfo>& graphOps();
/// The operator called `name`, or null.
const OpInfo* findOp(std::string_view name);

/// Infers the output types of `node` given its (possibly remapped) inputs:
/// checks that the operator is registered, the input and output counts, and
/// that every present input has a known type, then calls the operator's
/// inference function. Every CompileError it throws names the node and its
/// operator.
std::vector<TensorType> inferOutputTypes(const Node& node, const std::vector<Value>& inputs);

// --- helpers shared by inference functions and graph passes -------------------

/// Numpy (ONNX multidirectional) broadcasting of two shapes; -1 dims stay
/// unknown unless the other side fixes them. Nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b);
/// An axis in [-rank, rank) made non-negative; nullopt when out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// The elements one axis of ONNX's Slice takes: `count` elements from
/// `start`, `step` apart.
struct SliceRange {
    int64_t start = 0;
    int64_t step = 1;
    int64_t count = 0;
};
/// Slice's clamping on an axis of size `dim` (ONNX, opset 10+): negative
/// starts and ends count from the end; then for a positive step both are
/// clamped to [0, dim], for a negative one start to [0, dim - 1] and end to
/// [-1, dim - 1]. `step` must not be 0.
SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step);

} // namespace tessel::graph
