// tune::Features: the loop features of a hand-written loop nest have the
// values their definitions say; features of the GEMM and convolution
// templates are deterministic, as long as their names, and differ between
// configurations; knob and curve features too.
#include "driver/TuneTasks.h"
#include "tir/IRParser.h"
#include "tune/FeatureCache.h"
#include "tune/Features.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace tessel;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::unique_ptr<driver::ScriptTask> templateTask(const char* name, std::map<std::string, int64_t> workload = {}) {
    driver::ScriptTaskOptions o;
    o.fileName = name;
    o.workload = std::move(workload);
    return std::make_unique<driver::ScriptTask>(readText(std::string(TESSEL_SOURCE_DIR "/resources/templates/") + name), o);
}

/// Bitwise equality (NaN equals NaN in the same place).
bool same(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

float feature(const std::vector<float>& f, const std::vector<std::string>& names, const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw std::runtime_error("no feature " + name);
    return f[size_t(it - names.begin())];
}

float lg(double x) { return float(std::log2(1 + x)); }

} // namespace

class TestFeatures : public QObject {
    Q_OBJECT
private slots:
    void loopFeaturesOfAKnownNest() {
        // C[i, j] = A[i, j] * 2 over 16 x 8, j vectorized; then a small init
        // nest that is not the hot statement.
        const tir::PrimFunc f = tir::parsePrimFunc(R"(@T.prim_func
def f(A: T.Buffer((128,), "float32"), C: T.Buffer((128,), "float32"), D: T.Buffer((4,), "float32")):
    for k in range(4):
        D[k] = T.float32(0.0)
    for i in T.parallel(16):
        for j in T.vectorized(8):
            C[i * 8 + j] = A[i * 8 + j] * T.float32(2.0)
)");
        const auto names = tune::itervarFeatureNames();
        const auto x = tune::itervarFeatures(f);
        QCOMPARE(x.size(), names.size());
        QCOMPARE(feature(x, names, "loops"), 3.f);
        QCOMPARE(feature(x, names, "parallel_loops"), 1.f);
        QCOMPARE(feature(x, names, "vectorized_loops"), 1.f);
        QCOMPARE(feature(x, names, "stores"), 2.f);
        QCOMPARE(feature(x, names, "hot_executions"), lg(128));
        QCOMPARE(feature(x, names, "hot_parallel"), lg(16));
        QCOMPARE(feature(x, names, "hot_vector"), lg(8));
        QCOMPARE(feature(x, names, "hot_depth"), 2.f);
        QCOMPARE(feature(x, names, "hot_muls"), 1.f);
        QCOMPARE(feature(x, names, "hot_buffers"), 2.f);
        QCOMPARE(feature(x, names, "hot_share"), float(128.0 / 132.0));
        // Slot 0: the innermost loop j; slot 1: i.
        QCOMPARE(feature(x, names, "loop0.extent"), lg(8));
        QCOMPARE(feature(x, names, "loop0.vectorized"), 1.f);
        QCOMPARE(feature(x, names, "loop0.serial"), 0.f);
        QCOMPARE(feature(x, names, "loop0.depth"), 1.f);
        QCOMPARE(feature(x, names, "loop0.topdown"), lg(128));
        QCOMPARE(feature(x, names, "loop0.bottomup"), lg(8));
        QCOMPARE(feature(x, names, "loop1.parallel"), 1.f);
        QCOMPARE(feature(x, names, "loop1.depth"), 0.f);
        // Buffer 0 is C (stored), buffer 1 is A: j moves both by 1, i by 8.
        QCOMPARE(feature(x, names, "loop0.buf0.stride"), lg(1));
        QCOMPARE(feature(x, names, "loop1.buf1.stride"), lg(8));
        // One run of j touches 8 elements of A, all distinct: no reuse.
        QCOMPARE(feature(x, names, "loop0.buf1.touch"), lg(8));
        QCOMPARE(feature(x, names, "loop0.buf1.footprint"), lg(8));
        QCOMPARE(feature(x, names, "loop0.buf1.reuse"), lg(1));
        QCOMPARE(feature(x, names, "loop1.buf1.touch"), lg(128));
        // No third buffer, no third loop: missing.
        QVERIFY(std::isnan(feature(x, names, "loop0.buf2.stride")));
        QVERIFY(std::isnan(feature(x, names, "loop2.extent")));
    }

    void reuseOfAReduction() {
        // C[i] += A[k] * B[k, i]: A is re-read for every i, so the i loop reuses it.
        const tir::PrimFunc f = tir::parsePrimFunc(R"(@T.prim_func
def f(A: T.Buffer((64,), "float32"), B: T.Buffer((1024,), "float32"), C: T.Buffer((16,), "float32")):
    for k in range(64):
        for i in range(16):
            C[i] = C[i] + A[k] * B[k * 16 + i]
)");
        const auto names = tune::itervarFeatureNames();
        const auto x = tune::itervarFeatures(f);
        // Buffers: C (stored and loaded: 2 accesses), A, B.
        QCOMPARE(feature(x, names, "loop0.buf1.stride"), 0.f);              // i does not move A
        QCOMPARE(feature(x, names, "loop0.buf1.reuse"), lg(16));            // one element of A, 16 uses
        QCOMPARE(feature(x, names, "loop1.buf0.footprint"), lg(16));        // k does not move C
        QCOMPARE(feature(x, names, "loop1.buf0.touch"), lg(2 * 64 * 16));   // loaded and stored
        QCOMPARE(feature(x, names, "loop1.buf2.stride"), lg(16));
        QCOMPARE(feature(x, names, "loop1.buf2.reuse"), lg(1));
        const auto curve = tune::curveFeatures(f);
        QCOMPARE(curve.size(), tune::curveFeatureNames().size());
        QVERIFY(!std::isnan(curve[0]));
        QVERIFY(std::isnan(curve.back())); // a fifth buffer does not exist
    }

