/// \file
/// The model zoo: well-known CNNs written as real ONNX files by Tessel itself,
/// so the IDE, tesselc and the tests have whole models without PyTorch or a
/// download.
///
/// Each model is torchvision's architecture exported the way `torch.onnx.export`
/// (PyTorch 1.13, opset 13, ir_version 7, eval mode, batch norms kept) writes
/// it: the same operators in the same order (Conv without bias followed by
/// BatchNormalization, Relu or Clip with Constant bounds for ReLU6, residual
/// Add, GlobalAveragePool, Flatten, Gemm with transB), the same node,
/// value and initializer names ("/layer1/layer1.0/conv1/Conv",
/// "layer1.0.conv1.weight"), input "input" float32[1, 3, 224, 224] and output
/// "output" float32[1, 1000]. So the graph passes have the work a real export
/// gives them (folding every batch norm into its convolution, fusing the
/// activations and residual adds).
///
/// Weights are random but seeded, and chosen so that the model computes
/// something sensible: convolutions He-uniform (bound sqrt(6 / fan_in)), and
/// every batch norm's running statistics measured on a seeded calibration
/// image as the model is built (then perturbed, with random scale and shift),
/// so activations keep unit scale through the whole depth instead of blowing
/// up or vanishing; the classifier is scaled so that the logits spread over a
/// few units (a standard deviation of 1 on the calibration image, 1.5 to 3 on
/// 224 x 224 inputs in [0, 1)). Random numbers come from std::mt19937_64
/// through plain arithmetic, so the same name and seed give a byte-identical
/// file (across platforms too, up to the float rounding of the calibration).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::frontend {

/// The names of the zoo's models, in the order a list shows them:
/// "resnet18", "mobilenet_v2".
std::vector<std::string> zooModelNames();

/// One line about model `name` (architecture, operators, size). Throws
/// CompileError for a name that is not in the zoo.
std::string zooModelDescription(const std::string& name);

/// The serialized ONNX ModelProto of model `name` with weights from `seed`.
/// Throws CompileError for a name that is not in the zoo.
std::string zooModelBytes(const std::string& name, uint64_t seed = 1);

/// Writes model `name` with weights from `seed` to `path` (through a
/// temporary file beside it, so a failed write leaves no partial model).
/// Throws CompileError for a name that is not in the zoo or a path that
/// cannot be written.
void writeZooModel(const std::string& name, const std::string& path, uint64_t seed = 1);

} // namespace tessel::frontend
