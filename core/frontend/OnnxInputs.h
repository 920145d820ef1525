/// \file
/// What an ONNX model file says about its graph inputs, read without
/// importing the model: each input's dimensions and the symbolic name
/// (`dim_param`) of each dynamic one. The importer turns symbolic dimensions
/// into -1 and forgets their names; a tool that asks for the shapes of
/// dynamic inputs uses the names as hints (a "batch" dimension, two inputs
/// sharing "height").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::frontend {

struct OnnxInputInfo {
    std::string name;
    /// -1 where the dimension is symbolic or unknown; empty when the model
    /// gives the input no shape.
    std::vector<int64_t> dims;
    /// The `dim_param` of each dimension, "" where there is none.
    std::vector<std::string> dimNames;
};

/// The graph inputs of the model at `path` that are not initializers, in the
/// model's order. Throws CompileError like importOnnx for unreadable data.
std::vector<OnnxInputInfo> onnxInputs(const std::string& path);

} // namespace tessel::frontend
