/// \file
/// Sliding-window geometry shared by the convolution and pooling computes:
/// the per-axis lists of the parameter structs (Nn.h) expanded to one value
/// per spatial axis, and the output size of a window.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::topi::nn {

/// `v` as `n` values: empty gives `fill` everywhere, one value every axis;
/// otherwise it must have `n` values (CompileError naming `what`).
std::vector<int64_t> perAxis(const std::vector<int64_t>& v, size_t n, int64_t fill, const char* what);

/// Padding before and after every spatial axis.
struct Padding {
    std::vector<int64_t> begin, end;
};
/// Nothing, one value, 2n values (every begin, then every end) or n values
/// (both sides of each axis); CompileError otherwise.
Padding expandPadding(const std::vector<int64_t>& padding, size_t n);

/// The sliding-window geometry of a convolution or pooling over the spatial
/// axes of an [N, C, spatial...] input.
struct Window {
    std::vector<int64_t> in, out, kernel, strides, dilations, padBegin, padEnd;
    bool padded() const;
};

/// The window over `dataShape` (N, C, spatial...) with `kernel` (one per
/// spatial axis) and the given lists; out = (in + pads - effective kernel) /
/// stride + 1, rounded up with `ceilMode` (the last window may start in the
/// end padding but not past it, as PyTorch and ONNX Runtime do).
Window slidingWindow(const std::vector<int64_t>& dataShape, const std::vector<int64_t>& kernel,
                     const std::vector<int64_t>& strides, const std::vector<int64_t>& padding,
                     const std::vector<int64_t>& dilation, bool ceilMode);

} // namespace tessel::topi::nn
