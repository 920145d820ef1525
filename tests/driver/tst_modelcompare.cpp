// driver::compareModels on a small model built in the test: untuned against
// a side whose every tunable function takes a non-default configuration
// (from a records file, as apply-best reads it) gives a row per fused
// function with ratio = B / A and the right "tuned" flags, the outputs
// agree (outputs that do not are an error), and the CSV says the same figures; the sides can run in this
// process or in sessions on this machine's tessel-rpc server (one session
// shared by both: the model is reloaded as the side changes); a stale
// records file is the compiler's CompileError naming the side; cancelling
// keeps the completed rounds; a device that dies mid-run is an error that
// keeps them too.
#include "driver/ModelCompare.h"
#include "driver/ModelTasks.h"
#include "graph/Graph.h"
#include "ir/Diagnostic.h"
#include "rpc/RpcRunner.h"
#include "tune/Records.h"

#include <QTemporaryDir>
#include "common/TuneConfigs.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <set>
#include <sstream>

using namespace tessel;
using test::otherThanDefault;
using test::randomValues;

namespace {

graph::TensorType type(const char* text) { return *graph::TensorType::parse(text); }


/// x[1,16,14,14] -> conv 3x3 (16->32) + relu -> conv 3x3 (32->32) + relu
/// (twice, the same workload; once with `short_`) -> flatten -> gemm (6272 -> 40).
graph::Graph model(bool short_ = false) {
    graph::Graph g("compare");
    auto x = g.addInput("x", type("float32[1, 16, 14, 14]"));
    graph::Attributes pads;
    pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    auto conv = [&](graph::Value in, int64_t c, int64_t k, unsigned seed, const char* name) {
        auto w = g.addConstant(std::string(name) + "_w",
                               graph::Constant::fromFloats({k, c, 3, 3}, randomValues(size_t(k * c * 9), seed)));
        return g.addOp("Relu", {g.addOp("Conv", {in, w}, pads, name)}, {}, std::string(name) + "_relu");
    };
    auto y = conv(conv(x, 16, 32, 1, "c1"), 32, 32, 2, "c2");
    if (!short_) y = conv(y, 32, 32, 3, "c3");
    auto flat = g.addOp("Flatten", {y}, {}, "flatten");
    graph::Attributes transB;
    transB.set("transB", int64_t(1));
    auto wd = g.addConstant("fc_w", graph::Constant::fromFloats({40, 6272}, randomValues(40 * 6272, 4)));
    g.setOutputs({g.addOp("Gemm", {flat, wd}, transB, "fc")});
    return g;
}


/// Writes one successful record per task with `config(task)` into `path`.
void writeRecords(const std::string& path, const std::vector<driver::ModelTask>& tasks,
                  const std::function<tune::Config(const tune::Task&)>& config) {
    tune::RecordWriter w(path);
    for (const auto& t : tasks) {
        tune::Record r;
        r.workload = t.task->workload();
        r.target = codegen::hostTarget().str();
        r.config = config(*t.task);
        r.costs = {1e-3};
        r.flops = t.task->flops();
        r.tuner = "test";
        r.trial = 0;
        w.write(r);
    }
}

/// The sides' figures as compareCsv writes them, one map per line.
std::vector<std::map<std::string, std::string>> parseCsv(const std::string& text) {
    std::vector<std::map<std::string, std::string>> out;
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
        if (!line.empty() && line.back() == ',') fields.push_back("");
        if (header.empty()) {
            header = fields;
            continue;
        }
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size(); ++i) row[header[i]] = i < fields.size() ? fields[i] : "";
        out.push_back(row);
    }
    return out;
}

double num(const std::string& s) { return s.empty() ? std::nan("") : std::stod(s); }

} // namespace

