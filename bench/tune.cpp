// bench/tune: search quality of the tuners. Every tuner gets the same trial
// budget on the same workloads, with 3 seeds each, measured as `tesselc tune`
// measures (built in this process, run in a tessel-rpc server child, checked
// against the reference schedule):
//
//   bench_tune [--trials N] [--seeds S] [--tuners random,grid,ga,xgb,xgb-reg]
//              [--workloads gemm,conv56,conv28,conv14] [--threads T]
//              [--features itervar|knob|curve] [--batch B] [--json FILE] [--records-dir DIR]
//
// Workloads: the GEMM template at 1024^3 (resources/templates/gemm.te) and
// three ResNet-18 3x3 convolutions (resources/templates/conv2d_nchwc.te:
// 64 channels at 56x56, 128 at 28x28, 256 at 14x14, stride 1, padding 1).
//
// For each workload and tuner it prints the best GFLOP/s against trials (the
// median over seeds at checkpoints), the trial at which each seed first
// reaches 95% of the best that `random` finds with its whole budget (the
// mean over random's seeds), and the share of the wall time spent thinking:
// model fit plus simulated annealing (with the features it computes).
//
// Tuners are looked up in the context's cost model registry: "xgb" and
// "xgb-reg" run once the XGBoost plugin is loaded and are reported as
// skipped until then. TUNER@MODEL runs the model-based search with another
// registry model (xgb@random: the built-in random model, which shows what
// annealing and features cost without a learned model).
#include "codegen/Target.h"
#include "driver/Context.h"
#include "driver/TuneTasks.h"
#include "ir/Diagnostic.h"
#include "rpc/RpcRunner.h"
#include "tune/Tuner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

struct WorkloadSpec {
    std::string name, file;
    std::map<std::string, int64_t> params;
};

const std::vector<WorkloadSpec>& allWorkloads() {
    static const std::vector<WorkloadSpec> w = {
        {"gemm", "gemm.te", {{"M", 1024}, {"N", 1024}, {"K", 1024}}},
        {"conv56", "conv2d_nchwc.te", {{"C", 64}, {"H", 56}, {"W", 56}, {"OC", 64}}},
        {"conv28", "conv2d_nchwc.te", {{"C", 128}, {"H", 28}, {"W", 28}, {"OC", 128}}},
        {"conv14", "conv2d_nchwc.te", {{"C", 256}, {"H", 14}, {"W", 14}, {"OC", 256}}},
    };
    return w;
}

/// One tuning run: the best GFLOP/s after each trial and where the time went.
struct RunStats {
    std::vector<double> best;
    double wall = 0, fit = 0, search = 0, features = 0, measure = 0;
    int failed = 0;
};

