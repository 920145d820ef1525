/// \file
/// The operator library (TVM's topi): for every graph operator, a compute
/// that builds its tensor expression from its inputs, and the schedules that
/// make the fused functions fast.
///
/// A compute sees an OpContext: the graph node (attributes, types after shape
/// inference), one te::Tensor per input (graph inputs, weights and the
/// outputs of other fused functions are placeholders; values computed
/// earlier in the same fused function are those tensors) and, where an input
/// is a constant, the constant itself (Reshape's shape, Slice's starts). It
/// returns one tensor per node output, with the node's inferred shapes and
/// types; every shape is static here, because the driver binds input shapes
/// and runs shape inference first. A compute tags its operations with a
/// kind (tags below) that the fused-function scheduler (Schedule.h) reads.
/// All records are listed explicitly in topiOps() (Registry.cpp); there is no
/// static self-registration.
#pragma once

#include "graph/Graph.h"
#include "te/Tensor.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::topi {

/// Operation tags: how a stage is scheduled inside a fused function.
namespace tag {
inline constexpr const char* kElemWise = "elemwise";   ///< inlined into its consumer
inline constexpr const char* kBroadcast = "broadcast"; ///< inlined into its consumer
inline constexpr const char* kInjective = "injective"; ///< inlined into its consumer
inline constexpr const char* kPad = "pad";             ///< materialised (a conv reads it many times)
inline constexpr const char* kReduce = "reduce";
inline constexpr const char* kConv2d = "conv2d";         ///< NCHW direct convolution
inline constexpr const char* kConv2dNCHWc = "conv2d_nchwc";
inline constexpr const char* kDepthwise = "depthwise_conv2d";
inline constexpr const char* kDense = "dense";   ///< (batched) matrix product
inline constexpr const char* kDensePacked = "dense_packed"; ///< constant weights in 16-column panels
inline constexpr const char* kPool = "pool";
inline constexpr const char* kOpaque = "opaque"; ///< materialised at root, default loops
/// True for the tags whose stages are inlined into their consumers.
bool isInjectiveTag(std::string_view tag);
} // namespace tag

class OpContext {
public:
    OpContext(const graph::Node& node, std::vector<te::Tensor> inputs,
              std::vector<Ref<graph::Constant>> constants);

    const graph::Node& node() const { return node_; }
    const graph::Attributes& attrs() const { return node_.attrs; }
    /// A name for the operations this node makes: the node's name made an
    /// identifier (or the lower-case operator with the node id).
    const std::string& name() const { return name_; }

    int numInputs() const { return static_cast<int>(inputs_.size()); }
    bool hasInput(int i) const;
    /// Input i as a tensor; fails when it is absent.
    const te::Tensor& input(int i) const;
    /// The constant behind input i, or null.
    Ref<graph::Constant> constant(int i) const;
    /// The integers of constant input i (Reshape's shape, Slice's starts);
    /// fails when input i is not a constant.
    std::vector<int64_t> constInts(int i) const;
    /// The floats of constant input i; fails when it is not a constant.
    std::vector<double> constFloats(int i) const;
    /// Static type of input i (from the graph value).
    const graph::TensorType& inputType(int i) const;
    const graph::TensorType& outputType(int i = 0) const;
    /// The shape of output i as TE extents.
    std::vector<te::Expr> outputShape(int i = 0) const;

    /// Throws CompileError("node 'n' (Op): message").
    [[noreturn]] void fail(const std::string& message) const;

    /// Makes a constant at compile time (packed weights) a function argument.
    using ConstantMaker = std::function<te::Tensor(const std::string& name, Ref<graph::Constant> value)>;
    void setConstantMaker(ConstantMaker maker) { constantMaker_ = std::move(maker); }
    /// `make()` as a tensor argument when the caller (the model compiler) can
    /// add constants; otherwise an undefined Tensor, and the compute makes the
    /// same values with a TE stage instead.
    te::Tensor derivedConstant(const std::string& name, const std::function<Ref<graph::Constant>()>& make) const {
        return constantMaker_ ? constantMaker_(name, make()) : te::Tensor();
    }

private:
    ConstantMaker constantMaker_;
    const graph::Node& node_;
    std::vector<te::Tensor> inputs_;
    std::vector<Ref<graph::Constant>> constants_;
    std::string name_;
};

using ComputeFn = std::function<std::vector<te::Tensor>(const OpContext&)>;

/// The compute of one graph operator. Several records may name the same
/// operator: computeNode() takes the first whose compute applies (returns
/// outputs rather than an empty vector), so specialised computes (a blocked
/// convolution) come before the general one.
struct TopiOp {
    std::string name; ///< ONNX operator name
    ComputeFn compute;
};

/// Every operator the library computes.
const std::vector<TopiOp>& topiOps();
/// The compute of `op`, or null when the library has none.
const TopiOp* findTopiOp(std::string_view op);

/// Runs the compute of `ctx.node()` and checks its outputs against the
/// node's inferred types (count, shape, dtype): a mismatch is an internal
/// error. Throws CompileError naming the node when there is no compute.
std::vector<te::Tensor> computeNode(const OpContext& ctx);

// --- the per-file record lists, gathered by topiOps() -------------------------
void addElementwiseOps(std::vector<TopiOp>& ops); // Elementwise.cpp
void addConv2dNCHWcOps(std::vector<TopiOp>& ops); // Conv2dNCHWc.cpp: blocked 2-d convolution
void addDensePackedOps(std::vector<TopiOp>& ops); // DensePacked.cpp: Gemm with constant weights
void addNnOps(std::vector<TopiOp>& ops);          // Nn.cpp: conv, gemm, matmul, pooling
void addTransformOps(std::vector<TopiOp>& ops);   // Transform.cpp: reshape, slice, concat ...
void addReduceOps(std::vector<TopiOp>& ops);      // Reduce.cpp: reductions, softmax, norms

} // namespace tessel::topi
