// canonicalize-qdq: DequantizeLinear -> Conv/MatMul/Gemm [-> Relu] ->
// QuantizeLinear chains (ONNX Runtime's QDQ format) written as QLinearConv,
// QLinearMatMul or MatMulInteger plus a requantization; per-tensor and
// per-channel weights, the Relu folded only where it is exact, the chains
// the pass must leave alone, and the numbers before and after on small
// random models (the reference evaluator of GraphEval.h), within one step
// of the output's quantization.
#include "graph/Graph.h"
#include "graph/passes/CanonicalizeQdq.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/GraphPipeline.h"
#include "graph/passes/InferShapes.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "GraphEval.h"

using namespace tessel;
using namespace tessel::graph;
using namespace tessel::graph::test;

namespace {

/// Builds small QDQ graphs as ONNX Runtime's quantizer writes them.
struct QdqBuilder {
    Graph g{"qdq"};
    std::mt19937 rng{7};
    int next = 0;

    std::string fresh(const std::string& what) { return what + std::to_string(next++); }
    Value scalar(float v) { return g.addConstant(fresh("s"), Constant::fromFloats({}, {v})); }
    Value ints(std::vector<int64_t> shape, std::vector<int64_t> v, DataType t) {
        return g.addConstant(fresh("c"), Constant::fromInts(std::move(shape), v, t));
    }
    Value floats(std::vector<int64_t> shape, std::vector<double> v) {
        return g.addConstant(fresh("f"), Constant::fromFloats(std::move(shape), v));
    }
    /// Random 8-bit weights in [-127, 127] (int8) or [0, 255] (uint8).
    Value weights(std::vector<int64_t> shape, DataType t = DataType::int8()) {
        std::uniform_int_distribution<int> d(t.isUInt() ? 0 : -127, t.isUInt() ? 255 : 127);
        std::vector<int64_t> v(static_cast<size_t>(count(shape)));
        for (auto& x : v)
            x = d(rng);
        return ints(std::move(shape), v, t);
    }
    Value quantize(const Value& x, float scale, int64_t zeroPoint, DataType t = DataType::uint8()) {
        return g.addOp("QuantizeLinear", {x, scalar(scale), ints({}, {zeroPoint}, t)});
    }
    Value dequantize(const Value& q, const Value& scale, const Value& zeroPoint = {}, int64_t axis = 1) {
        Attributes a;
        if (axis != 1) a.set("axis", axis);
        return g.addOp("DequantizeLinear", zeroPoint.defined() ? std::vector<Value>{q, scale, zeroPoint}
                                                               : std::vector<Value>{q, scale},
                       a);
    }
    /// Per-channel weight scales (and the matching int32 bias scales x_scale * w_scale).
    std::vector<double> scales(int64_t n, double lo = 0.002, double hi = 0.01) {
        std::uniform_real_distribution<double> d(lo, hi);
        std::vector<double> s(static_cast<size_t>(n));
        for (auto& x : s)
            x = static_cast<float>(d(rng));
        return s;
    }
    std::vector<double> biasScales(float xScale, const std::vector<double>& w) {
        std::vector<double> b;
        for (double s : w)
            b.push_back(static_cast<float>(xScale * static_cast<float>(s)));
        return b;
    }
    Value randomBias(int64_t n) {
        std::uniform_int_distribution<int> d(-2000, 2000);
        std::vector<int64_t> v(static_cast<size_t>(n));
        for (auto& x : v)
            x = d(rng);
        return ints({n}, v, DataType::int32());
    }
    Graph done(std::vector<Value> outputs) {
        g.setOutputs(std::move(outputs));
        return inferShapes(g);
    }
};

struct ConvSpec {
    bool perChannel = true;
    bool bias = true;
    bool relu = true;
    int64_t yZero = 0;
    DataType yType = DataType::uint8();
    int64_t weightAxis = 0;
    float biasScaleFactor = 1.0f; // not 1: a bias whose scale is not x_scale * w_scale
};

/// x float[1, 3, 6, 6] -> Q -> DQ -> Conv 3x3 (4 channels, pads 1) [-> Relu] -> Q -> DQ.
Graph convModel(const ConvSpec& spec) {
    QdqBuilder b;
    const float xScale = 0.02f;
    Value x = b.g.addInput("x", type("float32[1, 3, 6, 6]"));
    Value xd = b.dequantize(b.quantize(x, xScale, 128), b.scalar(xScale), b.ints({}, {128}, DataType::uint8()));
    const auto ws = spec.perChannel ? b.scales(4) : std::vector<double>{0.005};
    const std::vector<int64_t> scaleShape = spec.perChannel ? std::vector<int64_t>{4} : std::vector<int64_t>{};
    Value wd = b.dequantize(b.weights({4, 3, 3, 3}), b.floats(scaleShape, ws),
                            b.ints(scaleShape, std::vector<int64_t>(ws.size(), 0), DataType::int8()),
                            spec.weightAxis);
    std::vector<Value> in{xd, wd};
    if (spec.bias) {
        auto bs = b.biasScales(xScale, spec.perChannel ? ws : std::vector<double>(4, ws[0]));
        for (auto& s : bs)
            s *= spec.biasScaleFactor;
        in.push_back(b.dequantize(b.randomBias(4), b.floats({4}, bs), {}, 0));
    }
    Attributes a;
    a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    Value y = b.g.addOp("Conv", in, a, "conv");
    if (spec.relu) y = b.g.addOp("Relu", {y});
    const float yScale = 0.05f;
    Value yq = b.quantize(y, yScale, spec.yZero, spec.yType);
    return b.done({b.dequantize(yq, b.scalar(yScale), b.ints({}, {spec.yZero}, spec.yType))});
}

/// The largest difference of the two graphs' outputs over a few random inputs,
/// in steps of `step` (the output's scale; float32's 0.05 is a little more than
/// 0.05, hence the callers' slack of 1e-4 steps).
double stepsApart(const Graph& before, const Graph& after, const std::string& input,
                  const std::vector<int64_t>& shape, double step, float range = 3.0f) {
    std::mt19937 rng(11);
    double worst = 0;
    for (int i = 0; i < 5; ++i) {
        std::map<std::string, Tensor> in{{input, randomTensor(shape, rng, -range, range)}};
        worst = std::max(worst, maxAbsDiff(evaluate(before, in), evaluate(after, in)) / step);
    }
    return worst;
}

} // namespace

