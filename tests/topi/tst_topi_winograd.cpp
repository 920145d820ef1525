// The Winograd convolution F(4x4, 3x3) (topi/Conv2dWinograd.h): its matrices
// compute a 1-d correlation exactly (up to rounding), it matches a plain-loop
// convolution on a small layer (odd plane, input not in blocks), and on every
// distinct stride-1 3x3 layer of ResNet-18 (64@56, 128@28, 256@14, 512@7, He-
// initialised weights) a model compiled with the "strategy" knob set to
// conv2d_winograd computes what the direct blocked convolution computes, within
// the bound this test holds it to: 1e-4 x the largest |output|.
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "graph/Graph.h"
#include "topi/Conv2dWinograd.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace tessel;

namespace {

std::vector<double> gaussian(size_t n, double stddev, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> d(0, stddev);
    std::vector<double> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

/// Conv 3x3 pad 1 (c -> k channels on h x w) -> relu.
graph::Graph layer(int64_t c, int64_t k, int64_t h, int64_t w, unsigned seed) {
    graph::Graph g("layer");
    auto x = g.addInput("x", graph::TensorType(DataType::float32(), {1, c, h, w}));
    auto wt = g.addConstant("w", graph::Constant::fromFloats({k, c, 3, 3}, gaussian(size_t(k * c * 9), std::sqrt(2.0 / double(c * 9)), seed)));
    auto b = g.addConstant("b", graph::Constant::fromFloats({k}, gaussian(size_t(k), 0.1, seed + 1)));
    graph::Attributes a;
    a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {x, wt, b}, a, "conv")}, {}, "relu")});
    return g;
}

const driver::FusedFunction& convFunction(const driver::CompiledModel& m) {
    for (auto& f : m.functions)
        if (f.strategy == "conv2d_winograd" || f.strategy == "conv2d_nchwc") return f;
    throw std::runtime_error("no convolution");
}

/// The model's output on input `x`.
runtime::NDArray run(const driver::CompiledModel& m, const runtime::NDArray& x) {
    auto rep = driver::runModel(m, {x}, {});
    if (!rep.ok) throw std::runtime_error(rep.error);
    return rep.values[0];
}

/// The direct and the Winograd compile of `g` (the strategy knob set).
std::pair<driver::CompiledModel, driver::CompiledModel> bothWays(const graph::Graph& g) {
    auto direct = driver::compileGraph(g);
    const auto& f = convFunction(direct);
    const te::Knob* knob = nullptr;
    for (auto& k : f.knobs)
        if (k.name == "strategy") knob = &k;
    if (!knob) throw std::runtime_error("the convolution has no strategy knob");
    int64_t index = -1;
    for (int64_t i = 0; i < knob->size(); ++i)
        if (knob->choices[size_t(i)].asString() == "conv2d_winograd") index = i;
    if (index < 0) throw std::runtime_error("conv2d_winograd is not a choice");
    driver::CompileOptions o;
    o.configs[f.workload] = {{"strategy", index}};
    auto wino = driver::compileGraph(g, o);
    return {std::move(direct), std::move(wino)};
}

double maxAbs(const runtime::NDArray& a) {
    double m = 0;
    for (int64_t i = 0; i < a.numElements(); ++i) m = std::max(m, std::fabs(a.at(i)));
    return m;
}

double maxDiff(const runtime::NDArray& a, const runtime::NDArray& b) {
    double m = 0;
    for (int64_t i = 0; i < a.numElements(); ++i) m = std::max(m, std::fabs(a.at(i) - b.at(i)));
    return m;
}

} // namespace

class TestWinograd : public QObject {
    Q_OBJECT
private slots:
    // y = A^T [(G g) . (B^T d)] is the correlation of d (6) with g (3).
    void matricesComputeACorrelation() {
        const auto &bt = topi::nn::winogradBT(), &g = topi::nn::winogradG(), &at = topi::nn::winogradAT();
        auto d = gaussian(6, 1, 3), k = gaussian(3, 1, 4);
        std::vector<double> u(6), v(6);
        for (int e = 0; e < 6; ++e) {
            for (int i = 0; i < 3; ++i) u[size_t(e)] += g[size_t(e)][size_t(i)] * k[size_t(i)];
            for (int i = 0; i < 6; ++i) v[size_t(e)] += bt[size_t(e)][size_t(i)] * d[size_t(i)];
        }
        for (int o = 0; o < 4; ++o) {
            double y = 0, want = 0;
            for (int e = 0; e < 6; ++e) y += at[size_t(o)][size_t(e)] * u[size_t(e)] * v[size_t(e)];
            for (int r = 0; r < 3; ++r) want += d[size_t(o + r)] * k[size_t(r)];
            QVERIFY2(std::fabs(y - want) < 1e-12, qPrintable(QString("%1 vs %2").arg(y).arg(want)));
        }
    }

