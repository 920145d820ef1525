// tune::Tuner over a synthetic task (Synthetic.h: nothing is compiled, the
// runner times configurations by a formula): every tuner measures the
// default first and never a configuration twice, records and reports every
// trial, learns with a model (here a nearest-neighbour test double behind
// the registry, standing in for the XGBoost plugin), stops early, pauses and
// stops on request, treats failed trials as failures and goes on, says what
// is missing without the "xgb" model, and warm-starts from other workloads.
#include "tune/RandomModel.h"
#include "tune/Tuner.h"

#include "Synthetic.h"

#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <cmath>
#include <set>
#include <thread>

using namespace tessel;

namespace {

/// A test double for a learned model: the score of a row is the score of
/// the nearest trained row (Euclidean over the features both have).
class NearestModel : public tune::CostModel {
public:
    explicit NearestModel(const tune::CostModelOptions& o) : objective_(o.options.count("objective") ? o.options.at("objective") : "") {
        if (objective_ != "rank" && objective_ != "reg") throw std::invalid_argument("objective must be rank or reg");
    }
    std::string name() const override { return "xgb"; }
    void fit(const tune::FeatureMatrix& x, const std::vector<float>& y, const std::vector<unsigned>& groups) override {
        x_ = x;
        y_ = y;
        ++fits;
        lastGroups = groups;
    }
    std::vector<float> predict(const tune::FeatureMatrix& x) const override {
        std::vector<float> out;
        for (size_t i = 0; i < x.rows(); ++i) {
            double best = 1e300;
            float s = 0;
            for (size_t j = 0; j < x_.rows(); ++j) {
                double d = 0;
                for (size_t c = 0; c < x.cols; ++c) {
                    const double a = x.row(i)[c], b = x_.row(j)[c];
                    if (!std::isnan(a) && !std::isnan(b)) d += (a - b) * (a - b);
                }
                if (d < best) {
                    best = d;
                    s = y_[j] - float(1e-3 * d); // nearer to a good point is better
                }
            }
            out.push_back(s);
        }
        return out;
    }
    bool trained() const override { return x_.rows() > 0; }

    static inline int fits = 0;
    static inline std::vector<unsigned> lastGroups;

private:
    std::string objective_;
    tune::FeatureMatrix x_;
    std::vector<float> y_;
};

tune::CostModelRegistry registryWithDouble() {
    tune::CostModelRegistry r;
    tune::registerBuiltinCostModels(r);
    r.add({"xgb", "test double: nearest neighbour", "tests/tune",
           [](const tune::CostModelOptions& o) { return std::make_unique<NearestModel>(o); }});
    return r;
}

struct Run {
    tune::TuneResult result;
    std::vector<tune::TrialEvent> events;
    std::vector<std::string> ran;
};

Run tuneSynthetic(const std::string& tuner, int trials, uint64_t seed, const tune::CostModelRegistry& models,
                  tune::FeatureKind features = tune::FeatureKind::Knob, std::vector<int64_t> sizes = {16, 16, 16, 16},
                  std::vector<int64_t> best = {11, 3, 14, 6}) {
    synthetic::Task task(synthetic::knobs(sizes));
    synthetic::Builder builder;
    synthetic::Runner runner(synthetic::bowl(best));
    tune::MeasureOptions mo;
    mo.buildJobs = 2;
    tune::Measurer measurer(builder, runner, mo);
    tune::TuneOptions o;
    o.tuner = tuner;
    o.trials = trials;
    o.seed = seed;
    o.features = features;
    o.threads = 1;
    tune::Tuner t(task, models, o);
    Run run;
    run.result = t.run(measurer, nullptr, [&](const tune::TrialEvent& e) { run.events.push_back(e); });
    run.ran = runner.ran;
    return run;
}

} // namespace

class TestTuner : public QObject {
    Q_OBJECT
private slots:
    void everyTunerMeasuresEachConfigurationOnce() {
        const auto models = registryWithDouble();
        for (const std::string tuner : {"grid", "random", "ga", "xgb", "xgb-reg"}) {
            const Run run = tuneSynthetic(tuner, 70, 1, models);
            QCOMPARE(run.result.trials, 70);
            QCOMPARE(int(run.events.size()), 70);
            QCOMPARE(int(std::set<std::string>(run.ran.begin(), run.ran.end()).size()), 70);
            // The default configuration first, as the baseline.
            QVERIFY(run.events[0].isDefault);
            QCOMPARE(run.ran[0], std::string("k0=0,k1=0,k2=0,k3=0"));
            QCOMPARE(run.events[0].defaultGflops, run.events[0].gflops);
            double best = 0;
            for (size_t i = 0; i < run.events.size(); ++i) {
                QCOMPARE(run.events[i].trial, int(i));
                QCOMPARE(run.events[i].budget, 70);
                best = std::max(best, run.events[i].gflops);
                QCOMPARE(run.events[i].bestGflops, best);
            }
            QCOMPARE(run.result.bestGflops, best);
        }
    }