class TestCanonicalizeQdq : public QObject {
    Q_OBJECT
private slots:
    void convWithBiasAndRelu();
    void perTensorWeights();
    void reluFoldsExactly();
    void reluZeroPointInside();
    void matMulPerColumn();
    void gemmTransposedWithBias();
    void floatBias();
    void sharedDequantize();
    void leftAlone();
    void qdqBetweenFloatOpsKept();
    void maxPoolOnEightBits();
    void registered();
};

void TestCanonicalizeQdq::convWithBiasAndRelu() {
    const Graph g = convModel({});
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "QLinearConv"), 1);
    QCOMPARE(countOps(c, "Conv"), 0);
    QCOMPARE(countOps(c, "Relu"), 0);
    QCOMPARE(countOps(c, "Max"), 0); // y's zero point 0 is uint8's least value: saturation clamps
    // What is left: the input's QuantizeLinear and the output's DequantizeLinear.
    QCOMPARE(countOps(c, "QuantizeLinear"), 1);
    QCOMPARE(countOps(c, "DequantizeLinear"), 1);
    const Node* q = firstNode(c, "QLinearConv");
    QCOMPARE(q->inputs.size(), size_t(9));
    QCOMPARE(q->inputs[8].type().str(), std::string("int32[4]"));
    QCOMPARE(q->outputTypes[0].str(), std::string("uint8[1, 4, 6, 6]"));
    QCOMPARE(q->attrs.getInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
    QCOMPARE(q->id, firstNode(g, "Conv")->id); // the product keeps the Conv's id
    QVERIFY(stepsApart(g, c, "x", {1, 3, 6, 6}, 0.05) <= 1.0 + 1e-4);
    // Nothing left to match: a second run changes nothing.
    QCOMPARE(QString::fromStdString(text(canonicalizeQdq(c))), QString::fromStdString(text(c)));
}

