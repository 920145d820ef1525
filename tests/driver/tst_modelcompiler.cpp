// driver::compileGraph on graphs built in the test: results against plain C++
// loops, the storage plan (reuse without aliasing), the trace, edited
// schedules of fused functions, and export + loading with the runtime alone (of
// models and of one TE kernel).
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "graph/Graph.h"
#include "graph/passes/GraphPipeline.h"
#include "ir/Diagnostic.h"
#include "runtime/ExportedModel.h"
#include "tir/IRPrinter.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>
#include <set>

using namespace tessel;

namespace {

graph::TensorType type(const char* text) { return *graph::TensorType::parse(text); }

std::vector<double> randomValues(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> v(n);
    for (auto& x : v) x = u(rng);
    return v;
}

/// x[1,C,H,W] -> conv 3x3 pad 1 (C->K) + bias -> relu -> conv 1x1 (K->K) -> add x2 -> relu
struct Block {
    int64_t c = 16, k = 32, h = 9, w = 11;
    std::vector<double> w1, b1, w2;
    graph::Graph g{"block"};

    Block() {
        w1 = randomValues(size_t(k * c * 9), 1);
        b1 = randomValues(size_t(k), 2);
        w2 = randomValues(size_t(k * k), 3);
        auto x = g.addInput("x", type("float32[1, 16, 9, 11]"));
        auto cw1 = g.addConstant("w1", graph::Constant::fromFloats({k, c, 3, 3}, w1));
        auto cb1 = g.addConstant("b1", graph::Constant::fromFloats({k}, b1));
        auto cw2 = g.addConstant("w2", graph::Constant::fromFloats({k, k, 1, 1}, w2));
        graph::Attributes pads;
        pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        auto y1 = g.addOp("Relu", {g.addOp("Conv", {x, cw1, cb1}, pads, "conv1")}, {}, "relu1");
        auto y2 = g.addOp("Conv", {y1, cw2}, {}, "conv2");
        auto out = g.addOp("Relu", {g.addOp("Add", {y2, y1}, {}, "add")}, {}, "relu2");
        g.setOutputs({out});
    }

    std::vector<float> reference(const std::vector<float>& x) const {
        std::vector<double> y1(size_t(k * h * w)), out(y1.size());
        for (int64_t o = 0; o < k; ++o)
            for (int64_t i = 0; i < h; ++i)
                for (int64_t j = 0; j < w; ++j) {
                    double s = b1[size_t(o)];
                    for (int64_t ci = 0; ci < c; ++ci)
                        for (int64_t a = 0; a < 3; ++a)
                            for (int64_t b = 0; b < 3; ++b) {
                                int64_t ii = i + a - 1, jj = j + b - 1;
                                if (ii < 0 || ii >= h || jj < 0 || jj >= w) continue;
                                s += w1[size_t(((o * c + ci) * 3 + a) * 3 + b)] * x[size_t((ci * h + ii) * w + jj)];
                            }
                    y1[size_t((o * h + i) * w + j)] = std::max(s, 0.0);
                }
        for (int64_t o = 0; o < k; ++o)
            for (int64_t p = 0; p < h * w; ++p) {
                double s = 0;
                for (int64_t ci = 0; ci < k; ++ci) s += w2[size_t(o * k + ci)] * y1[size_t(ci * h * w + p)];
                out[size_t(o * h * w + p)] = std::max(s + y1[size_t(o * h * w + p)], 0.0);
            }
        return std::vector<float>(out.begin(), out.end());
    }
};

runtime::NDArray input(const Block& b, std::vector<float>& values) {
    runtime::NDArray x({1, b.c, b.h, b.w}, DataType::float32());
    auto r = randomValues(size_t(x.numElements()), 4);
    values.assign(r.begin(), r.end());
    std::memcpy(x.rawData(), values.data(), values.size() * sizeof(float));
    return x;
}

void checkAgainst(const runtime::NDArray& got, const std::vector<float>& want) {
    QCOMPARE(got.numElements(), int64_t(want.size()));
    double worst = 0;
    for (size_t i = 0; i < want.size(); ++i)
        worst = std::max(worst, std::fabs(double(got.data<float>()[i]) - want[i]) / (1 + std::fabs(want[i])));
    QVERIFY2(worst < 1e-4, qPrintable(QString("max scaled error %1").arg(worst)));
}

} // namespace

