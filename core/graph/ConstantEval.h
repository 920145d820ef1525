/// \file
/// Evaluating an operator on constant inputs, for constant folding.
///
/// evaluateConstant() computes what one operator node produces when all its
/// inputs are known tensors: the shape sub-graphs of exported models (Shape,
/// Gather, Unsqueeze, Concat, Reshape ...), index arithmetic, and the small
/// element-wise operators that appear around them. It runs the `evaluate`
/// function of the operator's record (OpRegistry.h; each family file in
/// graph/ops holds its operators' evaluators next to their inference), after
/// taking the output types from the record's own inference function, so
/// folding and shape inference always agree. Evaluators compute in each
/// tensor's own element type, as the kernels would: int64 stays exact,
/// integer overflow wraps, integer division truncates toward zero (as ONNX
/// Runtime does), and float32 results are rounded to float after every
/// operation.
///
/// Operators without an evaluator, and float16 tensors (which Constant cannot
/// read), give nullopt: the caller leaves the node as it is. Inputs that make
/// the operator itself fail (a Gather index out of range, an integer
/// division by zero, a shape that does not check) throw a CompileError naming
/// the node, as the operator would fail at run time.
#pragma once

#include "graph/OpRegistry.h"

#include <optional>
#include <vector>

namespace tessel::graph {

/// The outputs of `node` (one constant per output) applied to `inputs`, one
/// per node input, null for an absent optional input; nullopt when the
/// operator has no evaluator in `registry` or the evaluator does not support
/// an element type. With evaluators today: Constant, Identity, Shape, Size,
/// Gather, Concat, Cast, Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
/// Slice, Expand, Tile, Where, Range, ConstantOfShape; Add, Sub, Mul, Div,
/// Min, Max, Sum, Mean; Neg, Abs, Sqrt, Relu, Reciprocal, Floor, Ceil, Round,
/// Sign; Equal, Less, Greater, LessOrEqual, GreaterOrEqual, Not, And, Or,
/// Xor; ReduceSum, ReduceProd, ReduceMin, ReduceMax; DequantizeLinear.
std::optional<std::vector<Ref<Constant>>>
evaluateConstant(const OpRegistry& registry, const Node& node,
                 const std::vector<Ref<Constant>>& inputs);
/// evaluateConstant() with the default registry.
std::optional<std::vector<Ref<Constant>>>
evaluateConstant(const Node& node, const std::vector<Ref<Constant>>& inputs);

/// The outputs of `node` computed from the types of `inputs` alone (Shape
/// and Size: the record's `evaluateFromTypes`), when every input is present
/// and has a static type; nullopt otherwise.
std::optional<std::vector<Ref<Constant>>>
evaluateFromTypes(const OpRegistry& registry, const Node& node, const std::vector<Value>& inputs);
/// evaluateFromTypes() with the default registry.
std::optional<std::vector<Ref<Constant>>> evaluateFromTypes(const Node& node,
                                                            const std::vector<Value>& inputs);

/// The constant Shape produces for a tensor of (static) type `type`, with
/// Shape's `start` and `end` attributes from `attrs` (opset 15).
Ref<Constant> shapeConstant(const TensorType& type, const Attributes& attrs);

} // namespace tessel::graph
