// driver::bestConfigsFor and loadRecords: records of the target itself win;
// a workload without them borrows the best record of another machine of the
// same kind (same architecture and vector width), rebased on this target's
// key; other kinds are ignored; records of the run's thread count come
// first; a folder of records reads as one set. Then a
// model compiled with borrowed records really takes their configuration.
#include "driver/ApplyBest.h"
#include "driver/ModelTasks.h"
#include "graph/Graph.h"

#include "common/TuneConfigs.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace tessel;

namespace {

tune::Record record(const std::string& function, const Target& t, tune::Config config, double seconds) {
    tune::Record r;
    r.workload.op = "conv2d_nchwc";
    r.target = t.str();
    r.workload.key = function + " @ " + r.target;
    r.workload.json = "{}";
    r.config = std::move(config);
    r.costs = {seconds};
    r.flops = 1e9;
    r.tuner = "random";
    r.trial = 0;
    return r;
}

Target withCpu(Target t, const char* cpu, int vectorBits) {
    t.cpu = cpu;
    t.vectorBits = vectorBits;
    return t;
}

graph::Graph convModel() {
    graph::Graph g("borrow");
    auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 16, 14, 14]"));
    graph::Attributes pads;
    pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    std::vector<double> w(32 * 16 * 9);
    for (size_t i = 0; i < w.size(); ++i) w[i] = double(i % 7) / 7 - 0.5;
    auto wc = g.addConstant("w", graph::Constant::fromFloats({32, 16, 3, 3}, w));
    g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {x, wc}, pads, "c")}, {}, "r")});
    return g;
}

} // namespace

class TestApplyBest : public QObject {
    Q_OBJECT
private slots:
    void targetKinds() {
        Target here = Target::parse("llvm -mtriple=x86_64-pc-linux-gnu -mcpu=znver4 -mattr=+avx512f -vector-bits=512");
        QVERIFY(driver::sameTargetKind(withCpu(here, "znver5", 512), here));
        QVERIFY(driver::sameTargetKind(withCpu(here, "skylake-avx512", 512), here));
        QVERIFY(!driver::sameTargetKind(withCpu(here, "znver3", 256), here));
        QVERIFY(!driver::sameTargetKind(Target::parse("aarch64-linux-gnu -mcpu=cortex-a72"), here));
    }

    void exactWinsThenSameKindThenNothing() {
        Target here = Target::parse("llvm -mtriple=x86_64-pc-linux-gnu -mcpu=znver4 -vector-bits=512");
        Target zen5 = withCpu(here, "znver5", 512), skx = withCpu(here, "skylake-avx512", 512);
        Target avx2 = withCpu(here, "znver3", 256);
        tune::Records rs;
        // f1: measured here (slow) and on a Zen 5 (fast): here wins.
        rs.add(record("f1", here, {{"k", 1}}, 2.0));
        rs.add(record("f1", zen5, {{"k", 2}}, 1.0));
        // f2: only elsewhere; the same CPU name would win, else the fastest of the kind.
        rs.add(record("f2", skx, {{"k", 3}}, 1.0));
        rs.add(record("f2", zen5, {{"k", 4}}, 3.0));
        rs.add(record("f2", withCpu(here, "icelake-server", 512), {{"k", 5}}, 0.5));
        // f3: only on a 256-bit machine: not of this kind.
        rs.add(record("f3", avx2, {{"k", 6}}, 0.1));
        // f4: only failed trials here.
        tune::Record failed = record("f4", here, {{"k", 7}}, 1.0);
        failed.costs.clear();
        failed.error = runtime::MeasureError::Crash;
        rs.add(failed);

        driver::AppliedRecords a = driver::bestConfigsFor(rs, here);
        const std::string suffix = " @ " + here.str();
        QCOMPARE(a.configs.size(), size_t(2));
        QCOMPARE(a.configs.at("f1" + suffix).at("k"), int64_t(1));
        QCOMPARE(a.configs.at("f2" + suffix).at("k"), int64_t(5)); // fastest of the same kind
        QCOMPARE(a.exact, 1);
        QCOMPARE(a.sameKind, 1);

        // With a record of the same CPU name (another feature list), that one wins.
        Target zen4b = here;
        zen4b.features = "+avx512f,+avx512bw";
        rs.add(record("f2", zen4b, {{"k", 8}}, 9.0));
        QCOMPARE(driver::bestConfigsFor(rs, here).configs.at("f2" + suffix).at("k"), int64_t(8));

        // Seen from the 256-bit machine only f3 applies.
        driver::AppliedRecords onAvx2 = driver::bestConfigsFor(rs, avx2);
        QCOMPARE(onAvx2.configs.size(), size_t(1));
        QCOMPARE(onAvx2.configs.begin()->second.at("k"), int64_t(6));
    }