void TestCanonicalizeQdq::perTensorWeights() {
    ConvSpec s;
    s.perChannel = false;
    s.relu = false;
    s.yZero = 3;
    s.yType = DataType::int8();
    const Graph g = convModel(s);
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "QLinearConv"), 1);
    QCOMPARE(firstNode(c, "QLinearConv")->inputs[4].type().str(), std::string("float32[]"));
    QCOMPARE(firstNode(c, "QLinearConv")->outputTypes[0].str(), std::string("int8[1, 4, 6, 6]"));
    QVERIFY(stepsApart(g, c, "x", {1, 3, 6, 6}, 0.05) <= 1.0 + 1e-4);
}

void TestCanonicalizeQdq::reluFoldsExactly() {
    // Q(relu(v)) == max(Q(v), zero point) for every v when the scale is
    // positive: v < 0 rounds to at most 0 steps, so Q(v) <= zero point =
    // Q(0); halves included (round half to even).
    int differ = 0;
    for (DataType t : {DataType::uint8(), DataType::int8()})
        for (float zp : {t.isUInt() ? 0.0f : -128.0f, 17.0f, t.isUInt() ? 255.0f : 127.0f})
            for (float scale : {0.05f, 0.1f, 1.0f})
                for (int k = -4000; k <= 4000; ++k) {
                    const float v = static_cast<float>(k) * 0.0125f;
                    if (quantizeValue(std::max(v, 0.0f), scale, zp, t) != std::max(quantizeValue(v, scale, zp, t), zp))
                        ++differ;
                }
    QCOMPARE(differ, 0);
    // With the zero point at the type's least value no Max is needed (uint8 0, int8 -128).
    ConvSpec s;
    s.yType = DataType::int8();
    s.yZero = -128;
    const Graph g = convModel(s);
    const Graph c = canonicalizeQdq(g);
    QCOMPARE(countOps(c, "Relu"), 0);
    QCOMPARE(countOps(c, "Max"), 0);
    QVERIFY(stepsApart(g, c, "x", {1, 3, 6, 6}, 0.05) <= 1.0 + 1e-4);
    // fold-relu=false leaves a Conv -> Relu -> Q chain alone.
    CanonicalizeQdqOptions o;
    o.foldRelu = false;
    QCOMPARE(QString::fromStdString(text(canonicalizeQdq(g, o))), QString::fromStdString(text(g)));
}

void TestCanonicalizeQdq::reluZeroPointInside() {
    // A zero point inside the range: the Relu becomes max(y, zero point).
    ConvSpec s;
    s.yZero = 40;
    const Graph g = convModel(s);
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "Relu"), 0);
    QCOMPARE(countOps(c, "Max"), 1);
    const Node* max = firstNode(c, "Max");
    QCOMPARE(max->outputTypes[0].str(), std::string("uint8[1, 4, 6, 6]"));
    QCOMPARE(max->inputs[0].producer()->op, std::string("QLinearConv"));
    QVERIFY(stepsApart(g, c, "x", {1, 3, 6, 6}, 0.05) <= 1.0 + 1e-4);
}

void TestCanonicalizeQdq::matMulPerColumn() {
    QdqBuilder b;
    Value x = b.g.addInput("x", type("float32[2, 5]"));
    Value xd = b.dequantize(b.quantize(x, 0.03f, 120), b.scalar(0.03f), b.ints({}, {120}, DataType::uint8()));
    Value wd = b.dequantize(b.weights({5, 3}), b.floats({3}, b.scales(3)), {}, 1);
    Value y = b.g.addOp("MatMul", {xd, wd});
    Value yq = b.quantize(y, 0.02f, -3, DataType::int8());
    const Graph g = b.done({b.dequantize(yq, b.scalar(0.02f), b.ints({}, {-3}, DataType::int8()))});
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "MatMul"), 0);
    QCOMPARE(countOps(c, "QLinearMatMul"), 1);
    const Node* m = firstNode(c, "QLinearMatMul");
    QCOMPARE(m->inputs[5].type().str(), std::string("int8[3]")); // zeros made for the absent zero point
    QCOMPARE(m->outputTypes[0].str(), std::string("int8[2, 3]"));
    QVERIFY(stepsApart(g, c, "x", {2, 5}, 0.02) <= 1.0 + 1e-4);
}

