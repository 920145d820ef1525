// expand-recurrent: the unrolled structure (one input-projection Gemm over all
// steps, one recurrent Gemm per step), the types of Y, Y_h and Y_c, and the
// refusals. The numbers are checked end to end against numpy's reference in
// tests/driver/tst_recurrent.cpp and against the ONNX test data (conformance).
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/ExpandRecurrent.h"
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

namespace {

Ref<Constant> filled(std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    std::vector<double> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = 0.01 * static_cast<double>(i % 17);
    return Constant::fromFloats(std::move(shape), v);
}

/// A recurrent layer with constant W, R (and B), X an input of type `x`.
Graph layer(const std::string& op, const std::string& x, int64_t hidden, Attributes attrs,
            int outputs, bool bias = true, bool initialH = false) {
    const int64_t G = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
    const int64_t D = attrs.getString("direction", "forward") == "bidirectional" ? 2 : 1;
    Graph g("t");
    Value xv = g.addInput("x", type(x));
    const TensorType& xt = xv.type();
    const int64_t inputSize = xt.shape[2], batch = xt.shape[1];
    std::vector<Value> in{xv, g.addConstant("w", filled({D, G * hidden, inputSize})),
                          g.addConstant("r", filled({D, G * hidden, hidden}))};
    in.push_back(bias ? g.addConstant("b", filled({D, 2 * G * hidden})) : Value());
    if (initialH) {
        in.emplace_back();
        in.push_back(g.addInput("h0", TensorType(DataType::float32(), {D, batch, hidden})));
    }
    while (!in.back().defined())
        in.pop_back();
    attrs.set("hidden_size", hidden);
    g.setOutputs(g.addNode(op, in, attrs, outputs, "rnn")->outputs());
    return inferShapes(g);
}

int count(const Graph& g, const std::string& op) {
    return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                          [&](const Ref<Node>& n) { return n->op == op; }));
}

} // namespace

class TestExpandRecurrent : public QObject {
    Q_OBJECT
private slots:
    void inferenceGivesOnnxShapes();
    void lstmIsOneInputGemmAndOneGemmPerStep();
    void bidirectionalGruWithResetBeforeTheMap();
    void batchFirstOutputs();
    void unknownBatch();
    void refusals();
    void registeredBeforeFolding();
};

void TestExpandRecurrent::inferenceGivesOnnxShapes() {
    Attributes a;
    a.set("direction", std::string("bidirectional"));
    Graph g = layer("LSTM", "float32[5, 2, 3]", 4, a, 3);
    const auto& types = g.nodes().back()->outputTypes;
    QCOMPARE(QString::fromStdString(types[0].str()), QString("float32[5, 2, 2, 4]"));
    QCOMPARE(QString::fromStdString(types[1].str()), QString("float32[2, 2, 4]"));
    QCOMPARE(QString::fromStdString(types[2].str()), QString("float32[2, 2, 4]"));
    Attributes b;
    b.set("layout", int64_t(1));
    Graph h = layer("GRU", "float32[2, 5, 3]", 4, b, 2);
    QCOMPARE(QString::fromStdString(h.nodes().back()->outputTypes[0].str()),
             QString("float32[2, 5, 1, 4]"));
    QCOMPARE(QString::fromStdString(h.nodes().back()->outputTypes[1].str()),
             QString("float32[2, 1, 4]"));
}

void TestExpandRecurrent::lstmIsOneInputGemmAndOneGemmPerStep() {
    Graph g = layer("LSTM", "float32[5, 2, 3]", 4, {}, 3);
    Graph e = expandRecurrent(g);
    e.verify();
    QCOMPARE(count(e, "LSTM"), 0);
    // No initial state: the first step has no recurrent term.
    QCOMPARE(count(e, "Gemm"), 1 + 4);
    int inputGemms = 0;
    for (const auto& n : e.nodes())
        if (n->op == "Gemm" && n->outputTypes[0].shape == std::vector<int64_t>{10, 16})
            ++inputGemms;
    QCOMPARE(inputGemms, 1);
    QCOMPARE(count(e, "Sigmoid"), 3 * 5 - 1); // no forget gate without a previous cell
    QCOMPARE(count(e, "Tanh"), 2 * 5);
    QCOMPARE(count(e, "Where"), 0);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(e.outputs()[static_cast<size_t>(i)].type(),
                 g.outputs()[static_cast<size_t>(i)].type());
    // Nothing to expand: the graph is returned as it is.
    Graph plain = expandRecurrent(e);
    QCOMPARE(QString::fromStdString(text(plain)), QString::fromStdString(text(e)));
}

