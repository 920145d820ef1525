/// \file
/// The ONNX importer: an ONNX model file becomes a typed graph::Graph.
///
/// Models of the default ONNX domain at opsets 6 to 17 are read (opset 6
/// because ONNX's pytorch-converted and pytorch-operator tests use it); the
/// operators are the ones the registry (graph/OpRegistry.h; the default one
/// or ImportOptions::ops) knows, and
/// attributes and inputs that changed between opsets are normalised to the
/// registry's opset-13 form (Softmax's and LogSoftmax's axis before 13,
/// Slice's, Split's and Pad's attributes before they became inputs, Resize at
/// opset 10, Upsample, and opset 6's `broadcast`/`axis` of the binary
/// operators, `is_test` of Dropout and BatchNormalization). Initializers and `Constant` nodes become graph
/// constants; graph inputs that are initializers are not graph inputs.
/// Symbolic dimensions (`dim_param`) are -1 unless the caller binds the
/// input's shape (`--input-shape x:1,3,224,224`). Shape inference
/// (graph::inferShapes) runs at the end, checked against the model's own
/// value_info.
///
/// The importer does not stop at the first construct Tessel cannot compile:
/// an unknown operator or domain, a control-flow operator with subgraphs
/// (imported as graphs of their own, Node::subgraphs), an attribute or
/// input type it cannot hold, or a node whose types do not infer becomes an
/// *opaque* node with its reason (Node::unsupported), so every model the
/// ONNX checker accepts has a graph to show. With
/// ImportOptions::allowUnsupported the graph comes back as it is (what
/// `tesselc show` and the IDE draw; graph::unsupportedConstructs lists
/// them); without it, import fails with one error listing all of them.
/// Float16 and bfloat16 weights, inputs and outputs are held and computed as
/// float32; Graph::storedTypes records the model's types.
///
/// Every failure, from an unreadable file to a shape that does not check, is
/// a CompileError whose message starts with the model name and, for a node,
/// names it with its operator and opset:
///
/// \code
///   model.onnx: node 'conv1' (Conv, opset 13): ...
///   model.onnx: node 'n0' (FooBar, opset 13): operator 'FooBar' is not supported
///   model.onnx: 2 constructs cannot be compiled:
///     node 'q' (DynamicQuantizeLinear, opset 13): operator 'DynamicQuantizeLinear' is not supported
///     node 'if1' (If, opset 13): operator 'If' is not supported
/// \endcode
#pragma once

#include "graph/Graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::frontend {

/// The ONNX opsets of the default domain that the importer reads.
inline constexpr int64_t kMinOnnxOpset = 6;
inline constexpr int64_t kMaxOnnxOpset = 17;

struct ImportOptions {
    /// Shapes for graph inputs, by input name. A binding replaces the input's
    /// symbolic dimensions; it must name a graph input, have the input's rank
    /// and agree with every static dimension. A bound dimension may be -1
    /// (left unknown).
    std::map<std::string, std::vector<int64_t>> inputShapes;
    /// The name that starts every error message; importOnnx() uses the path
    /// when empty, importOnnxBytes() "model".
    std::string modelName;
    /// Run graph::inferShapes at the end (on by default).
    bool inferShapes = true;
    /// The operators the model may use (their records infer the nodes' types
    /// and fold shape arithmetic); null: the default registry
    /// (graph/OpRegistry.h). driver::compileModel passes its Context's, so an
    /// operator added to a context at run time can be imported.
    const graph::OpRegistry* ops = nullptr;
    /// Return graphs that hold opaque nodes (to show them) instead of failing
    /// with the list of what cannot be compiled. Shape inference at the end
    /// is skipped for such a graph (what follows an opaque node keeps the
    /// types the model gives, or unknown ones).
    bool allowUnsupported = false;
};

/// Parses one `--input-shape` value, `NAME:D0,D1,...` (`x:1,3,224,224`; a
/// scalar is `x:`; `?` or -1 leaves a dimension unknown). The name is
/// everything before the last ':'. Throws CompileError on malformed text.
std::pair<std::string, std::vector<int64_t>> parseInputShapeBinding(std::string_view text);

/// Imports the ONNX model file at `path`.
graph::Graph importOnnx(const std::string& path, const ImportOptions& options = {});

/// Imports a serialized ONNX ModelProto held in memory.
graph::Graph importOnnxBytes(std::string_view bytes, const ImportOptions& options = {});

/// The default-domain opset a model file declares (for messages and tools);
/// throws CompileError like importOnnx for unreadable data.
int64_t onnxOpsetOf(const std::string& path);

} // namespace tessel::frontend
