#include "frontend/OnnxInputs.h"

#include "frontend/OnnxProtoConvert.h"
#include "ir/Diagnostic.h"

#include <limits>
#include <set>

namespace tessel::frontend {

std::vector<OnnxInputInfo> onnxInputs(const std::string& path) {
    const std::string bytes = detail::readFileBytes(path);
    if (bytes.empty()) throw CompileError(path + ": the file is empty (not an ONNX model)");
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
        throw CompileError(path + ": the model is too large (2 GiB or more)");
    onnx::ModelProto m;
    if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        throw CompileError(path +
                           ": not a valid ONNX model (malformed or truncated protobuf data)");
    const onnx::GraphProto& g = m.graph();
    std::set<std::string> initializers;
    for (const auto& t : g.initializer())
        initializers.insert(t.name());
    std::vector<OnnxInputInfo> out;
    for (const auto& in : g.input()) {
        if (initializers.count(in.name())) continue;
        OnnxInputInfo info;
        info.name = in.name();
        const auto& tensor = in.type().tensor_type();
        if (tensor.has_shape())
            for (const auto& d : tensor.shape().dim()) {
                const bool known = d.has_dim_value() && d.dim_value() >= 0;
                info.dims.push_back(known ? d.dim_value() : -1);
                info.dimNames.push_back(d.has_dim_param() ? d.dim_param() : std::string());
            }
        out.push_back(std::move(info));
    }
    return out;
}

} // namespace tessel::frontend
