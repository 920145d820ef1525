#include "TuneCommands.h"

#include "driver/TuneTasks.h"
#include "driver/TuningLoop.h"
#include "driver/TuningRecords.h"
#include "ir/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace tessel::cli {

namespace {

std::string duration(double s) {
    if (!std::isfinite(s) || s < 0) return "?";
    char buf[32];
    const long t = long(std::lround(s));
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}

/// "48/200 trials, best 85.1 GFLOP/s, 1.91x over the default, 2 failed, ETA 3m12s".
std::string progress(const std::string& name, int done, int budget, double best, double def, int failed,
                     double eta) {
    char buf[512], speedup[64] = "";
    if (def > 0 && best > 0) std::snprintf(speedup, sizeof speedup, ", %.2fx over the default", best / def);
    std::snprintf(buf, sizeof buf, "%s: %d/%d trials, best %.1f GFLOP/s%s, %d failed, ETA %s", name.c_str(), done,
                  budget, best, speedup, failed, done >= budget ? "0s" : duration(eta).c_str());
    return buf;
}

std::string configText(const std::map<std::string, std::string>& values) {
    std::string out;
    for (auto& [k, v] : values) out += (out.empty() ? "" : ", ") + k + "=" + v;
    return out;
}

} // namespace

int runTune(const TuneArgs& a, driver::DeviceRunners& device, const tune::CostModelRegistry& models) {
    if (a.records.empty()) throw std::invalid_argument("tune needs --records FILE (trials are appended to it)");
    if (a.trials <= 0) throw std::invalid_argument("tune needs --trials N (N > 0)");
    auto kind = driver::featureKindNamed(a.features);
    if (!kind) throw std::invalid_argument("--features must be itervar, knob or curve");

    std::vector<WeightedTask> tasks;
    std::vector<std::map<std::string, int64_t>> workloads = a.workloads;
    if (workloads.empty()) workloads.push_back({});
    for (auto& w : workloads) {
        driver::ScriptTaskOptions so;
        so.workload = w;
        so.target = a.target;
        tasks.push_back({std::shared_ptr<const tune::Task>(driver::ScriptTask::fromFile(a.file, so)), 1});
    }
    return runTuneTasks(tasks, a, device, models);
}

int runTuneTasks(const std::vector<WeightedTask>& tasks, const TuneArgs& a, driver::DeviceRunners& device,
                 const tune::CostModelRegistry& models) {
    if (a.records.empty()) throw std::invalid_argument("tune needs --records FILE (trials are appended to it)");
    if (a.trials <= 0) throw std::invalid_argument("tune needs --trials N (N > 0)");
    auto kind = driver::featureKindNamed(a.features);
    if (!kind) throw std::invalid_argument("--features must be itervar, knob or curve");

    driver::TuningLoopOptions o;
    o.records = a.records;
    o.transfer = a.transfer;
    o.measure.threads = a.threads;
    o.measure.seed = a.seed;
    o.measure.buildJobs = a.buildJobs;
    o.measure.timeoutSeconds = a.timeoutSeconds;
    o.tune.tuner = a.tuner;
    o.tune.costModel = a.costModel;
    o.tune.trials = a.trials;
    o.tune.earlyStopping = a.earlyStopping;
    o.tune.seed = a.seed;
    o.tune.features = *kind;
    if (a.batch > 0) o.tune.batchSize = a.batch;
    std::vector<driver::TuningJob> jobs;
    for (auto& [task, weight] : tasks) jobs.push_back({task, weight});

    const bool tty = isatty(fileno(stdout));
    int status = 0;
    int failed = 0, runTrials = 0;
    std::string line;
    driver::TuningEvents ev;
    ev.onWarning = [](const std::string& w) { std::fprintf(stderr, "tesselc: warning: %s\n", w.c_str()); };
    ev.onStart = [&](size_t j, const tune::Tuner& tuner, int resumed, int transferred) {
        const tune::Task& task = *jobs[j].task;
        if (jobs.size() > 1)
            std::printf("[%zu/%zu] %s (called %d time%s a run)\n", j + 1, jobs.size(), task.name().c_str(),
                        jobs[j].weight, jobs[j].weight == 1 ? "" : "s");
        if (resumed > 0 || transferred > 0) {
            std::printf("%s: %d trials from %s", task.name().c_str(), resumed, a.records.c_str());
            if (transferred > 0) std::printf(", model warm-started from %d records of other workloads", transferred);
            std::printf("\n");
        }
        if (a.verbose)
            std::printf("%s: %lld configurations, tuner %s\n", task.name().c_str(),
                        static_cast<long long>(tuner.space().size()), a.tuner.c_str());
        std::fflush(stdout);
        failed = runTrials = 0;
    };
    ev.onTrial = [&](size_t j, const tune::TrialEvent& e) {
        ++runTrials;
        failed += e.error != runtime::MeasureError::None;
        const double eta = e.elapsedSeconds / runTrials * (e.budget - e.trial - 1);
        line = progress(jobs[j].task->name(), e.trial + 1, e.budget, e.bestGflops, e.defaultGflops, failed, eta);
        if (a.verbose) {
            char what[64];
            std::snprintf(what, sizeof what, "%.2f GFLOP/s", e.gflops);
            const std::string result = e.error == runtime::MeasureError::None
                                           ? what
                                           : std::string(runtime::measureErrorName(e.error)) + " (" + e.message + ")";
            std::printf("  trial %d: %s: %s\n", e.trial, result.c_str(), configText(e.values).c_str());
        }
        if (tty) std::printf("\r%s\x1b[K", line.c_str());
        else if (a.verbose || (e.trial + 1) % 16 == 0) std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    };
    ev.onDone = [&](size_t j, const tune::TuneResult& r) {
        const tune::Task& task = *jobs[j].task;
        line = progress(task.name(), r.totalTrials, a.trials, r.bestGflops, r.defaultGflops, r.failed, 0);
        std::printf(tty ? "\r%s\x1b[K\n" : "%s\n", line.c_str());
        if (r.earlyStopped) std::printf("  stopped early: %d trials without a faster one\n", a.earlyStopping);
        if (r.exhausted) std::printf("  the whole space is measured\n");
        if (r.bestGflops > 0) {
            std::printf("  best: %s\n", configText(driver::describeConfig(task, r.bestConfig)).c_str());
        } else {
            std::printf("  no configuration ran successfully\n");
            status = 1;
        }
        if (a.verbose)
            std::printf("  %.1f s: measuring %.1f s, model fit %.2f s, search %.2f s (features %.2f s)\n", r.wallSeconds,
                        r.measureSeconds, r.searchTime.fit, r.searchTime.search, r.searchTime.features);
        std::fflush(stdout);
    };
    driver::CompileRequest request;
    request.target = a.target;
    driver::runTuningLoopOn(device, request, jobs, o, models, ev);
    return status;
}