    // A small layer against plain loops: 8 -> 16 channels on 9 x 7 (tiles
    // that overhang the plane on both axes), the input plain NCHW.
    void smallLayerAgainstLoops() {
        const int64_t c = 8, k = 16, h = 9, w = 7;
        graph::Graph g = layer(c, k, h, w, 5);
        auto [direct, wino] = bothWays(g);
        QCOMPARE(convFunction(wino).strategy, std::string("conv2d_winograd"));
        runtime::NDArray x({1, c, h, w}, DataType::float32());
        x.fillRandom(11);
        const auto y = run(wino, x);
        const auto wv = g.constants()[0]->constant->toDoubles();
        const auto bv = g.constants()[1]->constant->toDoubles();
        double worst = 0, scale = 0;
        for (int64_t o = 0; o < k; ++o)
            for (int64_t i = 0; i < h; ++i)
                for (int64_t j = 0; j < w; ++j) {
                    double s = bv[size_t(o)];
                    for (int64_t ci = 0; ci < c; ++ci)
                        for (int64_t a = 0; a < 3; ++a)
                            for (int64_t b = 0; b < 3; ++b) {
                                const int64_t ii = i + a - 1, jj = j + b - 1;
                                if (ii < 0 || ii >= h || jj < 0 || jj >= w) continue;
                                s += wv[size_t(((o * c + ci) * 3 + a) * 3 + b)] * x.at((ci * h + ii) * w + jj);
                            }
                    s = std::max(s, 0.0);
                    scale = std::max(scale, std::fabs(s));
                    worst = std::max(worst, std::fabs(s - y.at((o * h + i) * w + j)));
                }
        QVERIFY2(worst <= 1e-4 * scale, qPrintable(QString("error %1 of %2").arg(worst).arg(scale)));
        QVERIFY(maxDiff(run(direct, x), y) <= 1e-4 * scale);
    }

    void resnet18Layers_data() {
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("plane");
        QTest::newRow("64@56") << 64 << 56;
        QTest::newRow("128@28") << 128 << 28;
        QTest::newRow("256@14") << 256 << 14;
        QTest::newRow("512@7") << 512 << 7;
    }

    // Every distinct stride-1 3x3 layer of ResNet-18: Winograd against the
    // direct blocked convolution, both on the layer's input stored NCHW16c
    // as in the model (a conv before it writes the blocks).
    void resnet18Layers() {
        QFETCH(int, channels);
        QFETCH(int, plane);
        graph::Graph g("layer");
        auto x = g.addInput("x", graph::TensorType(DataType::float32(), {1, channels, plane, plane}));
        graph::Attributes a;
        a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        const int64_t c = channels;
        // A 1x1 convolution first, so that the 3x3 one reads NCHW16c blocks.
        auto w1 = g.addConstant("w1", graph::Constant::fromFloats({c, c, 1, 1}, gaussian(size_t(c * c), std::sqrt(2.0 / double(c)), 7)));
        auto y1 = g.addOp("Relu", {g.addOp("Conv", {x, w1}, {}, "pre")}, {}, "pre_relu");
        auto w = g.addConstant("w", graph::Constant::fromFloats({c, c, 3, 3}, gaussian(size_t(c * c * 9), std::sqrt(2.0 / double(c * 9)), 8)));
        auto b = g.addConstant("b", graph::Constant::fromFloats({c}, gaussian(size_t(c), 0.1, 9)));
        g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {y1, w, b}, a, "conv")}, {}, "relu")});

        auto direct = driver::compileGraph(g);
        const driver::FusedFunction* f = nullptr;
        for (auto& fn : direct.functions)
            if (fn.name.find("conv_relu") != std::string::npos && fn.members.size() == 2 &&
                direct.graph.findNode(fn.members[0])->name == "conv")
                f = &fn;
        QVERIFY(f);
        int64_t index = -1;
        for (auto& k : f->knobs)
            if (k.name == "strategy")
                for (int64_t i = 0; i < k.size(); ++i)
                    if (k.choices[size_t(i)].asString() == "conv2d_winograd") index = i;
        QVERIFY(index > 0);
        driver::CompileOptions o;
        o.configs[f->workload] = {{"strategy", index}};
        auto wino = driver::compileGraph(g, o);
        QCOMPARE(wino.findFunction(f->name)->strategy, std::string("conv2d_winograd"));
        runtime::NDArray in({1, c, plane, plane}, DataType::float32());
        in.fillRandom(12);
        const auto want = run(direct, in), got = run(wino, in);
        const double scale = maxAbs(want), err = maxDiff(want, got);
        QVERIFY2(err <= 1e-4 * scale, qPrintable(QString("error %1 of max %2 (%3 of it)").arg(err).arg(scale).arg(err / scale)));
        qInfo("%dx%d, %d channels: max error %.3g of max |y| %.3g (%.2g)", plane, plane, channels, err, scale, err / scale);
    }
};

QTEST_GUILESS_MAIN(TestWinograd)
#include "tst_topi_winograd.moc"
