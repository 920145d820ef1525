/// \file
/// A small ONNX model for tests that need a model file with several tunable
/// fused functions (the Compare view, `tesselc compare`): x float32[1, 8, 16, 16]
/// -> Conv 3x3 (8 -> 16) + Relu -> Conv 3x3 (16 -> 16) + Relu, twice (one
/// workload) -> Flatten -> Gemm (1600 -> 10) -> y. Weights are fixed values.
#pragma once

#include "frontend/OnnxBytes.h"

#include <QFile>
#include <QString>

#include <string>
#include <vector>

namespace tessel::test {

/// The model's bytes (opset 13).
inline std::string smallConvNetBytes() {
    namespace ob = onnxbytes;
    auto weights = [](size_t n, int salt) {
        std::string raw;
        for (size_t i = 0; i < n; ++i) {
            const float v = float(int((i * 7 + size_t(salt) * 13) % 23) - 11) / 40.0f;
            raw.append(reinterpret_cast<const char*>(&v), sizeof v);
        }
        return raw;
    };
    std::vector<ob::Msg> nodes = {
        ob::node("Conv", {"x", "w1"}, {"c1"}, "conv1"), ob::node("Relu", {"c1"}, {"r1"}, "relu1"),
        ob::node("Conv", {"r1", "w2"}, {"c2"}, "conv2"), ob::node("Relu", {"c2"}, {"r2"}, "relu2"),
        ob::node("Conv", {"r2", "w3"}, {"c3"}, "conv3"), ob::node("Relu", {"c3"}, {"r3"}, "relu3"),
        ob::node("Flatten", {"r3"}, {"f"}, "flatten"),
        ob::node("Gemm", {"f", "wd"}, {"y"}, "fc", {ob::intAttr("transB", 1)})};
    // Without padding: 16 -> 14 -> 12 -> 10, so the dense layer takes 16 * 10 * 10.
    std::vector<ob::Msg> inits = {ob::tensorRaw("w1", ob::kFloat, {16, 8, 3, 3}, weights(16 * 8 * 9, 1)),
                                  ob::tensorRaw("w2", ob::kFloat, {16, 16, 3, 3}, weights(16 * 16 * 9, 2)),
                                  ob::tensorRaw("w3", ob::kFloat, {16, 16, 3, 3}, weights(16 * 16 * 9, 3)),
                                  ob::tensorRaw("wd", ob::kFloat, {10, 1600}, weights(10 * 1600, 4))};
    return ob::model(ob::graph(nodes, {ob::valueInfo("x", ob::kFloat, {1, 8, 16, 16})},
                               {ob::valueInfo("y", ob::kFloat, {1, 10})}, inits),
                     13);
}

/// Writes the model to `path`; false when it cannot.
inline bool writeSmallConvNet(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    const std::string bytes = smallConvNetBytes();
    return f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

} // namespace tessel::test
