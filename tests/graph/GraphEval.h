/// \file
/// A tiny float reference evaluator for graph pass tests (Conv2D NCHW, Mul/Add with
/// broadcasting, BatchNormalization, Relu, Identity, Dropout; 2-d MatMul and Gemm;
/// 2-d MaxPool; QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul, MatMulInteger, Cast
/// and Max with 8-bit values and small int32 sums, which float holds exactly), so
/// passes that rewrite arithmetic can be checked numerically before and after.
#pragma once

#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/InferShapes.h"
#include "graph/passes/SimplifyInference.h"
#include "ir/Diagnostic.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "GraphTestUtil.h"

#include <QString>

namespace tessel::graph::test {

using namespace tessel;
using namespace tessel::graph;

// --- a tiny reference evaluator (float arithmetic, as the kernels compute) ---

struct Tensor {
    std::vector<int64_t> shape;
    std::vector<float> data;
};

inline int64_t count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

inline Tensor randomTensor(std::vector<int64_t> shape, std::mt19937& rng, float lo = -1, float hi = 1) {
    std::uniform_real_distribution<float> dist(lo, hi);
    Tensor t{std::move(shape), {}};
    t.data.resize(static_cast<size_t>(count(t.shape)));
    for (auto& x : t.data)
        x = dist(rng);
    return t;
}

inline std::vector<double> toDoubles(const Tensor& t) {
    return {t.data.begin(), t.data.end()};
}

inline Tensor fromConstant(const Constant& c) {
    Tensor t{c.shape, {}};
    for (double d : c.toDoubles())
        t.data.push_back(static_cast<float>(d));
    return t;
}

/// Numpy broadcasting of a binary float operation.
inline Tensor binary(const Tensor& a, const Tensor& b, float (*f)(float, float)) {
    const size_t rank = std::max(a.shape.size(), b.shape.size());
    auto padded = [&](const std::vector<int64_t>& s) {
        std::vector<int64_t> p(rank - s.size(), 1);
        p.insert(p.end(), s.begin(), s.end());
        return p;
    };
    std::vector<int64_t> sa = padded(a.shape), sb = padded(b.shape), so(rank);
    for (size_t d = 0; d < rank; ++d)
        so[d] = std::max(sa[d], sb[d]);
    Tensor out{so, std::vector<float>(static_cast<size_t>(count(so)))};
    std::vector<int64_t> idx(rank, 0);
    for (size_t k = 0; k < out.data.size(); ++k) {
        int64_t ia = 0, ib = 0;
        for (size_t d = 0; d < rank; ++d) {
            ia = ia * sa[d] + (sa[d] == 1 ? 0 : idx[d]);
            ib = ib * sb[d] + (sb[d] == 1 ? 0 : idx[d]);
        }
        out.data[k] = f(a.data[static_cast<size_t>(ia)], b.data[static_cast<size_t>(ib)]);
        for (size_t d = rank; d-- > 0;) {
            if (++idx[d] < so[d]) break;
            idx[d] = 0;
        }
    }
    return out;
}

/// 2-d convolution, NCHW, one group, with pads, strides and dilations.
inline Tensor conv2d(const Tensor& x, const Tensor& w, const Tensor* bias, const Attributes& attrs) {
    const auto pads = attrs.getInts("pads", {0, 0, 0, 0});
    const auto strides = attrs.getInts("strides", {1, 1});
    const auto dil = attrs.getInts("dilations", {1, 1});
    const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
    const int64_t m = w.shape[0], kh = w.shape[2], kw = w.shape[3];
    const int64_t oh = (h + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) / strides[0] + 1;
    const int64_t ow = (wd + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) / strides[1] + 1;
    Tensor out{{n, m, oh, ow}, std::vector<float>(static_cast<size_t>(n * m * oh * ow))};
    for (int64_t b = 0; b < n; ++b)
        for (int64_t o = 0; o < m; ++o)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t z = 0; z < ow; ++z) {
                    float acc = bias ? bias->data[static_cast<size_t>(o)] : 0.0f;
                    for (int64_t ci = 0; ci < c; ++ci)
                        for (int64_t p = 0; p < kh; ++p)
                            for (int64_t q = 0; q < kw; ++q) {
                                const int64_t iy = y * strides[0] - pads[0] + p * dil[0];
                                const int64_t iz = z * strides[1] - pads[1] + q * dil[1];
                                if (iy < 0 || iy >= h || iz < 0 || iz >= wd) continue;
                                acc +=
                                    x.data[static_cast<size_t>(((b * c + ci) * h + iy) * wd + iz)] *
                                    w.data[static_cast<size_t>(((o * c + ci) * kh + p) * kw + q)];
                            }
                    out.data[static_cast<size_t>(((b * m + o) * oh + y) * ow + z)] = acc;
                }
    return out;
}

