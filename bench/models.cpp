// bench/models: whole models, Tessel against ONNX Runtime (CPU, the npm package
// onnxruntime-node run by scripts/ort-run.mjs), batch 1, on 1 and 2 threads, in
// one run.
//
//   bench_models [--rounds R] [--repeat N]
//                [--models resnet18,resnet50,mobilenet_v2,transformer_encoder,dcgan_generator,resnet18_qdq,
//                          resnet18_fp16]
//                [--threads 1,2] [--models-dir DIR] [--ort DIR] [--records F]
//
// --records F (tesselc tune's records, one file for any number of models):
// every fused function whose workload F has is compiled with its best
// configuration (apply-best), the rest with the default schedules; the
// header line says how many functions of each model were tuned.
//
// The models are torchvision's and two built from torch.nn (a transformer
// encoder, a DCGAN generator), all with seeded random weights, exported to ONNX by
// scripts/export-models.py into <build>/models (run here when they are missing
// or stale; resnet18_qdq, not in the default list, is resnet18 quantized in QDQ
// format, made with ONNX Runtime's calibration, and resnet18_fp16 is resnet18
// stored in float16). Each model is imported and compiled once with default options
// (import and compile times are printed), checked once against ONNX Runtime's
// output when the model tests' reference is there, then timed in R rounds per
// thread count: in each round Tessel (driver::runModel, N timed runs after one
// warm-up) and ONNX Runtime (a fresh node process: session with graph
// optimisation 'all', intraOpNumThreads = threads, interOpNumThreads 1,
// sequential; N timed runs after 3 warm-ups), alternating which goes first.
// Figures are medians: the median of each side's N runs per round, then the
// median over the rounds. Ratios are ours / ORT in milliseconds (below 1.00:
// Tessel is faster); per-round ratios are the figure least disturbed by other
// load on a shared machine.
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "driver/ApplyBest.h"
#include "driver/ModelTasks.h"
#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "ir/Diagnostic.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// Runs `cmd` through the shell; its stdout, or nullopt (with `error`) when it fails.
std::optional<std::string> capture(const std::string& cmd, std::string& error) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) {
        error = "cannot start: " + cmd;
        return std::nullopt;
    }
    std::string out;
    char buf[4096];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    int status = pclose(p);
    if (status != 0) {
        error = out.empty() ? "exit status " + std::to_string(WEXITSTATUS(status)) : out;
        while (!error.empty() && error.back() == '\n') error.pop_back();
        return std::nullopt;
    }
    return out;
}

struct OrtTiming {
    double latencyMs = 0, sessionMs = 0;
};

struct Ort {
    std::string script, dir;
    bool available = false;
    std::string why;

    std::optional<OrtTiming> time(const fs::path& model, const fs::path& data, int threads, int repeat,
                                  std::string& error) const {
        std::string cmd = "node " + shellQuote(script) + " --ort " + shellQuote(dir) + " --model " +
                          shellQuote(model.string()) + " --inputs " + shellQuote(data.string()) + " --threads " +
                          std::to_string(threads) + " --time " + std::to_string(repeat);
        auto out = capture(cmd, error);
        if (!out) return std::nullopt;
        try {
            // The JSON is the last line (node may print warnings before it).
            auto pos = out->rfind('{');
            auto j = nlohmann::json::parse(out->substr(pos == std::string::npos ? 0 : pos));
            return OrtTiming{j.at("latency_ms").get<double>(), j.at("session_ms").get<double>()};
        } catch (const std::exception& e) {
            error = "unreadable output of ort-run.mjs (" + std::string(e.what()) + "): " + *out;
            return std::nullopt;
        }
    }
};

struct Row {
    std::string model;
    int threads = 0;
    std::vector<double> oursMs, ortMs, roundRatio;
    double ortSessionMs = 0;
};

double median(std::vector<double> v) { return v.empty() ? NAN : runtime::median(std::move(v)); }