class TestModelCompiler : public QObject {
    Q_OBJECT
private slots:
    void matchesPlainLoops() {
        Block b;
        auto m = driver::compileGraph(b.g);
        std::vector<float> x;
        auto rep = driver::runModel(m, {input(b, x)}, {});
        QVERIFY2(rep.ok, rep.error.c_str());
        checkAgainst(rep.values[0], b.reference(x));
        // conv1+relu1 and conv2+add+relu2: two kernels, both blocked
        // convolutions writing NCHW16c, and the transform back to NCHW for the
        // graph output (alter-layout).
        QCOMPARE(m.functions.size(), size_t(3));
        QVERIFY(m.functions.back().name.find("layouttransform") != std::string::npos);
        // Without alter-layout: two kernels, the same values.
        driver::CompileOptions plain;
        for (auto& p : graph::defaultGraphPipeline())
            if (p != "alter-layout") plain.graphPipeline.push_back(p);
        auto m2 = driver::compileGraph(b.g, plain);
        QCOMPARE(m2.functions.size(), size_t(2));
        auto rep2 = driver::runModel(m2, {input(b, x)}, {});
        QVERIFY2(rep2.ok, rep2.error.c_str());
        checkAgainst(rep2.values[0], b.reference(x));
    }

    // Blocked layouts through a whole network (every operator class
    // alter-layout keeps blocked: 3x3, 1x1, strided, grouped and depthwise
    // convolutions, a 24-channel tensor in blocks of 8, Clip, a per-channel
    // Mul, residual Adds, MaxPool, AveragePool, Concat, global pooling, Flatten
    // and Gemm after the transform back) computes what the plain pipeline
    // computes.
    void alterLayoutKeepsTheResults() {
        graph::Graph g("net");
        unsigned seed = 10;
        auto constant = [&](std::vector<int64_t> shape) {
            int64_t n = 1;
            for (auto d : shape) n *= d;
            return g.addConstant("c" + std::to_string(seed), graph::Constant::fromFloats(shape, randomValues(size_t(n), seed++)));
        };
        auto conv = [&](graph::Value x, int64_t cin, int64_t cout, int64_t k, int64_t stride, int64_t group) {
            graph::Attributes a;
            a.set("pads", std::vector<int64_t>(4, k / 2));
            a.set("strides", std::vector<int64_t>{stride, stride});
            if (group > 1) a.set("group", group);
            return g.addOp("Conv", {x, constant({cout, cin / group, k, k}), constant({cout})}, a);
        };
        auto relu6 = [&](graph::Value x) {
            return g.addOp("Clip", {x, g.addConstant("lo" + std::to_string(seed++), graph::Constant::fromFloats({}, {0.0})),
                                    g.addConstant("hi" + std::to_string(seed++), graph::Constant::fromFloats({}, {6.0}))});
        };
        auto x = g.addInput("x", type("float32[1, 3, 20, 20]"));
        auto a = g.addOp("Relu", {conv(x, 3, 24, 3, 2, 1)});                       // 24 ch: blocks of 8
        auto e = relu6(conv(a, 24, 96, 1, 1, 1));                                  // expand
        auto d = relu6(conv(e, 96, 96, 3, 1, 96));                                 // depthwise
        auto p = g.addOp("Mul", {conv(d, 96, 24, 1, 1, 1), constant({24, 1, 1})}); // project, scaled
        auto r = g.addOp("Add", {p, a});                                           // residual
        graph::Attributes mp;
        mp.set("kernel_shape", std::vector<int64_t>{3, 3});
        mp.set("strides", std::vector<int64_t>{2, 2});
        mp.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        auto m = g.addOp("MaxPool", {r}, mp);
        auto gr = g.addOp("Relu", {conv(m, 24, 32, 3, 1, 4)});                     // grouped
        graph::Attributes ap = mp;
        ap.set("strides", std::vector<int64_t>{1, 1});
        auto av = g.addOp("AveragePool", {gr}, ap);
        graph::Attributes cat;
        cat.set("axis", int64_t(1));
        auto j = g.addOp("Concat", {av, conv(m, 24, 16, 1, 1, 1)}, cat);         // 48 ch
        auto f = g.addOp("Flatten", {g.addOp("GlobalAveragePool", {j})});
        g.setOutputs({g.addOp("Gemm", {f, constant({48, 10})}), j});

        driver::CompileOptions plain;
        for (auto& s : graph::defaultGraphPipeline())
            if (s != "alter-layout") plain.graphPipeline.push_back(s);
        auto blocked = driver::compileGraph(g);
        auto reference = driver::compileGraph(g, plain);
        int transforms = 0;
        for (auto& n : blocked.graph.nodes()) transforms += n->op == "LayoutTransform";
        // In from nothing (the first conv packs its 3 channels itself); out
        // before Flatten and for the second graph output.
        QCOMPARE(transforms, 2);
        runtime::NDArray in({1, 3, 20, 20}, DataType::float32());
        in.fillRandom(7);
        auto got = driver::runModel(blocked, {in}, {});
        auto want = driver::runModel(reference, {in}, {});
        QVERIFY2(got.ok && want.ok, (got.error + want.error).c_str());
        for (size_t o = 0; o < 2; ++o) {
            std::vector<float> w(want.values[o].data<float>(), want.values[o].data<float>() + want.values[o].numElements());
            checkAgainst(got.values[o], w);
        }
    }

