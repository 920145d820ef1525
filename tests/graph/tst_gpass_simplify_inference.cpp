#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
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

} // namespace

class TestSimplifyInference : public QObject {
    Q_OBJECT
private slots:
    void removesIdentityAndDropout();
    void keepsDropoutWhoseMaskIsUsed();
    void batchNormBecomesScaleAndShift();
    void batchNormNumeric();
    void batchNormNotRewritten();
    void optionsSwitchRewritesOff();
};

void TestSimplifyInference::removesIdentityAndDropout() {
    Graph g("t");
    Value x = g.addInput("x", type("float32[1, 4]"));
    Value a = g.addOp("Identity", {x});
    Value b = g.addOp("Relu", {a});
    Value c = g.addOp("Dropout", {b}, {}, "drop");
    g.setOutputs({g.addOp("Exp", {c}), g.addOp("Identity", {x})});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(g)), QString("graph t(%x: float32[1, 4]) {\n"
                                                      "  %1 = Identity(%x) : float32[1, 4]\n"
                                                      "  %2 = Relu(%1) : float32[1, 4]\n"
                                                      "  %3 = Dropout(%2) : float32[1, 4]  # drop\n"
                                                      "  %4 = Exp(%3) : float32[1, 4]\n"
                                                      "  %5 = Identity(%x) : float32[1, 4]\n"
                                                      "  return %4, %5\n"
                                                      "}\n"));
    Graph s = simplifyInference(g);
    QCOMPARE(QString::fromStdString(text(s)), QString("graph t(%x: float32[1, 4]) {\n"
                                                      "  %2 = Relu(%x) : float32[1, 4]\n"
                                                      "  %4 = Exp(%2) : float32[1, 4]\n"
                                                      "  return %4, %x\n"
                                                      "}\n"));
    s.verify();
}

void TestSimplifyInference::keepsDropoutWhoseMaskIsUsed() {
    Graph g("t");
    Value x = g.addInput("x", type("float32[2]"));
    Ref<Node> d = g.addNode("Dropout", {x}, {}, 2);
    g.setOutputs({d->output(0), d->output(1)});
    g = inferShapes(g);
    Graph s = simplifyInference(g);
    QCOMPARE(QString::fromStdString(text(s)), QString::fromStdString(text(g)));
    QVERIFY(s.nodes()[0].sameAs(g.nodes()[0]));

    // The mask unused: the Dropout goes.
    Graph h("t");
    Value y = h.addInput("y", type("float32[2]"));
    Ref<Node> e = h.addNode("Dropout", {y}, {}, 2);
    h.setOutputs({h.addOp("Relu", {e->output(0)})});
    h = inferShapes(h);
    QCOMPARE(QString::fromStdString(text(simplifyInference(h))),
             QString("graph t(%y: float32[2]) {\n"
                     "  %2 = Relu(%y) : float32[2]\n"
                     "  return %2\n"
                     "}\n"));
}

namespace {

Graph convBnGraph(std::mt19937& rng, bool withRelu) {
    Graph g("bn");
    Value x = g.addInput("x", type("float32[1, 3, 4, 4]"));
    Value scale = addRandomConstant(g, "scale", {3}, rng);
    Value bias = addRandomConstant(g, "bias", {3}, rng);
    Value mean = addRandomConstant(g, "mean", {3}, rng);
    Value var = addRandomConstant(g, "var", {3}, rng, 0.1f, 2.0f);
    Attributes a;
    a.set("epsilon", 1e-3);
    Value y = g.addOp("BatchNormalization", {x, scale, bias, mean, var}, a, "bn1");
    g.setOutputs({withRelu ? g.addOp("Relu", {y}) : y});
    return inferShapes(g);
}

} // namespace