class TestModelCompare : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    graph::Graph graph_ = graph::Graph("compare");
    driver::CompiledModel untuned_;
    std::vector<driver::ModelTask> tasks_;
    std::map<std::string, tune::Config> other_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        graph_ = model();
        untuned_ = driver::compileGraph(graph_);
        tasks_ = driver::extractTasks(untuned_);
        QVERIFY(tasks_.size() >= 2);
        // The "tuned" side: a records file whose best configurations differ
        // from the defaults (no tuning needed), read as apply-best reads it.
        const std::string records = dir_.filePath("other.jsonl").toStdString();
        writeRecords(records, tasks_, [](const tune::Task& t) { return otherThanDefault(t.knobs()); });
        other_ = driver::bestConfigs(tune::Records::load(records));
        QCOMPARE(other_.size(), tasks_.size());
    }

    void untunedAgainstTunedInThisProcess() {
        driver::CompareSide a, b;
        a.label = "untuned";
        b.label = "tuned";
        b.configs = other_;
        driver::CompareOptions o;
        o.rounds = 4;
        std::vector<double> fractions;
        o.progress = [&](double f, const std::string&) {
            fractions.push_back(f);
            return true;
        };
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.compiles, 2);
        QCOMPARE(r.rounds, 4);
        QCOMPARE(r.runsA.size(), size_t(4));
        QCOMPARE(r.runsB.size(), size_t(4));
        QVERIFY(r.outputsChecked && r.outputsAgree);
        QVERIFY(r.maxAbsA > 0);
        QVERIFY(r.notes.empty());
        QCOMPARE(r.labelA, std::string("untuned"));
        QCOMPARE(r.labelB, std::string("tuned"));
        // Progress only grows, and reaches the end.
        QVERIFY(!fractions.empty());
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.back(), 1.0);

        // A row per fused function, in execution order.
        QCOMPARE(r.rows.size(), untuned_.functions.size());
        int tunedRows = 0;
        for (size_t i = 0; i < r.rows.size(); ++i) {
            const driver::CompareRow& row = r.rows[i];
            const driver::FusedFunction& f = untuned_.functions[i];
            QCOMPARE(row.function, f.name);
            QCOMPARE(row.callsA, 1);
            QCOMPARE(row.callsB, 1);
            QVERIFY2(row.msA > 0 && row.msB > 0, row.function.c_str());
            QCOMPARE(row.ratio, row.msB / row.msA);
            QVERIFY(!row.tunedA);
            QCOMPARE(row.tunedB, !f.knobs.empty()); // every tunable function took its record
            tunedRows += row.tunedB;
            if (f.flops > 0) QCOMPARE(row.gflopsA, f.flops / (row.msA * 1e-3) * 1e-9);
        }
        QCOMPARE(tunedRows, int(tasks_.size()) + 1); // c2 and c3 share a workload
        QCOMPARE(r.latencyA, runtime::median(r.runsA));
        QCOMPARE(r.latencyB, runtime::median(r.runsB));
        QCOMPARE(r.ratio, r.latencyB / r.latencyA);
        QVERIFY(r.find(r.rows.front().function) == &r.rows.front());
        QVERIFY(!r.find("no_such_function"));

        // The CSV: a header, one line per function, the end-to-end line, full precision.
        const auto csv = parseCsv(driver::compareCsv(r));
        QCOMPARE(csv.size(), r.rows.size() + 1);
        for (size_t i = 0; i < r.rows.size(); ++i) {
            QCOMPARE(csv[i].at("function"), r.rows[i].function);
            QCOMPARE(num(csv[i].at("ms_a")), r.rows[i].msA);
            QCOMPARE(num(csv[i].at("ms_b")), r.rows[i].msB);
            QCOMPARE(num(csv[i].at("ratio")), r.rows[i].ratio);
            QCOMPARE(csv[i].at("tuned_b"), std::string(r.rows[i].tunedB ? "1" : "0"));
        }
        QCOMPARE(csv.back().at("function"), std::string(driver::kEndToEnd));
        QCOMPARE(num(csv.back().at("ms_a")), r.latencyA);
        QCOMPARE(num(csv.back().at("ms_b")), r.latencyB);
        QCOMPARE(num(csv.back().at("ratio")), r.ratio);
    }

    void outputsThatDisagreeAreAnErrorThatKeepsTheFigures() {
        // Another configuration sums in another order: not bit-identical, so
        // a tolerance of 0 calls the outputs different.
        driver::CompareSide a, b;
        b.configs = other_;
        driver::CompareOptions o;
        o.rounds = 1;
        o.tolerance = 0;
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY(r.maxAbsDiff > 0);
        QVERIFY(r.outputsChecked && !r.outputsAgree);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error).startsWith("the outputs disagree: output '"), r.error.c_str());
        QCOMPARE(r.rounds, 1);
        QVERIFY(r.latencyA > 0 && r.latencyB > 0);
    }

    void sameSidesShareACompile() {
        driver::CompareSide a, b;
        a.threads = 1;
        b.threads = 2;
        driver::CompareOptions o;
        o.rounds = 2;
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.compiles, 1);
        QCOMPARE(r.labelA, std::string("A"));
        QCOMPARE(r.labelB, std::string("B"));
        QCOMPARE(r.threadsA, 1);
        QCOMPARE(r.threadsB, 2);
        QCOMPARE(r.maxAbsDiff, 0.0); // the same kernels on the same inputs
        for (const auto& row : r.rows) QVERIFY(!row.tunedA && !row.tunedB);
    }

    void onTheLocalServer() {
        // Both sides in one session of this machine's tessel-rpc server: the
        // model is uploaded again whenever the side changes.
        rpc::RpcModelRunner local(std::make_shared<rpc::LocalEndpoint>());
        driver::CompareSide a, b;
        a.runner = b.runner = &local;
        b.configs = other_;
        driver::CompareOptions o;
        o.rounds = 3;
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.rows.size(), untuned_.functions.size());
        QVERIFY(r.outputsAgree);
        QVERIFY(r.threadsA > 0 && r.threadsB > 0);
        for (const auto& row : r.rows) {
            QVERIFY(row.msA > 0 && row.msB > 0);
            QCOMPARE(row.ratio, row.msB / row.msA);
        }
        // Against this process: the same figures' kind, from both places.
        driver::CompareSide here;
        driver::CompareSide there;
        there.runner = &local;
        const driver::CompareResult mixed = driver::compareModels(graph_, here, there, o);
        QVERIFY2(mixed.ok(), mixed.error.c_str());
        QCOMPARE(mixed.compiles, 1);
        QCOMPARE(mixed.maxAbsDiff, 0.0);
    }

    void aFunctionOnOneSideOnlyIsARowWithTheOtherEmpty() {
        const driver::CompiledModel shorter = driver::compileGraph(model(true));
        QCOMPARE(shorter.functions.size() + 1, untuned_.functions.size());
        // Made-up rounds: step s of round i takes (s + 1) * (i + 1) ms.
        auto rounds = [](const driver::CompiledModel& m, int n) {
            std::vector<driver::CompareRound> out;
            for (int i = 0; i < n; ++i) {
                driver::CompareRound r;
                for (size_t s = 0; s < m.plan.steps.size(); ++s) r.stepMs.push_back(double(s + 1) * (i + 1));
                r.ms = 100.0 * (i + 1);
                out.push_back(r);
            }
            return out;
        };
        driver::CompareResult r;
        r.labelA = "long";
        r.labelB = "short";
        driver::summariseRounds(untuned_, shorter, rounds(untuned_, 3), rounds(shorter, 3), r);
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.latencyA, 200.0);
        QCOMPARE(r.ratio, 1.0);
        std::set<std::string> inShorter;
        for (const auto& f : shorter.functions) inShorter.insert(f.name);
        int onlyA = 0;
        for (const auto& row : r.rows) {
            QVERIFY(row.inA() || row.inB());
            if (row.inA() && row.inB()) {
                QCOMPARE(row.ratio, row.msB / row.msA);
                continue;
            }
            ++onlyA;
            QVERIFY(row.inA() && !row.inB());
            QVERIFY(!inShorter.count(row.function));
            QVERIFY(std::isnan(row.msB) && std::isnan(row.ratio));
            QCOMPARE(row.gflopsB, 0.0);
            QVERIFY(row.msA > 0);
        }
        QCOMPARE(onlyA, 1);
        QCOMPARE(r.rows.size(), untuned_.functions.size());
        QCOMPARE(r.notes.size(), size_t(1));
        QVERIFY2(QString::fromStdString(r.notes[0]).endsWith("runs only on long"), r.notes[0].c_str());
        // The CSV leaves the missing side's fields empty.
        int empty = 0;
        for (const auto& line : parseCsv(driver::compareCsv(r)))
            if (line.at("function") != driver::kEndToEnd && line.at("ms_b").empty()) {
                ++empty;
                QVERIFY(line.at("calls_b").empty() && line.at("ratio").empty() && !line.at("ms_a").empty());
            }
        QCOMPARE(empty, 1);
        // Swapped: the row is there with A empty, after B's others.
        driver::CompareResult swapped;
        driver::summariseRounds(shorter, untuned_, rounds(shorter, 2), rounds(untuned_, 2), swapped);
        QCOMPARE(swapped.rows.size(), untuned_.functions.size());
        QVERIFY(!swapped.rows.back().inA() && swapped.rows.back().inB());
    }

    // A records file whose configurations no longer fit their templates (a
    // stale file) compares all the same: each such function takes its default
    // schedule, and the result's warnings name the side and the function.
    void aStaleRecordsFileIsSkippedWithAWarning() {
        const std::string records = dir_.filePath("stale.jsonl").toStdString();
        writeRecords(records, tasks_, [](const tune::Task& t) {
            tune::Config c;
            c[t.knobs().front().name] = 999;
            return c;
        });
        driver::CompareSide a, b;
        b.label = "stale.jsonl";
        b.configs = driver::bestConfigs(tune::Records::load(records));
        driver::CompareOptions o;
        o.rounds = 1;
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY2(r.ok(), r.error.c_str());
        int stale = 0;
        for (const auto& n : r.warnings)
            if (n.starts_with("stale.jsonl: function ") && n.find("tuned configuration") != std::string::npos &&
                n.find("the default schedule is used") != std::string::npos)
                ++stale;
        // One note per function of a stale workload (some share one).
        QVERIFY2(stale >= int(b.configs.size()) && stale > 0, qPrintable(QString::number(stale)));
        QVERIFY(r.outputsChecked && r.outputsAgree);
    }

    void cancelKeepsTheCompletedRounds() {
        driver::CompareSide a, b;
        b.configs = other_;
        driver::CompareOptions o;
        o.rounds = 10;
        o.progress = [](double, const std::string& stage) { return stage != "round 4 of 10"; };
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY(r.cancelled);
        QVERIFY(!r.ok());
        QVERIFY(r.error.empty());
        QCOMPARE(r.rounds, 3);
        QCOMPARE(r.rows.size(), untuned_.functions.size());
        for (const auto& row : r.rows) QVERIFY(row.msA > 0 && row.msB > 0);

        // Cancelled while compiling: nothing measured, no error.
        o.progress = [](double f, const std::string&) { return f < 0.1; };
        const driver::CompareResult early = driver::compareModels(graph_, a, b, o);
        QVERIFY(early.cancelled);
        QCOMPARE(early.rounds, 0);
        QVERIFY(early.rows.empty());
    }

    void aDeviceThatDiesIsAnErrorThatKeepsTheRounds() {
        auto server = std::make_shared<rpc::LocalServer>();
        rpc::RpcModelRunner local(std::make_shared<rpc::LocalEndpoint>(server));
        driver::CompareSide a, b;
        b.runner = &local;
        driver::CompareOptions o;
        o.rounds = 6;
        o.progress = [&](double, const std::string& stage) {
            if (stage == "round 3 of 6") server->stop();
            return true;
        };
        const driver::CompareResult r = driver::compareModels(graph_, a, b, o);
        QVERIFY(!r.cancelled);
        QVERIFY(!r.error.empty());
        QVERIFY2(QString::fromStdString(r.error).contains("after 2 complete rounds"), r.error.c_str());
        QCOMPARE(r.rounds, 2);
        for (const auto& row : r.rows) QVERIFY(row.msA > 0 && row.msB > 0);
    }
};

QTEST_GUILESS_MAIN(TestModelCompare)
#include "tst_modelcompare.moc"
