// alter-layout (graph/passes/AlterLayout.h), graph text in -> graph text out:
// a ResNet basic block (convolutions write NCHW16c, the residual add and the
// relus stay blocked, the block's input is transformed once, the output back
// once), an inverted residual block (1x1 expand, depthwise 3x3, 1x1 project
// with Clip and a residual; 24 channels take blocks of 8), and a graph that
// must change layout back (global pooling stays blocked, Flatten needs the
// plain layout), a generator's transposed convolutions (blocked through,
// the 3-channel one writes plain), and a grouped one that stays plain. Also: the layout types (parse/print, logical shapes), the
// LayoutTransform operator and its constant evaluator, the operators that
// refuse blocked inputs, and the pass's block rule. Numeric equivalence of
// compiled models with and without the pass is in tests/driver/tst_modelcompiler.
#include "graph/ConstantEval.h"
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/OpRegistry.h"
#include "graph/passes/AlterLayout.h"
#include "graph/passes/FoldConstant.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"
#include "ir/Layout.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::graph;

#include "GraphTestUtil.h"

using namespace tessel::graph::test;

namespace {

Value weights(Graph& g, const std::string& name, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<double> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.01 * double(int(i % 11) - 5);
    return g.addConstant(name, Constant::fromFloats(shape, v));
}

Value conv(Graph& g, Value x, int64_t cin, int64_t cout, int64_t k, int64_t group, const std::string& name) {
    Attributes a;
    a.set("pads", std::vector<int64_t>(4, k / 2));
    if (group > 1) a.set("group", group);
    return g.addOp("Conv",
                   {x, weights(g, name + "_w", {cout, cin / group, k, k}), weights(g, name + "_b", {cout})}, a,
                   name);
}

Graph altered(const Graph& g, int64_t block = 16) {
    AlterLayoutOptions o;
    o.block = block;
    Graph out = alterLayout(inferShapes(g), o);
    out.verify();
    return foldConstant(out);
}

int count(const Graph& g, const std::string& op) {
    int n = 0;
    for (auto& node : g.nodes()) n += node->op == op;
    return n;
}

} // namespace

class TestAlterLayout : public QObject {
    Q_OBJECT
private slots:
    void layouts() {
        auto l = Layout::of("NCHW16c");
        QCOMPARE(l.logicalRank(), 4);
        QCOMPARE(l.storedRank(), 5);
        QCOMPARE(l.blockOf('C'), int64_t(16));
        QCOMPARE(*l.storedShape({1, 64, 56, 56}), (std::vector<int64_t>{1, 4, 56, 56, 16}));
        QCOMPARE(*l.logicalShape({1, 4, 56, 56, 16}), (std::vector<int64_t>{1, 64, 56, 56}));
        QVERIFY(!l.storedShape({1, 24, 56, 56}));
        QCOMPARE(l.storedIndex({0, 37, 2, 3}), (std::vector<int64_t>{0, 2, 2, 3, 5}));
        QCOMPARE(l.logicalIndex({0, 2, 2, 3, 5}), (std::vector<int64_t>{0, 37, 2, 3}));
        QCOMPARE(Layout::of("OIHW16i16o").str(), std::string("OIHW16i16o"));
        QVERIFY(!Layout::parse("NCHW16"));
        QVERIFY(!Layout::parse("NCHW16x"));
        QVERIFY(!Layout::parse("NCHWC"));
        QVERIFY(!Layout::parse("NCHW0c"));
        QCOMPARE(Layout::nchwc(8).str(), std::string("NCHW8c"));

        auto t = type("float32<NCHW16c>[1, 4, 56, 56, 16]");
        QCOMPARE(t.layout, std::string("NCHW16c"));
        QCOMPARE(t.str(), std::string("float32<NCHW16c>[1, 4, 56, 56, 16]"));
        QCOMPARE(t.logical().str(), std::string("float32[1, 64, 56, 56]"));
        QCOMPARE(t.logical().inLayout("NCHW8c")->str(), std::string("float32<NCHW8c>[1, 8, 56, 56, 8]"));
        QVERIFY(!TensorType::parse("float32<NCHW16c>[1, 4, 56, 56, 8]")); // the block's extent
        QVERIFY(!TensorType::parse("float32<NCHW16c>[1, 4, 56, 56]"));    // the rank
        QVERIFY(!TensorType::parse("float32<NCHW16>[1, 4, 56, 56, 16]"));
    }

