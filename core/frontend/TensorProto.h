/// \file
/// Reading ONNX TensorProto files (the `input_0.pb` / `output_0.pb` of ONNX's
/// test data, and the inputs `tesselc run --inputs` takes) into constants.
///
/// The protobuf types stay inside the implementation: callers see only
/// graph::Constant. Supported element types are float32, float64, int8,
/// int16, int32, int64, uint8, uint16, uint32, uint64 and bool, stored either
/// as `raw_data` (little-endian) or in the typed fields (`float_data`,
/// `int32_data`, `int64_data`, `double_data`, `uint64_data`). Externally
/// stored data, float16 and strings are rejected with a CompileError that
/// names the tensor.
#pragma once

#include "graph/Graph.h"

#include <string>
#include <string_view>

namespace tessel::frontend {

/// A tensor read from a TensorProto: its name (may be empty) and its value.
struct NamedTensor {
    std::string name;
    Ref<graph::Constant> value;
};

/// Reads the TensorProto file at `path`. Throws CompileError for a file that
/// cannot be read, malformed protobuf data or an unsupported tensor; the
/// message starts with the path.
NamedTensor readTensorProto(const std::string& path);

/// Reads a serialized TensorProto from memory; `what` names the data in
/// error messages (a file name, "input 'x'").
NamedTensor readTensorProtoBytes(std::string_view bytes, const std::string& what = "tensor");

} // namespace tessel::frontend