/// Inference-mode batch normalization over axis 1.
inline Tensor batchNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean,
                 const Tensor& var, float eps) {
    Tensor out = x;
    const int64_t c = x.shape[1];
    int64_t inner = 1;
    for (size_t d = 2; d < x.shape.size(); ++d)
        inner *= x.shape[d];
    for (size_t k = 0; k < out.data.size(); ++k) {
        const size_t ch = static_cast<size_t>((static_cast<int64_t>(k) / inner) % c);
        out.data[k] = (x.data[k] - mean.data[ch]) / std::sqrt(var.data[ch] + eps) * scale.data[ch] +
                      bias.data[ch];
    }
    return out;
}

// --- the quantized operators (8-bit values and int32 sums held exactly in float) ---

/// The parameter (scale or zero point) of element `k` of `x`: the one value,
/// or the one along `axis` for a 1-D parameter with several.
inline float paramAt(const Tensor& p, const Tensor& x, int64_t axis, size_t k) {
    if (p.data.size() == 1) return p.data[0];
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.shape.size(); ++d)
        inner *= x.shape[d];
    return p.data[static_cast<size_t>((static_cast<int64_t>(k) / inner) % x.shape[static_cast<size_t>(axis)])];
}

/// QuantizeLinear's arithmetic: saturate(round_half_even(v / scale) + zero_point).
inline float quantizeValue(float v, float scale, float zeroPoint, DataType t) {
    const float lo = t.isUInt() ? 0.0f : -128.0f, hi = t.isUInt() ? 255.0f : 127.0f;
    return std::clamp(std::nearbyint(v / scale) + zeroPoint, lo, hi);
}

inline int64_t axisOf(const Node& n, const Tensor& x) {
    int64_t a = n.attrs.getInt("axis", 1);
    return a < 0 ? a + static_cast<int64_t>(x.shape.size()) : a;
}

/// x - zero point, per tensor or along `axis`.
inline Tensor lessZeroPoint(const Tensor& x, const Tensor* zp, int64_t axis) {
    Tensor r = x;
    if (zp)
        for (size_t k = 0; k < r.data.size(); ++k)
            r.data[k] -= paramAt(*zp, x, axis, k);
    return r;
}

/// [M, K] x [K, N] (float sums, exact for the small integers of the tests).
inline Tensor matMul2d(const Tensor& a, const Tensor& b) {
    const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    Tensor out{{m, n}, std::vector<float>(static_cast<size_t>(m * n))};
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            float acc = 0;
            for (int64_t p = 0; p < k; ++p)
                acc += a.data[static_cast<size_t>(i * k + p)] * b.data[static_cast<size_t>(p * n + j)];
            out.data[static_cast<size_t>(i * n + j)] = acc;
        }
    return out;
}

inline Tensor transpose2d(const Tensor& a) {
    Tensor t{{a.shape[1], a.shape[0]}, a.data};
    for (int64_t i = 0; i < a.shape[0]; ++i)
        for (int64_t j = 0; j < a.shape[1]; ++j)
            t.data[static_cast<size_t>(j * a.shape[0] + i)] = a.data[static_cast<size_t>(i * a.shape[1] + j)];
    return t;
}

/// QLinearConv's and QLinearMatMul's requantization of the int32 sums `acc`
/// (channels along `axis`): round(acc * (x_scale * w_scale / y_scale)) + y_zero_point.
inline Tensor requantize(Tensor acc, float xScale, const Tensor& wScale, int64_t axis, float yScale,
                         float yZero, DataType t) {
    for (size_t k = 0; k < acc.data.size(); ++k) {
        const float multiplier = xScale * paramAt(wScale, acc, axis, k) / yScale;
        acc.data[k] = quantizeValue(acc.data[k] * multiplier, 1.0f, yZero, t);
    }
    return acc;
}

/// 2-d MaxPool, NCHW, no dilation; taps in the padding do not count.
inline Tensor maxPool2d(const Tensor& x, const Attributes& a) {
    const auto k = a.getInts("kernel_shape", {1, 1});
    const auto s = a.getInts("strides", {1, 1});
    const auto p = a.getInts("pads", {0, 0, 0, 0});
    const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
    const int64_t oh = (h + p[0] + p[2] - k[0]) / s[0] + 1, ow = (w + p[1] + p[3] - k[1]) / s[1] + 1;
    Tensor r{{n, c, oh, ow}, std::vector<float>(static_cast<size_t>(n * c * oh * ow), -INFINITY)};
    for (int64_t b = 0; b < n * c; ++b)
        for (int64_t y = 0; y < oh; ++y)
            for (int64_t z = 0; z < ow; ++z)
                for (int64_t i = 0; i < k[0]; ++i)
                    for (int64_t j = 0; j < k[1]; ++j) {
                        const int64_t yy = y * s[0] - p[0] + i, zz = z * s[1] - p[1] + j;
                        if (yy < 0 || yy >= h || zz < 0 || zz >= w) continue;
                        float& o = r.data[static_cast<size_t>((b * oh + y) * ow + z)];
                        o = std::max(o, x.data[static_cast<size_t>((b * h + yy) * w + zz)]);
                    }
    return r;
}