void TestCanonicalizeQdq::gemmTransposedWithBias() {
    // Flatten -> Gemm(transB) with an int32 bias, as a classifier's last layer.
    QdqBuilder b;
    const float xScale = 0.04f;
    Value x = b.g.addInput("x", type("float32[2, 6]"));
    Value xd = b.dequantize(b.quantize(x, xScale, 100), b.scalar(xScale), b.ints({}, {100}, DataType::uint8()));
    const auto ws = b.scales(4);
    Value wd = b.dequantize(b.weights({4, 6}), b.floats({4}, ws), b.ints({4}, {0, 0, 0, 0}, DataType::int8()), 0);
    Value bd = b.dequantize(b.randomBias(4), b.floats({4}, b.biasScales(xScale, ws)), {}, 0);
    Attributes a;
    a.set("transB", int64_t(1));
    Value y = b.g.addOp("Gemm", {xd, wd, bd}, a, "fc");
    Value yq = b.quantize(y, 0.03f, 128);
    const Graph g = b.done({b.dequantize(yq, b.scalar(0.03f), b.ints({}, {128}, DataType::uint8()))});
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "Gemm"), 0);
    QCOMPARE(countOps(c, "MatMulInteger"), 1);
    const Node* mm = firstNode(c, "MatMulInteger");
    QCOMPARE(mm->inputs[1].type().str(), std::string("int8[6, 4]")); // the weights transposed
    QCOMPARE(mm->id, firstNode(g, "Gemm")->id);
    QCOMPARE(c.outputs()[0].producer()->op, std::string("DequantizeLinear"));
    QCOMPARE(c.outputs()[0].producer()->inputs[0].producer()->op, std::string("QuantizeLinear"));
    QVERIFY(stepsApart(g, c, "x", {2, 6}, 0.03) <= 1.0 + 1e-4);
    // Without the bias: QLinearMatMul on the transposed weights.
    QdqBuilder nb;
    Value x2 = nb.g.addInput("x", type("float32[2, 6]"));
    Value xd2 = nb.dequantize(nb.quantize(x2, xScale, 100), nb.scalar(xScale), nb.ints({}, {100}, DataType::uint8()));
    Value wd2 = nb.dequantize(nb.weights({4, 6}), nb.floats({4}, ws), {}, 0);
    Value y2 = nb.g.addOp("Gemm", {xd2, wd2}, a);
    const Graph g2 = nb.done({nb.dequantize(nb.quantize(y2, 0.03f, 128), nb.scalar(0.03f),
                                            nb.ints({}, {128}, DataType::uint8()))});
    const Graph c2 = canonicalizeQdq(g2);
    QCOMPARE(countOps(c2, "QLinearMatMul"), 1);
    QVERIFY(stepsApart(g2, c2, "x", {2, 6}, 0.03) <= 1.0 + 1e-4);
}

void TestCanonicalizeQdq::floatBias() {
    // A float bias: quantized with the scale x_scale * w_scale, as the quantizer would.
    QdqBuilder b;
    Value x = b.g.addInput("x", type("float32[1, 3, 6, 6]"));
    Value xd = b.dequantize(b.quantize(x, 0.02f, 128), b.scalar(0.02f), b.ints({}, {128}, DataType::uint8()));
    Value wd = b.dequantize(b.weights({4, 3, 3, 3}), b.floats({4}, b.scales(4)), {}, 0);
    Value bias = b.floats({4}, {0.3, -0.2, 0.05, 1.1});
    Value y = b.g.addOp("Conv", {xd, wd, bias});
    const Graph g = b.done({b.dequantize(b.quantize(y, 0.05f, 128), b.scalar(0.05f), b.ints({}, {128}, DataType::uint8()))});
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "QLinearConv"), 1);
    QCOMPARE(firstNode(c, "QLinearConv")->inputs[8].type().str(), std::string("int32[4]"));
    QVERIFY(stepsApart(g, c, "x", {1, 3, 6, 6}, 0.05) <= 1.0 + 1e-4);
}