    void storagePlanReusesWithoutAliasing() {
        Block b;
        auto m = driver::compileGraph(b.g);
        const auto& p = m.plan;
        for (auto& step : p.steps) {
            std::set<int> storages;
            for (int a : step.args) {
                const auto& t = p.tensors[size_t(a)];
                if (t.kind == runtime::PlanTensor::Kind::Constant) continue;
                QVERIFY2(storages.insert(t.storage).second, "two arguments of one kernel share a storage");
            }
        }
        // Weights: the packed kernels (and the bias), 64-byte aligned.
        for (auto& t : p.tensors)
            if (t.kind == runtime::PlanTensor::Kind::Constant) QCOMPARE(t.offset % 64, int64_t(0));
        QVERIFY(p.weightsBytes >= int64_t((b.w1.size() + b.b1.size() + b.w2.size()) * sizeof(float)));
    }

    void traceKeepsEveryStage() {
        Block b;
        driver::CompileOptions o;
        o.trace = true;
        auto m = driver::compileGraph(b.g, o);
        QVERIFY(m.graphStages.size() > 3);
        QCOMPARE(m.graphStages.front().pass, std::string("import"));
        // Every stage keeps its graph, for views that draw it.
        for (auto& st : m.graphStages) QVERIFY2(st.irAs<graph::Graph>(), st.pass.c_str());
        QCOMPARE(m.graphStages.front().irAs<graph::Graph>()->nodes().size(), b.g.nodes().size());
        QCOMPARE(m.graphStages.back().irAs<graph::Graph>()->nodes().size(), m.graph.nodes().size());
        for (auto& f : m.functions) QVERIFY(!f.lowered.snapshots.empty());
        QVERIFY(m.build.llvmIR.find("define") != std::string::npos);
        QVERIFY(m.build.llvmIROptimized.find("fma") != std::string::npos);
        QVERIFY(m.build.assembly.find(".loc") != std::string::npos);
        QVERIFY(!m.build.assemblyLines.empty());
    }

