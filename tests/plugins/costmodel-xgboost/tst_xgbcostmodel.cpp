// The XGBoost cost model, loaded as the plugin it ships as (<build>/plugins/
// costmodel-xgboost): it learns a ranking of held-out rows from a synthetic
// feature -> score relation with either objective, is seeded, checks its
// options and shapes, turns XGBoost's errors into exceptions, predicts from
// several threads, and the built-in context finds it.
#include "driver/Context.h"
#include "plugin/PluginLoader.h"
#include "tune/CostModel.h"

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <thread>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const fs::path kPluginDir = TESSEL_BINARY_DIR "/plugins/costmodel-xgboost";
constexpr size_t kCols = 12;

/// Ranks with ties averaged (for Spearman's correlation).
std::vector<double> ranks(const std::vector<float>& v) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        for (size_t k = i; k <= j; ++k)
            r[order[k]] = (i + j) / 2.0;
        i = j + 1;
    }
    return r;
}

double spearman(const std::vector<float>& a, const std::vector<float>& b) {
    const auto ra = ranks(a), rb = ranks(b);
    const double n = static_cast<double>(a.size());
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n,
                 mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

/// Rows of kCols features, uniform in [0, 1): the score depends on the first
/// five (non-linearly, with an interaction); the other seven are noise, a
/// tenth of their values missing (NaN), as a loop feature absent from a
/// configuration is. Scores are normalised to [0, 1] as the tuner does.
struct Data {
    tune::FeatureMatrix x{kCols, {}};
    std::vector<float> y;
};

Data synthetic(size_t rows, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    Data d;
    for (size_t i = 0; i < rows; ++i) {
        float f[kCols];
        for (size_t c = 0; c < kCols; ++c)
            f[c] = u(rng);
        for (size_t c = 5; c < kCols; ++c)
            if (u(rng) < 0.1f) f[c] = std::nanf("");
        d.x.values.insert(d.x.values.end(), f, f + kCols);
        d.y.push_back(3.0f * f[0] + 2.0f * f[1] * f[2] - 2.0f * (f[3] - 0.5f) * (f[3] - 0.5f) +
                      0.5f * std::sin(6.0f * f[4]));
    }
    const auto [lo, hi] = std::minmax_element(d.y.begin(), d.y.end());
    const float min = *lo, span = *hi - *lo;
    for (float& v : d.y)
        v = (v - min) / span;
    return d;
}

} // namespace

class TestXgbCostModel : public QObject {
    Q_OBJECT

    tune::CostModelRegistry registry_;
    plugin::PluginSet plugins_;

    std::unique_ptr<tune::CostModel> make(std::map<std::string, std::string> options = {},
                                          uint64_t seed = 7, int threads = 1) {
        tune::CostModelOptions o;
        o.seed = seed;
        o.threads = threads;
        o.options = std::move(options);
        return registry_.make("xgb", o);
    }

private slots:
    void initTestCase() {
        const plugin::PluginStatus& s = plugin::loadPlugin(kPluginDir, {&registry_}, plugins_);
        QVERIFY2(s.loaded(), s.reason.c_str());
        QCOMPARE(s.metadata.id, std::string("costmodel-xgboost"));
        QCOMPARE(s.registered, std::vector<std::string>{"cost-model:xgb"});
    }

    void registered() {
        const tune::CostModelRecord* r = registry_.find("xgb");
        QVERIFY(r);
        QCOMPARE(fs::path(r->origin), fs::weakly_canonical(kPluginDir));
        for (const char* option :
             {"objective=rank|reg", "rank:pairwise", "reg:squarederror", "rounds=", "max_depth=",
              "eta=", "min_child_weight=", "gamma=", "tree_method=hist|exact|approx"})
            QVERIFY2(r->summary.find(option) != std::string::npos, option);
        auto m = make();
        QCOMPARE(m->name(), std::string("xgb"));
    }

    void learnsARanking_data() {
        QTest::addColumn<QString>("objective");
        QTest::addColumn<bool>("grouped");
        QTest::addColumn<QString>("treeMethod");
        QTest::newRow("rank, one group") << "rank" << false << "";
        QTest::newRow("rank, groups") << "rank" << true << "";
        QTest::newRow("reg") << "reg" << false << "";
        QTest::newRow("default objective") << "" << true << "";
        QTest::newRow("rank, exact") << "rank" << true << "exact";
        QTest::newRow("reg, approx") << "reg" << false << "approx";
    }

