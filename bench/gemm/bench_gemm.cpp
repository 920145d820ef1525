// bench/gemm: every step of the GEMM ladder against OpenBLAS cblas_sgemm and
// oneDNN dnnl_sgemm, on the same sizes, with 1 and 2 threads, in one run.
//
//   bench_gemm [--quick] [--rounds R] [--records F] [DIR]
//
// --records F (a records file or folder, `tesselc tune resources/templates/gemm.te
// --workload M=1024,N=1024,K=1024`): the template with the best configuration
// for this target (or another machine of its kind) becomes the last step, the
// one measured against the libraries: "tuned GEMM against OpenBLAS and oneDNN".
//
// Figures are medians: each measurement is the median of 10 repeats of at least
// 100 ms; the last step and the two libraries are measured R times, interleaved,
// and the median of those is reported, so a noisy moment hits all three alike.
// Ratios are ours / theirs in GFLOP/s (1.00 = as fast as the best library).
#include "gemm/Anchors.h"

#include "driver/ApplyBest.h"
#include "driver/Measure.h"
#include "driver/TuneTasks.h"
#include "ir/Diagnostic.h"
#include "runtime/ThreadPool.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

struct Step {
    std::string name;
    driver::LoweredFunction fn;
};

std::string readFile(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

double medianOf(std::vector<double> v) { return runtime::median(std::move(v)); }

} // namespace

int main(int argc, char** argv) {
    bench::restartWithAnchorEnvironment(argv, true);
    bool quick = false;
    int rounds = 5;
    std::string dir = TESSEL_SOURCE_DIR "/resources/examples/gemm";
    std::string records;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) quick = true;
        else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--records") && i + 1 < argc) records = argv[++i];
        else dir = argv[i];
    }

    std::vector<Step> steps;
    try {
        std::vector<fs::path> files;
        for (auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".te") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (auto& f : files) {
            driver::ScriptOptions so;
            so.fileName = f.string();
            steps.push_back({f.stem().string(), driver::lowerScript(readFile(f), so).at(0)});
        }
        if (!records.empty()) {
            // The tuned template for 1024^3: its best record, lowered like a ladder step.
            const std::string tmpl = TESSEL_SOURCE_DIR "/resources/templates/gemm.te";
            driver::ScriptTaskOptions to;
            to.fileName = tmpl;
            to.workload = {{"M", 1024}, {"N", 1024}, {"K", 1024}};
            auto task = driver::ScriptTask::fromFile(tmpl, to);
            const Target host = codegen::hostTarget();
            auto applied = driver::bestConfigsFor(driver::loadRecords(records), host);
            auto it = applied.configs.find(task->workload().key);
            if (it == applied.configs.end()) {
                std::fprintf(stderr, "bench_gemm: %s has no successful record of gemm.te at 1024^3 for this machine\n",
                             records.c_str());
                return 1;
            }
            driver::ScriptOptions so;
            so.fileName = tmpl;
            so.config = it->second;
            so.workload = to.workload;
            steps.push_back({"gemm.te tuned", driver::lowerScript(readFile(tmpl), so).at(0)});
        }
    } catch (const CompileError& e) {
        std::fprintf(stderr, "bench_gemm: %s\n", e.diagnostic().str().c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_gemm: %s\n", e.what());
        return 1;
    }
    if (steps.empty()) {
        std::fprintf(stderr, "bench_gemm: no .te steps in %s\n", dir.c_str());
        return 1;
    }
    const int M = 1024, N = 1024, K = 1024;
    std::printf("GEMM %dx%dx%d float32: the ladder in %s against the libraries\n", M, N, K, dir.c_str());
    std::printf("%s\n", bench::anchorEnvironmentNote().c_str());

    // The reference: the first step's computation under the default schedule.
    runtime::ThreadPool::global().setNumThreads(1);
    driver::RunOptions refOpts;
    refOpts.check = false;
    refOpts.evaluator = {1, 1, 0, 0};
    auto reference = driver::runAndCheck(driver::lowerReference(steps[0].fn), refOpts).outputs;

    runtime::TimeEvaluator ev{1, 10, 100, 2};
    bool allOk = true;
    driver::RunReport baseline;
    for (int threads : {1, 2}) {
        runtime::ThreadPool::global().setNumThreads(threads);
        auto measureStep = [&](const Step& s) {
            driver::RunOptions ro;
            ro.referenceOutputs = reference;
            ro.evaluator = ev;
            return driver::runAndCheck(s.fn, ro);
        };
        // The last step and the libraries, interleaved.
        std::vector<double> lastMs, blasMs, dnnlMs, roundRatio;
        driver::RunReport last;
        for (int r = 0; r < rounds; ++r) {
            last = measureStep(steps.back());
            lastMs.push_back(last.latencyMs);
            blasMs.push_back(bench::openblasSgemmSeconds(M, N, K, threads, ev) * 1e3);
            bench::quiesceAnchorThreads();
            dnnlMs.push_back(bench::dnnlSgemmSeconds(M, N, K, threads, ev) * 1e3);
            bench::quiesceAnchorThreads();
            // Within one round all three saw the same machine: their ratio is the
            // figure least disturbed by other tenants' load.
            roundRatio.push_back(std::min(blasMs.back(), dnnlMs.back()) / lastMs.back());
        }
        double blas = medianOf(blasMs), dnnl = medianOf(dnnlMs);
        double blasG = bench::gflops(M, N, K, blas * 1e-3), dnnlG = bench::gflops(M, N, K, dnnl * 1e-3);
        double best = std::max(blasG, dnnlG);

        std::printf("\n%d thread%s\n", threads, threads == 1 ? "" : "s");
        std::printf("  %-26s %10s %9s %13s %12s  %s\n", "", "ms", "GFLOP/s", "ratio to best", "max rel err", "check");
        for (size_t i = 0; i < steps.size(); ++i) {
            driver::RunReport rep;
            if (i + 1 == steps.size()) {
                rep = last;
                rep.latencyMs = medianOf(lastMs);
                rep.gflops = driver::flopCount(steps[i].fn) / (rep.latencyMs * 1e-3) / 1e9;
            } else if (i == 0 && (quick || threads > 1)) {
                if (quick) continue;
                rep = baseline; // the naive loop nest is serial: measured once
            } else {
                rep = measureStep(steps[i]);
                if (i == 0) baseline = rep;
            }
            allOk &= rep.ok;
            std::printf("  %-26s %10.2f %9.1f %13.2f %12.1e  %s\n", steps[i].name.c_str(), rep.latencyMs, rep.gflops,
                        rep.gflops / best, rep.maxRelErr, rep.ok ? "ok" : ("FAILED: " + rep.error).c_str());
            std::fflush(stdout);
        }
        std::printf("  %-26s %10.2f %9.1f %13.2f\n", "OpenBLAS cblas_sgemm", blas, blasG, blasG / best);
        std::printf("  %-26s %10.2f %9.1f %13.2f\n", "oneDNN dnnl_sgemm", dnnl, dnnlG, dnnlG / best);
        std::printf("  => %s: %.2fx the better library (%s), medians of %d interleaved rounds;\n"
                    "     per-round ratios (best library's time / ours):",
                    steps.back().name.c_str(), (driver::flopCount(steps.back().fn) / (medianOf(lastMs) * 1e-3) / 1e9) / best,
                    blasG >= dnnlG ? "OpenBLAS" : "oneDNN", rounds);
        for (double r : roundRatio) std::printf(" %.2f", r);
        std::printf("  (median %.2f)\n", medianOf(roundRatio));
    }
    return allOk ? 0 : 1;
}
