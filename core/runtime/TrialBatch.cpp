#include "runtime/TrialBatch.h"

#include "runtime/KernelBundle.h"
#include "runtime/OutputCheck.h"
#include "runtime/ReadFile.h"
#include "runtime/Runner.h"
#include "runtime/TimeEvaluator.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace tessel::runtime {

namespace {

nlohmann::json readJson(const std::string& dir, const char* name, const char* format) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(readFile(path));
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("'" + path + "' is not JSON: " + e.what());
    }
    if (!j.is_object() || j.value("format", "") != format)
        throw std::runtime_error("'" + path + "' is not a " + std::string(format) + " file");
    if (j.value("version", 0) != 1)
        throw std::runtime_error("'" + path + "' is of version " + std::to_string(j.value("version", 0)) +
                                 "; this build reads version 1");
    return j;
}

TrialResult failed(const std::string& bundle, MeasureError kind, std::string message) {
    TrialResult r;
    r.bundle = bundle;
    r.error = measureErrorName(kind);
    r.message = std::move(message);
    return r;
}

} // namespace

bool isTrialBatch(const std::string& dir) { return std::filesystem::exists(std::filesystem::path(dir) / kTrialManifest); }

std::vector<TrialEntry> readTrialManifest(const std::string& dir) {
    const nlohmann::json j = readJson(dir, kTrialManifest, "tessel-trials");
    std::vector<TrialEntry> out;
    try {
        for (auto& t : j.at("trials")) {
            TrialEntry e;
            e.bundle = t.value("bundle", "");
            e.isDefault = t.value("default", false);
            e.error = t.value("error", "none");
            e.message = t.value("message", "");
            out.push_back(std::move(e));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("'" + dir + "/" + kTrialManifest + "' has no list of trials: " + e.what());
    }
    return out;
}

std::vector<TrialResult> runTrialBatch(const std::string& dir, Device device, int repeat, std::ostream& log) {
    const std::vector<TrialEntry> trials = readTrialManifest(dir);
    // The default configuration runs first: its outputs are every other trial's reference.
    std::vector<size_t> order;
    for (size_t i = 0; i < trials.size(); ++i)
        if (trials[i].isDefault) order.insert(order.begin(), i);
        else order.push_back(i);
    std::vector<TrialResult> results(trials.size());
    std::optional<std::vector<NDArray>> reference;
    for (size_t i : order) {
        const TrialEntry& t = trials[i];
        TrialResult& r = results[i];
        if (t.bundle.empty()) {
            r.error = t.error;
            r.message = t.message;
            continue;
        }
        r.bundle = t.bundle;
        try {
            const KernelBundle bundle = KernelBundle::load((std::filesystem::path(dir) / t.bundle).string());
            BundleRun run = runBundle(bundle, device, repeat);
            r.ms = run.ms;
            r.maxAbsErr = run.maxAbsErr;
            if (!run.ok) {
                r = failed(t.bundle, MeasureError::WrongResult, run.message);
            } else if (reference) {
                const OutputCheck c = checkOutputs(run.outputs, *reference);
                r.maxAbsErr = std::max(r.maxAbsErr, c.maxAbsErr);
                if (!c.ok) r = failed(t.bundle, MeasureError::WrongResult, c.message + " (the default configuration's)");
            }
            if (t.isDefault && r.error == "none") reference = std::move(run.outputs);
            else if (!reference && !run.checked && r.error == "none")
                r.message = "not checked: the default configuration did not run";
        } catch (const std::exception& e) {
            r = failed(t.bundle, MeasureError::Runtime, e.what());
        }
        log << t.bundle << (t.isDefault ? " (default)" : "") << ": ";
        if (r.error != "none") log << r.error << ": " << r.message << "\n";
        else log << median(r.ms) << " ms" << (r.message.empty() ? "" : " (" + r.message + ")") << "\n";
    }

    nlohmann::json j;
    j["format"] = "tessel-trial-results";
    j["version"] = 1;
    j["repeat"] = repeat;
    j["results"] = nlohmann::json::array();
    for (auto& r : results)
        j["results"].push_back({{"bundle", r.bundle}, {"ms", r.ms}, {"error", r.error}, {"message", r.message},
                                {"max_abs_err", r.maxAbsErr}});
    const std::string path = (std::filesystem::path(dir) / kTrialResults).string();
    std::ofstream f(path);
    f << j.dump(1) << "\n";
    if (!f) throw std::runtime_error("cannot write '" + path + "'");
    return results;
}

std::vector<TrialResult> readTrialResults(const std::string& dir) {
    const nlohmann::json j = readJson(dir, kTrialResults, "tessel-trial-results");
    std::vector<TrialResult> out;
    try {
        for (auto& x : j.at("results")) {
            TrialResult r;
            r.bundle = x.value("bundle", "");
            r.ms = x.value("ms", std::vector<double>{});
            r.error = x.value("error", "none");
            r.message = x.value("message", "");
            r.maxAbsErr = x.value("max_abs_err", 0.0);
            out.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("'" + dir + "/" + kTrialResults + "' has no list of results: " + e.what());
    }
    return out;
}

} // namespace tessel::runtime