    void gridGoesInIndexOrder() {
        const auto models = registryWithDouble();
        const Run run = tuneSynthetic("grid", 5, 1, models, tune::FeatureKind::Knob, {3, 3});
        // The default (index 0) first, then 1, 2, 3, 4.
        QCOMPARE(run.ran, (std::vector<std::string>{"k0=0,k1=0", "k0=1,k1=0", "k0=2,k1=0", "k0=0,k1=1", "k0=1,k1=1"}));
        const Run all = tuneSynthetic("grid", 100, 1, models, tune::FeatureKind::Knob, {3, 3});
        QCOMPARE(all.result.trials, 9);
        QVERIFY(all.result.exhausted);
    }

    void aModelFindsTheOptimumSoonerThanRandom() {
        // Summed over seeds: the trial at which each first reaches the optimum of a 16^4 bowl.
        const auto models = registryWithDouble();
        int modelTrials = 0, randomTrials = 0;
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            for (auto [tuner, total] : {std::pair<std::string, int*>{"xgb", &modelTrials}, {"random", &randomTrials}}) {
                const Run run = tuneSynthetic(tuner, 200, seed, models);
                int reached = 200;
                for (auto& e : run.events)
                    if (e.gflops >= run.events.back().bestGflops * 0.999 && e.bestGflops >= 999.0) {
                        reached = e.trial;
                        break;
                    }
                *total += reached;
            }
        }
        qInfo("trials to the optimum, 3 seeds: model %d, random %d", modelTrials, randomTrials);
        QVERIFY(modelTrials < randomTrials / 2);
        QVERIFY(NearestModel::fits > 0);
    }

    void modelBasedTunersReportPredictionsAndTimes() {
        const auto models = registryWithDouble();
        const Run run = tuneSynthetic("xgb", 64, 3, models, tune::FeatureKind::Itervar);
        int predicted = 0;
        for (auto& e : run.events) predicted += !std::isnan(e.predicted);
        // After the first round of 16 (random), most of each round comes from the model.
        QVERIFY2(predicted >= 40, std::to_string(predicted).c_str());
        QVERIFY(run.events.back().searchSeconds > 0);
        QVERIFY(run.result.searchTime.search > 0);
        QVERIFY(run.result.searchTime.features > 0);
        QVERIFY(run.result.searchTime.fit >= 0);
    }

    void withoutTheXgbModelTheTunerSaysWhatIsMissing() {
        tune::CostModelRegistry models;
        tune::registerBuiltinCostModels(models);
        synthetic::Task task(synthetic::knobs({4}));
        for (const char* tuner : {"xgb", "xgb-reg"}) {
            tune::TuneOptions o;
            o.tuner = tuner;
            try {
                tune::Tuner t(task, models, o);
                QFAIL("a tuner without its model");
            } catch (const std::invalid_argument& e) {
                const std::string what = e.what();
                QVERIFY2(what.find("cost model 'xgb'") != std::string::npos, e.what());
                QVERIFY2(what.find("plugins/costmodel-xgboost") != std::string::npos, e.what());
                QVERIFY2(what.find("ga, random, grid") != std::string::npos, e.what());
            }
        }
        tune::TuneOptions o;
        o.tuner = "annealing";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::Tuner(task, models, o));
        // The built-in random model runs the model-based search without the plugin.
        o.tuner = "xgb";
        o.costModel = "random";
        o.trials = 20;
        tune::Tuner t(task, models, o);
        synthetic::Builder b;
        synthetic::Runner r(synthetic::bowl({1}));
        tune::Measurer m(b, r);
        QCOMPARE(t.run(m).trials, 4); // the whole space
        o.tuner = "grid";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::Tuner(task, models, o)); // a model for a tuner without one
    }

    void earlyStopping() {
        // The default is the optimum: nothing improves after trial 0.
        const auto models = registryWithDouble();
        synthetic::Task task(synthetic::knobs({30, 30}));
        synthetic::Builder b;
        synthetic::Runner r(synthetic::bowl({0, 0}));
        tune::Measurer m(b, r);
        tune::TuneOptions o;
        o.tuner = "random";
        o.trials = 500;
        o.earlyStopping = 25;
        tune::Tuner t(task, models, o);
        const auto res = t.run(m);
        QVERIFY(res.earlyStopped);
        QCOMPARE(res.trials, 26);
    }

    void pauseAndStopBetweenTrials() {
        const auto models = registryWithDouble();
        synthetic::Task task(synthetic::knobs({30, 30}));
        synthetic::Builder b;
        synthetic::Runner r(synthetic::bowl({3, 3}));
        tune::Measurer m(b, r);
        tune::TuneOptions o;
        o.tuner = "random";
        o.trials = 100;
        tune::Tuner t(task, models, o);
        tune::TuneControl control;
        std::thread resume;
        std::vector<std::chrono::steady_clock::time_point> times;
        const auto res = t.run(m, nullptr, [&](const tune::TrialEvent& e) {
            times.push_back(std::chrono::steady_clock::now());
            if (e.trial == 3) {
                control.setPaused(true);
                resume = std::thread([&] {
                    std::this_thread::sleep_for(std::chrono::milliseconds(300));
                    control.setPaused(false);
                });
            }
            if (e.trial == 9) control.stop();
        }, &control);
        resume.join();
        QVERIFY(res.stopped);
        QCOMPARE(res.trials, 10);
        QCOMPARE(int(r.ran.size()), 10);
        QVERIFY(times[4] - times[3] >= std::chrono::milliseconds(250));
    }

    void failedTrialsAreRecordedAndTuningGoesOn() {
        const auto models = registryWithDouble();
        synthetic::Task task(synthetic::knobs({6, 6}));
        task.unbuildable = {"k0=1,k1=0", "k0=2,k1=0"};
        synthetic::Builder b;
        synthetic::Runner r(synthetic::bowl({5, 5}));
        r.failures = {{"k0=3,k1=0", runtime::MeasureError::Crash},
                      {"k0=4,k1=0", runtime::MeasureError::Timeout},
                      {"k0=5,k1=0", runtime::MeasureError::Runtime}};
        tune::Measurer m(b, r);
        tune::TuneOptions o;
        o.tuner = "grid";
        o.trials = 36;
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.jsonl").toStdString();
        tune::RecordWriter w(path);
        tune::Tuner t(task, models, o);
        std::vector<tune::TrialEvent> events;
        const auto res = t.run(m, &w, [&](const tune::TrialEvent& e) { events.push_back(e); });
        QCOMPARE(res.trials, 36);
        QCOMPARE(res.failed, 5);
        QCOMPARE(res.errors.at(runtime::MeasureError::Build), 2);
        QCOMPARE(res.errors.at(runtime::MeasureError::Crash), 1);
        QCOMPARE(res.errors.at(runtime::MeasureError::Timeout), 1);
        QCOMPARE(res.errors.at(runtime::MeasureError::Runtime), 1);
        QCOMPARE(events[1].error, runtime::MeasureError::Build);
        QVERIFY(events[1].message.find("planted") != std::string::npos);
        QCOMPARE(events[3].error, runtime::MeasureError::Crash);
        QCOMPARE(res.bestConfig, (tune::Config{{"k0", 5}, {"k1", 5}}));
        const auto records = tune::Records::load(path);
        QCOMPARE(int(records.size()), 36);
        QCOMPARE(records.all()[4].error, runtime::MeasureError::Timeout);
        QVERIFY(records.all()[4].costs.empty());
        QCOMPARE(records.best(task.workload().key)->config, res.bestConfig);
    }

    void transferWarmStartsTheModel() {
        const auto models = registryWithDouble();
        // Records of another workload of the same operator (scale=2).
        synthetic::Task other(synthetic::knobs({16, 16, 16}), "synthetic", 2);
        synthetic::Builder b;
        synthetic::Runner r(synthetic::bowl({9, 9, 9}));
        tune::Measurer m(b, r);
        tune::Records history;
        {
            tune::TuneOptions o;
            o.tuner = "random";
            o.trials = 60;
            tune::Tuner t(other, models, o);
            QTemporaryDir dir;
            const std::string path = dir.filePath("r.jsonl").toStdString();
            {
                tune::RecordWriter w(path);
                t.run(m, &w);
            }
            history = tune::Records::load(path);
        }
        synthetic::Task task(synthetic::knobs({16, 16, 16}), "synthetic", 1);
        tune::TuneOptions o;
        o.tuner = "xgb";
        o.trials = 16;
        o.features = tune::FeatureKind::Knob;
        tune::Tuner t(task, models, o);
        QCOMPARE(t.resume(history), 0); // another workload: nothing to resume
        const int fitsBefore = NearestModel::fits;
        QCOMPARE(t.transfer(history), 60);
        synthetic::Runner r2(synthetic::bowl({9, 9, 9}));
        tune::Measurer m2(b, r2);
        std::vector<tune::TrialEvent> events;
        t.run(m2, nullptr, [&](const tune::TrialEvent& e) { events.push_back(e); });
        // The first round already comes from a model trained on the other workload.
        QVERIFY(NearestModel::fits > fitsBefore);
        int predicted = 0;
        for (auto& e : events) predicted += !std::isnan(e.predicted);
        QVERIFY(predicted >= 10);
        QVERIFY(events.back().bestGflops > 100); // near the optimum (1000 GFLOP/s) at once
        // A tuner without a model takes no transfer.
        o.tuner = "ga";
        tune::Tuner ga(task, models, o);
        QCOMPARE(ga.transfer(history), 0);
    }
};

QTEST_APPLESS_MAIN(TestTuner)
#include "tst_tuner.moc"
