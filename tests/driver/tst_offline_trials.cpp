// Offline trials (driver/OfflineTrials.h, runtime/TrialBatch.h): a round of
// the GPU GEMM template's configurations exported as kernel bundles, the
// same configurations computing the GEMM on this CPU, the GPU host's results
// read back as records, and the next round learning from them.
#include "codegen/Target.h"
#include "driver/Context.h"
#include "driver/Measure.h"
#include "driver/OfflineTrials.h"
#include "runtime/CudaDriver.h"
#include "runtime/TrialBatch.h"
#include "tune/Records.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const std::string kTemplate = std::string(TESSEL_SOURCE_DIR) + "/resources/templates/gemm_cuda.te";

std::unique_ptr<driver::ScriptTask> gemmTask(const Target& target, int64_t size = 256) {
    driver::ScriptTaskOptions so;
    so.workload = {{"M", size}, {"N", size}, {"K", size}};
    so.target = target;
    return driver::ScriptTask::fromFile(kTemplate, so);
}

Target cuda() { return codegen::resolveTarget("cuda -mcpu=sm_90"); }

nlohmann::json readJson(const fs::path& p) { return nlohmann::json::parse(std::ifstream(p)); }

driver::OfflineTrialOptions options(int trials, const std::string& records) {
    driver::OfflineTrialOptions o;
    o.trials = trials;
    o.records = records;
    o.tune.tuner = "random";
    o.tune.seed = 7;
    return o;
}

/// What a GPU host writes: trial i of the manifest took 1 + i/10 ms, except `wrong`.
void writeResults(const fs::path& dir, size_t wrong) {
    const nlohmann::json m = readJson(dir / runtime::kTrialManifest);
    nlohmann::json j = {{"format", "tessel-trial-results"}, {"version", 1}, {"repeat", 3}};
    j["results"] = nlohmann::json::array();
    for (size_t i = 0; i < m["trials"].size(); ++i) {
        const double ms = 1.0 + double(i) / 10;
        if (i == wrong)
            j["results"].push_back({{"bundle", m["trials"][i].value("bundle", "")},
                                    {"ms", nlohmann::json::array()},
                                    {"error", "wrong-result"},
                                    {"message", "output 0 differs"}});
        else
            j["results"].push_back(
                {{"bundle", m["trials"][i].value("bundle", "")}, {"ms", {ms, ms, ms}}, {"error", "none"}});
    }
    std::ofstream(dir / runtime::kTrialResults) << j.dump();
}

} // namespace

class TestOfflineTrials : public QObject {
    Q_OBJECT

private slots:
    void exportWritesTheTunersNextRound() {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "round";
        auto task = gemmTask(cuda());
        const auto e = driver::exportTrials(*task, dir.string(), options(6, ""), driver::Context::builtin().costModels());
        QCOMPARE(e.exported + e.failed, 6);
        QVERIFY(e.exported >= 1);
        QCOMPARE(e.resumed, 0);
        const nlohmann::json m = readJson(dir / runtime::kTrialManifest);
        QCOMPARE(m["format"].get<std::string>(), std::string("tessel-trials"));
        QCOMPARE(m["workload"].get<std::string>(), task->workload().key);
        QCOMPARE(m["trials"].size(), size_t(6));
        // The default first, with this CPU's outputs; the others are checked against it on the host.
        QVERIFY(m["trials"][0]["default"].get<bool>());
        QVERIFY(fs::exists(dir / "trial-000" / "expected0.bin"));
        std::set<std::string> configs;
        for (auto& t : m["trials"]) {
            const tune::Record r = tune::parseRecord(t["record"].dump());
            QCOMPARE(r.workload.key, task->workload().key);
            QVERIFY(r.costs.empty());
            QVERIFY(!r.ok()); // not measured yet
            configs.insert(tune::formatRecord(r).substr(0, tune::formatRecord(r).find("\"values\"")));
            if (t.contains("bundle")) {
                std::stringstream ptx;
                ptx << std::ifstream(dir / t["bundle"].get<std::string>() / "kernels.ptx").rdbuf();
                QVERIFY(ptx.str().find(".entry") != std::string::npos);
            } else {
                QCOMPARE(t["error"].get<std::string>(), std::string("build"));
            }
        }
        QCOMPARE(configs.size(), size_t(6)); // six different configurations
        QVERIFY(runtime::isTrialBatch(dir.string()));
        QCOMPARE(runtime::readTrialManifest(dir.string()).size(), size_t(6));
    }

    // A GPU configuration means the same GEMM: lowered for this CPU, its
    // thread loops run one after another and its results equal the default
    // schedule's, so every configuration a round exports is a correct kernel.
    void everyExportedConfigurationComputesTheGemmOnTheCpu() {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "round";
        auto gpu = gemmTask(cuda(), 128);
        driver::exportTrials(*gpu, dir.string(), options(8, ""), driver::Context::builtin().costModels());
        auto host = gemmTask(codegen::hostTarget(), 128);
        // The manifest outlives the loop (a range over a temporary's member would not).
        const auto manifest = readJson(dir / runtime::kTrialManifest);
        for (const auto& t : manifest.at("trials")) {
            if (!t.contains("bundle")) continue;
            const tune::Record r = tune::parseRecord(t["record"].dump());
            driver::RunOptions ro;
            ro.evaluator = runtime::TimeEvaluator{1, 1, 1, 1};
            const driver::RunReport rep = driver::runAndCheck(host->lowered(r.config), ro);
            QVERIFY2(rep.ok, (t["bundle"].get<std::string>() + ": " + rep.error).c_str());
        }
    }