double median(std::vector<double> v) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// The first trial (1-based) whose best reaches `target`; 0 when never.
int reaches(const std::vector<double>& best, double target) {
    for (size_t i = 0; i < best.size(); ++i)
        if (best[i] >= target) return int(i + 1);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    int trials = 200, seeds = 3, threads = 1, batch = 16;
    std::string features = "itervar", jsonPath, recordsDir;
    std::vector<std::string> tuners = {"random", "grid", "ga", "xgb", "xgb-reg"};
    std::vector<std::string> workloadNames = {"gemm", "conv56", "conv28", "conv14"};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bench_tune: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--trials") trials = std::max(1, std::atoi(value().c_str()));
        else if (a == "--seeds") seeds = std::max(1, std::atoi(value().c_str()));
        else if (a == "--threads") threads = std::max(1, std::atoi(value().c_str()));
        else if (a == "--batch") batch = std::max(1, std::atoi(value().c_str()));
        else if (a == "--tuners") tuners = splitList(value());
        else if (a == "--workloads") workloadNames = splitList(value());
        else if (a == "--features") features = value();
        else if (a == "--json") jsonPath = value();
        else if (a == "--records-dir") recordsDir = value();
        else {
            std::fprintf(stderr,
                         "usage: bench_tune [--trials N] [--seeds S] [--tuners random,grid,ga,xgb,xgb-reg,xgb@random]\n"
                         "                  [--workloads gemm,conv56,conv28,conv14] [--threads T] [--batch B]\n"
                         "                  [--features itervar|knob|curve] [--json FILE] [--records-dir DIR]\n");
            return 2;
        }
    }
    const auto kind = tune::featureKindFromName(features);
    if (!kind) {
        std::fprintf(stderr, "bench_tune: --features must be itervar, knob or curve\n");
        return 2;
    }
    // Plugins register their cost models into the context's registry.
    const tune::CostModelRegistry& models = driver::Context::builtin().costModels();
    if (!recordsDir.empty()) fs::create_directories(recordsDir);

    std::printf("bench_tune: %d trials, %d seeds, batch %d, %s features, kernels on %d thread%s, %s %s\n", trials,
                seeds, batch, features.c_str(), threads, threads == 1 ? "" : "s", codegen::hostTarget().triple.c_str(),
                codegen::hostTarget().cpu.c_str());
    std::string loaded;
    for (auto& r : models.records()) loaded += (loaded.empty() ? "" : ", ") + r.name + " (" + r.origin + ")";
    std::printf("cost models: %s\n", loaded.c_str());

    nlohmann::json report = nlohmann::json::object();
    report["trials"] = trials;
    report["seeds"] = seeds;
    report["threads"] = threads;
    report["target"] = codegen::hostTarget().str();
    report["workloads"] = nlohmann::json::object();

    for (const std::string& wname : workloadNames) {
        auto spec = std::find_if(allWorkloads().begin(), allWorkloads().end(), [&](auto& w) { return w.name == wname; });
        if (spec == allWorkloads().end()) {
            std::fprintf(stderr, "bench_tune: unknown workload '%s'\n", wname.c_str());
            return 2;
        }
        driver::ScriptTaskOptions so;
        so.workload = spec->params;
        std::unique_ptr<driver::ScriptTask> task;
        try {
            task = driver::ScriptTask::fromFile(std::string(TESSEL_SOURCE_DIR "/resources/templates/") + spec->file, so);
        } catch (const CompileError& e) {
            std::fprintf(stderr, "bench_tune: %s\n", e.what());
            return 1;
        }
        // One measurer per workload: every tuner and seed shares its reference outputs.
        codegen::LocalBuilder builder(codegen::hostTarget());
        rpc::LocalRunner runner;
        tune::MeasureOptions mo;
        mo.threads = threads;
        tune::Measurer measurer(builder, runner, mo);
        std::printf("\n== %s: %s, %lld configurations, %.2f GFLOP a call\n", spec->name.c_str(), task->name().c_str(),
                    static_cast<long long>(tune::Space(task->knobs()).size()), task->flops() / 1e9);
        std::fflush(stdout);

        std::map<std::string, std::vector<RunStats>> runs;
        std::vector<std::string> ran;
        for (const std::string& spec2 : tuners) {
            tune::TuneOptions o;
            const auto at = spec2.find('@');
            o.tuner = spec2.substr(0, at);
            if (at != std::string::npos) o.costModel = spec2.substr(at + 1);
            o.trials = trials;
            o.batchSize = batch;
            o.features = *kind;
            for (int seed = 1; seed <= seeds; ++seed) {
                o.seed = uint64_t(seed);
                std::unique_ptr<tune::Tuner> tuner;
                try {
                    tuner = std::make_unique<tune::Tuner>(*task, models, o);
                } catch (const std::invalid_argument& e) {
                    std::printf("  %-12s skipped: %s\n", spec2.c_str(), e.what());
                    break;
                }
                std::unique_ptr<tune::RecordWriter> writer;
                if (!recordsDir.empty())
                    writer = std::make_unique<tune::RecordWriter>(recordsDir + "/" + spec->name + "-" + spec2 + "-" +
                                                                  std::to_string(seed) + ".jsonl");
                RunStats s;
                const tune::TuneResult r =
                    tuner->run(measurer, writer.get(), [&](const tune::TrialEvent& e) { s.best.push_back(e.bestGflops); });
                s.wall = r.wallSeconds;
                s.fit = r.searchTime.fit;
                s.search = r.searchTime.search;
                s.features = r.searchTime.features;
                s.measure = r.measureSeconds;
                s.failed = r.failed;
                // A run that stopped short (the space used up) keeps its best to the end.
                while (int(s.best.size()) < trials) s.best.push_back(s.best.empty() ? 0 : s.best.back());
                std::printf("  %-12s seed %d: best %.1f GFLOP/s (default %.1f), %d failed, %.0f s (fit %.2f s, search %.2f s)\n",
                            spec2.c_str(), seed, r.bestGflops, r.defaultGflops, r.failed, r.wallSeconds, s.fit, s.search);
                std::fflush(stdout);
                runs[spec2].push_back(std::move(s));
            }
            if (!runs[spec2].empty()) ran.push_back(spec2);
        }

        // The bar: 95% of what random finds with its whole budget (mean over its seeds).
        double randomBest = 0;
        if (runs.count("random") && !runs["random"].empty()) {
            for (auto& s : runs["random"]) randomBest += s.best.back();
            randomBest /= double(runs["random"].size());
        }
        const double target = 0.95 * randomBest;
        std::vector<int> checkpoints;
        for (int t : {1, 8, 16, 32, 48, 64, 96, 128, 160, 200, 256, 300, 400, 500, 750, 1000})
            if (t <= trials) checkpoints.push_back(t);
        if (checkpoints.back() != trials) checkpoints.push_back(trials);

        std::printf("\n  best GFLOP/s after N trials (median of %d seeds)\n  %-12s", seeds, "tuner");
        for (int t : checkpoints) std::printf(" %7d", t);
        std::printf("\n");
        nlohmann::json wj = nlohmann::json::object();
        wj["task"] = task->name();
        wj["random_best_mean"] = randomBest;
        wj["tuners"] = nlohmann::json::object();
        for (auto& name : ran) {
            std::printf("  %-12s", name.c_str());
            for (int t : checkpoints) {
                std::vector<double> at;
                for (auto& s : runs[name]) at.push_back(s.best[size_t(t - 1)]);
                std::printf(" %7.1f", median(at));
            }
            std::printf("\n");
        }
        std::printf("\n  %-12s %-22s %10s %10s %9s\n", "tuner", "trial to 95% of random", "of budget", "fit+SA", "failed");
        for (auto& name : ran) {
            std::string per;
            std::vector<double> reached, share;
            int failed = 0;
            nlohmann::json tj = nlohmann::json::object();
            nlohmann::json curves = nlohmann::json::array();
            for (auto& s : runs[name]) {
                const int r = target > 0 ? reaches(s.best, target) : 0;
                if (!per.empty()) per += ',';
                per += r ? std::to_string(r) : std::string("-");
                reached.push_back(r ? r : std::numeric_limits<double>::infinity());
                share.push_back(s.wall > 0 ? (s.fit + s.search) / s.wall : 0);
                failed += s.failed;
                curves.push_back(s.best);
            }
            const double med = median(reached);
            char frac[32];
            std::snprintf(frac, sizeof frac, std::isfinite(med) ? "%.2f" : "never", med / trials);
            std::printf("  %-12s %-22s %10s %9.1f%% %9d\n", name.c_str(), per.c_str(), frac, 100 * median(share), failed);
            tj["best_curves"] = curves;
            tj["trial_to_95pct_of_random"] = reached;
            tj["fit_search_share"] = share;
            std::vector<double> fits, searches, feats, walls;
            for (auto& s : runs[name]) {
                fits.push_back(s.fit);
                searches.push_back(s.search);
                feats.push_back(s.features);
                walls.push_back(s.wall);
            }
            tj["fit_seconds"] = fits;
            tj["search_seconds"] = searches;
            tj["feature_seconds"] = feats;
            tj["wall_seconds"] = walls;
            wj["tuners"][name] = tj;
        }
        report["workloads"][spec->name] = wj;
        std::fflush(stdout);
    }
    if (!jsonPath.empty()) {
        std::FILE* f = std::fopen(jsonPath.c_str(), "w");
        if (f) {
            std::fputs(report.dump(1).c_str(), f);
            std::fclose(f);
        }
    }
    return 0;
}
