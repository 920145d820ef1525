#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/FoldScaleShift.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/InferShapes.h"
#include "graph/passes/SimplifyInference.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace tessel;
using namespace tessel::graph;

namespace {

TensorType type(const std::string& text) {
    auto t = TensorType::parse(text);
    if (!t) qFatal("bad type in test: %s", text.c_str());
    return *t;
}

/// The printed graph without constant values (they are checked numerically).
std::string text(const Graph& g) {
    GraphPrintOptions o;
    o.maxConstantElements = 0;
    return printGraph(g, o).text;
}

// --- a tiny reference evaluator (float arithmetic, as the kernels compute) ---

struct Tensor {
    std::vector<int64_t> shape;
    std::vector<float> data;
};

int64_t count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

Tensor randomTensor(std::vector<int64_t> shape, std::mt19937& rng, float lo = -1, float hi = 1) {
    std::uniform_real_distribution<float> dist(lo, hi);
    Tensor t{std::move(shape), {}};
    t.data.resize(static_cast<size_t>(count(t.shape)));
    for (auto& x : t.data)
        x = dist(rng);
    return t;
}

std::vector<double> toDoubles(const Tensor& t) {
    return {t.data.begin(), t.data.end()};
}

Tensor fromConstant(const Constant& c) {
    Tensor t{c.shape, {}};
    for (double d : c.toDoubles())
        t.data.push_back(static_cast<float>(d));
    return t;
}

/// Numpy broadcasting of a binary float operation.
Tensor binary(const Tensor& a, const Tensor& b, float (*f)(float, float)) {
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
Tensor conv2d(const Tensor& x, const Tensor& w, const Tensor* bias, const Attributes& attrs) {
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
Tensor batchNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean,
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

/// Evaluates the graph's outputs for the given inputs (by name).
std::vector<Tensor> evaluate(const Graph& g, const std::map<std::string, Tensor>& inputs) {
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

double maxAbsDiff(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
    if (a.size() != b.size()) return 1e30;
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].shape != b[i].shape) return 1e30;
        for (size_t k = 0; k < a[i].data.size(); ++k)
            m = std::max(m, std::abs(double(a[i].data[k]) - double(b[i].data[k])));
    }
    return m;
}

Value addRandomConstant(Graph& g, const std::string& name, std::vector<int64_t> shape,
                        std::mt19937& rng, float lo = -1, float hi = 1) {
    return g.addConstant(name,
                         Constant::fromFloats(shape, toDoubles(randomTensor(shape, rng, lo, hi))));
}

Attributes convAttrs() {
    Attributes a;
    a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    return a;
}

} // namespace

class TestFoldScaleShift : public QObject {
    Q_OBJECT
private slots:
    void foldsMulAndAdd();
    void foldsIntoExistingBias();
    void foldsAddOnly();
    void keepsSharedOutputs();
    void keepsNonChannelConstants();
    void convBatchNormNumeric();
};

void TestFoldScaleShift::foldsMulAndAdd() {
    std::mt19937 rng(1);
    Graph g("f");
    Value x = g.addInput("x", type("float32[1, 2, 5, 5]"));
    Value w = addRandomConstant(g, "w", {3, 2, 3, 3}, rng);
    Value s = addRandomConstant(g, "s", {3, 1, 1}, rng);
    Value t = addRandomConstant(g, "t", {1, 3, 1, 1}, rng);
    Value y = g.addOp("Conv", {x, w}, convAttrs(), "conv1");
    Value m = g.addOp("Mul", {s, y});
    g.setOutputs({g.addOp("Relu", {g.addOp("Add", {m, t})})});
    g = inferShapes(g);
    Graph f = foldScaleShift(g);
    f.verify();
    QCOMPARE(QString::fromStdString(text(f)),
             QString("graph f(%x: float32[1, 2, 5, 5]) {\n"
                     "  %w_folded = constant : float32[3, 2, 3, 3]\n"
                     "  %conv1_bias = constant : float32[3]\n"
                     "  %4 = Conv(%x, %w_folded, %conv1_bias) {pads=[1, 1, 1, 1]} : "
                     "float32[1, 3, 5, 5]  # conv1\n"
                     "  %7 = Relu(%4) : float32[1, 3, 5, 5]\n"
                     "  return %7\n"
                     "}\n"));
    std::map<std::string, Tensor> in{{"x", randomTensor({1, 2, 5, 5}, rng)}};
    QVERIFY(maxAbsDiff(evaluate(g, in), evaluate(f, in)) < 1e-5);
}