    // LayoutTransform's inference, and its evaluator moving every element.
    void layoutTransformOperator() {
        std::vector<double> v(2 * 16 * 2 * 1);
        for (size_t i = 0; i < v.size(); ++i) v[i] = double(i);
        auto c = Constant::fromFloats({2, 16, 2, 1}, v);
        auto blocked = c->inLayout("NCHW8c");
        QCOMPARE(blocked->type().str(), std::string("float32<NCHW8c>[2, 2, 2, 1, 8]"));
        // Element (n=1, c=11, h=1, w=0): logical flat ((1 * 16 + 11) * 2 + 1) = 55,
        // stored at [1, 1, 1, 0, 3].
        const auto stored = blocked->toDoubles();
        QCOMPARE(stored[size_t((((1 * 2 + 1) * 2 + 1) * 1 + 0) * 8 + 3)], 55.0);
        QCOMPARE(blocked->inLayout("")->toDoubles(), v);

        Graph g("t");
        Value x = g.addConstant("x", c);
        Attributes a;
        a.set("src_layout", std::string("NCHW"));
        a.set("dst_layout", std::string("NCHW8c"));
        g.setOutputs({g.addOp("LayoutTransform", {x}, a, "lt")});
        g = inferShapes(g);
        QCOMPARE(g.nodes()[0]->outputTypes[0].str(), std::string("float32<NCHW8c>[2, 2, 2, 1, 8]"));
        auto folded = evaluateConstant(*g.nodes()[0], {c});
        QVERIFY(folded);
        QCOMPARE((*folded)[0]->layout, std::string("NCHW8c"));
        QCOMPARE((*folded)[0]->bytes, blocked->bytes);
    }