    void importAppendsRecordsAndTheNextRoundLearnsFromThem() {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "round";
        const std::string records = tmp.filePath("records.json").toStdString();
        auto task = gemmTask(cuda());
        driver::exportTrials(*task, dir.string(), options(5, records), driver::Context::builtin().costModels());
        try {
            driver::importTrials(dir.string(), records);
            QFAIL("a batch without results imported");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("no results yet"), e.what());
        }
        writeResults(dir, 3);
        const driver::OfflineImport imp = driver::importTrials(dir.string(), records);
        QCOMPARE(imp.trials, 5);
        QCOMPARE(imp.failed, 1);
        QCOMPARE(imp.workload, task->workload().key);
        QVERIFY(imp.defaultGflops > 0);
        QCOMPARE(imp.bestGflops, imp.defaultGflops); // trial 0, the default, took the least time

        const tune::Records loaded = tune::Records::load(records, nullptr, false);
        const auto rs = loaded.forWorkload(task->workload().key);
        QCOMPARE(rs.size(), size_t(5));
        QVERIFY(rs[0]->isDefault);
        QCOMPARE(rs[0]->costs.size(), size_t(3));
        QCOMPARE(rs[0]->costs[0], 1e-3);
        QCOMPARE(rs[3]->error, runtime::MeasureError::WrongResult);
        QCOMPARE(rs[3]->message, std::string("output 0 differs"));
        QCOMPARE(rs[4]->trial, int64_t(4));

        // Round two: the records' configurations are not exported again, the default neither.
        const fs::path dir2 = fs::path(tmp.path().toStdString()) / "round2";
        const auto e2 =
            driver::exportTrials(*task, dir2.string(), options(4, records), driver::Context::builtin().costModels());
        QCOMPARE(e2.resumed, 5);
        std::set<tune::Config> seen;
        for (auto* r : rs) seen.insert(r->config);
        const nlohmann::json m2 = readJson(dir2 / runtime::kTrialManifest);
        QCOMPARE(m2["trials"].size(), size_t(4));
        for (auto& t : m2["trials"]) {
            const tune::Record r = tune::parseRecord(t["record"].dump());
            QVERIFY(!r.isDefault);
            QVERIFY(!seen.count(r.config));
            QVERIFY(r.trial >= 5);
        }
    }

    void resultsOfAnotherBatchAreRefused() {
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "round";
        auto task = gemmTask(cuda());
        driver::exportTrials(*task, dir.string(), options(3, ""), driver::Context::builtin().costModels());
        nlohmann::json j = {{"format", "tessel-trial-results"}, {"version", 1}, {"results", nlohmann::json::array()}};
        std::ofstream(dir / runtime::kTrialResults) << j.dump();
        try {
            driver::importTrials(dir.string(), tmp.filePath("r.json").toStdString());
            QFAIL("results of another batch imported");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("another batch"), e.what());
        }
        QVERIFY(!fs::exists(tmp.filePath("r.json").toStdString()) || fs::file_size(tmp.filePath("r.json").toStdString()) == 0);
    }

    void aCpuTargetIsRefused() {
        QTemporaryDir tmp;
        auto task = gemmTask(codegen::hostTarget());
        try {
            driver::exportTrials(*task, tmp.filePath("x").toStdString(), options(2, ""),
                                 driver::Context::builtin().costModels());
            QFAIL("offline trials exported for the CPU");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("GPU target"), e.what());
        }
    }

    // Without a GPU the host's half still runs: every trial fails with the
    // reason, results.json is written, and importing it records the failures.
    void batchWithoutAGpuRecordsWhy() {
        std::string why;
        if (runtime::cuda::driver(&why) != nullptr) QSKIP("an NVIDIA driver is here: the batch would run");
        QTemporaryDir tmp;
        const fs::path dir = fs::path(tmp.path().toStdString()) / "round";
        auto task = gemmTask(cuda());
        driver::exportTrials(*task, dir.string(), options(2, ""), driver::Context::builtin().costModels());
        std::ostringstream log;
        const auto results = runtime::runTrialBatch(dir.string(), runtime::Device::cuda(0), 3, log);
        QCOMPARE(results.size(), size_t(2));
        for (auto& r : results) {
            QCOMPARE(r.error, std::string("runtime"));
            QVERIFY2(QString::fromStdString(r.message).contains("NVIDIA"), r.message.c_str());
        }
        QVERIFY2(log.str().find("trial-000 (default): runtime") != std::string::npos, log.str().c_str());
        const auto imp = driver::importTrials(dir.string(), tmp.filePath("r.json").toStdString());
        QCOMPARE(imp.trials, 2);
        QCOMPARE(imp.failed, 2);
    }
};

QTEST_GUILESS_MAIN(TestOfflineTrials)
#include "tst_offline_trials.moc"
