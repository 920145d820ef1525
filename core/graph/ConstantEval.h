/// \file
/// Evaluating an operator on constant inputs, for constant folding.
///
/// evaluateConstant() computes what one operator node produces when all its
/// inputs are known tensors: the shape sub-graphs of exported models (Shape,
/// Gather, Unsqueeze, Concat, Reshape ...), index arithmetic, and the small
/// element-wise operators that appear around them. It computes in each
/// tensor's own element type, as the kernels would: int64 stays exact,
/// integer overflow wraps, integer division truncates toward zero (as ONNX
/// Runtime does), and float32 results are rounded to float after every
/// operation. Output shapes come from the operator's own inference function
/// (OpRegistry.h), so folding and shape inference always agree.
///
/// Operators it does not know, and float16 tensors (which Constant cannot
/// read), give nullopt: the caller leaves the node as it is. Inputs that make
/// the operator itself fail (a Gather index out of range, an integer
/// division by zero, a shape that does not check) throw a CompileError naming
/// the node, as the operator would fail at run time.
#pragma once

#include "graph/Graph.h"

#include <optional>
#include <vector>

namespace tessel::graph {

/// The outputs of `node` (one constant per output) applied to `inputs`, one
/// per node input, null for an absent optional input; nullopt when the
/// evaluator does not support the operator or an element type. Supported:
/// Constant, Identity, Shape, Size, Gather, Concat, Cast, Reshape, Flatten,
/// Squeeze, Unsqueeze, Transpose, Slice, Expand, Tile, Where, Range,
/// ConstantOfShape; Add, Sub, Mul, Div, Min, Max, Sum, Mean; Neg, Abs, Sqrt,
/// Relu, Reciprocal, Floor, Ceil, Round, Sign; Equal, Less, Greater,
/// LessOrEqual, GreaterOrEqual, Not, And, Or, Xor; ReduceSum, ReduceProd,
/// ReduceMin, ReduceMax.
std::optional<std::vector<Ref<Constant>>>
evaluateConstant(const Node& node, const std::vector<Ref<Constant>>& inputs);

/// The constant Shape produces for a tensor of (static) type `type`, with
/// Shape's `start` and `end` attributes from `attrs` (opset 15).
Ref<Constant> shapeConstant(const TensorType& type, const Attributes& attrs);

} // namespace tessel::graph
