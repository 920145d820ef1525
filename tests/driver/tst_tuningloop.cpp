// The driver's tuning loop (driver/TuningLoop.h), which tesselc tune and the
// IDE's Tuning view both run: tasks in order, every trial in the records file,
// a second run resumed from it, the cost model warm-started from the records
// of the other workload, a stop between tasks, and bad options refused
// before anything is measured.
#include "driver/TuneTasks.h"
#include "driver/TuningLoop.h"
#include "driver/TuningRecords.h"
#include "runtime/InProcessRunner.h"
#include "tune/RandomModel.h"
#include "tune/Records.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <iterator>

using namespace tessel;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<driver::TuningJob> gemmJobs() {
    const std::string src = readText(TESSEL_SOURCE_DIR "/resources/templates/gemm.te");
    std::vector<driver::TuningJob> jobs;
    for (int n : {32, 48}) {
        driver::ScriptTaskOptions so;
        so.fileName = "gemm.te";
        so.workload = {{"M", n}, {"N", n}, {"K", n}};
        jobs.push_back({std::make_shared<driver::ScriptTask>(src, so), 1});
    }
    return jobs;
}

struct Log {
    std::vector<std::string> events;
    std::vector<int> resumed, transferred;
    int trials = 0;
};

driver::TuningEvents recording(Log& log) {
    driver::TuningEvents ev;
    ev.onStart = [&log](size_t j, const tune::Tuner&, int resumed, int transferred) {
        log.events.push_back("start " + std::to_string(j));
        log.resumed.push_back(resumed);
        log.transferred.push_back(transferred);
    };
    ev.onTrial = [&log](size_t, const tune::TrialEvent&) { ++log.trials; };
    ev.onDone = [&log](size_t j, const tune::TuneResult&) { log.events.push_back("done " + std::to_string(j)); };
    ev.onFailed = [&log](size_t j, const std::string& e) { log.events.push_back("failed " + std::to_string(j) + e); };
    return ev;
}

/// Two random trials a task, timed once, appended to gemm.jsonl in `dir`.
driver::TuningLoopOptions twoRandomTrials(const QTemporaryDir& dir) {
    driver::TuningLoopOptions o;
    o.records = dir.filePath("gemm.jsonl").toStdString();
    o.tune.tuner = "random";
    o.tune.trials = 2;
    o.measure.evaluator = {1, 1, 1, 1};
    return o;
}

} // namespace

class TestTuningLoop : public QObject {
    Q_OBJECT
private slots:
    void tasksInOrderResumedAndWarmStarted() {
        QTemporaryDir dir;
        codegen::LocalBuilder builder(codegen::hostTarget());
        runtime::InProcessRunner runner;
        tune::CostModelRegistry models;
        tune::registerBuiltinCostModels(models);
        driver::TuningLoopOptions o;
        o.records = dir.filePath("gemm.jsonl").toStdString();
        o.tune.tuner = "xgb";
        o.tune.costModel = "random";
        o.tune.trials = 6;
        o.tune.batchSize = 3;
        o.measure.evaluator = {1, 1, 1, 1};
        o.measure.threads = 1;
        const auto jobs = gemmJobs();

        Log first;
        driver::runTuningLoop(jobs, o, {&builder, &runner}, models, recording(first));
        QCOMPARE(first.events, (std::vector<std::string>{"start 0", "done 0", "start 1", "done 1"}));
        QCOMPARE(first.trials, 12);
        QCOMPARE(first.resumed, (std::vector<int>{0, 0}));
        QVERIFY2(first.transferred[1] > 0, "the second task's model learns from the first's records");
        const tune::Records records = tune::Records::load(o.records);
        QCOMPARE(records.workloads().size(), size_t(2));

        // Again with the same budget: every trial is already in the file.
        Log second;
        driver::runTuningLoop(jobs, o, {&builder, &runner}, models, recording(second));
        QCOMPARE(second.resumed, (std::vector<int>{6, 6}));
        QCOMPARE(second.trials, 0);
    }

