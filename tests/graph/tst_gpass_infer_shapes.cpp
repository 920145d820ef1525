#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
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

// The operator-by-operator cases are in tst_shapeinference.cpp; these check the pass record.
class TestInferShapesPass : public QObject {
    Q_OBJECT
private slots:
    void typesEveryValue();
    void mergeGivenTypesOption();
};

void TestInferShapesPass::typesEveryValue() {
    Graph g("s");
    Value x = g.addInput("x", type("float32[?, 3]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {3, 4}));
    g.setOutputs({g.addOp("Relu", {g.addOp("MatMul", {x, w})})});
    QCOMPARE(QString::fromStdString(text(g)), QString("graph s(%x: float32[?, 3]) {\n"
                                                      "  %w = constant : float32[3, 4]\n"
                                                      "  %2 = MatMul(%x, %w) : ?\n"
                                                      "  %3 = Relu(%2) : ?\n"
                                                      "  return %3\n"
                                                      "}\n"));
    const GraphPassInfo* p = findGraphPass("infer-shapes");
    QVERIFY(p);
    QCOMPARE(QString::fromStdString(text(p->run(g, {}))),
             QString("graph s(%x: float32[?, 3]) {\n"
                     "  %w = constant : float32[3, 4]\n"
                     "  %2 = MatMul(%x, %w) : float32[?, 4]\n"
                     "  %3 = Relu(%2) : float32[?, 4]\n"
                     "  return %3\n"
                     "}\n"));
}

void TestInferShapesPass::mergeGivenTypesOption() {
    Graph g("s");
    Value x = g.addInput("x", type("float32[2]"));
    g.append(Node::makeOp(g.newId(), "Relu", {x}, {}, 1, "", {type("float32[3]")}));
    g.setOutputs({g.nodes()[0]->output(0)});
    const GraphPassInfo* p = findGraphPass("infer-shapes");
    QVERIFY_THROWS_EXCEPTION(CompileError, p->run(g, {}));
    QCOMPARE(QString::fromStdString(text(p->run(g, {{"merge-given-types", "false"}}))),
             QString("graph s(%x: float32[2]) {\n"
                     "  %1 = Relu(%x) : float32[2]\n"
                     "  return %1\n"
                     "}\n"));
}

QTEST_APPLESS_MAIN(TestInferShapesPass)
#include "tst_gpass_infer_shapes.moc"