    void templateFeaturesAreDeterministicAndDistinct() {
        auto gemm = templateTask("gemm.te", {{"M", 256}, {"N", 256}, {"K", 256}});
        tune::Space space(gemm->knobs());
        std::vector<std::vector<float>> rows;
        for (int64_t i : {int64_t(0), int64_t(1), int64_t(5), int64_t(100), int64_t(777), space.defaultIndex(),
                          int64_t(2999)}) {
            const tune::Config c = space.config(i);
            const auto a = tune::itervarFeatures(gemm->featureFunction(c));
            const auto b = tune::itervarFeatures(gemm->featureFunction(c));
            QVERIFY2(same(a, b), "the same configuration gave other features");
            QCOMPARE(a.size(), tune::itervarFeatureNames().size());
            for (auto& r : rows) QVERIFY2(!same(r, a), ("configuration " + std::to_string(i) + " looks like another").c_str());
            rows.push_back(a);
            const auto k = tune::knobFeatures(space.knobs(), space.choices(i));
            QCOMPARE(k.size(), tune::knobFeatureNames(space.knobs()).size());
            QCOMPARE(k[0], float(space.choices(i)[0])); // tile_y.index
        }
        // The knob features decode the values: tile_x=12 is [4, 4, 16] for N = 256.
        const auto names = tune::knobFeatureNames(space.knobs());
        tune::Config c = space.config(space.defaultIndex());
        c["tile_x"] = 12;
        c["unroll_k"] = 0;
        QCOMPARE(space.describe(space.index(c)).at("tile_x"), std::string("[4, 4, 16]"));
        const auto k = tune::knobFeatures(space.knobs(), space.choices(space.index(c)));
        QCOMPARE(feature(k, names, "tile_x.index"), 12.f);
        QCOMPARE(feature(k, names, "tile_x.0"), 4.f);
        QCOMPARE(feature(k, names, "tile_x.1"), 4.f);
        QCOMPARE(feature(k, names, "tile_x.2"), 16.f);
        QCOMPARE(feature(k, names, "unroll_k.value"), 1.f); // True
    }

    void theCacheComputesOnceAndMarksUnlowerable() {
        auto conv = templateTask("conv2d_nchwc.te", {{"C", 32}, {"OC", 32}, {"H", 14}, {"W", 14}});
        tune::Space space(conv->knobs());
        tune::FeatureCache cache(*conv, space, tune::FeatureKind::Itervar, 2);
        std::vector<int64_t> points;
        for (int64_t i = 0; i < space.size(); i += space.size() / 24 + 1) points.push_back(i);
        const auto t0 = std::chrono::steady_clock::now();
        const tune::FeatureMatrix m = cache.rows(points);
        const double perRow = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / points.size();
        qInfo("itervar features of conv2d_nchwc: %.2f ms a configuration (2 threads)", perRow * 1e3);
        QCOMPARE(m.rows(), points.size());
        QCOMPARE(m.cols, cache.cols());
        QCOMPARE(cache.computed(), points.size());
        const tune::FeatureMatrix again = cache.rows(points);
        QVERIFY(same(m.values, again.values));
        QCOMPARE(cache.computed(), points.size());
        for (size_t r = 0; r < m.rows(); ++r)
            QVERIFY(same(std::vector<float>(m.row(r), m.row(r) + m.cols),
                         tune::itervarFeatures(conv->featureFunction(space.config(points[r])))));

        // A task whose lowering fails for a configuration: a row of NaN, invalid.
        struct Failing : driver::ScriptTask {
            using ScriptTask::ScriptTask;
            tir::PrimFunc featureFunction(const tune::Config& c) const override {
                if (c.at("unroll_kw") == 1) throw CompileError("planted");
                return ScriptTask::featureFunction(c);
            }
        };
        driver::ScriptTaskOptions o;
        o.fileName = "conv2d_nchwc.te";
        Failing failing(readText(TESSEL_SOURCE_DIR "/resources/templates/conv2d_nchwc.te"), o);
        tune::Space fs(failing.knobs());
        tune::FeatureCache fc(failing, fs, tune::FeatureKind::Curve, 1);
        tune::Config bad = fs.config(fs.defaultIndex());
        bad["unroll_kw"] = 1;
        const auto row = fc.row(fs.index(bad));
        QVERIFY(std::all_of(row.begin(), row.end(), [](float v) { return std::isnan(v); }));
        QVERIFY(fc.invalid(fs.index(bad)));
        QVERIFY(!fc.invalid(fs.defaultIndex()));
        fc.row(fs.defaultIndex());
        QVERIFY(!fc.invalid(fs.defaultIndex()));
    }

    void kindNames() {
        for (auto k : {tune::FeatureKind::Itervar, tune::FeatureKind::Knob, tune::FeatureKind::Curve})
            QCOMPARE(tune::featureKindFromName(tune::featureKindName(k)), std::optional(k));
        QVERIFY(!tune::featureKindFromName("loops"));
    }
};

QTEST_APPLESS_MAIN(TestFeatures)
#include "tst_features.moc"