    void aStopEndsTheLoopBetweenTasks() {
        QTemporaryDir dir;
        codegen::LocalBuilder builder(codegen::hostTarget());
        runtime::InProcessRunner runner;
        tune::CostModelRegistry models;
        tune::registerBuiltinCostModels(models);
        driver::TuningLoopOptions o = twoRandomTrials(dir);
        tune::TuneControl control;
        Log log;
        driver::TuningEvents ev = recording(log);
        ev.onDone = [&](size_t j, const tune::TuneResult&) {
            log.events.push_back("done " + std::to_string(j));
            control.stop();
        };
        driver::runTuningLoop(gemmJobs(), o, {&builder, &runner}, models, ev, &control);
        QCOMPARE(log.events, (std::vector<std::string>{"start 0", "done 0"}));
    }

    void theFrontEndsEntryOnADevice() {
        // What tesselc tune and the Tuning view call: built here, run on the device.
        QTemporaryDir dir;
        tune::CostModelRegistry models;
        tune::registerBuiltinCostModels(models);
        driver::TuningLoopOptions o = twoRandomTrials(dir);
        driver::DeviceRunners device(driver::DeviceSpec::inProcess());
        Log log;
        driver::runTuningLoopOn(device, driver::CompileRequest{}, gemmJobs(), o, models, recording(log));
        QCOMPARE(log.events, (std::vector<std::string>{"start 0", "done 0", "start 1", "done 1"}));
        QCOMPARE(log.trials, 4);
        const tune::Records records = driver::readTuningHistory(o.records);
        QCOMPARE(records.size(), size_t(4));
        for (const auto& r : records.all()) QVERIFY2(r.ok(), r.message.c_str());
        QCOMPARE(driver::readTuningHistory(dir.filePath("none.jsonl").toStdString()).size(), size_t(0));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, driver::readRecordsFile(dir.filePath("none.jsonl").toStdString()));
        QCOMPARE(driver::recordLine(records.all().front()), tune::formatRecord(records.all().front()));
    }

    void tunersAndFeaturesByName() {
        tune::CostModelRegistry none;
        const auto withoutModels = driver::availableTuners(none);
        QVERIFY(std::find(withoutModels.begin(), withoutModels.end(), "xgb") == withoutModels.end());
        QVERIFY(std::find(withoutModels.begin(), withoutModels.end(), "random") != withoutModels.end());
        QVERIFY(driver::isTunerName("xgb") && !driver::isTunerName("no-such-tuner"));
        QCOMPARE(driver::featureKindNamed("knob"), std::optional(tune::FeatureKind::Knob));
        QVERIFY(!driver::featureKindNamed("loops"));
        QCOMPARE(driver::parseWorkload("M=32,N=48"), (std::map<std::string, int64_t>{{"M", 32}, {"N", 48}}));
        const auto jobs = gemmJobs();
        const auto words = driver::describeConfig(*jobs[0].task, tune::Config{});
        QCOMPARE(words.size(), jobs[0].task->knobs().size());
    }

    void badOptionsBeforeAnyMeasurement() {
        codegen::LocalBuilder builder(codegen::hostTarget());
        runtime::InProcessRunner runner;
        tune::CostModelRegistry models;
        driver::TuningLoopOptions o;
        o.tune.trials = 4;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, driver::runTuningLoop(gemmJobs(), o, {&builder, &runner}, models));
        QTemporaryDir dir;
        o.records = dir.filePath("x.jsonl").toStdString();
        o.tune.trials = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, driver::runTuningLoop(gemmJobs(), o, {&builder, &runner}, models));
        o.tune.trials = 4;
        o.tune.tuner = "no-such-tuner";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, driver::runTuningLoop(gemmJobs(), o, {&builder, &runner}, models));
    }
};

QTEST_MAIN(TestTuningLoop)
#include "tst_tuningloop.moc"
