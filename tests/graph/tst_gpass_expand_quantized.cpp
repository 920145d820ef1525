// expand-quantized: the int32 products it writes (operands cast and less their
// zero points, per-axis ones reshaped to broadcast; the requantization of the
// QLinear forms) and the inference of the four operators, refusals included.
// The numbers are checked end to end against numpy in
// tests/driver/tst_integer_products.cpp and against the ONNX test data.
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/ExpandQuantized.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/GraphPipeline.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::graph;

#include "GraphTestUtil.h"

using namespace tessel::graph::test;

class TestExpandQuantized : public QObject {
    Q_OBJECT
private slots:
    void matMulIntegerWithoutZeroPoints();
    void perRowAndPerChannelZeroPoints();
    void qlinearConvRequantizes();
    void keepsConvIntegerForTheCpu();
    void inferenceRefuses();
    void registered();
};

void TestExpandQuantized::matMulIntegerWithoutZeroPoints() {
    Graph g = inferShapes(oneNode("MatMulInteger", "uint8[2, 3];int8[3, 4]", "", 1));
    QCOMPARE(QString::fromStdString(g.outputs()[0].type().str()), QString("int32[2, 4]"));
    Graph e = expandQuantized(g);
    e.verify();
    QCOMPARE(countOps(e, "MatMulInteger"), 0);
    QCOMPARE(countOps(e, "Cast"), 2);
    QCOMPARE(countOps(e, "Sub"), 0);
    QCOMPARE(countOps(e, "MatMul"), 1);
    QCOMPARE(e.outputs()[0].type(), g.outputs()[0].type());
    // The product keeps the node's id: what the IDE maps back to the import.
    QCOMPARE(e.outputs()[0].producer()->id, g.outputs()[0].producer()->id);
    QCOMPARE(QString::fromStdString(text(expandQuantized(e))), QString::fromStdString(text(e)));
}

