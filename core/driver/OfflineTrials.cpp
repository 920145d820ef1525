#include "driver/OfflineTrials.h"

#include "driver/KernelBundleExport.h"
#include "ir/Diagnostic.h"
#include "runtime/TrialBatch.h"
#include "tune/Records.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tessel::driver {

namespace fs = std::filesystem;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string bundleName(size_t i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "trial-%03zu", i);
    return buf;
}

} // namespace

OfflineExport exportTrials(const ScriptTask& task, const std::string& dir, const OfflineTrialOptions& options,
                           const tune::CostModelRegistry& models) {
    if (options.trials <= 0) throw std::invalid_argument("offline trials need a number of trials > 0");
    const Target target = Target::parse(task.target());
    if (!target.isGPU())
        throw std::invalid_argument("offline trials are for a GPU target (--target cuda), not " + target.str() +
                                    ": a CPU device is tuned through tessel-rpc");
    OfflineExport out;
    tune::TuneOptions to = options.tune;
    to.trials = options.trials;
    tune::Tuner tuner(task, models, to);
    if (!options.records.empty() && fs::exists(options.records))
        out.resumed = tuner.resume(tune::Records::load(options.records, nullptr, false));

    fs::remove_all(dir);
    fs::create_directories(dir);
    nlohmann::json manifest;
    manifest["format"] = "tessel-trials";
    manifest["version"] = 1;
    manifest["workload"] = task.workload().key;
    manifest["target"] = task.target();
    manifest["trials"] = nlohmann::json::array();
    const std::vector<int64_t> batch = tuner.propose(options.trials);
    for (size_t k = 0; k < batch.size(); ++k) {
        tune::MeasureResult pending;
        pending.config = tuner.space().config(batch[k]);
        // A record file holds measured trials only: until the host's result replaces it, this one is a failure.
        pending.error = runtime::MeasureError::Runtime;
        pending.message = "not measured yet: an offline trial";
        const tune::Record record = tuner.recordOf(batch[k], pending, out.resumed + int(k));
        nlohmann::json t = {{"default", record.isDefault},
                            {"record", nlohmann::json::parse(tune::formatRecord(record))}};
        try {
            BundleOptions bo;
            bo.expected = options.expected && record.isDefault;
            exportKernelBundle(task.lowered(pending.config), (fs::path(dir) / bundleName(k)).string(), target, bo);
            t["bundle"] = bundleName(k);
            ++out.exported;
        } catch (const CompileError& e) {
            t["error"] = runtime::measureErrorName(runtime::MeasureError::Build);
            t["message"] = e.diagnostic().message;
            ++out.failed;
        }
        manifest["trials"].push_back(std::move(t));
    }
    const fs::path path = fs::path(dir) / runtime::kTrialManifest;
    std::ofstream f(path);
    f << manifest.dump(1) << "\n";
    if (!f) throw std::runtime_error("cannot write '" + path.string() + "'");
    return out;
}

OfflineImport importTrials(const std::string& dir, const std::string& records) {
    const fs::path path = fs::path(dir) / runtime::kTrialManifest;
    nlohmann::json manifest;
    try {
        manifest = nlohmann::json::parse(std::ifstream(path));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("'" + path.string() + "' is not a batch of trials: " + e.what());
    }
    if (!fs::exists(fs::path(dir) / runtime::kTrialResults))
        throw std::runtime_error("'" + dir + "' has no results yet: run `tessel-run " + dir +
                                 "` on the GPU host and bring the folder back");
    const std::vector<runtime::TrialResult> results = runtime::readTrialResults(dir);
    const nlohmann::json& trials = manifest.at("trials");
    if (results.size() != trials.size())
        throw std::runtime_error("'" + dir + "': " + std::to_string(results.size()) + " results for " +
                                 std::to_string(trials.size()) + " trials; the results belong to another batch");

    OfflineImport out;
    out.workload = manifest.value("workload", "");
    tune::RecordWriter writer(records);
    for (size_t i = 0; i < results.size(); ++i) {
        const nlohmann::json& t = trials[i];
        const runtime::TrialResult& r = results[i];
        if (r.bundle != t.value("bundle", ""))
            throw std::runtime_error("'" + dir + "': result " + std::to_string(i) + " is of '" + r.bundle +
                                     "', the manifest's trial is '" + t.value("bundle", "") + "'");
        tune::Record rec = tune::parseRecord(t.at("record").dump());
        rec.error = tune::measureErrorFromName(r.error).value_or(runtime::MeasureError::Runtime);
        rec.message = r.message;
        rec.costs.clear();
        if (rec.error == runtime::MeasureError::None)
            for (double ms : r.ms) rec.costs.push_back(ms * 1e-3);
        if (rec.error == runtime::MeasureError::None && rec.costs.empty()) {
            rec.error = runtime::MeasureError::Runtime;
            rec.message = "the GPU host reported no timings";
        }
        rec.timestamp = now();
        writer.write(rec);
        ++out.trials;
        if (!rec.ok()) {
            ++out.failed;
            continue;
        }
        if (rec.gflops() > out.bestGflops) {
            out.bestGflops = rec.gflops();
            out.best = rec.config;
        }
        if (rec.isDefault) out.defaultGflops = rec.gflops();
    }
    return out;
}

} // namespace tessel::driver
