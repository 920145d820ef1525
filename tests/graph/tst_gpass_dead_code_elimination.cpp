#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/DeadCodeElimination.h"
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

class TestDeadCodeElimination : public QObject {
    Q_OBJECT
private slots:
    void removesDeadChains();
    void removesUnusedConstants();
    void keepsMultiOutputNodes();
    void unchangedGraphIsShared();
};

void TestDeadCodeElimination::removesDeadChains() {
    Graph g("d");
    Value x = g.addInput("x", type("float32[2]"));
    Value a = g.addOp("Relu", {x});
    Value b = g.addOp("Exp", {x});
    g.addOp("Neg", {b});
    g.setOutputs({g.addOp("Abs", {a})});
    g = inferShapes(g);
    Graph d = deadCodeElimination(g);
    d.verify();
    QCOMPARE(QString::fromStdString(text(d)), QString("graph d(%x: float32[2]) {\n"
                                                      "  %1 = Relu(%x) : float32[2]\n"
                                                      "  %4 = Abs(%1) : float32[2]\n"
                                                      "  return %4\n"
                                                      "}\n"));
    QVERIFY(d.nodes()[0].sameAs(g.nodes()[0]));
    // Ids of removed nodes are not reused.
    QCOMPARE(d.newId(), int64_t(5));
}

void TestDeadCodeElimination::removesUnusedConstants() {
    Graph g("d");
    Value x = g.addInput("x", type("float32[2]"));
    Value c = g.addConstant("c", Constant::fromFloats({2}, {1, 2}));
    Value u = g.addConstant("unused", Constant::fromFloats({2}, {3, 4}));
    Value e = g.addConstant("onlyDead", Constant::fromFloats({2}, {5, 6}));
    g.addOp("Mul", {x, e});
    g.setOutputs({g.addOp("Add", {x, c})});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(deadCodeElimination(g))),
             QString("graph d(%x: float32[2]) {\n"
                     "  %c = constant : float32[2]\n"
                     "  %5 = Add(%x, %c) : float32[2]\n"
                     "  return %5\n"
                     "}\n"));
    DeadCodeEliminationOptions o;
    o.removeConstants = false;
    QCOMPARE(QString::fromStdString(text(deadCodeElimination(g, o))),
             QString("graph d(%x: float32[2]) {\n"
                     "  %c = constant : float32[2]\n"
                     "  %unused = constant : float32[2]\n"
                     "  %onlyDead = constant : float32[2]\n"
                     "  %5 = Add(%x, %c) : float32[2]\n"
                     "  return %5\n"
                     "}\n"));
    (void)u;
}

void TestDeadCodeElimination::keepsMultiOutputNodes() {
    Graph g("d");
    Value x = g.addInput("x", type("float32[2]"));
    Ref<Node> d = g.addNode("Dropout", {x}, {}, 2);
    g.setOutputs({d->output(1)});
    g = inferShapes(g);
    QCOMPARE(QString::fromStdString(text(deadCodeElimination(g))),
             QString("graph d(%x: float32[2]) {\n"
                     "  %1, %1.1 = Dropout(%x) : float32[2], bool[2]\n"
                     "  return %1.1\n"
                     "}\n"));
}

void TestDeadCodeElimination::unchangedGraphIsShared() {
    Graph g("d");
    Value x = g.addInput("x", type("float32[2]"));
    g.setOutputs({g.addOp("Relu", {x}), x});
    g = inferShapes(g);
    Graph d = deadCodeElimination(g);
    QCOMPARE(QString::fromStdString(text(d)), QString::fromStdString(text(g)));
    QVERIFY(d.nodes()[0].sameAs(g.nodes()[0]));
}

QTEST_APPLESS_MAIN(TestDeadCodeElimination)
#include "tst_gpass_dead_code_elimination.moc"
