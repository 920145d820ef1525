#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/CommonSubexpressionElimination.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include "GraphTestUtil.h"

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
using namespace tessel::graph::test;

class TestCommonSubexpressionElimination : public QObject {
    Q_OBJECT
private slots:
    void mergesEqualNodes();
    void mergesChains();
    void attributesMustMatch();
    void mergesEqualConstants();
};

void TestCommonSubexpressionElimination::mergesEqualNodes() {
    Graph g("c");
    Value x = g.addInput("x", type("float32[2]"));
    Value a = g.addOp("Relu", {x}, {}, "first");
    Value b = g.addOp("Relu", {x}, {}, "second");
    g.setOutputs({g.addOp("Add", {a, b})});
    g = inferShapes(g);
    Graph c = commonSubexpressionElimination(g);
    c.verify();
    QCOMPARE(QString::fromStdString(text(c)), QString("graph c(%x: float32[2]) {\n"
                                                      "  %1 = Relu(%x) : float32[2]  # first\n"
                                                      "  %3 = Add(%1, %1) : float32[2]\n"
                                                      "  return %3\n"
                                                      "}\n"));
}

void TestCommonSubexpressionElimination::mergesChains() {
    Graph g("c");
    Value x = g.addInput("x", type("float32[2]"));
    Value y = g.addInput("y", type("float32[2]"));
    Value a = g.addOp("Exp", {g.addOp("Mul", {x, y})});
    Value b = g.addOp("Exp", {g.addOp("Mul", {x, y})});
    Value m = g.addOp("Mul", {y, x}); // other operand order: a different expression
    g.setOutputs({a, b, m});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(commonSubexpressionElimination(g))),
             QString("graph c(%x: float32[2], %y: float32[2]) {\n"
                     "  %2 = Mul(%x, %y) : float32[2]\n"
                     "  %3 = Exp(%2) : float32[2]\n"
                     "  %6 = Mul(%y, %x) : float32[2]\n"
                     "  return %3, %3, %6\n"
                     "}\n"));
}

void TestCommonSubexpressionElimination::attributesMustMatch() {
    Graph g("c");
    Value x = g.addInput("x", type("float32[2]"));
    Attributes a1, a2;
    a1.set("alpha", 0.1);
    a2.set("alpha", 0.2);
    Value p = g.addOp("LeakyRelu", {x}, a1);
    Value q = g.addOp("LeakyRelu", {x}, a2);
    Value r = g.addOp("LeakyRelu", {x}, a1);
    g.setOutputs({p, q, r});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(commonSubexpressionElimination(g))),
             QString("graph c(%x: float32[2]) {\n"
                     "  %1 = LeakyRelu(%x) {alpha=0.1} : float32[2]\n"
                     "  %2 = LeakyRelu(%x) {alpha=0.2} : float32[2]\n"
                     "  return %1, %2, %1\n"
                     "}\n"));
}

void TestCommonSubexpressionElimination::mergesEqualConstants() {
    Graph g("c");
    Value x = g.addInput("x", type("float32[2]"));
    Value c1 = g.addConstant("c1", Constant::fromFloats({2}, {1, 2}));
    Value c2 = g.addConstant("c2", Constant::fromFloats({2}, {1, 2}));
    Value c3 = g.addConstant("c3", Constant::fromFloats({2}, {1, 2}, DataType::float64()));
    Value c4 = g.addConstant("c4", Constant::fromFloats({1, 2}, {1, 2}));
    Value a = g.addOp("Add", {x, c1});
    Value b = g.addOp("Add", {x, c2});
    g.setOutputs({a, b, c3, c4});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(commonSubexpressionElimination(g))),
             QString("graph c(%x: float32[2]) {\n"
                     "  %c1 = constant : float32[2]\n"
                     "  %c3 = constant : float64[2]\n"
                     "  %c4 = constant : float32[1, 2]\n"
                     "  %5 = Add(%x, %c1) : float32[2]\n"
                     "  return %5, %5, %c3, %c4\n"
                     "}\n"));
    CommonSubexpressionEliminationOptions o;
    o.mergeConstants = false;
    QCOMPARE(QString::fromStdString(text(commonSubexpressionElimination(g, o))),
             QString::fromStdString(text(g)));
}

QTEST_APPLESS_MAIN(TestCommonSubexpressionElimination)
#include "tst_gpass_common_subexpression_elimination.moc"