void TestSimplifyInference::batchNormBecomesScaleAndShift() {
    std::mt19937 rng(1);
    Graph g = convBnGraph(rng, true);
    QCOMPARE(QString::fromStdString(text(g)),
             QString("graph bn(%x: float32[1, 3, 4, 4]) {\n"
                     "  %scale = constant : float32[3]\n"
                     "  %bias = constant : float32[3]\n"
                     "  %mean = constant : float32[3]\n"
                     "  %var = constant : float32[3]\n"
                     "  %5 = BatchNormalization(%x, %scale, %bias, %mean, %var) {epsilon=0.001} : "
                     "float32[1, 3, 4, 4]  # bn1\n"
                     "  %6 = Relu(%5) : float32[1, 3, 4, 4]\n"
                     "  return %6\n"
                     "}\n"));
    Graph s = simplifyInference(g);
    s.verify();
    QCOMPARE(QString::fromStdString(text(s)),
             QString("graph bn(%x: float32[1, 3, 4, 4]) {\n"
                     "  %bn1_scale = constant : float32[3, 1, 1]\n"
                     "  %bn1_shift = constant : float32[3, 1, 1]\n"
                     "  %9 = Mul(%x, %bn1_scale) : float32[1, 3, 4, 4]  # bn1_mul\n"
                     "  %5 = Add(%9, %bn1_shift) : float32[1, 3, 4, 4]  # bn1\n"
                     "  %6 = Relu(%5) : float32[1, 3, 4, 4]\n"
                     "  return %6\n"
                     "}\n"));
    // The scale and shift are s = scale / sqrt(var + eps) and t = bias - mean * s.
    auto get = [&](const Graph& h, const std::string& name) {
        for (const auto& c : h.constants())
            if (c->name == name) return c->constant->toDoubles();
        return std::vector<double>{};
    };
    auto sc = get(g, "scale"), bi = get(g, "bias"), me = get(g, "mean"), va = get(g, "var");
    auto s2 = get(s, "bn1_scale"), t2 = get(s, "bn1_shift");
    QCOMPARE(s2.size(), size_t(3));
    for (size_t c = 0; c < 3; ++c) {
        const double sv = sc[c] / std::sqrt(va[c] + 1e-3);
        QVERIFY(std::abs(s2[c] - sv) < 1e-6);
        QVERIFY(std::abs(t2[c] - (bi[c] - me[c] * sv)) < 1e-6);
    }
}

void TestSimplifyInference::batchNormNumeric() {
    for (unsigned seed = 1; seed <= 5; ++seed) {
        std::mt19937 rng(seed);
        Graph g = convBnGraph(rng, seed % 2 == 0);
        Graph s = simplifyInference(g);
        for (const auto& n : s.nodes())
            QVERIFY(n->op != "BatchNormalization");
        std::map<std::string, Tensor> in{{"x", randomTensor({1, 3, 4, 4}, rng, -3, 3)}};
        const double diff = maxAbsDiff(evaluate(g, in), evaluate(s, in));
        QVERIFY2(diff < 1e-5, ("max abs diff " + std::to_string(diff)).c_str());
    }
    // A 2-d input [N, C]: the scale broadcasts along the last axis.
    std::mt19937 rng(9);
    Graph g("bn2");
    Value x = g.addInput("x", type("float32[2, 3]"));
    Value s = addRandomConstant(g, "s", {3}, rng), b = addRandomConstant(g, "b", {3}, rng),
          m = addRandomConstant(g, "m", {3}, rng),
          v = addRandomConstant(g, "v", {3}, rng, 0.5f, 1.5f);
    g.setOutputs({g.addOp("BatchNormalization", {x, s, b, m, v})});
    g = inferShapes(g);
    Graph h = simplifyInference(g);
    QCOMPARE(h.constants().size(), size_t(2));
    QCOMPARE(h.constants()[0]->constant->shape, (std::vector<int64_t>{3}));
    std::map<std::string, Tensor> in{{"x", randomTensor({2, 3}, rng)}};
    QVERIFY(maxAbsDiff(evaluate(g, in), evaluate(h, in)) < 1e-5);
}

void TestSimplifyInference::batchNormNotRewritten() {
    // Training mode, or statistics that are not constants, keep the node.
    Graph g("t");
    Value x = g.addInput("x", type("float32[1, 2, 2, 2]"));
    Value mean = g.addInput("mean", type("float32[2]"));
    Value c = g.addConstant("c", Constant::fromFloats({2}, {1, 2}));
    Attributes train;
    train.set("training_mode", int64_t(1));
    Value a = g.addOp("BatchNormalization", {x, c, c, c, c}, train);
    Value b = g.addOp("BatchNormalization", {a, c, c, mean, c});
    g.setOutputs({b});
    g = inferShapes(g);
    Graph s = simplifyInference(g);
    QCOMPARE(QString::fromStdString(text(s)), QString::fromStdString(text(g)));
}

void TestSimplifyInference::optionsSwitchRewritesOff() {
    std::mt19937 rng(3);
    Graph g = convBnGraph(rng, false);
    SimplifyInferenceOptions o;
    o.batchNorm = false;
    QCOMPARE(QString::fromStdString(text(simplifyInference(g, o))),
             QString::fromStdString(text(g)));
    // Through the registry, with options as text.
    const GraphPassInfo* p = findGraphPass("simplify-inference");
    QVERIFY(p);
    QCOMPARE(QString::fromStdString(text(p->run(g, {{"batch-norm", "false"}}))),
             QString::fromStdString(text(g)));
    QVERIFY(text(p->run(g, {})) != text(g));
    QVERIFY_THROWS_EXCEPTION(CompileError, p->run(g, {{"batch-norm", "maybe"}}));
}

QTEST_APPLESS_MAIN(TestSimplifyInference)
#include "tst_gpass_simplify_inference.moc"