    void learnsARanking() {
        QFETCH(QString, objective);
        QFETCH(bool, grouped);
        QFETCH(QString, treeMethod);
        std::map<std::string, std::string> options;
        if (!objective.isEmpty()) options["objective"] = objective.toStdString();
        if (!treeMethod.isEmpty()) options["tree_method"] = treeMethod.toStdString();
        auto model = make(options);
        const Data train = synthetic(800, 1), test = synthetic(400, 2);
        QVERIFY(!model->trained());
        std::vector<unsigned> groups;
        if (grouped) groups = {200, 0, 300, 300}; // a zero-sized group is dropped
        const auto t0 = std::chrono::steady_clock::now();
        model->fit(train.x, train.y, groups);
        const double fitMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        QVERIFY(model->trained());
        const auto predicted = model->predict(test.x);
        QCOMPARE(predicted.size(), test.y.size());
        for (float p : predicted)
            QVERIFY(std::isfinite(p));
        const double rho = spearman(predicted, test.y);
        qInfo("held-out Spearman %.3f, fit of 800 rows %.1f ms", rho, fitMs);
        QVERIFY2(rho > 0.9, qPrintable(QString::number(rho)));
        if (objective == "reg") {
            // A regression also predicts the scores themselves.
            double se = 0;
            for (size_t i = 0; i < predicted.size(); ++i)
                se += (predicted[i] - test.y[i]) * (predicted[i] - test.y[i]);
            QVERIFY2(std::sqrt(se / predicted.size()) < 0.1,
                     qPrintable(QString::number(std::sqrt(se / predicted.size()))));
        }
    }

    void moreRoundsFitTighter() {
        // The options reach XGBoost: 2 rounds of depth 1 cannot rank as well as the default.
        const Data train = synthetic(800, 3), test = synthetic(400, 4);
        auto weak = make({{"rounds", "2"}, {"max_depth", "1"}});
        auto strong = make();
        weak->fit(train.x, train.y);
        strong->fit(train.x, train.y);
        const double rw = spearman(weak->predict(test.x), test.y),
                     rs = spearman(strong->predict(test.x), test.y);
        QVERIFY2(rw + 0.05 < rs, qPrintable(QString("%1 vs %2").arg(rw).arg(rs)));
    }

    void seeded() {
        const Data train = synthetic(500, 5), test = synthetic(100, 6);
        auto a = make({}, 11, 2), b = make({}, 11, 1);
        a->fit(train.x, train.y);
        b->fit(train.x, train.y);
        QCOMPARE(a->predict(test.x), b->predict(test.x));
        // Fitting again from scratch gives the same model.
        a->fit(train.x, train.y);
        QCOMPARE(a->predict(test.x), b->predict(test.x));
    }

    void untrainedPredictsEqualScores() {
        auto m = make();
        const Data d = synthetic(20, 8);
        QCOMPARE(m->predict(d.x), std::vector<float>(20, 0.0f));
        QVERIFY(m->predict(tune::FeatureMatrix{kCols, {}}).empty());
        m->fit(d.x, d.y);
        QVERIFY(m->trained());
        // No rows: back to untrained.
        m->fit(tune::FeatureMatrix{kCols, {}}, {});
        QVERIFY(!m->trained());
        QCOMPARE(m->predict(d.x), std::vector<float>(20, 0.0f));
    }