void TestExpandRecurrent::bidirectionalGruWithResetBeforeTheMap() {
    Attributes a;
    a.set("direction", std::string("bidirectional"));
    a.set("clip", 2.0);
    Graph g = layer("GRU", "float32[3, 2, 3]", 4, a, 2, true, true);
    Graph e = expandRecurrent(g);
    e.verify();
    // Per direction: the input projection, then per step H [z r]^T and (r (.) H) R_h^T.
    QCOMPARE(count(e, "Gemm"), 2 * (1 + 2 * 3));
    QCOMPARE(count(e, "Clip"), 2 * 3 * 3);
    QCOMPARE(QString::fromStdString(e.outputs()[0].type().str()), QString("float32[3, 2, 2, 4]"));
    QCOMPARE(QString::fromStdString(e.outputs()[1].type().str()), QString("float32[2, 2, 4]"));
    // Only Y_h used: Y is not assembled.
    Graph h = layer("RNN", "float32[3, 2, 3]", 4, {}, 2);
    h.setOutputs({h.outputs()[1]});
    Graph r = expandRecurrent(h);
    QCOMPARE(count(r, "Concat"), 0);
    QCOMPARE(r.outputs().size(), size_t(1));
}

void TestExpandRecurrent::batchFirstOutputs() {
    Attributes a;
    a.set("layout", int64_t(1));
    a.set("direction", std::string("reverse"));
    a.set("linear_before_reset", int64_t(1));
    Graph g = layer("GRU", "float32[2, 4, 3]", 5, a, 2);
    Graph e = expandRecurrent(g);
    e.verify();
    QCOMPARE(QString::fromStdString(e.outputs()[0].type().str()), QString("float32[2, 4, 1, 5]"));
    QCOMPARE(QString::fromStdString(e.outputs()[1].type().str()), QString("float32[2, 1, 5]"));
    // Reset after the map: one recurrent Gemm per step (with Rb), none at the first.
    QCOMPARE(count(e, "Gemm"), 1 + 3);
}

void TestExpandRecurrent::unknownBatch() {
    // Only the number of steps must be static: the batch flows through as unknown.
    Attributes a;
    a.set("direction", std::string("bidirectional"));
    Graph g = layer("LSTM", "float32[3, ?, 2]", 4, a, 3);
    Graph e = expandRecurrent(g);
    e.verify();
    QCOMPARE(QString::fromStdString(e.outputs()[0].type().str()), QString("float32[3, 2, ?, 4]"));
    QCOMPARE(QString::fromStdString(e.outputs()[2].type().str()), QString("float32[2, ?, 4]"));
}

void TestExpandRecurrent::refusals() {
    // A sequence length known only at run time cannot be unrolled.
    Graph dyn = layer("LSTM", "float32[?, 2, 3]", 4, {}, 2);
    QString m = compileErrorOf([&] { expandRecurrent(dyn); });
    QVERIFY2(m.contains("the sequence length of X float32[?, 2, 3] is not static"), qPrintable(m));
    QVERIFY2(m.contains("(LSTM)"), qPrintable(m));
    // Activations ONNX does not list, or too few of them.
    Attributes bad;
    bad.set("activations", std::string("Sigmoid,Swish"));
    m = compileErrorOf([&] { layer("GRU", "float32[3, 2, 3]", 4, bad, 2); });
    QVERIFY2(m.contains("activation 'Swish' is not supported"), qPrintable(m));
    Attributes few;
    few.set("activations", std::string("Sigmoid"));
    m = compileErrorOf([&] { layer("LSTM", "float32[3, 2, 3]", 4, few, 2); });
    QVERIFY2(m.contains("activations lists 1 functions, expected 3"), qPrintable(m));
    // Weights that do not fit the hidden size.
    m = compileErrorOf([&] { layer("RNN", "float32[3, 2, 3]", 4, {}, 2).nodes(); });
    QVERIFY(m.isEmpty());
    Graph g("t");
    Value x = g.addInput("x", type("float32[3, 2, 3]"));
    Attributes h;
    h.set("hidden_size", int64_t(5));
    g.setOutputs(
        g.addNode("RNN",
                  {x, g.addConstant("w", filled({1, 4, 3})), g.addConstant("r", filled({1, 4, 4}))},
                  h, 2, "rnn")
            ->outputs());
    m = compileErrorOf([&] { inferShapes(g); });
    QVERIFY2(m.contains("W float32[1, 4, 3] must be float32[1, 5, 3]"), qPrintable(m));
    Attributes dir;
    dir.set("direction", std::string("sideways"));
    m = compileErrorOf([&] { layer("RNN", "float32[3, 2, 3]", 4, dir, 2); });
    QVERIFY2(m.contains("direction 'sideways' is not one of forward, reverse, bidirectional"),
             qPrintable(m));
}

void TestExpandRecurrent::registeredBeforeFolding() {
    const GraphPassInfo* p = findGraphPass("expand-recurrent");
    QVERIFY(p);
    const auto pipeline = defaultGraphPipeline();
    auto at = [&](const std::string& n) {
        return std::find(pipeline.begin(), pipeline.end(), n) - pipeline.begin();
    };
    QVERIFY(at("infer-shapes") < at("expand-recurrent"));
    QVERIFY(at("expand-recurrent") < at("fold-constant"));
    QVERIFY(at("expand-recurrent") < at("fuse-ops"));
    Graph g = layer("RNN", "float32[2, 1, 3]", 2, {}, 2);
    QCOMPARE(count(p->run(g, {}), "RNN"), 0);
}

QTEST_GUILESS_MAIN(TestExpandRecurrent)
#include "tst_gpass_expand_recurrent.moc"