void TestFoldScaleShift::foldsIntoExistingBias() {
    std::mt19937 rng(2);
    Graph g("f");
    Value x = g.addInput("x", type("float32[2, 2, 4, 4]"));
    Value w = addRandomConstant(g, "w", {4, 2, 3, 3}, rng);
    Value b = addRandomConstant(g, "b", {4}, rng);
    Value s = g.addConstant("s", Constant::fromFloats({}, {0.5}));
    Value y = g.addOp("Conv", {x, w, b}, {}, "conv1");
    g.setOutputs({g.addOp("Mul", {y, s})});
    g = inferShapes(g);
    Graph f = foldScaleShift(g);
    QCOMPARE(QString::fromStdString(text(f)),
             QString("graph f(%x: float32[2, 2, 4, 4]) {\n"
                     "  %w_folded = constant : float32[4, 2, 3, 3]\n"
                     "  %b_folded = constant : float32[4]\n"
                     "  %4 = Conv(%x, %w_folded, %b_folded) : float32[2, 4, 2, 2]  # conv1\n"
                     "  return %4\n"
                     "}\n"));
    std::map<std::string, Tensor> in{{"x", randomTensor({2, 2, 4, 4}, rng)}};
    QVERIFY(maxAbsDiff(evaluate(g, in), evaluate(f, in)) < 1e-5);
}

void TestFoldScaleShift::foldsAddOnly() {
    std::mt19937 rng(3);
    Graph g("f");
    Value x = g.addInput("x", type("float32[1, 2, 3, 3]"));
    Value w = addRandomConstant(g, "w", {2, 2, 1, 1}, rng);
    Value t = addRandomConstant(g, "t", {2, 1, 1}, rng);
    Value y = g.addOp("Conv", {x, w});
    g.setOutputs({g.addOp("Add", {y, t})});
    g = inferShapes(g);
    Graph f = foldScaleShift(g);
    QCOMPARE(QString::fromStdString(text(f)),
             QString("graph f(%x: float32[1, 2, 3, 3]) {\n"
                     "  %w = constant : float32[2, 2, 1, 1]\n"
                     "  %conv3_bias = constant : float32[2]\n"
                     "  %3 = Conv(%x, %w, %conv3_bias) : float32[1, 2, 3, 3]\n"
                     "  return %3\n"
                     "}\n"));
    std::map<std::string, Tensor> in{{"x", randomTensor({1, 2, 3, 3}, rng)}};
    QVERIFY(maxAbsDiff(evaluate(g, in), evaluate(f, in)) < 1e-5);
    FoldScaleShiftOptions o;
    o.foldShift = false;
    QCOMPARE(QString::fromStdString(text(foldScaleShift(g, o))), QString::fromStdString(text(g)));
}