    // With the run's thread count, a record measured with it wins over a
    // faster one of another count; a workload tuned only with another count
    // still takes its best, counted and said; the field survives a file.
    void recordsOfTheRunsThreadCountFirst() {
        Target here = Target::parse("llvm -mtriple=x86_64-pc-linux-gnu -mcpu=znver4 -vector-bits=512");
        tune::Records rs;
        auto withThreads = [&](const char* f, int64_t k, double s, int threads) {
            tune::Record r = record(f, here, {{"k", k}}, s);
            r.threads = threads;
            return r;
        };
        rs.add(withThreads("f1", 1, 1.0, 1));
        rs.add(withThreads("f1", 2, 2.0, 2));
        rs.add(withThreads("f2", 3, 1.0, 1));
        const std::string suffix = " @ " + here.str();
        driver::AppliedRecords any = driver::bestConfigsFor(rs, here);
        QCOMPARE(any.configs.at("f1" + suffix).at("k"), int64_t(1));
        QCOMPARE(any.otherThreads, 0);
        driver::AppliedRecords two = driver::bestConfigsFor(rs, here, 2);
        QCOMPARE(two.configs.at("f1" + suffix).at("k"), int64_t(2));
        QCOMPARE(two.configs.at("f2" + suffix).at("k"), int64_t(3));
        QCOMPARE(two.otherThreads, 1);
        QCOMPARE(rs.best("f1" + suffix, 2)->config.at("k"), int64_t(2));
        QVERIFY(!rs.best("f2" + suffix, 2));

        QTemporaryDir dir;
        const std::string path = dir.filePath("r.jsonl").toStdString();
        {
            tune::RecordWriter w(path);
            for (const tune::Record& r : rs.all()) w.write(r);
        }
        driver::AppliedRecords fromFile = driver::applyBest(path, here, nullptr, 2);
        QCOMPARE(fromFile.configs.at("f1" + suffix).at("k"), int64_t(2));
        QVERIFY2(fromFile.note.find("1 workload tuned with another thread count than 2") != std::string::npos,
                 fromFile.note.c_str());
    }

    void aFolderReadsAsOneSet() {
        QTemporaryDir dir;
        Target here = Target::parse("llvm -mtriple=x86_64-pc-linux-gnu -mcpu=znver4 -vector-bits=512");
        {
            std::ofstream a((dir.path() + "/a.jsonl").toStdString());
            a << tune::formatRecord(record("f1", here, {{"k", 1}}, 1.0)) << "\n";
            std::ofstream b((dir.path() + "/b.jsonl").toStdString());
            b << tune::formatRecord(record("f2", here, {{"k", 2}}, 1.0)) << "\nnot json\n";
            std::ofstream c((dir.path() + "/notes.txt").toStdString());
            c << "ignored\n";
        }
        std::vector<std::string> warnings;
        tune::Records rs = driver::loadRecords(dir.path().toStdString(), &warnings);
        QCOMPARE(rs.size(), size_t(2));
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, driver::loadRecords((dir.path() + "/missing").toStdString()));

        // What the front ends call: the same set, the warning, and a note for
        // workloads borrowed from another machine of the kind.
        warnings.clear();
        Target zen5 = Target::parse("llvm -mtriple=x86_64-pc-linux-gnu -mcpu=znver5 -vector-bits=512");
        driver::AppliedRecords applied = driver::applyBest(dir.path().toStdString(), zen5, &warnings);
        QCOMPARE(applied.configs.size(), size_t(2));
        QCOMPARE(applied.sameKind, 2);
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY2(applied.note.find("2 workloads measured on another x86_64 machine of this kind") != std::string::npos,
                 applied.note.c_str());
        QVERIFY(driver::applyBest(dir.path().toStdString(), here).note.empty());
        QVERIFY(driver::applyBest("", here).configs.empty());
    }

    void aModelTakesBorrowedConfigurations() {
        // The model's one tunable function, tuned "on another machine of this
        // kind": its record's key carries that machine's target.
        driver::CompiledModel m = driver::compileGraph(convModel());
        auto tasks = driver::extractTasks(m);
        QCOMPARE(tasks.size(), size_t(1));
        const tune::Task& task = *tasks[0].task;
        tune::Config other = test::otherThanDefault(task.knobs());
        QVERIFY(!other.empty());
        Target here = driver::CompileOptions().request.target;
        Target elsewhere = withCpu(here, here.cpu == "znver5" ? "znver4" : "znver5", here.vectorBits);
        const std::string key = task.workload().key;
        QVERIFY(key.size() > here.str().size() && key.compare(key.size() - here.str().size(), std::string::npos, here.str()) == 0);
        tune::Record r = record("unused", elsewhere, other, 1e-3);
        r.workload.key = key.substr(0, key.size() - here.str().size()) + elsewhere.str();
        tune::Records rs;
        rs.add(r);
        driver::AppliedRecords applied = driver::bestConfigsFor(rs, here);
        QCOMPARE(applied.sameKind, 1);
        driver::CompileOptions co;
        co.configs = applied.configs;
        driver::CompiledModel tuned = driver::compileGraph(convModel(), co);
        int tunedFunctions = 0;
        for (auto& f : tuned.functions) tunedFunctions += f.tuned;
        QCOMPARE(tunedFunctions, 1);
    }
};

QTEST_GUILESS_MAIN(TestApplyBest)
#include "tst_applybest.moc"
