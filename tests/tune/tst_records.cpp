// tune::Records: a record survives the line format; the writer appends and
// flushes each line at once; a torn last line (a killed run) is skipped with
// a warning and the next writer starts a new line; the best per workload,
// the summary, and resuming a tuner from a file (measured configurations are
// not measured again).
#include "tune/Records.h"
#include "tune/Tuner.h"
#include "tune/RandomModel.h"

#include "Synthetic.h"

#include <QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <set>

using namespace tessel;

namespace {

tune::Record sample(const std::string& key, std::vector<double> costs, runtime::MeasureError e = runtime::MeasureError::None) {
    tune::Record r;
    r.workload.op = "template:gemm";
    r.workload.key = key;
    r.workload.json = R"({"template": "gemm", "params": {"M": 64}})";
    r.target = "llvm -mtriple=x86_64-unknown-linux-gnu";
    r.config = {{"tile_x", 3}, {"unroll", 1}};
    r.values = {{"tile_x", "[16, 4]"}, {"unroll", "False"}, {"order", "'rows'"}, {"f", "0.5"}, {"n", "None"},
                {"ann", "['none', 'vec']"}};
    r.costs = std::move(costs);
    r.error = e;
    if (e != runtime::MeasureError::None) r.message = "it \"broke\"\nbadly";
    r.flops = 2e9;
    r.tuner = "ga";
    r.trial = 4;
    r.timestamp = 1718000000.25;
    r.version = tune::tesselVersion();
    return r;
}

std::vector<std::string> lines(const QString& path) {
    std::ifstream in(path.toStdString());
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

} // namespace

class TestRecords : public QObject {
    Q_OBJECT
private slots:
    void aRecordRoundTrips() {
        tune::Record twoThreads = sample("c", {0.5});
        twoThreads.threads = 2;
        for (auto r : {sample("a", {0.5, 0.25, 0.75}), sample("b", {}, runtime::MeasureError::Crash), twoThreads}) {
            const std::string line = tune::formatRecord(r);
            QVERIFY(line.find('\n') == std::string::npos);
            const tune::Record back = tune::parseRecord(line);
            QCOMPARE(back.workload.key, r.workload.key);
            QCOMPARE(back.workload.op, r.workload.op);
            QCOMPARE(back.target, r.target);
            QCOMPARE(back.config, r.config);
            QCOMPARE(back.values, r.values);
            QCOMPARE(back.costs, r.costs);
            QCOMPARE(back.error, r.error);
            QCOMPARE(back.message, r.message);
            QCOMPARE(back.flops, r.flops);
            QCOMPARE(back.threads, r.threads);
            QCOMPARE(back.tuner, r.tuner);
            QCOMPARE(back.trial, r.trial);
            QCOMPARE(back.timestamp, r.timestamp);
            QCOMPARE(back.version, r.version);
            QCOMPARE(tune::formatRecord(back), line);
        }
        const tune::Record ok = sample("a", {0.5, 0.25, 0.75});
        QCOMPARE(ok.seconds(), 0.5);
        QCOMPARE(ok.gflops(), 4.0);
        QCOMPARE(sample("b", {}, runtime::MeasureError::Timeout).gflops(), 0.0);
        // The values are JSON values in the file.
        QVERIFY(tune::formatRecord(ok).find(R"("tile_x":[16,4])") != std::string::npos);
        QVERIFY(tune::formatRecord(ok).find(R"("unroll":false)") != std::string::npos);
        // The thread count is written when known (older records have none: 0).
        QVERIFY(tune::formatRecord(twoThreads).find(R"("threads":2)") != std::string::npos);
        QVERIFY(tune::formatRecord(ok).find(R"("threads")") == std::string::npos);

        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::parseRecord("{\"workload\": {\"key\": \"k\"}"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::parseRecord("[]"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 tune::parseRecord(R"({"workload": {"key": "k"}, "config": {}, "costs": [], "error": "none"})"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 tune::parseRecord(R"({"workload": {"key": "k"}, "config": {}, "costs": [1], "error": "melted"})"));
    }

    void theWriterAppendsAndFlushesEachLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath("r.jsonl");
        {
            tune::RecordWriter w(path.toStdString());
            w.write(sample("a", {1.0}));
            // Visible to a reader while the writer is open: nothing is buffered.
            QCOMPARE(int(lines(path).size()), 1);
            w.write(sample("a", {2.0}));
            QCOMPARE(int(lines(path).size()), 2);
        }
        {
            tune::RecordWriter w(path.toStdString()); // appends
            w.write(sample("b", {}, runtime::MeasureError::Build));
        }
        std::vector<std::string> warnings;
        const tune::Records rs = tune::Records::load(path.toStdString(), &warnings);
        QVERIFY(warnings.empty());
        QCOMPARE(int(rs.size()), 3);
        QCOMPARE(rs.workloads(), (std::vector<std::string>{"a", "b"}));
    }

    void aTornLastLineIsSkippedAndTheNextWriterStartsANewLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath("r.jsonl");
        const std::string full = tune::formatRecord(sample("a", {1.0}));
        {
            std::ofstream out(path.toStdString(), std::ios::binary);
            out << full << "\n" << full.substr(0, full.size() / 2); // killed mid-line
        }
        std::vector<std::string> warnings;
        QCOMPARE(int(tune::Records::load(path.toStdString(), &warnings).size()), 1);
        QCOMPARE(int(warnings.size()), 1);
        QVERIFY(warnings[0].find(":2:") != std::string::npos);
        {
            tune::RecordWriter w(path.toStdString());
            w.write(sample("a", {2.0}));
        }
        warnings.clear();
        const tune::Records rs = tune::Records::load(path.toStdString(), &warnings);
        QCOMPARE(int(rs.size()), 2); // the new record is whole, the fragment still one bad line
        QCOMPARE(int(warnings.size()), 1);
        QCOMPARE(rs.all().back().costs, std::vector<double>{2.0});

        QVERIFY_THROWS_EXCEPTION(std::runtime_error, tune::Records::load(dir.filePath("none.jsonl").toStdString()));
        QCOMPARE(int(tune::Records::load(dir.filePath("none.jsonl").toStdString(), nullptr, false).size()), 0);
    }

