/// \file
/// Private to graph/ops: what the operator family files share to build their
/// records — attribute schemas, the record builder, checks and shape helpers
/// for inference functions, the family registration functions that
/// registerGraphOps() calls in order.
///
/// Not part of the graph library's interface: only graph/ops/*.cpp and
/// OpRegistry.cpp include it.
#pragma once

#include "graph/OpRegistry.h"
#include "ir/Layout.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::graph::ops {

using Shape = std::vector<int64_t>;
using Types = std::vector<TensorType>;

// --- the family registration functions, called by registerGraphOps() ----------

/// Nn.cpp: convolution, pooling, Gemm, MatMul, Einsum, normalisations (with LRN, MVN), softmax.
void registerNnOps(OpRegistry& r);
/// Elementwise.cpp: unary operators, Cast, Clip, Identity, Dropout.
void registerElementwiseOps(OpRegistry& r);
/// Broadcast.cpp: arithmetic (with Mod, BitShift), Min/Max/Sum/Mean, PRelu, Where.
void registerBroadcastOps(OpRegistry& r);
/// Logical.cpp: comparisons and boolean logic.
void registerLogicalOps(OpRegistry& r);
/// Transform.cpp: reshapes, Transpose, Concat, Split, Gather, Slice, Pad, Resize ...
void registerTransformOps(OpRegistry& r);
/// Reduce.cpp: the Reduce* operators, ArgMax, ArgMin, Hardmax, CumSum.
void registerReduceOps(OpRegistry& r);
/// Generator.cpp: Constant, Shape, Size, ConstantOfShape, Range, the Hann, Hamming and Blackman windows.
void registerGeneratorOps(OpRegistry& r);
/// Index.cpp: GatherElements, GatherND, Scatter(Elements), ScatterND, OneHot, TopK, ReverseSequence, Trilu, EyeLike.
void registerIndexOps(OpRegistry& r);
/// Loss.cpp: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
void registerLossOps(OpRegistry& r);
/// Quantize.cpp: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, the integer
/// products (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv).
void registerQuantizeOps(OpRegistry& r);
/// Signal.cpp: DFT, STFT.
void registerSignalOps(OpRegistry& r);
/// Recurrent.cpp: RNN, GRU, LSTM (expanded by expand-recurrent before lowering).
void registerRecurrentOps(OpRegistry& r);
/// If, Loop, Scan (ControlFlow.cpp): run on the host around compiled regions.
void registerControlFlowOps(OpRegistry& r);
/// NonZero, Compress, Unique, NonMaxSuppression (DataDependent.cpp): output shapes that are data, run on the host.
void registerDataDependentOps(OpRegistry& r);

// --- shared between families ---------------------------------------------------------

/// Conv's inference (Nn.cpp): the output shape of input 0 convolved with input 1.
Types inferConvShape(const InferContext& ctx);
/// MatMul's inference (Nn.cpp).
Types inferMatMulShape(const InferContext& ctx);
/// Conv's window attributes and group (Nn.cpp).
std::vector<AttrSchema> convAttrs();

// --- building records ---------------------------------------------------------------

AttrSchema attrInt(std::string name, std::optional<int64_t> def, std::string doc);
AttrSchema attrFloat(std::string name, double def, std::string doc);
AttrSchema attrString(std::string name, std::string def, std::string doc);
/// An integer-list attribute without a default.
AttrSchema attrInts(std::string name, std::string doc);

/// A record with the fields every operator has; set `evaluate` (and the
/// rarer fields) on the result.
OpInfo op(std::string name, std::string doc, OpPattern pattern, int minIn, int maxIn, InferFn infer,
          std::vector<AttrSchema> attrs = {}, int minOut = 1, int maxOut = 1);
/// `info` with the constant evaluator `eval`.
OpInfo withEval(OpInfo info, EvalFn eval);

// --- text for messages --------------------------------------------------------------

/// A shape as printed in types: `[2, ?, 4]`.
std::string shapeStr(const Shape& s);
/// A list of integers as given: `[0, -1]`.
std::string listStr(const Shape& v);

// --- checks and helpers for inference functions ---------------------------------

/// ceil(a / b) for b > 0 (without overflow for a >= 0).
int64_t ceilDiv(int64_t a, int64_t b);
/// `v`, computed in 128 bits from a model's numbers (sizes, attributes),
/// saturated to int64: a dimension past int64 becomes INT64_MAX, which
/// OpRegistry::inferOutputTypes refuses (graph::kMaxTensorElements).
inline int64_t saturated(__int128 v) {
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : static_cast<int64_t>(v);
}
/// The product of dims [lo, hi), or -1 when one is unknown.
int64_t productOf(const Shape& s, size_t lo, size_t hi);

void requireSameDtype(const InferContext& ctx, int a, int b);
void requireFloat(const InferContext& ctx, int i);
void requireMinRank(const InferContext& ctx, int i, int rank, const char* what);
/// Attribute `attr` as a list of `n` integers, `fill` repeated when absent.
Shape intsOfSize(const InferContext& ctx, const std::string& attr, size_t n, int64_t fill);

/// The int64 values of a constant input (Reshape's shape, Squeeze's axes ...);
/// nullopt when the input is absent or not a constant.
std::optional<Shape> constInts(const InferContext& ctx, int i, const char* what);
/// A float constant input as doubles; nullopt when absent, not a constant,
/// or float16 (unreadable).
std::optional<std::vector<double>> constFloats(const InferContext& ctx, int i);
/// The length of the 1-D input i (-1 when unknown); fails for another rank.
int64_t vectorLength(const InferContext& ctx, int i, const char* what);
/// The number of axes given by an axes input (input 1) that is not a
/// constant: the output rank follows from it, its dims are unknown until run
/// time. Nullopt when the axes are a constant, an attribute or absent.
std::optional<int64_t> runtimeAxesCount(const InferContext& ctx);
/// Axes from input 1 (opset 13) or from the `axes` attribute (older opsets).
std::optional<Shape> axesOf(const InferContext& ctx);

/// The numpy broadcast of all inputs' shapes.
Shape broadcastInputs(const InferContext& ctx);
/// Numpy broadcasting over all present inputs; `sameDtype` requires equal types.
Types inferBroadcast(const InferContext& ctx, bool sameDtype);
/// The output is input 0's type.
Types inferUnary(const InferContext& ctx);
/// The output is input 0's type, which must be floating-point.
Types inferFloatUnary(const InferContext& ctx);

} // namespace tessel::graph::ops
