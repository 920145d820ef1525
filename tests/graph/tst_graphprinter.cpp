// GraphPrinter: the exact text of small graphs and the line table behind it.
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/InferShapes.h"

#include <QtTest>

#include <string>

using namespace tessel;
using namespace tessel::graph;

namespace {

/// A ResNet basic-block tail: Conv -> BatchNormalization -> Relu -> Add (residual).
Graph resnetBlock() {
    Graph g("block");
    Value x = g.addInput("x", *TensorType::parse("float32[1, 64, 56, 56]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {64, 64, 3, 3}));
    Value gamma = g.addConstant("gamma", Constant::zeros(DataType::float32(), {64}));
    Value beta = g.addConstant("beta", Constant::zeros(DataType::float32(), {64}));
    Value mean = g.addConstant("mean", Constant::zeros(DataType::float32(), {64}));
    Value var = g.addConstant("var", Constant::zeros(DataType::float32(), {64}));
    Attributes conv;
    conv.set("strides", std::vector<int64_t>{1, 1});
    conv.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    Value c = g.addOp("Conv", {x, w}, conv, "conv1");
    Attributes bn;
    bn.set("epsilon", 1e-5);
    Value b = g.addOp("BatchNormalization", {c, gamma, beta, mean, var}, bn, "bn1");
    Value r = g.addOp("Relu", {b}, {}, "relu1");
    g.setOutputs({g.addOp("Add", {r, x}, {}, "add1")});
    return g;
}

} // namespace

class TestGraphPrinter : public QObject {
    Q_OBJECT
private slots:
    void resnetBlockText() {
        Graph g = inferShapes(resnetBlock());
        AnnotatedText t = printGraph(g);
        QCOMPARE(QString::fromStdString(t.text),
                 QString(R"(graph block(%x: float32[1, 64, 56, 56]) {
  %w = constant : float32[64, 64, 3, 3]
  %gamma = constant : float32[64]
  %beta = constant : float32[64]
  %mean = constant : float32[64]
  %var = constant : float32[64]
  %6 = Conv(%x, %w) {strides=[1, 1], pads=[1, 1, 1, 1]} : float32[1, 64, 56, 56]  # conv1
  %7 = BatchNormalization(%6, %gamma, %beta, %mean, %var) {epsilon=1e-05} : float32[1, 64, 56, 56]  # bn1
  %8 = Relu(%7) : float32[1, 64, 56, 56]  # relu1
  %9 = Add(%8, %x) : float32[1, 64, 56, 56]  # add1
  return %9
}
)"));
    }

    void lineTableLinksLinesToNodes() {
        Graph g = inferShapes(resnetBlock());
        AnnotatedText t = printGraph(g);
        QCOMPARE(t.lineNode.size(), size_t(12));
        QCOMPARE(t.lineNode[0], nullptr);                // header
        QCOMPARE(t.lineNode[1], g.constants()[0].get()); // %w
        QCOMPARE(t.lineNode[6], g.nodes()[0].get());     // Conv
        QCOMPARE(t.lineNode[9], g.nodes()[3].get());     // Add
        QCOMPARE(t.lineNode[10], nullptr);               // return
        QCOMPARE(t.lineOf(g.nodes()[1].get()), 8);       // BatchNormalization on line 8
        QCOMPARE(t.lineOf(g.inputs()[0].get()), 1);      // inputs: the header
        for (size_t i = 0; i < t.lineNode.size(); ++i)
            if (t.lineNode[i]) QCOMPARE(t.lineOf(t.lineNode[i]), int(i + 1));
    }

    void smallConstantsMultipleOutputsAndUnknownTypes() {
        Graph g("misc");
        Value x = g.addInput("x", *TensorType::parse("float32[?, 3, 4]"));
        Value shape = g.addConstant("shape", Constant::fromInts({2}, {0, -1}));
        Value six = g.addConstant("six", Constant::fromFloats({}, {6}));
        Value r = g.addOp("Reshape", {x, shape});
        Ref<Node> d = g.addNode("Dropout", {r}, {}, 2, "drop");
        Value c = g.addOp("Clip", {d->output(0), Value(), six}, {}, "relu6");
        g.setOutputs({c, d->output(1)});
        QCOMPARE(QString::fromStdString(printGraph(g).text),
                 QString(R"(graph misc(%x: float32[?, 3, 4]) {
  %shape = constant [0, -1] : int64[2]
  %six = constant [6.0] : float32[]
  %3 = Reshape(%x, %shape) : ?
  %4, %4.1 = Dropout(%3) : ?, ?  # drop
  %5 = Clip(%4, none, %six) : ?  # relu6
  return %5, %4.1
}
)"));
        QCOMPARE(QString::fromStdString(printGraph(inferShapes(g)).text),
                 QString(R"(graph misc(%x: float32[?, 3, 4]) {
  %shape = constant [0, -1] : int64[2]
  %six = constant [6.0] : float32[]
  %3 = Reshape(%x, %shape) : float32[?, 12]
  %4, %4.1 = Dropout(%3) : float32[?, 12], bool[?, 12]  # drop
  %5 = Clip(%4, none, %six) : float32[?, 12]  # relu6
  return %5, %4.1
}
)"));
        GraphPrintOptions quiet;
        quiet.maxConstantElements = 0;
        QCOMPARE(printNode(*g.constants()[0], quiet), std::string("%shape = constant : int64[2]"));
        QCOMPARE(valueRef(Value()), std::string("none"));
    }
};

QTEST_APPLESS_MAIN(TestGraphPrinter)
#include "tst_graphprinter.moc"