void TestCanonicalizeQdq::sharedDequantize() {
    // One DequantizeLinear read by two Convs and an Add: both Convs become
    // QLinearConv reading the 8-bit tensor; the DequantizeLinear stays for the Add.
    QdqBuilder b;
    Value x = b.g.addInput("x", type("float32[1, 3, 6, 6]"));
    Value xd = b.dequantize(b.quantize(x, 0.02f, 128), b.scalar(0.02f), b.ints({}, {128}, DataType::uint8()));
    auto conv = [&] {
        Value wd = b.dequantize(b.weights({3, 3, 1, 1}), b.floats({3}, b.scales(3)), {}, 0);
        Value y = b.g.addOp("Conv", {xd, wd});
        return b.dequantize(b.quantize(y, 0.05f, 128), b.scalar(0.05f), b.ints({}, {128}, DataType::uint8()));
    };
    Value s = b.g.addOp("Add", {conv(), conv()});
    const Graph g = b.done({b.g.addOp("Add", {s, xd})});
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "QLinearConv"), 2);
    QCOMPARE(countOps(c, "DequantizeLinear"), 3); // the two Convs' results and the Add's operand
    QVERIFY(stepsApart(g, c, "x", {1, 3, 6, 6}, 0.05) <= 2.0 + 1e-4); // two products summed
    // Read by the two Convs only, the DequantizeLinear goes.
    QdqBuilder b2;
    Value x2 = b2.g.addInput("x", type("float32[1, 3, 6, 6]"));
    Value xd2 = b2.dequantize(b2.quantize(x2, 0.02f, 128), b2.scalar(0.02f), b2.ints({}, {128}, DataType::uint8()));
    std::vector<Value> outs;
    for (int i = 0; i < 2; ++i) {
        Value wd = b2.dequantize(b2.weights({3, 3, 1, 1}), b2.scalar(0.004f), {}, 0);
        outs.push_back(b2.quantize(b2.g.addOp("Conv", {xd2, wd}), 0.05f, 128));
    }
    const Graph c2 = canonicalizeQdq(b2.done(outs));
    QCOMPARE(countOps(c2, "QLinearConv"), 2);
    QCOMPARE(countOps(c2, "DequantizeLinear"), 0);
}

void TestCanonicalizeQdq::leftAlone() {
    auto unchanged = [](const Graph& g) {
        return text(canonicalizeQdq(g)) == text(g);
    };
    // The bias's scale is not x_scale * w_scale.
    ConvSpec s;
    s.biasScaleFactor = 1.5f;
    QVERIFY(unchanged(convModel(s)));
    // Per-channel scales along the weights' input channels (axis 1).
    QdqBuilder a;
    {
        Value x = a.g.addInput("x", type("float32[1, 4, 5, 5]"));
        Value xd = a.dequantize(a.quantize(x, 0.02f, 128), a.scalar(0.02f));
        Value wd = a.dequantize(a.weights({4, 4, 3, 3}), a.floats({4}, a.scales(4)), {}, 1);
        QVERIFY(unchanged(a.done({a.quantize(a.g.addOp("Conv", {xd, wd}), 0.05f, 128)})));
    }
    // Weights computed at run time (an input, dequantized).
    QdqBuilder w;
    {
        Value x = w.g.addInput("x", type("float32[1, 3, 5, 5]"));
        Value wq = w.g.addInput("wq", type("int8[4, 3, 3, 3]"));
        Value xd = w.dequantize(w.quantize(x, 0.02f, 128), w.scalar(0.02f));
        Value wd = w.dequantize(wq, w.scalar(0.01f));
        QVERIFY(unchanged(w.done({w.quantize(w.g.addOp("Conv", {xd, wd}), 0.05f, 128)})));
    }
    // The product's float result read elsewhere too (a graph output).
    QdqBuilder o;
    {
        Value x = o.g.addInput("x", type("float32[1, 3, 5, 5]"));
        Value xd = o.dequantize(o.quantize(x, 0.02f, 128), o.scalar(0.02f));
        Value wd = o.dequantize(o.weights({4, 3, 3, 3}), o.scalar(0.01f));
        Value y = o.g.addOp("Conv", {xd, wd});
        QVERIFY(unchanged(o.done({o.quantize(y, 0.05f, 128), y})));
    }
    // A Relu whose result is read elsewhere too.
    QdqBuilder r;
    {
        Value x = r.g.addInput("x", type("float32[1, 3, 5, 5]"));
        Value xd = r.dequantize(r.quantize(x, 0.02f, 128), r.scalar(0.02f));
        Value wd = r.dequantize(r.weights({4, 3, 3, 3}), r.scalar(0.01f));
        Value y = r.g.addOp("Relu", {r.g.addOp("Conv", {xd, wd})});
        QVERIFY(unchanged(r.done({r.quantize(y, 0.05f, 128), r.g.addOp("Add", {y, y})})));
    }
    // The activation not dequantized (a float input), and Gemm's transA.
    QdqBuilder f;
    {
        Value x = f.g.addInput("x", type("float32[6, 2]"));
        Value wd = f.dequantize(f.weights({6, 4}), f.scalar(0.01f));
        Value xd = f.dequantize(f.quantize(x, 0.02f, 128), f.scalar(0.02f));
        Attributes t;
        t.set("transA", int64_t(1));
        QVERIFY(unchanged(f.done({f.quantize(f.g.addOp("MatMul", {x, f.dequantize(f.weights({2, 4}), f.scalar(0.01f))}),
                                             0.05f, 128),
                                  f.quantize(f.g.addOp("Gemm", {xd, wd}, t), 0.05f, 128)})));
    }
}