    void editedScheduleReplacesTheDefault() {
        Block b;
        driver::CompileOptions o;
        o.trace = true;
        auto m = driver::compileGraph(b.g, o);
        const driver::FusedFunction* f = m.findFunction("fused_conv_relu");
        QVERIFY(f);
        // The printed script with the output's channel vectors stored one
        // lane at a time (its vectorize line unrolled instead).
        std::string script = f->script;
        const std::string from = "s[relu1].vectorize(relu1_m)";
        size_t at = script.find(from);
        QVERIFY2(at != std::string::npos, script.c_str());
        script.replace(at, from.size(), "s[relu1].unroll(relu1_m)");

        o.schedules[f->name] = script;
        auto edited = driver::compileGraph(b.g, o);
        const driver::FusedFunction* g = edited.findFunction(f->name);
        QVERIFY(g);
        QCOMPARE(g->script, script);
        QCOMPARE(g->args, f->args);
        QVERIFY(!g->lowered.snapshots.empty());
        QVERIFY(tir::toString(g->lowered.lowered) != tir::toString(f->lowered.lowered));
        std::vector<float> x;
        auto rep = driver::runModel(edited, {input(b, x)}, {});
        QVERIFY2(rep.ok, rep.error.c_str());
        checkAgainst(rep.values[0], b.reference(x));

        // Without trace too; the other function keeps its default schedule.
        driver::CompileOptions plain;
        plain.schedules[f->name] = script;
        auto quiet = driver::compileGraph(b.g, plain);
        QCOMPARE(quiet.findFunction(f->name)->script, script);
        QVERIFY(quiet.findFunction("fused_conv_add_relu")->script.empty());
        rep = driver::runModel(quiet, {input(b, x)}, {});
        QVERIFY2(rep.ok, rep.error.c_str());
        checkAgainst(rep.values[0], b.reference(x));
    }

    void mismatchingScheduleIsAnError() {
        Block b;
        driver::CompileOptions o;
        o.trace = true;
        auto m = driver::compileGraph(b.g, o);
        const std::string script = m.findFunction("fused_conv_relu")->script;
        auto expectError = [&](const std::string& fn, const std::string& text, const QString& want, int line = -1) {
            driver::CompileOptions e;
            e.schedules[fn] = text;
            try {
                driver::compileGraph(b.g, e);
                QFAIL(qPrintable("compiled with a bad schedule; expected: " + want));
            } catch (const CompileError& err) {
                QVERIFY2(QString(err.what()).startsWith(QString::fromStdString("schedule for " + fn + ": ")), err.what());
                QVERIFY2(QString(err.what()).contains(want), err.what());
                if (line >= 0) QCOMPARE(err.diagnostic().loc.line, line);
            }
        };
        auto edit = [&](const std::string& from, const std::string& to) {
            std::string s = script;
            size_t at = s.find(from);
            if (at == std::string::npos) throw std::runtime_error("no '" + from + "' in the script");
            return s.replace(at, from.size(), to);
        };
        try {
            // A bias of another shape.
            expectError("fused_conv_relu", edit("b1 = te.placeholder((32,)", "b1 = te.placeholder((33,)"),
                        "argument 2 ('b1') is float32[33] where the fused function's 'b1' is float32[32]");
            // Another dtype.
            expectError("fused_conv_relu",
                        edit("b1 = te.placeholder((32,), dtype=\"float32\"", "b1 = te.placeholder((32,), dtype=\"float64\""),
                        "argument 2 ('b1') is float64[32] where the fused function's 'b1' is float32[32]");
            // One argument fewer.
            expectError("fused_conv_relu", edit("[x, b1, conv1_wpack, relu1]", "[x, conv1_wpack, relu1]"),
                        "takes 3 arguments (x, conv1_wpack, relu1), the fused function 4 (x, b1, conv1_wpack, relu1)");
            // An input in an output's place.
            expectError("fused_conv_relu", edit("[x, b1, conv1_wpack, relu1]", "[relu1, b1, conv1_wpack, x]"),
                        "argument 1 ('relu1') is float32[1, ");
            // An output in an input's place (same type): the kernel would write the input.
            std::string second = m.findFunction("fused_conv_add_relu")->script;
            second.replace(second.find("[p0, conv2_wpack, relu2]"), 24, "[relu2, conv2_wpack, p0]");
            expectError("fused_conv_add_relu", second,
                        "argument 1 ('relu2') is computed where the fused function has its input 'p0'");
            // A script error keeps its place.
            expectError("fused_conv_relu", "A = te.placeholder((4,), name=\"A\")\nB = A +* 2\n", "", 2);
            // A function the model does not have.
            expectError("fused_conv_rleu", script, "the model has no fused function 'fused_conv_rleu' (its functions: "
                                                   "fused_conv_relu, fused_conv_add_relu, fused_layouttransform)");
        } catch (const std::runtime_error& e) {
            QFAIL(e.what());
        }
    }