void TestFoldScaleShift::keepsSharedOutputs() {
    // The Conv's output is also a graph output, or read twice: nothing folds.
    std::mt19937 rng(4);
    Graph g("f");
    Value x = g.addInput("x", type("float32[1, 2, 3, 3]"));
    Value w = addRandomConstant(g, "w", {2, 2, 1, 1}, rng);
    Value s = addRandomConstant(g, "s", {2, 1, 1}, rng);
    Value y = g.addOp("Conv", {x, w});
    g.setOutputs({g.addOp("Mul", {y, s}), y});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(foldScaleShift(g))), QString::fromStdString(text(g)));

    Graph h("f");
    Value x2 = h.addInput("x", type("float32[1, 2, 3, 3]"));
    Value w2 = addRandomConstant(h, "w", {2, 2, 1, 1}, rng);
    Value s2 = addRandomConstant(h, "s", {2, 1, 1}, rng);
    Value y2 = h.addOp("Conv", {x2, w2});
    h.setOutputs({h.addOp("Add", {h.addOp("Mul", {y2, s2}), h.addOp("Relu", {y2})})});
    h = inferShapes(h);
    QCOMPARE(QString::fromStdString(text(foldScaleShift(h))), QString::fromStdString(text(h)));

    // The Mul's output read twice: the Mul folds, the Add does not.
    Graph k("f");
    Value x3 = k.addInput("x", type("float32[1, 2, 3, 3]"));
    Value w3 = addRandomConstant(k, "w", {2, 2, 1, 1}, rng);
    Value s3 = addRandomConstant(k, "s", {2, 1, 1}, rng);
    Value t3 = addRandomConstant(k, "t", {2, 1, 1}, rng);
    Value m3 = k.addOp("Mul", {k.addOp("Conv", {x3, w3}), s3});
    k.setOutputs({k.addOp("Add", {m3, t3}), m3});
    k = inferShapes(k);
    Graph f = foldScaleShift(k);
    QCOMPARE(QString::fromStdString(text(f)),
             QString("graph f(%x: float32[1, 2, 3, 3]) {\n"
                     "  %t = constant : float32[2, 1, 1]\n"
                     "  %w_folded = constant : float32[2, 2, 1, 1]\n"
                     "  %conv4_bias = constant : float32[2]\n"
                     "  %4 = Conv(%x, %w_folded, %conv4_bias) : float32[1, 2, 3, 3]\n"
                     "  %6 = Add(%4, %t) : float32[1, 2, 3, 3]\n"
                     "  return %6, %4\n"
                     "}\n"));
    std::map<std::string, Tensor> in{{"x", randomTensor({1, 2, 3, 3}, rng)}};
    QVERIFY(maxAbsDiff(evaluate(k, in), evaluate(f, in)) < 1e-5);
}

void TestFoldScaleShift::keepsNonChannelConstants() {
    // A scale that varies along the spatial axes, or a non-constant scale, does not fold.
    std::mt19937 rng(5);
    Graph g("f");
    Value x = g.addInput("x", type("float32[1, 2, 3, 3]"));
    Value z = g.addInput("z", type("float32[2, 1, 1]"));
    Value w = addRandomConstant(g, "w", {2, 2, 1, 1}, rng);
    Value s = addRandomConstant(g, "s", {2, 3, 1}, rng);
    Value y = g.addOp("Conv", {x, w});
    Value y2 = g.addOp("Conv", {x, w});
    g.setOutputs({g.addOp("Mul", {y, s}), g.addOp("Mul", {y2, z})});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(foldScaleShift(g))), QString::fromStdString(text(g)));
}

void TestFoldScaleShift::convBatchNormNumeric() {
    // The seed's Conv + BatchNormalization: simplify-inference, then fold-scale-shift.
    for (unsigned seed = 1; seed <= 5; ++seed) {
        std::mt19937 rng(seed);
        Graph g("cbn");
        Value x = g.addInput("x", type("float32[1, 3, 6, 6]"));
        Value w = addRandomConstant(g, "w", {4, 3, 3, 3}, rng, -0.5f, 0.5f);
        Value b = addRandomConstant(g, "b", {4}, rng);
        Value sc = addRandomConstant(g, "scale", {4}, rng);
        Value bi = addRandomConstant(g, "bias", {4}, rng);
        Value me = addRandomConstant(g, "mean", {4}, rng);
        Value va = addRandomConstant(g, "var", {4}, rng, 0.2f, 2.0f);
        Attributes a = convAttrs();
        if (seed % 2) a.set("strides", std::vector<int64_t>{2, 2});
        Value y =
            seed % 3 ? g.addOp("Conv", {x, w, b}, a, "conv") : g.addOp("Conv", {x, w}, a, "conv");
        Value n = g.addOp("BatchNormalization", {y, sc, bi, me, va}, {}, "bn");
        g.setOutputs({g.addOp("Relu", {n})});
        g = inferShapes(g);
        Graph f = foldScaleShift(simplifyInference(g));
        f.verify();
        QCOMPARE(f.nodes().size(), size_t(2));
        QCOMPARE(QString::fromStdString(f.nodes()[0]->op), QString("Conv"));
        std::map<std::string, Tensor> in{{"x", randomTensor({1, 3, 6, 6}, rng, -2, 2)}};
        const double diff = maxAbsDiff(evaluate(g, in), evaluate(f, in));
        QVERIFY2(diff < 1e-5, ("max abs diff " + std::to_string(diff)).c_str());
    }
}

QTEST_APPLESS_MAIN(TestFoldScaleShift)
#include "tst_gpass_fold_scale_shift.moc"
