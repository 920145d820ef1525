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

#include "GraphEval.h"

using namespace tessel::graph::test;

namespace {
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
    void foldsIntoConvTranspose();
};

// ConvTranspose's weights are [C, M / group, k...]: output channel m scales
// column m of its group's block; the shift becomes its bias.
void TestFoldScaleShift::foldsIntoConvTranspose() {
    Graph g("t");
    Value x = g.addInput("x", type("float32[1, 4, 3, 3]"));
    // Two groups of 2 input channels, 3 output channels each (M = 6).
    std::vector<double> wv(4 * 3);
    for (size_t i = 0; i < wv.size(); ++i) wv[i] = double(i + 1);
    Value w = g.addConstant("w", Constant::fromFloats({4, 3, 1, 1}, wv));
    Value s = g.addConstant("s", Constant::fromFloats({6, 1, 1}, {1, 2, 3, 4, 5, 6}));
    Value t = g.addConstant("t", Constant::fromFloats({6, 1, 1}, {10, 20, 30, 40, 50, 60}));
    Attributes a;
    a.set("group", int64_t(2));
    Value y = g.addOp("ConvTranspose", {x, w}, a, "up");
    g.setOutputs({g.addOp("Add", {g.addOp("Mul", {y, s}), t})});
    g = inferShapes(g);
    Graph f = foldScaleShift(g);
    QCOMPARE(int(f.nodes().size()), 1);
    const Node& up = *f.nodes()[0];
    QCOMPARE(up.op, std::string("ConvTranspose"));
    // Input channel c (group c / 2), column j: output channel (c / 2) * 3 + j.
    std::vector<double> want(wv.size());
    for (int c = 0; c < 4; ++c)
        for (int j = 0; j < 3; ++j) want[size_t(c * 3 + j)] = wv[size_t(c * 3 + j)] * double((c / 2) * 3 + j + 1);
    QCOMPARE(up.inputs[1].constant()->toDoubles(), want);
    QCOMPARE(up.inputs[2].constant()->toDoubles(), (std::vector<double>{10, 20, 30, 40, 50, 60}));
    QCOMPARE(up.outputTypes[0].str(), std::string("float32[1, 6, 3, 3]"));
}

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