/// Evaluates the graph's outputs for the given inputs (by name).
inline std::vector<Tensor> evaluate(const Graph& g, const std::map<std::string, Tensor>& inputs) {
    std::unordered_map<Value, Tensor, ValueHash> env;
    for (const auto& in : g.inputs())
        env[in->output(0)] = inputs.at(in->name);
    for (const auto& c : g.constants())
        env[c->output(0)] = fromConstant(*c->constant);
    for (const auto& n : g.nodes()) {
        auto arg = [&](size_t i) -> const Tensor& { return env.at(n->inputs[i]); };
        Tensor r;
        if (n->op == "Conv") {
            const bool hasBias = n->inputs.size() > 2 && n->inputs[2].defined();
            r = conv2d(arg(0), arg(1), hasBias ? &arg(2) : nullptr, n->attrs);
        } else if (n->op == "Mul") {
            r = binary(arg(0), arg(1), [](float a, float b) { return a * b; });
        } else if (n->op == "Add") {
            r = binary(arg(0), arg(1), [](float a, float b) { return a + b; });
        } else if (n->op == "Relu") {
            r = arg(0);
            for (auto& x : r.data)
                x = std::max(x, 0.0f);
        } else if (n->op == "BatchNormalization") {
            r = batchNorm(arg(0), arg(1), arg(2), arg(3), arg(4),
                          static_cast<float>(n->attrs.getFloat("epsilon", 1e-5)));
        } else if (n->op == "Identity" || n->op == "Dropout") {
            r = arg(0);
        } else if (n->op == "QuantizeLinear" || n->op == "DequantizeLinear") {
            const bool q = n->op == "QuantizeLinear";
            const bool hasZero = n->inputs.size() > 2 && n->inputs[2].defined();
            const Tensor& x = arg(0);
            const int64_t axis = axisOf(*n, x);
            r = x;
            for (size_t k = 0; k < r.data.size(); ++k) {
                const float s = paramAt(arg(1), x, axis, k), z = hasZero ? paramAt(arg(2), x, axis, k) : 0.0f;
                r.data[k] = q ? quantizeValue(x.data[k], s, z, n->outputTypes[0].dtype) : (x.data[k] - z) * s;
            }
        } else if (n->op == "QLinearConv") {
            Tensor x = lessZeroPoint(arg(0), &arg(2), 0);
            Tensor w = lessZeroPoint(arg(3), &arg(5), 0);
            const bool hasBias = n->inputs.size() > 8 && n->inputs[8].defined();
            r = requantize(conv2d(x, w, hasBias ? &arg(8) : nullptr, n->attrs), arg(1).data[0], arg(4), 1,
                           arg(6).data[0], arg(7).data[0], n->outputTypes[0].dtype);
        } else if (n->op == "QLinearMatMul") {
            Tensor a = lessZeroPoint(arg(0), &arg(2), 0);
            Tensor b = lessZeroPoint(arg(3), &arg(5), 1);
            r = requantize(matMul2d(a, b), arg(1).data[0], arg(4), 1, arg(6).data[0], arg(7).data[0],
                           n->outputTypes[0].dtype);
        } else if (n->op == "MatMulInteger") {
            const bool za = n->inputs.size() > 2 && n->inputs[2].defined();
            const bool zb = n->inputs.size() > 3 && n->inputs[3].defined();
            r = matMul2d(lessZeroPoint(arg(0), za ? &arg(2) : nullptr, 0),
                         lessZeroPoint(arg(1), zb ? &arg(3) : nullptr, 1));
        } else if (n->op == "MatMul") {
            r = matMul2d(arg(0), arg(1));
        } else if (n->op == "Gemm") {
            Tensor a = n->attrs.getInt("transA", 0) ? transpose2d(arg(0)) : arg(0);
            Tensor b = n->attrs.getInt("transB", 0) ? transpose2d(arg(1)) : arg(1);
            r = matMul2d(a, b);
            if (n->inputs.size() > 2 && n->inputs[2].defined())
                r = binary(r, arg(2), [](float p, float c) { return p + c; });
        } else if (n->op == "Cast") {
            r = arg(0);
            if (n->attrs.getInt("to", 1) != 1)
                for (auto& x : r.data)
                    x = std::trunc(x);
        } else if (n->op == "Max") {
            r = binary(arg(0), arg(1), [](float a, float b) { return std::max(a, b); });
        } else if (n->op == "MaxPool") {
            r = maxPool2d(arg(0), n->attrs);
        } else {
            qFatal("the reference evaluator has no %s", n->op.c_str());
        }
        env[n->output(0)] = std::move(r);
    }
    std::vector<Tensor> out;
    for (const auto& v : g.outputs())
        out.push_back(env.at(v));
    return out;
}

inline double maxAbsDiff(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
    if (a.size() != b.size()) return 1e30;
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].shape != b[i].shape) return 1e30;
        for (size_t k = 0; k < a[i].data.size(); ++k)
            m = std::max(m, std::abs(double(a[i].data[k]) - double(b[i].data[k])));
    }
    return m;
}

inline Value addRandomConstant(Graph& g, const std::string& name, std::vector<int64_t> shape,
                        std::mt19937& rng, float lo = -1, float hi = 1) {
    return g.addConstant(name,
                         Constant::fromFloats(shape, toDoubles(randomTensor(shape, rng, lo, hi))));
}

} // namespace tessel::graph::test