    void bestAndSummary() {
        tune::Records rs;
        rs.add(sample("a", {3.0}));
        auto d = sample("a", {4.0});
        d.isDefault = true;
        rs.add(d);
        rs.add(sample("a", {}, runtime::MeasureError::Crash));
        rs.add(sample("a", {1.0, 2.0, 9.0})); // median 2
        rs.add(sample("a", {2.0}));            // a tie: the earlier stays best
        rs.add(sample("b", {}, runtime::MeasureError::WrongResult));
        QCOMPARE(rs.best("a")->costs, (std::vector<double>{1.0, 2.0, 9.0}));
        QVERIFY(!rs.best("b"));
        QVERIFY(!rs.best("c"));
        QCOMPARE(rs.defaultRecord("a")->costs, std::vector<double>{4.0});
        const auto s = rs.summary();
        QCOMPARE(int(s.size()), 2);
        QCOMPARE(s[0].trials, 5);
        QCOMPARE(s[0].failed, 1);
        QCOMPARE(s[0].errors.at(runtime::MeasureError::Crash), 1);
        QCOMPARE(s[0].best, rs.best("a"));
        QCOMPARE(s[1].failed, 1);
        QVERIFY(!s[1].best);
        // Pointers stay valid while records are added.
        const tune::Record* best = rs.best("a");
        for (int i = 0; i < 1000; ++i) rs.add(sample("c", {5.0}));
        QCOMPARE(best->costs, (std::vector<double>{1.0, 2.0, 9.0}));
    }

    void resumeMeasuresNothingTwice() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.jsonl").toStdString();
        synthetic::Task task(synthetic::knobs({8, 8, 8}));
        synthetic::Builder builder;
        synthetic::Runner runner(synthetic::bowl({2, 5, 7}));
        tune::Measurer measurer(builder, runner);
        tune::CostModelRegistry models;
        tune::registerBuiltinCostModels(models);
        tune::TuneOptions o;
        o.tuner = "ga";
        o.trials = 40;
        {
            tune::RecordWriter w(path);
            tune::Tuner t(task, models, o);
            QCOMPARE(t.resume(tune::Records::load(path, nullptr, false)), 0);
            const auto r = t.run(measurer, &w);
            QCOMPARE(r.trials, 40);
        }
        QCOMPARE(int(runner.ran.size()), 40);
        // Again with a budget of 60: 20 new trials, none of them measured before.
        o.trials = 60;
        o.seed = 2;
        tune::RecordWriter w(path);
        tune::Tuner t(task, models, o);
        QCOMPARE(t.resume(tune::Records::load(path)), 40);
        const auto r = t.run(measurer, &w);
        QCOMPARE(r.trials, 20);
        QCOMPARE(r.totalTrials, 60);
        std::set<std::string> distinct(runner.ran.begin(), runner.ran.end());
        QCOMPARE(int(distinct.size()), 60);
        QCOMPARE(int(tune::Records::load(path).size()), 60);
        // A budget already spent measures nothing.
        tune::Tuner done(task, models, o);
        QCOMPARE(done.resume(tune::Records::load(path)), 60);
        QCOMPARE(done.run(measurer).trials, 0);
        QCOMPARE(int(runner.ran.size()), 60);
    }
};

QTEST_APPLESS_MAIN(TestRecords)
#include "tst_records.moc"