void TestCanonicalizeQdq::qdqBetweenFloatOpsKept() {
    // Q -> DQ between float operators rounds: the pair stays.
    QdqBuilder b;
    Value x = b.g.addInput("x", type("float32[2, 3]"));
    Value xd = b.dequantize(b.quantize(b.g.addOp("Relu", {x}), 0.02f, 0), b.scalar(0.02f));
    const Graph g = b.done({b.g.addOp("Add", {xd, xd})});
    QCOMPARE(QString::fromStdString(text(canonicalizeQdq(g))), QString::fromStdString(text(g)));
}

void TestCanonicalizeQdq::maxPoolOnEightBits() {
    // DQ -> MaxPool -> Q with x's scale and zero point: the pool on the
    // 8-bit tensor, exactly (0 steps), padding included; with another scale
    // or zero point, or a padding as large as the kernel, it stays.
    auto model = [](float yScale, int64_t yZero, int64_t pad) {
        QdqBuilder b;
        Value x = b.g.addInput("x", type("float32[1, 2, 7, 7]"));
        Value xd = b.dequantize(b.quantize(x, 0.03f, 5), b.scalar(0.03f), b.ints({}, {5}, DataType::uint8()));
        Attributes a;
        a.set("kernel_shape", std::vector<int64_t>{3, 3});
        a.set("strides", std::vector<int64_t>{2, 2});
        a.set("pads", std::vector<int64_t>{pad, pad, pad, pad});
        Value y = b.quantize(b.g.addOp("MaxPool", {xd}, a), yScale, yZero);
        return b.done({b.dequantize(y, b.scalar(yScale), b.ints({}, {yZero}, DataType::uint8()))});
    };
    const Graph g = model(0.03f, 5, 1);
    const Graph c = canonicalizeQdq(g);
    c.verify();
    QCOMPARE(countOps(c, "MaxPool"), 1);
    const Node* pool = firstNode(c, "MaxPool");
    QCOMPARE(pool->outputTypes[0].str(), std::string("uint8[1, 2, 4, 4]"));
    QCOMPARE(pool->inputs[0].producer()->op, std::string("QuantizeLinear"));
    QCOMPARE(countOps(c, "DequantizeLinear"), 1); // the output's
    QCOMPARE(stepsApart(g, c, "x", {1, 2, 7, 7}, 0.03), 0.0);
    for (const Graph& other : {model(0.031f, 5, 1), model(0.03f, 6, 1), model(0.03f, 5, 3)})
        QCOMPARE(QString::fromStdString(text(canonicalizeQdq(other))), QString::fromStdString(text(other)));
}

void TestCanonicalizeQdq::registered() {
    const GraphPassInfo* p = findGraphPass("canonicalize-qdq");
    QVERIFY(p);
    QVERIFY(!p->summary.empty());
    QVERIFY(!p->description.empty());
    const auto pipeline = defaultGraphPipeline();
    auto at = [&](const std::string& n) {
        return std::find(pipeline.begin(), pipeline.end(), n) - pipeline.begin();
    };
    QVERIFY(at("infer-shapes") < at("canonicalize-qdq"));
    QVERIFY(at("canonicalize-qdq") < at("expand-quantized"));
}

QTEST_GUILESS_MAIN(TestCanonicalizeQdq)
#include "tst_gpass_canonicalize_qdq.moc"