int runRecords(const std::string& file, bool best, bool json) {
    std::vector<std::string> warnings;
    tune::Records records = driver::readRecordsFile(file, &warnings);
    for (auto& w : warnings) std::fprintf(stderr, "tesselc: warning: %s\n", w.c_str());
    auto summary = records.summary();
    if (best) {
        for (auto& s : summary)
            if (s.best) std::cout << driver::recordLine(*s.best) << "\n";
        return 0;
    }
    if (json) {
        nlohmann::json arr = nlohmann::json::array();
        for (auto& s : summary) {
            nlohmann::json errors = nlohmann::json::object();
            for (auto& [e, n] : s.errors) errors[runtime::measureErrorName(e)] = n;
            nlohmann::json j = {{"workload", s.workload.key}, {"op", s.workload.op}, {"target", s.target},
                                {"trials", s.trials},         {"failed", s.failed},  {"errors", errors}};
            if (s.best) {
                j["best_gflops"] = s.best->gflops();
                j["best_seconds"] = s.best->seconds();
                j["best_config"] = s.best->config;
            }
            if (s.defaultRecord) j["default_gflops"] = s.defaultRecord->gflops();
            arr.push_back(j);
        }
        std::cout << arr.dump() << "\n";
        return 0;
    }
    std::printf("%s: %zu records, %zu workloads\n", file.c_str(), records.size(), summary.size());
    for (auto& s : summary) {
        // The key ends with the target's full text: say the workload, then the machine in short.
        std::string what = s.workload.key;
        if (!s.target.empty() && what.size() > s.target.size() && what.ends_with(" " + s.target))
            what.resize(what.size() - s.target.size() - 1);
        std::string on;
        try {
            const Target t = Target::parse(s.target);
            on = t.triple + (t.cpu.empty() ? "" : " " + t.cpu);
        } catch (const std::exception&) {
            on = s.target;
        }
        std::printf("\n%s on %s\n  %d trials, %d failed", what.c_str(), on.c_str(), s.trials, s.failed);
        if (!s.errors.empty()) {
            std::string kinds;
            for (auto& [e, n] : s.errors) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + runtime::measureErrorName(e);
            std::printf(" (%s)", kinds.c_str());
        }
        std::printf("\n");
        if (s.best) {
            std::printf("  best %.2f GFLOP/s (%.4f ms), trial %lld: %s\n", s.best->gflops(), s.best->seconds() * 1e3,
                        static_cast<long long>(s.best->trial), configText(s.best->values).c_str());
            if (s.defaultRecord)
                std::printf("  default %.2f GFLOP/s: %.2fx faster tuned\n", s.defaultRecord->gflops(),
                            s.best->gflops() / s.defaultRecord->gflops());
        } else {
            std::printf("  no successful trial\n");
        }
    }
    return 0;
}

} // namespace tessel::cli
