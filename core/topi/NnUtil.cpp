#include "topi/NnUtil.h"

#include "ir/Diagnostic.h"

#include <algorithm>

namespace tessel::topi::nn {

std::vector<int64_t> perAxis(const std::vector<int64_t>& v, size_t n, int64_t fill, const char* what) {
    if (v.empty()) return std::vector<int64_t>(n, fill);
    if (v.size() == 1) return std::vector<int64_t>(n, v[0]);
    if (v.size() != n)
        throw CompileError(std::string(what) + " has " + std::to_string(v.size()) + " values for " +
                           std::to_string(n) + " spatial axes");
    return v;
}

Padding expandPadding(const std::vector<int64_t>& p, size_t n) {
    Padding r;
    if (p.empty() || p.size() == 1) {
        r.begin.assign(n, p.empty() ? 0 : p[0]);
        r.end = r.begin;
    } else if (p.size() == 2 * n) {
        r.begin.assign(p.begin(), p.begin() + long(n));
        r.end.assign(p.begin() + long(n), p.end());
    } else if (p.size() == n) {
        r.begin = r.end = p;
    } else {
        throw CompileError("padding has " + std::to_string(p.size()) + " values for " + std::to_string(n) +
                           " spatial axes (1, " + std::to_string(n) + " or " + std::to_string(2 * n) +
                           " expected)");
    }
    return r;
}

bool Window::padded() const {
    return std::any_of(padBegin.begin(), padBegin.end(), [](int64_t p) { return p != 0; }) ||
           std::any_of(padEnd.begin(), padEnd.end(), [](int64_t p) { return p != 0; });
}

Window slidingWindow(const std::vector<int64_t>& dataShape, const std::vector<int64_t>& kernel,
                     const std::vector<int64_t>& strides, const std::vector<int64_t>& padding,
                     const std::vector<int64_t>& dilation, bool ceilMode) {
    const size_t n = dataShape.size() - 2;
    if (kernel.size() != n)
        throw CompileError("the kernel has " + std::to_string(kernel.size()) + " values for " +
                           std::to_string(n) + " spatial axes");
    Window w;
    w.in.assign(dataShape.begin() + 2, dataShape.end());
    w.kernel = kernel;
    w.strides = perAxis(strides, n, 1, "strides");
    w.dilations = perAxis(dilation, n, 1, "dilation");
    Padding pads = expandPadding(padding, n);
    w.padBegin = pads.begin;
    w.padEnd = pads.end;
    for (size_t i = 0; i < n; ++i) {
        if (w.strides[i] < 1 || w.dilations[i] < 1 || w.kernel[i] < 1)
            throw CompileError("strides, dilations and kernel sizes must be positive");
        if (w.padBegin[i] < 0 || w.padEnd[i] < 0) throw CompileError("padding must not be negative");
        const int64_t effKernel = (w.kernel[i] - 1) * w.dilations[i] + 1;
        const int64_t span = w.in[i] + w.padBegin[i] + w.padEnd[i] - effKernel;
        if (span < 0)
            throw CompileError("the window (" + std::to_string(effKernel) +
                               " with dilation) is larger than the padded input (" +
                               std::to_string(w.in[i] + w.padBegin[i] + w.padEnd[i]) + ") in spatial axis " +
                               std::to_string(i));
        int64_t out = (ceilMode ? (span + w.strides[i] - 1) / w.strides[i] : span / w.strides[i]) + 1;
        if (ceilMode && (out - 1) * w.strides[i] >= w.in[i] + w.padBegin[i]) --out;
        w.out.push_back(out);
    }
    return w;
}

} // namespace tessel::topi::nn