// A quantized model's output (a DequantizeLinear of a constant scalar scale) is
// compared in steps of that scale: one step's rounding difference in a layer
// moves the next layers' inputs, so the bound is a few steps, not ONNX's float
// tolerance (tests/models/tst_models_qdq says why 3).
constexpr int kQuantizedSteps = 3;

double quantizedOutputStep(const graph::Graph& g) {
    if (g.outputs().empty()) return 0;
    const graph::Node* dq = g.outputs()[0].producer();
    if (!dq || dq->op != "DequantizeLinear" || dq->inputs.size() < 2 || !dq->inputs[1].constant()) return 0;
    const std::vector<double> scale = dq->inputs[1].constant()->toDoubles();
    return scale.size() == 1 ? scale[0] : 0;
}

std::string fmt(double v, const char* f = "%.2f") {
    if (std::isnan(v)) return "-";
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

} // namespace

int main(int argc, char** argv) {
    int rounds = 3, repeat = 20;
    std::vector<std::string> models = {"resnet18", "resnet50", "mobilenet_v2", "transformer_encoder",
                                       "dcgan_generator"};
    std::vector<int> threadCounts = {1, 2};
    fs::path modelsDir = fs::path(TESSEL_BINARY_DIR) / "models";
    std::string recordsFile;
    std::string ortDir = std::getenv("ORT_DIR") ? std::getenv("ORT_DIR") : TESSEL_BINARY_DIR "/ort";
    for (int i = 1; i < argc; ++i) {
        auto next = [&](const char* what) -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bench_models: %s needs a value\n", what);
                std::exit(2);
            }
            return argv[++i];
        };
        if (!std::strcmp(argv[i], "--rounds")) rounds = std::max(1, std::atoi(next("--rounds").c_str()));
        else if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(next("--repeat").c_str()));
        else if (!std::strcmp(argv[i], "--models")) models = splitList(next("--models"));
        else if (!std::strcmp(argv[i], "--models-dir")) modelsDir = next("--models-dir");
        else if (!std::strcmp(argv[i], "--ort")) ortDir = next("--ort");
        else if (!std::strcmp(argv[i], "--records")) recordsFile = next("--records");
        else if (!std::strcmp(argv[i], "--threads")) {
            threadCounts.clear();
            for (auto& t : splitList(next("--threads"))) threadCounts.push_back(std::max(1, std::atoi(t.c_str())));
        } else {
            std::fprintf(stderr,
                         "usage: bench_models [--rounds R] [--repeat N] [--models a,b] [--threads 1,2] "
                         "[--models-dir DIR] [--ort DIR] [--records F]\n");
            return 2;
        }
    }

    // The models (cheap when up to date); the quantized ones (_qdq) are
    // calibrated under ONNX Runtime, so they need it, and the float16 ones
    // (_fp16) take their reference from it.
    {
        std::string list;
        bool quantized = false;
        for (auto& m : models) {
            list += (list.empty() ? "" : ",") + m;
            quantized = quantized || m.ends_with("_qdq") || m.ends_with("_fp16");
        }
        std::string error;
        auto out = capture("/usr/bin/python3 " + shellQuote(TESSEL_SOURCE_DIR "/scripts/export-models.py") + " " +
                               shellQuote(modelsDir.string()) + " --models " + shellQuote(list) +
                               (quantized ? " --ort " + shellQuote(ortDir) : std::string()),
                           error);
        if (!out) {
            std::fprintf(stderr, "bench_models: exporting the models failed:\n%s\n", error.c_str());
            return 1;
        }
        std::fputs(out->c_str(), stdout);
    }

    Ort ort;
    ort.script = TESSEL_SOURCE_DIR "/scripts/ort-run.mjs";
    ort.dir = ortDir;
    {
        std::string error;
        if (!fs::exists(fs::path(ortDir) / "node_modules" / "onnxruntime-node" / "package.json"))
            ort.why = "onnxruntime-node is not installed in " + ortDir + " (scripts/setup-ort.sh " + ortDir + ")";
        else if (!capture("node --version", error))
            ort.why = "node is not installed (scripts/install-deps.sh installs nodejs)";
        else
            ort.available = true;
    }

    std::printf("Whole models, batch 1, float32: Tessel (default schedules) against ONNX Runtime %s\n",
                ort.available ? "(onnxruntime-node, CPU)" : "");
    if (!ort.available) std::printf("ONNX Runtime columns are empty: %s\n", ort.why.c_str());
    std::printf("Medians of %d runs per round, %d interleaved rounds; ratio = ours / ORT (ms)\n\n", repeat, rounds);

    struct Compiled {
        std::string name;
        double importS = 0;
        driver::CompileTimings timings;
        int functions = 0;
        std::string check;
    };
    std::vector<Compiled> compiledInfo;
    std::vector<Row> rows;
    bool allOk = true;

    for (const auto& name : models) {
        fs::path dir = modelsDir / name;
        fs::path data = dir / "test_data_set_0";
        Compiled info;
        info.name = name;
        driver::CompiledModel model;
        runtime::NDArray input;
        double outputStep = 0;
        try {
            auto t0 = std::chrono::steady_clock::now();
            graph::Graph g = frontend::importOnnx((dir / "model.onnx").string());
            info.importS = secondsSince(t0);
            outputStep = quantizedOutputStep(g);
            driver::CompileOptions co;
            if (!recordsFile.empty())
                co.configs = driver::bestConfigsFor(driver::loadRecords(recordsFile), co.request.target).configs;
            model = driver::compileGraph(g, co);
            if (!recordsFile.empty()) {
                size_t tunable = 0, tuned = 0;
                for (auto& f : model.functions) {
                    tunable += !f.knobs.empty();
                    tuned += f.tuned;
                }
                std::printf("%s: %zu of %zu tunable functions tuned (%s)\n", name.c_str(), tuned, tunable,
                            recordsFile.c_str());
            }
            info.timings = model.timings;
            info.functions = static_cast<int>(model.functions.size());
            input = driver::toNDArray(*frontend::readTensorProto((data / "input_0.pb").string()).value);
        } catch (const std::exception& e) {
            std::printf("%s: FAILED to compile: %s\n", name.c_str(), e.what());
            std::fflush(stdout);
            allOk = false;
            continue;
        }
        // One check against ONNX Runtime's output, when the tests' reference is there.
        std::vector<runtime::NDArray> expected;
        if (fs::exists(data / "output_0.pb"))
            expected.push_back(driver::toNDArray(*frontend::readTensorProto((data / "output_0.pb").string()).value));
        {
            auto rep = driver::runModel(model, {input}, expected);
            if (!rep.error.empty() && rep.outputs.empty()) {
                info.check = "FAILED: " + rep.error;
                allOk = false;
            } else if (expected.empty()) {
                info.check = "no reference";
            } else {
                const auto& o = rep.outputs.at(0);
                double rel = o.maxAbsExpected > 0 ? o.maxAbsErr / o.maxAbsExpected : NAN;
                if (outputStep > 0) {
                    // A quantized output is judged in its steps (tests/models/tst_models_qdq's bound).
                    double steps = o.maxAbsErr / outputStep;
                    bool ok = steps <= kQuantizedSteps + 1e-3;
                    allOk &= ok;
                    info.check = (ok ? "ok" : "FAILED") + std::string(", max abs err ") + fmt(steps, "%.2g") +
                                 " output steps of " + fmt(outputStep, "%.3g") + " (bound " +
                                 std::to_string(kQuantizedSteps) + ")";
                } else {
                    bool ok = rel <= 1e-3;
                    allOk &= ok;
                    info.check = (ok ? "ok" : "FAILED") + std::string(", max abs err / max abs ORT value ") +
                                 fmt(rel, "%.1e");
                }
            }
        }
        std::printf("%s: imported in %.2f s, compiled in %.2f s (graph %.2f, lower %.2f, codegen %.2f), %d fused "
                    "functions; output %s\n",
                    name.c_str(), info.importS, info.timings.totalSeconds(), info.timings.graphSeconds,
                    info.timings.lowerSeconds, info.timings.codegenSeconds, info.functions, info.check.c_str());
        std::fflush(stdout);
        compiledInfo.push_back(info);

        for (int threads : threadCounts) {
            Row row;
            row.model = name;
            row.threads = threads;
            std::vector<double> sessions;
            for (int r = 0; r < rounds; ++r) {
                auto runOurs = [&] {
                    driver::ModelRunOptions o;
                    o.threads = threads;
                    o.repeat = repeat;
                    auto rep = driver::runModel(model, {input}, {}, o);
                    if (!rep.error.empty()) {
                        std::printf("  %s, %d threads: Tessel FAILED: %s\n", name.c_str(), threads, rep.error.c_str());
                        allOk = false;
                        return;
                    }
                    row.oursMs.push_back(rep.latencyMs);
                };
                auto runOrt = [&] {
                    if (!ort.available) return;
                    std::string error;
                    auto t = ort.time(dir / "model.onnx", data, threads, repeat, error);
                    if (!t) {
                        std::printf("  %s, %d threads: ONNX Runtime FAILED: %s\n", name.c_str(), threads, error.c_str());
                        return;
                    }
                    row.ortMs.push_back(t->latencyMs);
                    sessions.push_back(t->sessionMs);
                };
                size_t before = row.oursMs.size(), beforeOrt = row.ortMs.size();
                if (r % 2 == 0) runOurs(), runOrt();
                else runOrt(), runOurs();
                if (row.oursMs.size() > before && row.ortMs.size() > beforeOrt)
                    row.roundRatio.push_back(row.oursMs.back() / row.ortMs.back());
            }
            row.ortSessionMs = median(sessions);
            std::printf("  %d thread%s: Tessel %s ms, ORT %s ms; per-round ratios:", threads, threads == 1 ? "" : "s",
                        fmt(median(row.oursMs)).c_str(), fmt(median(row.ortMs)).c_str());
            for (double x : row.roundRatio) std::printf(" %.2f", x);
            std::printf("\n");
            std::fflush(stdout);
            rows.push_back(std::move(row));
        }
    }

    std::printf("\n| model | threads | Tessel ms | ORT ms | ours / ORT | per-round ratios |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const auto& r : rows) {
        std::string perRound;
        for (double x : r.roundRatio) perRound += (perRound.empty() ? "" : " ") + fmt(x);
        double ours = median(r.oursMs), theirs = median(r.ortMs);
        std::printf("| %s | %d | %s | %s | %s | %s |\n", r.model.c_str(), r.threads, fmt(ours).c_str(),
                    fmt(theirs).c_str(), fmt(ours / theirs).c_str(), perRound.empty() ? "-" : perRound.c_str());
    }
    std::printf("\n| model | import s | compile s (graph / lower / codegen) | fused functions | ORT session ms | "
                "output vs ORT |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const auto& c : compiledInfo) {
        std::vector<double> sessions;
        for (const auto& r : rows)
            if (r.model == c.name && !std::isnan(r.ortSessionMs)) sessions.push_back(r.ortSessionMs);
        std::printf("| %s | %.2f | %.2f (%.2f / %.2f / %.2f) | %d | %s | %s |\n", c.name.c_str(), c.importS,
                    c.timings.totalSeconds(), c.timings.graphSeconds, c.timings.lowerSeconds,
                    c.timings.codegenSeconds, c.functions, fmt(median(sessions), "%.0f").c_str(), c.check.c_str());
    }
    return allOk ? 0 : 1;
}