    // A plain operator refuses a blocked input; element-wise operators refuse
    // mixed layouts.
    void operatorsSayWhatTheyTake() {
        Graph g("e");
        Value x = g.addInput("x", type("float32<NCHW16c>[1, 2, 4, 4, 16]"));
        Value y = g.addInput("y", type("float32[1, 32, 4, 4]"));
        g.setOutputs({g.addOp("Flatten", {x}, {}, "flat")});
        QVERIFY_THROWS_EXCEPTION(CompileError, inferShapes(g));
        try {
            inferShapes(g);
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("Flatten takes plain tensors only") != std::string::npos, e.what());
        }
        Graph h("e");
        x = h.addInput("x", type("float32<NCHW16c>[1, 2, 4, 4, 16]"));
        y = h.addInput("y", type("float32[1, 32, 4, 4]"));
        h.setOutputs({h.addOp("Add", {x, y}, {}, "add")});
        QVERIFY_THROWS_EXCEPTION(CompileError, inferShapes(h));
        Graph k("e");
        x = k.addInput("x", type("float32<NCHW16c>[1, 2, 4, 4, 16]"));
        k.setOutputs({k.addOp("Relu", {k.addOp("Mul", {x, k.addConstant("s", Constant::fromFloats({}, {2.0}))})})});
        k = inferShapes(k);
        QCOMPARE(k.nodes()[1]->outputTypes[0].str(), std::string("float32<NCHW16c>[1, 2, 4, 4, 16]"));
    }

    void blockRule() {
        QCOMPARE(channelBlock(64, 16), int64_t(16));
        QCOMPARE(channelBlock(24, 16), int64_t(8));
        QCOMPARE(channelBlock(12, 16), int64_t(0));
        QCOMPARE(channelBlock(3, 16), int64_t(0));
        QCOMPARE(channelBlock(12, 8), int64_t(4));
        QCOMPARE(channelBlock(64, 1), int64_t(0));
    }

    // conv -> relu -> conv -> add(x) -> relu: one transform in (the block's
    // input for the residual), one out (the graph output).
    void resnetBlock() {
        Graph g("block");
        Value x = g.addInput("x", type("float32[1, 32, 8, 8]"));
        Value y = g.addOp("Relu", {conv(g, x, 32, 32, 3, 1, "conv1")}, {}, "relu1");
        Value z = conv(g, y, 32, 32, 3, 1, "conv2");
        g.setOutputs({g.addOp("Relu", {g.addOp("Add", {z, x}, {}, "add")}, {}, "relu2")});
        Graph f = altered(g);
        QCOMPARE(QString::fromStdString(text(f)), QString(R"(graph block(%x: float32[1, 32, 8, 8]) {
  %conv1_w = constant : float32[32, 32, 3, 3]
  %conv1_b = constant : float32[32]
  %conv2_w = constant : float32[32, 32, 3, 3]
  %conv2_b = constant : float32[32]
  %3 = Conv(%x, %conv1_w, %conv1_b) {pads=[1, 1, 1, 1], out_layout="NCHW16c"} : float32<NCHW16c>[1, 2, 8, 8, 16]  # conv1
  %4 = Relu(%3) : float32<NCHW16c>[1, 2, 8, 8, 16]  # relu1
  %7 = Conv(%4, %conv2_w, %conv2_b) {pads=[1, 1, 1, 1], out_layout="NCHW16c"} : float32<NCHW16c>[1, 2, 8, 8, 16]  # conv2
  %10 = LayoutTransform(%x) {src_layout="NCHW", dst_layout="NCHW16c"} : float32<NCHW16c>[1, 2, 8, 8, 16]  # x_NCHW16c
  %8 = Add(%7, %10) : float32<NCHW16c>[1, 2, 8, 8, 16]  # add
  %9 = Relu(%8) : float32<NCHW16c>[1, 2, 8, 8, 16]  # relu2
  %11 = LayoutTransform(%9) {src_layout="NCHW16c", dst_layout="NCHW"} : float32[1, 32, 8, 8]  # relu2_plain
  return %11
}
)"));
        // A target without vectors: nothing changes.
        QCOMPARE(text(altered(g, 1)), text(inferShapes(g)));
    }

    // MobileNetV2's inverted residual with 24 channels (blocks of 8): 1x1
    // expand to 144 (16), Clip, depthwise 3x3 (16), Clip, 1x1 project to 24
    // (8), residual add; a per-channel constant scale stored blocked.
    void invertedResidual() {
        Graph g("ir");
        Value x = g.addInput("x", type("float32[1, 24, 8, 8]"));
        Value a = conv(g, x, 24, 24, 1, 1, "stem");
        Attributes clip;
        Value lo = g.addConstant("lo", Constant::fromFloats({}, {0.0}));
        Value hi = g.addConstant("hi", Constant::fromFloats({}, {6.0}));
        Value e = g.addOp("Clip", {conv(g, a, 24, 144, 1, 1, "expand"), lo, hi}, {}, "relu6a");
        Value d = g.addOp("Clip", {conv(g, e, 144, 144, 3, 144, "dw"), lo, hi}, {}, "relu6b");
        Value p = conv(g, d, 144, 24, 1, 1, "project");
        Value s = g.addOp("Mul", {p, weights(g, "scale", {24, 1, 1})}, {}, "scale");
        g.setOutputs({g.addOp("Add", {s, a}, {}, "residual")});
        Graph f = altered(g);
        QCOMPARE(QString::fromStdString(text(f)), QString(R"(graph ir(%x: float32[1, 24, 8, 8]) {
  %stem_w = constant : float32[24, 24, 1, 1]
  %stem_b = constant : float32[24]
  %lo = constant : float32[]
  %hi = constant : float32[]
  %expand_w = constant : float32[144, 24, 1, 1]
  %expand_b = constant : float32[144]
  %dw_w = constant : float32[144, 1, 3, 3]
  %dw_b = constant : float32[144]
  %project_w = constant : float32[24, 144, 1, 1]
  %project_b = constant : float32[24]
  %scale_NCHW8c = constant : float32<NCHW8c>[1, 3, 1, 1, 8]
  %3 = Conv(%x, %stem_w, %stem_b) {pads=[0, 0, 0, 0], out_layout="NCHW8c"} : float32<NCHW8c>[1, 3, 8, 8, 8]  # stem
  %8 = Conv(%3, %expand_w, %expand_b) {pads=[0, 0, 0, 0], out_layout="NCHW16c"} : float32<NCHW16c>[1, 9, 8, 8, 16]  # expand
  %9 = Clip(%8, %lo, %hi) : float32<NCHW16c>[1, 9, 8, 8, 16]  # relu6a
  %12 = Conv(%9, %dw_w, %dw_b) {pads=[1, 1, 1, 1], group=144, out_layout="NCHW16c"} : float32<NCHW16c>[1, 9, 8, 8, 16]  # dw
  %13 = Clip(%12, %lo, %hi) : float32<NCHW16c>[1, 9, 8, 8, 16]  # relu6b
  %16 = Conv(%13, %project_w, %project_b) {pads=[0, 0, 0, 0], out_layout="NCHW8c"} : float32<NCHW8c>[1, 3, 8, 8, 8]  # project
  %18 = Mul(%16, %scale_NCHW8c) : float32<NCHW8c>[1, 3, 8, 8, 8]  # scale
  %19 = Add(%18, %3) : float32<NCHW8c>[1, 3, 8, 8, 8]  # residual
  %21 = LayoutTransform(%19) {src_layout="NCHW8c", dst_layout="NCHW"} : float32[1, 24, 8, 8]  # residual_plain
  return %21
}
)"));
        QCOMPARE(count(f, "LayoutTransform"), 1);
    }

    // Global pooling stays blocked; Flatten needs the plain layout back, and
    // the Gemm after it never sees a block.
    void changesBackForFlatten() {
        Graph g("head");
        Value x = g.addInput("x", type("float32[1, 16, 7, 7]"));
        Attributes pool;
        pool.set("kernel_shape", std::vector<int64_t>{3, 3});
        pool.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        Value m = g.addOp("MaxPool", {g.addOp("Relu", {conv(g, x, 16, 32, 3, 1, "conv")}, {}, "relu")}, pool, "pool");
        Value f = g.addOp("Flatten", {g.addOp("GlobalAveragePool", {m}, {}, "gap")}, {}, "flat");
        g.setOutputs({g.addOp("Gemm", {f, weights(g, "fc", {32, 10})}, {}, "fc")});
        Graph out = altered(g);
        QCOMPARE(QString::fromStdString(text(out)), QString(R"(graph head(%x: float32[1, 16, 7, 7]) {
  %conv_w = constant : float32[32, 16, 3, 3]
  %conv_b = constant : float32[32]
  %fc = constant : float32[32, 10]
  %3 = Conv(%x, %conv_w, %conv_b) {pads=[1, 1, 1, 1], out_layout="NCHW16c"} : float32<NCHW16c>[1, 2, 7, 7, 16]  # conv
  %4 = Relu(%3) : float32<NCHW16c>[1, 2, 7, 7, 16]  # relu
  %5 = MaxPool(%4) {kernel_shape=[3, 3], pads=[1, 1, 1, 1]} : float32<NCHW16c>[1, 2, 7, 7, 16]  # pool
  %6 = GlobalAveragePool(%5) : float32<NCHW16c>[1, 2, 1, 1, 16]  # gap
  %10 = LayoutTransform(%6) {src_layout="NCHW16c", dst_layout="NCHW"} : float32[1, 32, 1, 1]  # gap_plain
  %7 = Flatten(%10) : float32[1, 32]  # flat
  %9 = Gemm(%7, %fc) : float32[1, 10]  # fc
  return %9
}
)"));
    }

    // A generator's upsampling: ConvTranspose (4x4, stride 2) -> Relu ->
    // ConvTranspose to 3 channels -> Tanh. The first writes NCHW16c, the
    // second reads those blocks where they are and writes plain (3 channels
    // take no block), so no transform is left; a grouped ConvTranspose (the
    // general compute) gets its input back in the plain layout.
    void generatorUpsampling() {
        Graph g("gen");
        Value x = g.addInput("x", type("float32[1, 64, 4, 4]"));
        Attributes up;
        up.set("kernel_shape", std::vector<int64_t>{4, 4});
        up.set("strides", std::vector<int64_t>{2, 2});
        up.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        Value a = g.addOp("ConvTranspose", {x, weights(g, "up1_w", {64, 32, 4, 4})}, up, "up1");
        Value r = g.addOp("Relu", {a}, {}, "relu");
        Value b = g.addOp("ConvTranspose", {r, weights(g, "up2_w", {32, 3, 4, 4})}, up, "up2");
        g.setOutputs({g.addOp("Tanh", {b}, {}, "tanh")});
        Graph f = altered(g);
        QCOMPARE(QString::fromStdString(text(f)), QString(R"(graph gen(%x: float32[1, 64, 4, 4]) {
  %up1_w = constant : float32[64, 32, 4, 4]
  %up2_w = constant : float32[32, 3, 4, 4]
  %2 = ConvTranspose(%x, %up1_w) {kernel_shape=[4, 4], strides=[2, 2], pads=[1, 1, 1, 1], out_layout="NCHW16c"} : float32<NCHW16c>[1, 2, 8, 8, 16]  # up1
  %3 = Relu(%2) : float32<NCHW16c>[1, 2, 8, 8, 16]  # relu
  %5 = ConvTranspose(%3, %up2_w) {kernel_shape=[4, 4], strides=[2, 2], pads=[1, 1, 1, 1]} : float32[1, 3, 16, 16]  # up2
  %6 = Tanh(%5) : float32[1, 3, 16, 16]  # tanh
  return %6
}
)"));
        QCOMPARE(count(f, "LayoutTransform"), 0);

        Graph h("grouped");
        x = h.addInput("x", type("float32[1, 32, 4, 4]"));
        Value c = conv(h, x, 32, 32, 3, 1, "conv");
        Attributes grouped = up;
        grouped.set("group", int64_t(2));
        h.setOutputs({h.addOp("ConvTranspose", {c, weights(h, "upg_w", {32, 16, 4, 4})}, grouped, "upg")});
        Graph k = altered(h);
        QCOMPARE(count(k, "LayoutTransform"), 1);
        for (auto& node : k.nodes())
            if (node->op == "ConvTranspose") {
                QVERIFY(!node->inputs[0].type().blocked());
                QVERIFY(!node->attrs.has("out_layout"));
            }
    }

    void registeredWithItsRecord() {
        const auto* p = findGraphPass("alter-layout");
        QVERIFY(p);
        QVERIFY(!p->summary.empty() && !p->description.empty());
        QVERIFY(p->findOption("block"));
    }
};

QTEST_APPLESS_MAIN(TestAlterLayout)
#include "tst_gpass_alter_layout.moc"