void TestExpandQuantized::perRowAndPerChannelZeroPoints() {
    // A's zero points per row [M] become [M, 1]; B's per column broadcast as they are.
    Graph g = inferShapes(oneNode(
        "MatMulInteger", "uint8[2, 3];int8[3, 4];const uint8[2]=1,2;const int8[4]=1,2,3,4", "", 1));
    Graph e = expandQuantized(g);
    e.verify();
    QCOMPARE(countOps(e, "Sub"), 2);
    QCOMPARE(countOps(e, "Unsqueeze"), 1);
    QCOMPARE(QString::fromStdString(firstNode(e, "Unsqueeze")->outputTypes[0].str()),
             QString("int32[2, 1]"));
    // Conv's weights per output channel: [M] becomes [M, 1, 1, 1].
    Graph c = inferShapes(oneNode(
        "ConvInteger", "uint8[1, 2, 5, 5];uint8[3, 2, 3, 3];const uint8[]=7;const uint8[3]=1,2,3",
        "pads=[1,1,1,1];strides=[2,2]", 1));
    QCOMPARE(QString::fromStdString(c.outputs()[0].type().str()), QString("int32[1, 3, 3, 3]"));
    Graph ce = expandQuantized(c);
    ce.verify();
    QCOMPARE(QString::fromStdString(firstNode(ce, "Unsqueeze")->outputTypes[0].str()),
             QString("int32[3, 1, 1, 1]"));
    const Node* conv = firstNode(ce, "Conv");
    QVERIFY(conv);
    QCOMPARE(conv->attrs.getInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(QString::fromStdString(conv->outputTypes[0].str()), QString("int32[1, 3, 3, 3]"));
}

void TestExpandQuantized::qlinearConvRequantizes() {
    Graph g = inferShapes(
        oneNode("QLinearConv",
                "uint8[1, 3, 6, 6];const float32[]=0.02;const uint8[]=120;const int8[4, 3, 3, 3];"
                "const float32[4]=0.1,0.2,0.3,0.4;const int8[4]=0,1,2,3;const float32[]=0.05;"
                "const int8[]=-3;const int32[4]=1,2,3,4",
                "pads=[1,1,1,1]", 1));
    QCOMPARE(QString::fromStdString(g.outputs()[0].type().str()), QString("int8[1, 4, 6, 6]"));
    Graph e = expandQuantized(g);
    e.verify();
    QCOMPARE(countOps(e, "QLinearConv"), 0);
    const Node* conv = firstNode(e, "Conv");
    QVERIFY(conv);
    QCOMPARE(conv->inputs.size(), size_t(3)); // the int32 bias is added in the sum
    QCOMPARE(QString::fromStdString(conv->outputTypes[0].str()), QString("int32[1, 4, 6, 6]"));
    // x_scale * w_scale [4, 1, 1] / y_scale, applied in float32, then QuantizeLinear to int8.
    QCOMPARE(countOps(e, "Div"), 1);
    QCOMPARE(QString::fromStdString(firstNode(e, "Div")->outputTypes[0].str()),
             QString("float32[4, 1, 1]"));
    const Node* q = e.outputs()[0].producer();
    QCOMPARE(QString::fromStdString(q->op), QString("QuantizeLinear"));
    QCOMPARE(QString::fromStdString(q->outputTypes[0].str()), QString("int8[1, 4, 6, 6]"));
}

void TestExpandQuantized::keepsConvIntegerForTheCpu() {
    ExpandQuantizedOptions keep;
    keep.keepConvInteger = true;
    // A ConvInteger of uint8[1, 2, 5, 5] with zero point 7 and these weights (and their zero point).
    auto convInteger = [](const std::string& weights, const std::string& attrs, const std::string& wZero = "") {
        return inferShapes(
            oneNode("ConvInteger", "uint8[1, 2, 5, 5];" + weights + ";const uint8[]=7" + wZero, attrs, 1));
    };
    // Constant 8-bit weights, one group: the blocked integer convolution's.
    Graph c = convInteger("const int8[3, 2, 3, 3]", "pads=[1,1,1,1];strides=[2,2]", ";const int8[3]=1,2,3");
    Graph kept = expandQuantized(c, keep);
    kept.verify();
    QCOMPARE(countOps(kept, "ConvInteger"), 1);
    QCOMPARE(countOps(kept, "Conv"), 0);
    QCOMPARE(countOps(expandQuantized(c), "ConvInteger"), 0); // not asked to keep
    // Computed weights, or two groups: the int32 Conv as before.
    QCOMPARE(countOps(expandQuantized(convInteger("int8[3, 2, 3, 3]", "pads=[1,1,1,1]"), keep), "Conv"), 1);
    QCOMPARE(countOps(expandQuantized(convInteger("const int8[4, 1, 3, 3]", "group=2"), keep), "Conv"), 1);
    // QLinearConv: ConvInteger, the bias as an Add of [4, 1, 1], the requantization.
    Graph q = inferShapes(
        oneNode("QLinearConv",
                "uint8[1, 3, 6, 6];const float32[]=0.02;const uint8[]=120;const int8[4, 3, 3, 3];"
                "const float32[4]=0.1,0.2,0.3,0.4;const int8[4]=0,1,2,3;const float32[]=0.05;"
                "const int8[]=-3;const int32[4]=1,2,3,4",
                "pads=[1,1,1,1]", 1));
    Graph e = expandQuantized(q, keep);
    e.verify();
    QCOMPARE(countOps(e, "QLinearConv"), 0);
    QCOMPARE(countOps(e, "Conv"), 0);
    const Node* conv = firstNode(e, "ConvInteger");
    QVERIFY(conv);
    QCOMPARE(conv->inputs.size(), size_t(4));
    QCOMPARE(conv->attrs.getInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(QString::fromStdString(firstNode(e, "Add")->outputTypes[0].str()), QString("int32[1, 4, 6, 6]"));
    QCOMPARE(QString::fromStdString(e.outputs()[0].producer()->op), QString("QuantizeLinear"));
    QCOMPARE(e.outputs()[0].type(), q.outputs()[0].type());
    // The option, by name.
    const GraphPassInfo* p = findGraphPass("expand-quantized");
    QVERIFY(p);
    QCOMPARE(countOps(p->run(c, {{"conv-integer", "true"}}), "ConvInteger"), 1);
}

void TestExpandQuantized::inferenceRefuses() {
    QString m =
        compileErrorOf([] { inferShapes(oneNode("MatMulInteger", "float32[2, 3];int8[3, 4]", "", 1)); });
    QVERIFY2(m.contains("A float32[2, 3] must be int8 or uint8"), qPrintable(m));
    m = compileErrorOf([] {
        inferShapes(oneNode("MatMulInteger", "uint8[2, 3];int8[3, 4];const uint8[3]=1,2,3", "", 1));
    });
    QVERIFY2(m.contains("a_zero_point uint8[3] must be a scalar or hold 2 values"), qPrintable(m));
    m = compileErrorOf([] {
        inferShapes(oneNode("MatMulInteger", "uint8[2, 3];int8[3, 4];const int8[]=1", "", 1));
    });
    QVERIFY2(m.contains("input 2 has type int8, input 0 has uint8"), qPrintable(m));
    m = compileErrorOf([] {
        inferShapes(oneNode("ConvInteger", "uint8[1, 2, 5, 5];uint8[3, 2, 3, 3];const uint8[2]=1,2",
                            "", 1));
    });
    QVERIFY2(m.contains("x_zero_point uint8[2] must be a scalar"), qPrintable(m));
    m = compileErrorOf([] {
        inferShapes(
            oneNode("QLinearMatMul",
                    "uint8[2, 3];const float32[]=1;const uint8[]=0;uint8[4, 5];const float32[]=1;"
                    "const uint8[]=0;const float32[]=1;const uint8[]=0",
                    "", 1));
    });
    QVERIFY2(m.contains("inner dimensions differ"), qPrintable(m));
}

void TestExpandQuantized::registered() {
    const GraphPassInfo* p = findGraphPass("expand-quantized");
    QVERIFY(p);
    const auto pipeline = defaultGraphPipeline();
    auto at = [&](const std::string& n) {
        return std::find(pipeline.begin(), pipeline.end(), n) - pipeline.begin();
    };
    QVERIFY(at("infer-shapes") < at("expand-quantized"));
    QVERIFY(at("expand-quantized") < at("fold-constant"));
}

QTEST_GUILESS_MAIN(TestExpandQuantized)
#include "tst_gpass_expand_quantized.moc"
