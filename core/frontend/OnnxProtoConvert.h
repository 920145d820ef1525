/// \file
/// Internal to core/frontend: conversions from ONNX protobuf messages to
/// graph types, shared by the model importer and the TensorProto reader.
///
/// Only .cpp files of core/frontend include this header (it pulls in the
/// protobuf-generated `<onnx/onnx_pb.h>`); public headers never do.
#pragma once

#include "graph/Graph.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace tessel::frontend::detail {

/// The constant held by `t`. `context` prefixes error messages (e.g.
/// "model.onnx: initializer"); the tensor's name follows it. Throws
/// CompileError for external data, strings, a data size that does not match
/// the dims, or a negative dimension. Float16 and bfloat16 tensors become
/// float32 constants (exactly: every such value is a float32).
Ref<graph::Constant> constantFromTensorProto(const onnx::TensorProto& t,
                                             const std::string& context);

/// The ONNX name of an element type code ("FLOAT16", "STRING"); "type N"
/// for codes it does not know.
std::string onnxTypeName(int64_t code);

/// Reads a whole file into memory; throws CompileError("PATH: cannot read
/// the file") when it cannot be opened.
std::string readFileBytes(const std::string& path);

} // namespace tessel::frontend::detail
