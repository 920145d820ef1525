#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/FuseOps.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include "GraphTestUtil.h"

#include <QtTest>

#include <chrono>

#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::graph;
using namespace tessel::graph::test;

namespace {

int64_t id(const Value& v) {
    return v.producer()->id;
}

std::vector<std::string> names(const FusionPlan& p) {
    std::vector<std::string> r;
    for (const auto& g : p.groups)
        r.push_back(g.name);
    return r;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

Attributes pads1() {
    Attributes a;
    a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    return a;
}

} // namespace

class TestFuseOps : public QObject {
    Q_OBJECT
private slots:
    void resnetBasicBlock();
    void convRelu();
    void softmaxAfterMatMulIsSeparate();
    void twoConsumersBreakFusion();
    void diamondsFuseAtThePostDominator();
    void injectiveChainFuses();
    void reduceMeanWithElementWiseInputs();
    void namesAreDeduplicated();
    void maxDepthAndOptions();
    void reasons();
    void printedGraphShowsAttributes();
    void farPostDominatorsPlanInLinearTime();
};

void TestFuseOps::resnetBasicBlock() {
    Graph g("block");
    Value x = g.addInput("x", type("float32[1, 8, 6, 6]"));
    Value w1 = g.addConstant("w1", Constant::zeros(DataType::float32(), {8, 8, 3, 3}));
    Value w2 = g.addConstant("w2", Constant::zeros(DataType::float32(), {8, 8, 3, 3}));
    Value s = g.addConstant("s", Constant::zeros(DataType::float32(), {8, 1, 1}));
    Value t = g.addConstant("t", Constant::zeros(DataType::float32(), {8, 1, 1}));
    Value c1 = g.addOp("Conv", {x, w1}, pads1());
    Value m1 = g.addOp("Mul", {c1, s});
    Value a1 = g.addOp("Add", {m1, t});
    Value r1 = g.addOp("Relu", {a1});
    Value c2 = g.addOp("Conv", {r1, w2}, pads1());
    Value m2 = g.addOp("Mul", {c2, s});
    Value a2 = g.addOp("Add", {m2, t});
    Value res = g.addOp("Add", {a2, x}); // the residual: its other input is the block's input
    Value r2 = g.addOp("Relu", {res});
    g.setOutputs({r2});
    g = inferShapes(g);

    FusionPlan p = planFusion(g);
    QCOMPARE(p.groups.size(), size_t(2));
    QCOMPARE(names(p), (std::vector<std::string>{"fused_conv_mul_add_relu",
                                                 "fused_conv_mul_add_add_relu"}));
    QCOMPARE(p.groups[0].members,
             (std::vector<int64_t>{id(c1), id(m1), id(a1), id(r1)}));
    QCOMPARE(p.groups[1].members,
             (std::vector<int64_t>{id(c2), id(m2), id(a2), id(res), id(r2)}));
    QCOMPARE(p.groups[0].master, id(c1));
    QCOMPARE(p.groups[1].master, id(c2));
    QCOMPARE(p.groups[1].pattern, OpPattern::OutEWiseFusable);
    QCOMPARE(p.groupOfNode(id(res))->index, 1);
    QCOMPARE(p.groupOfNode(id(r2))->index, 1);
    QVERIFY(p.groupOfNode(id(x)) == nullptr);
    QVERIFY(p.groupOfNode(id(w1)) == nullptr);

    // The same with the residual taken from the first Relu, which then has two
    // readers: it still closes the first group, and the Add joins the second.
    Graph h("block2");
    Value hx = h.addInput("x", type("float32[1, 8, 6, 6]"));
    Value hw = h.addConstant("w", Constant::zeros(DataType::float32(), {8, 8, 3, 3}));
    Value hr1 = h.addOp("Relu", {h.addOp("Conv", {hx, hw}, pads1())});
    Value hc2 = h.addOp("Conv", {hr1, hw}, pads1());
    Value hres = h.addOp("Add", {hc2, hr1});
    h.setOutputs({h.addOp("Relu", {hres})});
    h = inferShapes(h);
    FusionPlan hp = planFusion(h);
    QCOMPARE(names(hp), (std::vector<std::string>{"fused_conv_relu", "fused_conv_add_relu"}));
}

void TestFuseOps::convRelu() {
    Graph g("cr");
    Value x = g.addInput("x", type("float32[1, 3, 5, 5]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value c = g.addOp("Conv", {x, w});
    Value r = g.addOp("Relu", {c});
    g.setOutputs({r});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    QCOMPARE(names(p), (std::vector<std::string>{"fused_conv_relu"}));
    QCOMPARE(p.groups[0].members, (std::vector<int64_t>{id(c), id(r)}));
    QCOMPARE(q(p.reason(id(r))),
             q("Relu is element-wise and follows Conv (out-element-wise-fusable) in group "
               "fused_conv_relu"));
    QCOMPARE(q(p.reason(id(c))),
             q("Conv is out-element-wise-fusable: master of group fused_conv_relu"));
}

void TestFuseOps::softmaxAfterMatMulIsSeparate() {
    Graph g("mm");
    Value x = g.addInput("x", type("float32[2, 4]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 3}));
    Value b = g.addConstant("b", Constant::zeros(DataType::float32(), {3}));
    Value m = g.addOp("MatMul", {x, w});
    Value a = g.addOp("Add", {m, b});
    Value s = g.addOp("Softmax", {a});
    g.setOutputs({s});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    QCOMPARE(names(p), (std::vector<std::string>{"fused_matmul_add", "fused_softmax"}));
    QCOMPARE(p.groups[1].members, (std::vector<int64_t>{id(s)}));
    QCOMPARE(q(p.reason(id(s))), q("Softmax is opaque: starts its own group"));

    // Without the bias: MatMul alone, Softmax alone.
    Graph h("mm2");
    Value hx = h.addInput("x", type("float32[2, 4]"));
    Value hw = h.addConstant("w", Constant::zeros(DataType::float32(), {4, 3}));
    h.setOutputs({h.addOp("Softmax", {h.addOp("MatMul", {hx, hw})})});
    h = inferShapes(h);
    QCOMPARE(names(planFusion(h)), (std::vector<std::string>{"fused_matmul", "fused_softmax"}));
}

void TestFuseOps::twoConsumersBreakFusion() {
    Graph g("two");
    Value x = g.addInput("x", type("float32[1, 3, 5, 5]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value c = g.addOp("Conv", {x, w});
    Value r = g.addOp("Relu", {c});
    Value e = g.addOp("Exp", {r});
    Value n = g.addOp("Neg", {r});
    g.setOutputs({e, n});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    // Relu has one reader (fuses after Conv); its output has two, so Exp and Neg stay apart.
    QCOMPARE(names(p), (std::vector<std::string>{"fused_conv_relu", "fused_exp", "fused_neg"}));
    QCOMPARE(q(p.reason(id(e))),
             q("Exp is element-wise and starts a group: its input from Relu has 2 consumers, which do "
               "not meet again through operators that may follow it; it is alone in group fused_exp"));

    // A Conv read twice stays alone.
    Graph h("two2");
    Value hx = h.addInput("x", type("float32[1, 3, 5, 5]"));
    Value hw = h.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value hc = h.addOp("Conv", {hx, hw});
    h.setOutputs({h.addOp("Relu", {hc}), h.addOp("Sigmoid", {hc})});
    h = inferShapes(h);
    QCOMPARE(names(planFusion(h)),
             (std::vector<std::string>{"fused_conv", "fused_relu", "fused_sigmoid"}));

    // A value that is also a graph output ends its group.
    Graph k("two3");
    Value kx = k.addInput("x", type("float32[4]"));
    Value ke = k.addOp("Exp", {kx});
    k.setOutputs({ke, k.addOp("Relu", {ke})});
    k = inferShapes(k);
    QCOMPARE(names(planFusion(k)), (std::vector<std::string>{"fused_exp", "fused_relu"}));
}

void TestFuseOps::diamondsFuseAtThePostDominator() {
    // SiLU after a Conv: the Conv's value has two readers, and both paths meet at the Mul.
    Graph g("silu");
    Value x = g.addInput("x", type("float32[1, 3, 5, 5]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value c = g.addOp("Conv", {x, w});
    Value s = g.addOp("Sigmoid", {c});
    Value m = g.addOp("Mul", {c, s});
    Value w2 = g.addConstant("w2", Constant::zeros(DataType::float32(), {4, 4, 1, 1}));
    Value c2 = g.addOp("Conv", {m, w2});
    g.setOutputs({g.addOp("Relu", {c2})});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    QCOMPARE(names(p), (std::vector<std::string>{"fused_conv_sigmoid_mul", "fused_conv_relu"}));
    QCOMPARE(p.groups[0].master, id(c));
    QCOMPARE(q(p.reason(id(s))),
             q("Sigmoid is element-wise and fuses into group fused_conv_sigmoid_mul: Conv's value has "
               "2 readers, and every path from it leads to Mul through operators that may follow Conv"));
    // Turned off: the single-consumer rule alone.
    FuseOpsOptions off;
    off.fuseDiamonds = false;
    QCOMPARE(names(planFusion(g, off)),
             (std::vector<std::string>{"fused_conv", "fused_sigmoid_mul", "fused_conv_relu"}));

    // Longer branches, each a chain of its own group, meet at an Add; the Add's chain follows.
    Graph h("branches");
    Value hx = h.addInput("x", type("float32[1, 3, 5, 5]"));
    Value hw = h.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value hc = h.addOp("Conv", {hx, hw});
    Value a1 = h.addOp("Exp", {h.addOp("Neg", {hc})});
    Value a2 = h.addOp("Tanh", {hc});
    Value sum = h.addOp("Add", {a1, a2});
    h.setOutputs({h.addOp("Relu", {sum})});
    h = inferShapes(h);
    QCOMPARE(names(planFusion(h)), (std::vector<std::string>{"fused_conv_neg_exp_tanh_add_relu"}));

    // A reduction on one path: it may not follow a Conv, so nothing merges.
    Graph r("reduce");
    Value rx = r.addInput("x", type("float32[1, 3, 5, 5]"));
    Value rw = r.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value rc = r.addOp("Conv", {rx, rw});
    Attributes axes;
    axes.set("axes", std::vector<int64_t>{1});
    Value mean = r.addOp("ReduceMean", {rc}, axes);
    r.setOutputs({r.addOp("Sub", {rc, mean})});
    r = inferShapes(r);
    QCOMPARE(names(planFusion(r)), (std::vector<std::string>{"fused_conv", "fused_reducemean_sub"}));

    // After an element-wise group, injective operators on the paths merge too.
    Graph t("injective");
    Value tx = t.addInput("x", type("float32[2, 6]"));
    Value te = t.addOp("Exp", {tx});
    Attributes perm;
    perm.set("perm", std::vector<int64_t>{1, 0});
    Value tt = t.addOp("Transpose", {t.addOp("Transpose", {te}, perm)}, perm);
    t.setOutputs({t.addOp("Add", {te, tt})});
    t = inferShapes(t);
    QCOMPARE(names(planFusion(t)), (std::vector<std::string>{"fused_exp_transpose_transpose_add"}));

    // A value that is a graph output is stored: its readers stay apart.
    Graph o("output");
    Value ox = o.addInput("x", type("float32[4]"));
    Value oe = o.addOp("Exp", {ox});
    o.setOutputs({oe, o.addOp("Mul", {oe, o.addOp("Sigmoid", {oe})})});
    o = inferShapes(o);
    QCOMPARE(names(planFusion(o)), (std::vector<std::string>{"fused_exp", "fused_sigmoid_mul"}));
}

void TestFuseOps::injectiveChainFuses() {
    Graph g("inj");
    Value x = g.addInput("x", type("float32[2, 3, 4]"));
    Value shape = g.addConstant("shape", Constant::fromInts({2}, {6, 4}));
    Value e = g.addOp("Exp", {x});
    Value rs = g.addOp("Reshape", {e, shape});
    Value tr = g.addOp("Transpose", {rs});
    Value r = g.addOp("Relu", {tr});
    g.setOutputs({r});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    QCOMPARE(names(p), (std::vector<std::string>{"fused_exp_reshape_transpose_relu"}));
    QCOMPARE(p.groups[0].members, (std::vector<int64_t>{id(e), id(rs), id(tr), id(r)}));
    QCOMPARE(p.groups[0].master, id(rs));
    QCOMPARE(p.groups[0].pattern, OpPattern::Injective);

    // An injective op does not follow a Conv group.
    Graph h("inj2");
    Value hx = h.addInput("x", type("float32[1, 3, 5, 5]"));
    Value hw = h.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value hr = h.addOp("Relu", {h.addOp("Conv", {hx, hw})});
    Value ht = h.addOp("Transpose", {hr});
    h.setOutputs({ht});
    h = inferShapes(h);
    FusionPlan hp = planFusion(h);
    QCOMPARE(names(hp), (std::vector<std::string>{"fused_conv_relu", "fused_transpose"}));
    QVERIFY(hp.reason(id(ht)).find("out-element-wise-fusable group takes only") !=
            std::string::npos);
}

void TestFuseOps::reduceMeanWithElementWiseInputs() {
    Graph g("red");
    Value x = g.addInput("x", type("float32[2, 8]"));
    Value m = g.addOp("Mul", {x, x});
    Value e = g.addOp("Exp", {m});
    Attributes a;
    a.set("axes", std::vector<int64_t>{1});
    Value r = g.addOp("ReduceMean", {e}, a);
    Value s = g.addOp("Sqrt", {r});
    Value t = g.addOp("Transpose", {s});
    g.setOutputs({t});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    QCOMPARE(names(p), (std::vector<std::string>{"fused_mul_exp_reducemean_sqrt",
                                                 "fused_transpose"}));
    QCOMPARE(p.groups[0].members, (std::vector<int64_t>{id(m), id(e), id(r), id(s)}));
    QCOMPARE(p.groups[0].master, id(r));
    QCOMPARE(p.groups[0].pattern, OpPattern::CommReduce);
    QCOMPARE(q(p.reason(id(r))),
             q("ReduceMean is a reduction: master of group fused_mul_exp_reducemean_sqrt (the "
               "element-wise operators before it fuse into it as its inputs)"));
    QCOMPARE(q(p.reason(id(s))),
             q("Sqrt is element-wise and follows ReduceMean (reduction) in group "
               "fused_mul_exp_reducemean_sqrt"));
    QVERIFY(p.reason(id(t)).find("only element-wise operators fuse after a reduction") !=
            std::string::npos);
}

void TestFuseOps::namesAreDeduplicated() {
    Graph g("dup");
    Value x = g.addInput("x", type("float32[1, 4, 5, 5]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 4, 3, 3}));
    Value v = x;
    for (int i = 0; i < 3; ++i)
        v = g.addOp("Relu", {g.addOp("Conv", {v, w}, pads1())});
    g.setOutputs({v});
    g = inferShapes(g);
    QCOMPARE(names(planFusion(g)), (std::vector<std::string>{
                                       "fused_conv_relu", "fused_conv_relu_1", "fused_conv_relu_2"}));
}

void TestFuseOps::maxDepthAndOptions() {
    Graph g("deep");
    Value x = g.addInput("x", type("float32[4]"));
    Value v = x;
    for (int i = 0; i < 5; ++i)
        v = g.addOp("Relu", {v});
    g.setOutputs({v});
    g = inferShapes(g);
    QCOMPARE(planFusion(g).groups.size(), size_t(1));
    FuseOpsOptions o;
    o.maxDepth = 2;
    FusionPlan p = planFusion(g, o);
    QCOMPARE(names(p), (std::vector<std::string>{"fused_relu_relu", "fused_relu_relu_1",
                                                 "fused_relu"}));
    QVERIFY(p.reason(g.nodes()[4]->id).find("is full (max-depth 2)") != std::string::npos);
    o.maxDepth = 0;
    QVERIFY_THROWS_EXCEPTION(CompileError, planFusion(g, o));

    FuseOpsOptions off;
    off.fuseElementWise = false;
    QCOMPARE(planFusion(g, off).groups.size(), size_t(5));

    const GraphPassInfo* pass = findGraphPass("fuse-ops");
    QVERIFY(pass);
    QVERIFY_THROWS_EXCEPTION(CompileError, pass->run(g, {{"max-depth", "x"}}));
    Graph d = pass->run(g, {{"max-depth", "3"}});
    QVERIFY(text(d).find("fuse.function=\"fused_relu_relu_relu\"") != std::string::npos);
    QVERIFY(text(d).find("fuse.function=\"fused_relu_relu\"") != std::string::npos);
}

void TestFuseOps::reasons() {
    Graph g("why");
    Value x = g.addInput("x", type("float32[1, 3, 5, 5]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value c = g.addOp("Conv", {x, w});
    Value r = g.addOp("Relu", {c});
    Value s = g.addOp("Softmax", {r});
    g.setOutputs({s});
    g = inferShapes(g);
    FusionPlan p = planFusion(g);
    QCOMPARE(q(p.reason(id(x))),
             q("x is a graph input: never a member of a group; fused functions take it as a "
               "parameter"));
    QCOMPARE(q(p.reason(id(w))),
             q("w is a constant: never a member of a group; fused functions take it as a "
               "parameter"));
    QCOMPARE(q(p.reason(id(s))), q("Softmax is opaque: starts its own group"));
    QCOMPARE(q(p.reason(id(r))),
             q("Relu is element-wise and follows Conv (out-element-wise-fusable) in group "
               "fused_conv_relu"));
    // Every node has a reason.
    for (const auto& n : g.nodes())
        QVERIFY(!p.reason(n->id).empty());
    QVERIFY(p.str().find("fused_conv_relu (out-elementwise-fusable)") != std::string::npos);
}

void TestFuseOps::printedGraphShowsAttributes() {
    Graph g("cr");
    Value x = g.addInput("x", type("float32[1, 3, 5, 5]"));
    Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 3, 3, 3}));
    Value r = g.addOp("Relu", {g.addOp("Conv", {x, w})});
    g.setOutputs({g.addOp("Softmax", {r})});
    g = inferShapes(g);
    const GraphPassInfo* pass = findGraphPass("fuse-ops");
    QVERIFY(pass);
    Graph f = pass->run(g, {});
    f.verify();
    QCOMPARE(q(text(f)),
             q("graph cr(%x: float32[1, 3, 5, 5]) {\n"
               "  %w = constant : float32[4, 3, 3, 3]\n"
               "  %2 = Conv(%x, %w) {fuse.group=0, fuse.function=\"fused_conv_relu\"} : "
               "float32[1, 4, 3, 3]\n"
               "  %3 = Relu(%2) {fuse.group=0, fuse.function=\"fused_conv_relu\"} : "
               "float32[1, 4, 3, 3]\n"
               "  %4 = Softmax(%3) : float32[1, 4, 3, 3]\n"
               "  return %4\n"
               "}\n"));
    for (size_t i = 0; i < g.nodes().size(); ++i)
        QCOMPARE(f.nodes()[i]->id, g.nodes()[i]->id);
    // Running it again changes nothing; singletons are annotated on request.
    QCOMPARE(q(text(pass->run(f, {}))), q(text(f)));
    Graph all = pass->run(f, {{"annotate-singletons", "true"}});
    QVERIFY(text(all).find("Softmax(%3) {fuse.group=1, fuse.function=\"fused_softmax\"}") !=
            std::string::npos);
    // ... and turning that off again removes the stale attributes.
    QCOMPARE(q(text(pass->run(all, {}))), q(text(f)));
}

void TestFuseOps::farPostDominatorsPlanInLinearTime() {
    // An unrolled recurrent layer (expand-recurrent, found by
    // tests/fuzz/fuzz_onnx_import as an LSTM over 28 steps that timed out):
    // every step's state is read by the next step and by the Concat of all
    // states, so each step's immediate post-dominator is that Concat at the
    // end. The diamond step once walked every node between them for every
    // step: 8000 steps took minutes; the search now stops at max-depth nodes.
    const int steps = 8000;
    Graph g("unrolled");
    Value h = g.addInput("x", type("float32[1, 16]"));
    std::vector<Value> states;
    for (int t = 0; t < steps; ++t) {
        h = g.addOp("Mul", {g.addOp("Sigmoid", {h}), g.addOp("Tanh", {h})});
        states.push_back(h);
    }
    Attributes axis;
    axis.set("axis", int64_t(0));
    g.setOutputs({g.addOp("Concat", states, axis)});
    g = inferShapes(g);
    const auto t0 = std::chrono::steady_clock::now();
    FusionPlan p = planFusion(g);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    qInfo("planFusion of %d steps: %.2f s", steps, seconds);
    QVERIFY2(seconds < 20, qPrintable(QString::number(seconds)));
    // Each step fuses on its own (its state has readers past max-depth), and the Concat alone.
    // Each step is a group of its own, except the last 85, which the Concat's
    // diamond takes with it up to max-depth (85 * 3 + 1 = 256 operators):
    // the plan the full walk made (checked against it at 2000 steps).
    QCOMPARE(p.groups.size(), size_t(steps - 85 + 1));
    QCOMPARE(p.groups[1].members.size(), size_t(3));
    QCOMPARE(p.groups.back().members.size(), size_t(256));
}

QTEST_APPLESS_MAIN(TestFuseOps)
#include "tst_gpass_fuse_ops.moc"
