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

#include "GraphEval.h"

using namespace tessel::graph::test;

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