    void badOptions_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("objective") << "objective"
                                   << "lambdamart"
                                   << "xgb: option objective='lambdamart': expected rank or reg";
        QTest::newRow("rounds 0") << "rounds"
                                  << "0"
                                  << "xgb: option rounds='0': expected an integer >= 1";
        QTest::newRow("rounds text") << "rounds"
                                     << "many"
                                     << "expected an integer >= 1";
        QTest::newRow("rounds trailing") << "rounds"
                                         << "4x"
                                         << "expected an integer >= 1";
        QTest::newRow("max_depth") << "max_depth"
                                   << "-2"
                                   << "xgb: option max_depth='-2': expected an integer >= 1";
        QTest::newRow("eta 0") << "eta"
                               << "0"
                               << "xgb: option eta='0': expected a number in (0, 1]";
        QTest::newRow("eta 2") << "eta"
                               << "2"
                               << "expected a number in (0, 1]";
        QTest::newRow("eta nan") << "eta"
                                 << "nan"
                                 << "expected a number in (0, 1]";
        QTest::newRow("gamma") << "gamma"
                               << "-1"
                               << "xgb: option gamma='-1': expected a number >= 0";
        QTest::newRow("min_child_weight") << "min_child_weight"
                                          << ""
                                          << "expected a number >= 0";
        QTest::newRow("tree_method") << "tree_method"
                                     << "gpu_hist"
                                     << "expected hist, exact or approx";
    }

    void badOptions() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, message);
        try {
            make({{key.toStdString(), value.toStdString()}});
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void goodOptionsAndThreads() {
        auto m = make({{"objective", "reg"},
                       {"rounds", "5"},
                       {"max_depth", "2"},
                       {"eta", "1"},
                       {"gamma", "0"},
                       {"min_child_weight", "0.5"},
                       {"not-an-xgb-option", "is ignored"}},
                      1, 0);
        const Data d = synthetic(100, 9);
        m->fit(d.x, d.y);
        QVERIFY(m->trained());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make({}, 1, -1));
    }

    void badShapes() {
        auto m = make();
        const Data d = synthetic(50, 10);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m->fit(d.x, std::vector<float>(49, 0.0f)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m->fit(d.x, d.y, {10, 10}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 m->fit(tune::FeatureMatrix{kCols, {1, 2, 3}}, {1}));
        QVERIFY(!m->trained());
        m->fit(d.x, d.y, {25, 25});
        const auto before = m->predict(d.x);
        tune::FeatureMatrix narrow{kCols - 1, std::vector<float>((kCols - 1) * 3, 0.5f)};
        try {
            m->predict(narrow);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString(e.what()), QString("xgb: rows of 11 features, trained on 12"));
        }
        QCOMPARE(m->predict(d.x), before);
    }

    void xgboostErrorsAreExceptions() {
        // XGBoost itself refuses a NaN label for a regression: its message comes
        // through as std::runtime_error, and the model trained before stays.
        auto m = make({{"objective", "reg"}});
        Data d = synthetic(60, 12);
        m->fit(d.x, d.y);
        const auto before = m->predict(d.x);
        d.y[3] = std::nanf("");
        try {
            m->fit(d.x, d.y);
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            // XGBoost checks the labels as they are set; its message without its
            // timestamp, source line and stack trace.
            QCOMPARE(QString(e.what()),
                     QString("XGBoost XGDMatrixSetFloatInfo(label) failed: Check failed: valid: "
                             "Label contains NaN, infinity or a value too large."));
        }
        QVERIFY(m->trained());
        QCOMPARE(m->predict(d.x), before);
    }

    void predictsFromSeveralThreads() {
        auto m = make({}, 3, 1);
        const Data train = synthetic(400, 13), test = synthetic(300, 14);
        m->fit(train.x, train.y);
        const auto expected = m->predict(test.x);
        std::vector<int> mismatches(4, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 25; ++i)
                    if (m->predict(test.x) != expected) ++mismatches[t];
            });
        // A fit on the same data meanwhile swaps in an equal booster.
        m->fit(train.x, train.y);
        for (auto& th : threads)
            th.join();
        QCOMPARE(mismatches, std::vector<int>(4, 0));
    }

    void trainingTime() {
        // What the tuner pays per fit and per batch of predictions (DEPENDENCIES.md
        // measured 25-40 ms to train 20 rounds on 2,000 rows). Reported, and bounded
        // loosely so that a pathological slowdown fails.
        tune::FeatureMatrix x{100, {}};
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        std::vector<float> y;
        for (int i = 0; i < 2000; ++i) {
            float s = 0;
            for (int c = 0; c < 100; ++c) {
                float v = u(rng);
                x.values.push_back(v);
                if (c < 10) s += v * (c + 1);
            }
            y.push_back(s);
        }
        auto m = make({}, 1, 1);
        auto t0 = std::chrono::steady_clock::now();
        m->fit(x, y, {500, 500, 500, 500});
        const double fitMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 10; ++i)
            m->predict(x);
        const double predictMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count() /
            10;
        qInfo("fit 2,000 rows x 100 features, 40 rounds, hist, 1 thread: %.1f ms; predict 2,000 "
              "rows: %.2f ms",
              fitMs, predictMs);
        QVERIFY2(fitMs < 5000, qPrintable(QString::number(fitMs)));
    }

    void builtinContextHasIt() {
        // Test programs live in <build>/bin, so the built-in context finds <build>/plugins.
        const driver::Context& c = driver::Context::builtin();
        const tune::CostModelRecord* r = c.costModels().find("xgb");
        QVERIFY(r);
        QCOMPARE(fs::path(r->origin), fs::weakly_canonical(kPluginDir));
        const plugin::PluginStatus* s = c.plugins().find("costmodel-xgboost");
        QVERIFY(s);
        QVERIFY(s->loaded());
        QVERIFY(c.costModels().make("xgb", {})->name() == "xgb");
        // A context of its own starts without plugins and loads them when told.
        driver::Context own = driver::Context::withBuiltins();
        QVERIFY(!own.costModels().find("xgb"));
        QCOMPARE(own.plugins().plugins().size(), size_t(0));
        own.loadPlugins({kPluginDir});
        QVERIFY(own.costModels().find("xgb"));
        QCOMPARE(own.plugins().loadedCount(), size_t(1));
        // Loading the same folder again changes nothing.
        own.loadPlugins({kPluginDir});
        QCOMPARE(own.plugins().plugins().size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestXgbCostModel)
#include "tst_xgbcostmodel.moc"