    void exportAndLoadWithTheRuntimeAlone() {
        Block b;
        auto m = driver::compileGraph(b.g);
        QTemporaryDir dir;
        driver::exportModel(m, dir.path().toStdString());
        auto loaded = runtime::loadExportedModel(dir.path().toStdString());
        auto exec = loaded.makeExecutor();
        std::vector<float> x;
        exec->setInput(0, input(b, x));
        exec->run();
        checkAgainst(exec->output(0), b.reference(x));
        // A truncated weights file is refused with its name.
        QFile weights(dir.filePath("weights.bin"));
        QVERIFY(weights.resize(weights.size() - 4));
        try {
            runtime::loadExportedModel(dir.path().toStdString());
            QFAIL("loaded truncated weights");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("weights.bin"), e.what());
        }
    }

    // A TE script's kernel exported as a model of one step (tesselc compile FILE.te).
    void exportKernelOfAScript() {
        const char* script = R"(M = 6
N = 20
K = 5
k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
yo, yi = s[C].split(C.op.axis[1], factor=8)
s[C].vectorize(yi)
s[C].parallel(C.op.axis[0])
func = tvm.build(s, [A, B, C], name="gemm")
)";
        auto fs = driver::lowerScript(script, {});
        QCOMPARE(fs.size(), size_t(1));
        QTemporaryDir dir;
        driver::exportKernel(fs[0], dir.path().toStdString());
        auto loaded = runtime::loadExportedModel(dir.path().toStdString());
        QCOMPARE(loaded.plan.inputs.size(), size_t(2));
        QCOMPARE(loaded.plan.outputs.size(), size_t(1));
        QCOMPARE(loaded.plan.weightsBytes, int64_t(0));
        QCOMPARE(loaded.plan.steps.size(), size_t(1));
        QCOMPARE(loaded.plan.steps[0].function, std::string("gemm"));
        auto exec = loaded.makeExecutor();
        QCOMPARE(exec->outputInfo(0).name, std::string("C"));
        std::vector<double> a = randomValues(6 * 5, 7), bv = randomValues(5 * 20, 8);
        float* pa = exec->input(0).data<float>();
        float* pb = exec->input(1).data<float>();
        for (size_t i = 0; i < a.size(); ++i) pa[i] = float(a[i]);
        for (size_t i = 0; i < bv.size(); ++i) pb[i] = float(bv[i]);
        exec->run();
        const float* c = exec->output(0).data<float>();
        for (int x = 0; x < 6; ++x)
            for (int y = 0; y < 20; ++y) {
                double want = 0;
                for (int k = 0; k < 5; ++k) want += double(float(a[size_t(x * 5 + k)])) * double(float(bv[size_t(k * 20 + y)]));
                QVERIFY2(std::abs(c[x * 20 + y] - want) < 1e-5, qPrintable(QString("C[%1, %2]").arg(x).arg(y)));
            }
    }

    void unboundDynamicInputIsAClearError() {
        graph::Graph g("dyn");
        auto x = g.addInput("x", type("float32[?, 8]"));
        g.setOutputs({g.addOp("Relu", {x})});
        try {
            driver::compileGraph(g);
            QFAIL("compiled a dynamic shape");
        } catch (const CompileError& e) {
            QVERIFY2(QString(e.what()).contains("--input-shape x:"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestModelCompiler)
#include "tst_modelcompiler.moc"
