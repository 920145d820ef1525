// tesselc: Tessel's command line. Thin: every command is a call into core/driver.
#include "codegen/CodeGenC.h"
#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "CompareCommand.h"
#include "TrialCommands.h"
#include "TuneCommands.h"
#include "driver/Context.h"
#include "tune/Features.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelDriver.h"
#include "driver/Devices.h"
#include "driver/ModelRunner.h"
#include "driver/ControlFlowProgram.h"
#include "driver/ApplyBest.h"
#include "driver/KernelBundleExport.h"
#include "runtime/CudaDeviceAPI.h"
#include "runtime/KernelBundle.h"
#include "driver/ModelTasks.h"
#include "frontend/TensorProto.h"
#include "driver/Measure.h"
#include "frontend/ModelZoo.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "rpc/Address.h"
#include "rpc/LocalServer.h"
#include "runtime/DeviceInfo.h"
#include "runtime/ThreadPool.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/GraphPassRegistry.h"
#include "plugin/PluginLoader.h"
#include "tir/passes/PassRegistry.h"
#include "tune/CostModel.h"
#include "tune/Records.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const char* kUsage = R"(usage: tesselc COMMAND [ARGS]

commands:
  lower FILE.te [--pass NAME]...    print the TIR after all passes, or after each named pass
                                    (--pass schedule: the TIR straight from the schedule)
  build FILE.te --emit tir|llvm|llvm-unopt|asm|c|ptx|cuda [--target TARGET]
                                    print one stage of the compiled script (--target cuda:
                                    the GPU pipeline, kernels, --emit ptx or cuda)
  run FILE.te [--threads N] [--repeat R] [--json] [--in-process]
        [--rpc HOST:PORT | --rpc-tracker HOST:PORT --rpc-key KEY] [--rpc-token-file F]
                                    build, run on seeded random inputs, check against the
                                    default schedule, print latency and GFLOP/s. Measures in
                                    a tessel-rpc server child (a crashing or hanging kernel
                                    is an error, not a crash), or in this process
                                    (--in-process), or on a device (--rpc, or one of KEY from a
                                    tracker: built for the device's triple, checked against
                                    this machine's reference)
  ladder [DIR] [--threads N] [--in-process] [--rpc HOST:PORT | --rpc-tracker HOST:PORT --rpc-key KEY]
                                    run every .te step of a GEMM ladder and print a table
  space FILE.te [--config ...] [--json]
                                    list the knobs of a tunable template: name, kind, choices
                                    (lower, build and run take --config NAME=INDEX,NAME=INDEX
                                    to pick a template's knobs; the others take their default),
                                    and its workload parameters
  space|lower|build|run FILE.te --workload NAME=VALUE,...
                                    instantiate a template for another workload (the
                                    parameters its tessel.workload(...) declares)
  tune FILE.te|MODEL.onnx --trials N --records F [--tuner xgb|xgb-reg|ga|random|grid] [--early-stopping N]
        [--threads T] [--seed S] [--workload NAME=VALUE,...]... [--rpc-tracker HOST:PORT --rpc-key KEY]
        [--features itervar|knob|curve] [--cost-model NAME] [--batch B] [--build-jobs J]
        [--timeout SECONDS] [--no-transfer] [--in-process] [--verbose]
                                    search the template's knobs for the fastest configuration
                                    (docs/tuning.md): each --workload is one task (a model: each
                                    fused function with knobs, identical workloads once), with one
                                    progress line (trials, best GFLOP/s, speed-up over the
                                    default, ETA); every trial is appended to F as it ends, and
                                    a run on an F that has trials of the workload resumes (N
                                    counts them). --threads: the kernels' threads; measured in a
                                    tessel-rpc server child (--in-process: here) or on a device
                                    like run
  tune FILE.te --target cuda --trials N --records F --export-trials DIR [--workload ...]
        [--tuner ...] [--seed S] [--no-expected]
  tune --import-trials DIR --records F
                                    offline trials, for a GPU host this machine cannot reach:
                                    export writes the N configurations the tuner would measure
                                    next (its model trained on F) as kernel bundles in DIR;
                                    `tessel-run DIR` on the host measures them; import appends
                                    the results to F. Repeat for more rounds
  records F [--best] [--json]       summarise a records file per workload (trials, failures by
                                    kind, best and default GFLOP/s); --best: the best record of
                                    each workload, as JSON lines
  passes                            list every TIR and graph pass with its summary
  plugins [--json]                  list the plugin folders searched (TESSEL_PLUGIN_PATH, then the
                                    build's and the installed plugins next to tesselc), each plugin
                                    found: id, version, folder, loaded or refused and why, what it
                                    registered; and every cost model with where it came from
  run MODEL.onnx [--input-shape NAME:D1,D2,...]... [--inputs a.pb,b.pb] [--expect c.pb,...]
        [--threads N] [--repeat R] [--rtol X] [--atol Y] [--json] [--profile] [--in-process]
        [--rpc HOST:PORT | --rpc-tracker HOST:PORT --rpc-key KEY] [--rpc-token-file F]
                                    compile a model, run it on TensorProto inputs (seeded
                                    random ones when not given), compare with expected
                                    outputs (ONNX's rtol 1e-3, atol 1e-7), print the latency
                                    (--profile: and every kernel's time and GFLOP/s, where it
                                    runs). Runs in a local tessel-rpc server as an export,
                                    in this process (--in-process), or on a device (--rpc:
                                    compiled for its triple, checked against this machine's
                                    outputs to 1e-4 of the largest |value| unless --expect).
                                    Control flow, data-dependent output shapes (NonZero,
                                    NonMaxSuppression ...) and counts given as inputs (TopK's
                                    K) run on the host executor in this process
  compare MODEL.onnx [--records G | --records-b G] [--records-a F] [--threads T] [--threads-a T]
        [--threads-b T] [--rounds N] [--csv FILE] [--input-shape ...] [--seed S] [--in-process]
        [--rpc HOST:PORT | --rpc-tracker HOST:PORT --rpc-key KEY] [--rpc-token-file F]
                                    the model two ways, A (untuned, or --records-a F's best
                                    configurations) against B (--records G's), measured in one
                                    run: N rounds (default 10) of A then B, each whole and per
                                    kernel; prints per fused function A's and B's ms, GFLOP/s,
                                    the ratio B/A and which side a records file tuned, an
                                    end-to-end line, and whether the outputs agree (to 1e-4 of
                                    max |A|); --csv writes the same at full precision. Runs in a
                                    local tessel-rpc server (a session per side), in this
                                    process (--in-process), or on a device like run
  compile MODEL.onnx [--input-shape ...] [--target TARGET] [--records F] -o DIR
                                    export: DIR/model.so (kernels), DIR/plan.json (executor
                                    plan), DIR/weights.bin; the runtime alone runs them.
                                    --records F (compile, run, show): every fused function whose
                                    workload F has takes its best configuration (apply-best);
                                    the others keep the default schedule
  compile FILE.te [--function NAME] [--target TARGET] -o DIR
                                    export one kernel of the script the same way, as a model
                                    of one step (placeholders in, computed tensors out); with
                                    --target cuda a kernel bundle for tessel-run on a GPU host
                                    (PTX, launch table, this CPU's outputs unless --no-expected)
  show MODEL.onnx [--stage graph|optimized|fused|te|tir|llvm|asm] [--function NAME]
        [--input-shape NAME:D1,D2,...]... [--pass NAME] [--target TARGET]
                                    print one stage: the imported graph (the default; with
                                    every construct that cannot compile listed under it),
                                    the graph after the
                                    graph pipeline (--pass NAME: after that pass), the fusion
                                    plan, or per fused function its TE script (a script that
                                    rebuilds its schedule), TIR, LLVM IR or assembly
  zoo NAME -o FILE.onnx [--seed N]  write a model of the zoo (torchvision's architecture as
                                    PyTorch exports it, seeded random weights; default seed 1)
  zoo --list                        list the zoo's models

TARGET: host (the default), an architecture (x86_64, aarch64, armv7, riscv64), a triple
(aarch64-linux-gnu -mcpu=cortex-a72), or a full target (llvm -mtriple=... -mcpu=... -mattr=...)
)";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CompileError("cannot read '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Args {
    std::string command, file;
    std::vector<std::string> passes;
    std::string emit, target, stage;
    std::vector<std::string> inputShapes;
    std::vector<std::string> inputs, expect;
    std::string output, function;
    /// --config: knob name -> choice index, for tunable templates.
    std::map<std::string, int64_t> config;
    /// --workload: a template's workload parameters.
    std::map<std::string, int64_t> workload;
    int threads = 0, repeat = 0;
    /// run/ladder: measure in this process instead of a local tessel-rpc server.
    bool inProcess = false;
    bool noExpected = false;
    /// tune: offline trials for a GPU host this machine cannot reach.
    std::string exportTrials, importTrials;
    /// run: measure on a device (HOST:PORT), with this token file.
    std::string rpc, rpcTokenFile;
    /// run/ladder: a device of key rpcKey from the tracker at rpcTracker.
    std::string rpcTracker, rpcKey;
    double rtol = 1e-3, atol = 1e-7;
    bool json = false, profile = false;
    /// zoo: the weights' seed, and --list.
    uint64_t seed = 1;
    bool list = false;
    /// tune: each --workload apart (one task each).
    std::vector<std::map<std::string, int64_t>> workloads;
    /// tune and records.
    std::string records, tuner = "xgb", costModel, features = "itervar";
    int trials = 0, earlyStopping = 0, batch = 0, buildJobs = 0;
    /// compare: the sides' records and threads (-1: --threads), rounds, CSV file.
    std::string recordsA, recordsB, csv;
    int threadsA = -1, threadsB = -1, rounds = 10;
    double timeout = 10;
    bool noTransfer = false, verbose = false, best = false;
};

Args parseArgs(int argc, char** argv) {
    Args a;
    if (argc < 2) throw UsageError("no command given");
    a.command = argv[1];
    for (int i = 2; i < argc; ++i) {
        std::string s = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(s + " needs a value");
            return argv[++i];
        };
        auto number = [&]() {
            std::string v = value();
            try {
                size_t used = 0;
                int n = std::stoi(v, &used);
                if (used != v.size() || n < 0) throw std::invalid_argument(v);
                return n;
            } catch (const std::exception&) {
                throw UsageError(s + " needs a non-negative integer, not '" + v + "'");
            }
        };
        auto real = [&]() {
            std::string v = value();
            try {
                size_t used = 0;
                double d = std::stod(v, &used);
                if (used != v.size() || d < 0) throw std::invalid_argument(v);
                return d;
            } catch (const std::exception&) {
                throw UsageError(s + " needs a non-negative number, not '" + v + "'");
            }
        };
        auto list = [&]() {
            std::vector<std::string> out;
            std::stringstream ss(value());
            for (std::string item; std::getline(ss, item, ',');)
                if (!item.empty()) out.push_back(item);
            return out;
        };
        if (s == "--pass") a.passes.push_back(value());
        else if (s == "--inputs") a.inputs = list();
        else if (s == "--expect") a.expect = list();
        else if (s == "-o" || s == "--output") a.output = value();
        else if (s == "--function") a.function = value();
        else if (s == "--rtol") a.rtol = real();
        else if (s == "--atol") a.atol = real();
        else if (s == "--emit") a.emit = value();
        else if (s == "--target") a.target = value();
        else if (s == "--stage") a.stage = value();
        else if (s == "--input-shape") a.inputShapes.push_back(value());
        else if (s == "--threads") a.threads = number();
        else if (s == "--repeat") a.repeat = number();
        else if (s == "--json") a.json = true;
        else if (s == "--in-process") a.inProcess = true;
        else if (s == "--no-expected") a.noExpected = true;
        else if (s == "--rpc") a.rpc = value();
        else if (s == "--rpc-token-file") a.rpcTokenFile = value();
        else if (s == "--rpc-tracker") a.rpcTracker = value();
        else if (s == "--rpc-key") a.rpcKey = value();
        else if (s == "--config") {
            try {
                for (auto& [name, index] : te::parseConfig(value())) a.config[name] = index;
            } catch (const CompileError& e) {
                throw UsageError("--config: " + e.diagnostic().message);
            }
        }
        else if (s == "--workload") {
            try {
                auto w = te::script::parseWorkload(value());
                a.workloads.push_back(w);
                for (auto& [name, v] : w) a.workload[name] = v;
            } catch (const CompileError& e) {
                throw UsageError("--workload: " + e.diagnostic().message);
            }
        }
        else if (s == "--profile") a.profile = true;
        else if (s == "--records") a.records = value();
        else if (s == "--export-trials") a.exportTrials = value();
        else if (s == "--import-trials") a.importTrials = value();
        else if (s == "--records-a") a.recordsA = value();
        else if (s == "--records-b") a.recordsB = value();
        else if (s == "--threads-a") a.threadsA = number();
        else if (s == "--threads-b") a.threadsB = number();
        else if (s == "--rounds") a.rounds = number();
        else if (s == "--csv") a.csv = value();
        else if (s == "--tuner") a.tuner = value();
        else if (s == "--cost-model") a.costModel = value();
        else if (s == "--features") a.features = value();
        else if (s == "--trials") a.trials = number();
        else if (s == "--early-stopping") a.earlyStopping = number();
        else if (s == "--batch") a.batch = number();
        else if (s == "--build-jobs") a.buildJobs = number();
        else if (s == "--timeout") a.timeout = real();
        else if (s == "--no-transfer") a.noTransfer = true;
        else if (s == "--verbose") a.verbose = true;
        else if (s == "--best") a.best = true;
        else if (s == "--list") a.list = true;
        else if (s == "--seed") {
            std::string v = value();
            size_t used = 0;
            try {
                a.seed = std::stoull(v, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != v.size() || v.empty() || v[0] == '-')
                throw UsageError("--seed needs a non-negative integer, not '" + v + "'");
        }
        else if (s.starts_with("--")) throw UsageError("unknown option " + s);
        else if (a.file.empty()) a.file = s;
        else throw UsageError("unexpected argument '" + s + "'");
    }
    return a;
}

driver::CompileRequest requestFor(const Args& a);

std::vector<driver::LoweredFunction> lowerFile(const std::string& path, bool snapshots, const Args& a) {
    if (path.empty()) throw UsageError("no .te file given");
    driver::ScriptOptions so;
    so.fileName = path;
    so.target = requestFor(a).target; // topi.schedule_default's vector width
    so.lower.snapshots = snapshots;
    so.config = a.config;
    so.workload = a.workload;
    auto fs = driver::lowerScript(readFile(path), so);
    if (fs.empty())
        throw CompileError("the script builds no function: it creates no schedule and calls no tvm.build");
    return fs;
}

int cmdPasses(const driver::Context& context = driver::Context::builtin()) {
    std::printf("TIR passes:\n");
    for (auto& p : context.tirPasses.passes()) std::printf("  %-34s %s\n", p.name.c_str(), p.summary.c_str());
    std::printf("graph passes:\n");
    for (auto& p : context.graphPasses.passes()) std::printf("  %-34s %s\n", p.name.c_str(), p.summary.c_str());
    return 0;
}

/// `plugins [--json]`: what the built-in context loaded and refused. A refused
/// plugin is reported, not an error: the exit status is 0.
int cmdPlugins(const Args& a, const driver::Context& context = driver::Context::builtin()) {
    if (!a.file.empty()) throw UsageError("plugins takes no file");
    const plugin::PluginSet& set = context.plugins();
    const tune::CostModelRegistry& models = context.costModels();
    if (a.json) {
        nlohmann::json j;
        j["search_path"] = nlohmann::json::array();
        for (auto& f : set.searched()) j["search_path"].push_back({{"dir", f.dir.string()}, {"exists", f.exists}});
        j["plugins"] = nlohmann::json::array();
        for (auto& p : set.plugins())
            j["plugins"].push_back({{"id", p.metadata.id},
                                    {"name", p.metadata.name},
                                    {"version", p.metadata.version},
                                    {"abi", p.metadata.abi},
                                    {"library", p.metadata.library},
                                    {"provides", p.metadata.provides},
                                    {"description", p.metadata.description},
                                    {"dir", p.dir.string()},
                                    {"loaded", p.loaded()},
                                    {"refusal", p.loaded() ? "" : plugin::refusalName(p.refusal)},
                                    {"reason", p.reason},
                                    {"registered", p.registered}});
        j["cost_models"] = nlohmann::json::array();
        for (auto& m : models.records())
            j["cost_models"].push_back({{"name", m.name}, {"origin", m.origin}, {"summary", m.summary}});
        std::printf("%s\n", j.dump(2).c_str());
        return 0;
    }
    std::printf("plugin folders searched:\n");
    for (auto& f : set.searched()) std::printf("  %s%s\n", f.dir.c_str(), f.exists ? "" : "  (not there)");
    std::printf("plugins: %zu loaded, %zu refused\n", set.loadedCount(), set.refusedCount());
    for (auto& p : set.plugins()) {
        const std::string id = p.metadata.id.empty() ? "(no id)" : p.metadata.id;
        std::printf("  %s %s  %s  %s\n", id.c_str(), p.metadata.version.c_str(),
                    p.loaded() ? "loaded" : ("refused (" + std::string(plugin::refusalName(p.refusal)) + ")").c_str(),
                    p.dir.c_str());
        if (!p.metadata.name.empty())
            std::printf("    %s%s%s\n", p.metadata.name.c_str(), p.metadata.description.empty() ? "" : ": ",
                        p.metadata.description.c_str());
        if (!p.loaded()) std::printf("    why: %s\n", p.reason.c_str());
        for (auto& r : p.registered) std::printf("    registered %s\n", r.c_str());
    }
    std::printf("cost models:\n");
    if (models.records().empty()) std::printf("  (none)\n");
    for (auto& m : models.records())
        std::printf("  %-8s %s\n           from %s\n", m.name.c_str(), m.summary.c_str(), m.origin.c_str());
    return 0;
}

/// The compile request of --target (this machine when not given).
driver::CompileRequest requestFor(const Args& a) {
    return driver::CompileRequest::forTarget(a.target.empty() ? "host" : a.target);
}

/// --records F: the best configuration of every workload F has (apply-best).
/// Apply-best from --records (a file, or a folder of them such as
/// resources/records): records of `target`, else of a machine of its kind;
/// with --threads, records measured with that many threads first.
std::map<std::string, tune::Config> tunedConfigs(const Args& a, const Target& target) {
    std::vector<std::string> warnings;
    driver::AppliedRecords applied = driver::applyBest(a.records, target, &warnings, a.threads);
    for (auto& w : warnings) std::fprintf(stderr, "tesselc: warning: %s\n", w.c_str());
    if (!applied.note.empty()) std::fprintf(stderr, "%s\n", applied.note.c_str());
    return std::move(applied.configs);
}

/// How many of `m`'s functions took a tuned configuration, for a line of output.
void reportTuned(const Args& a, const driver::CompiledModel& m) {
    // A stale record skipped (the function kept its default): said, never an error.
    for (auto& w : m.warnings) std::fprintf(stderr, "tesselc: warning: %s\n", w.c_str());
    if (a.records.empty()) return;
    size_t tunable = 0, tuned = 0;
    for (auto& f : m.functions) {
        tunable += !f.knobs.empty();
        tuned += f.tuned;
    }
    std::fprintf(stderr, "%s: %zu of %zu tunable functions tuned\n", a.records.c_str(), tuned, tunable);
}

frontend::ImportOptions importOptions(const Args& a) {
    frontend::ImportOptions io;
    for (auto& b : a.inputShapes) {
        auto [name, dims] = frontend::parseInputShapeBinding(b);
        io.inputShapes[name] = dims;
    }
    return io;
}

/// `show --stage te|tir|llvm|asm`: per fused function (or the one --function names).
int showFunctions(const Args& a, const frontend::ImportOptions& io) {
    driver::CompileOptions co;
    co.request = requestFor(a);
    co.trace = a.stage != "tir";
    co.moduleTexts = a.stage == "llvm" || a.stage == "asm";
    co.configs = tunedConfigs(a, co.request.target);
    auto m = driver::compileModel(a.file, io, co);
    reportTuned(a, m);
    std::vector<const driver::FusedFunction*> fns;
    for (auto& f : m.functions)
        if (a.function.empty() || f.name == a.function) fns.push_back(&f);
    if (fns.empty()) {
        std::string known;
        for (auto& f : m.functions) known += " " + f.name;
        throw CompileError("the model has no fused function '" + a.function + "'; functions:" + known);
    }
    if (a.stage == "tir") {
        for (auto* f : fns) std::cout << tir::toString(f->lowered.lowered) << "\n";
        return 0;
    }
    if (a.stage == "te") {
        for (size_t i = 0; i < fns.size(); ++i) std::cout << (i ? "\n" : "") << fns[i]->script;
        return 0;
    }
    if (a.function.empty()) {
        std::cout << (a.stage == "asm" ? m.build.assembly : m.build.llvmIROptimized);
        return 0;
    }
    // One function: build it alone so the text is only its own.
    codegen::BuildOptions bo = co.request.buildOptions();
    bo.jit = false;
    bo.emitAssembly = a.stage == "asm";
    auto r = driver::buildFunctions({fns[0]->lowered}, co.request.target, bo);
    std::cout << (a.stage == "asm" ? r.assembly : r.llvmIROptimized);
    return 0;
}

std::vector<runtime::NDArray> readTensors(const std::vector<std::string>& files) {
    std::vector<runtime::NDArray> out;
    for (auto& f : files) out.push_back(driver::toNDArray(*frontend::readTensorProto(f).value));
    return out;
}

/// Where run, ladder, tune and run MODEL measure: a local tessel-rpc server
/// child (the default), this process (--in-process), or a device (--rpc
/// HOST:PORT, or a server of --rpc-key from --rpc-tracker).
driver::DeviceSpec deviceSpecOf(const Args& a) {
    driver::DeviceSpec spec;
    try {
        if (!a.rpc.empty() || !a.rpcTracker.empty()) {
            if (!a.rpc.empty() && !a.rpcTracker.empty()) throw UsageError("--rpc and --rpc-tracker exclude each other");
            if (a.rpcTracker.empty() != a.rpcKey.empty()) throw UsageError("--rpc-tracker and --rpc-key go together");
            if (!a.rpc.empty()) {
                const rpc::HostPort hp = rpc::parseHostPort(a.rpc);
                spec = driver::DeviceSpec::server(hp.host, hp.port, a.rpcTokenFile);
            } else {
                const rpc::HostPort hp = rpc::parseHostPort(a.rpcTracker);
                spec = driver::DeviceSpec::tracker(hp.host, hp.port, a.rpcKey, a.rpcTokenFile);
            }
        } else if (a.inProcess) {
            spec = driver::DeviceSpec::inProcess();
        }
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    spec.clientName = "tesselc";
    return spec;
}

/// The runners of deviceSpecOf(a); a device's target is asked at once (an
/// RpcError naming the step when it cannot be reached).
struct Measurer {
    driver::DeviceRunners runners;
    /// A remote device's target (what kernels are built for); empty otherwise.
    std::string deviceTarget;

    explicit Measurer(const Args& a) : runners(deviceSpecOf(a)) {
        if (runners.spec().remote()) deviceTarget = runners.target().str();
    }
    void apply(driver::RunOptions& ro) { runners.apply(ro); }
};

int cmdRunModel(const Args& a) {
    if (!a.target.empty() && requestFor(a).target.isGPU())
        throw UsageError("tesselc run measures on this machine's CPU or an RPC device; for a CUDA GPU export the "
                         "model (tesselc compile MODEL --target cuda -o DIR) and run it there with tessel-run DIR");
    Measurer measurer(a);
    driver::CompileOptions co;
    if (!measurer.deviceTarget.empty()) co.request = driver::CompileRequest::forTarget(measurer.deviceTarget);
    co.configs = tunedConfigs(a, co.request.target);
    auto m = driver::compileModelForRun(a.file, importOptions(a), co);
    reportTuned(a, m);
    auto inputs = readTensors(a.inputs);
    auto expected = readTensors(a.expect);
    if (inputs.size() > m.plan.inputs.size())
        throw CompileError(std::to_string(inputs.size()) + " inputs given, the model takes " +
                           std::to_string(m.plan.inputs.size()));
    if (expected.size() > m.plan.outputs.size())
        throw CompileError(std::to_string(expected.size()) + " expected outputs given, the model has " +
                           std::to_string(m.plan.outputs.size()));
    double rtol = a.rtol, atol = a.atol;
    if (!measurer.deviceTarget.empty() && expected.empty()) {
        // A device's outputs are checked against this machine's run of the
        // same model: to 1e-4 of the largest |value| (another ISA rounds
        // and contracts differently).
        driver::ModelRunOptions hostRun;
        hostRun.seed = a.seed;
        auto host = driver::runModel(driver::compileModel(a.file, importOptions(a)), inputs, {}, hostRun);
        if (!host.ok) throw CompileError("the model failed on this machine: " + host.error);
        expected = host.values;
        double maxAbs = 0;
        for (auto& v : expected)
            for (int64_t i = 0; i < v.numElements(); ++i) maxAbs = std::max(maxAbs, std::fabs(v.at(i)));
        rtol = 0;
        atol = 1e-4 * std::max(maxAbs, 1e-30);
    }
    driver::ModelRunOptions ro;
    ro.threads = a.threads;
    ro.repeat = a.repeat > 0 ? a.repeat : 20;
    ro.rtol = rtol;
    ro.atol = atol;
    ro.profile = a.profile;
    ro.seed = a.seed;
    const std::unique_ptr<runtime::ModelRunner> runner = measurer.runners.modelRunner();
    ro.runner = runner.get();
    auto rep = driver::runModel(m, inputs, expected, ro);
    if (a.json) {
        nlohmann::json outs = nlohmann::json::array();
        for (size_t i = 0; i < rep.outputs.size(); ++i) {
            auto& o = rep.outputs[i];
            nlohmann::json j = {{"name", o.name}, {"shape", m.plan.tensors[size_t(m.plan.outputs[i])].shape}};
            if (o.checked) {
                j["max_abs_err"] = o.maxAbsErr;
                j["max_rel_err"] = o.maxRelErr;
                j["max_abs_expected"] = o.maxAbsExpected;
                j["ok"] = o.ok;
            }
            outs.push_back(j);
        }
        nlohmann::json j = {{"ok", rep.ok},
                            {"latency_ms", rep.latencyMs},
                            {"threads", rep.threads},
                            {"compile_s", m.timings.totalSeconds()},
                            {"functions", m.functions.size()},
                            {"outputs", outs}};
        if (!rep.ok) j["error"] = rep.error;
        if (a.profile) {
            nlohmann::json prof = nlohmann::json::array();
            for (auto& k : rep.profile)
                prof.push_back({{"function", k.function},
                                {"ms", k.ms},
                                {"gflops", k.gflops},
                                {"roofline", k.roofline},
                                {"bound", k.memoryBound ? "memory" : "compute"}});
            j["profile"] = prof;
        }
        std::cout << j.dump() << "\n";
    } else {
        std::printf("%s: %s\n  compiled in %.2f s (%zu fused functions), latency %.3f ms (median of %zu), %d thread%s\n",
                    a.file.c_str(), rep.ok ? (expected.empty() ? "ran" : "ok") : "FAILED", m.timings.totalSeconds(),
                    m.functions.size(), rep.latencyMs, rep.runsMs.size(), rep.threads, rep.threads == 1 ? "" : "s");
        for (auto& o : rep.outputs) {
            std::printf("  %s %s", o.name.c_str(), o.type.c_str());
            if (o.checked) std::printf(": max abs err %.3g, max rel err %.3g%s", o.maxAbsErr, o.maxRelErr, o.ok ? "" : "  MISMATCH");
            std::printf("\n");
        }
        if (!rep.ok) std::printf("  %s\n", rep.error.c_str());
        if (a.profile) {
            double total = 0;
            for (auto& k : rep.profile) total += k.ms;
            // Roofline: the kernel's share of min(FMA peak, intensity x measured bandwidth).
            std::printf("\n  %-40s %10s %7s %9s %9s\n", "kernel", "ms", "share", "GFLOP/s", "roofline");
            for (auto& k : rep.profile) {
                std::printf("  %-40s %10.3f %6.1f%% %9.1f", k.function.c_str(), k.ms, 100 * k.ms / total, k.gflops);
                if (k.roofline > 0) std::printf(" %7.0f%% %s", 100 * k.roofline, k.memoryBound ? "(memory)" : "(compute)");
                std::printf("\n");
            }
        }
    }
    return rep.ok ? 0 : 1;
}

/// `tune FILE.te`: TuneCommands.cpp, measured where run measures.
/// `tune --export-trials DIR` / `--import-trials DIR`: TrialCommands.cpp.
int cmdTrials(const Args& a) {
    if (a.records.empty()) throw UsageError("tune needs --records FILE (every trial is appended to it)");
    cli::TrialArgs t;
    t.records = a.records;
    if (!a.importTrials.empty()) {
        if (!a.exportTrials.empty()) throw UsageError("--export-trials and --import-trials are two steps: give one");
        t.dir = a.importTrials;
        return cli::importTrials(t);
    }
    if (!a.file.ends_with(".te")) throw UsageError("--export-trials tunes a .te template");
    if (a.trials <= 0) throw UsageError("tune needs --trials N (N > 0)");
    if (a.workloads.size() > 1) throw UsageError("--export-trials takes one --workload (one batch per workload)");
    t.file = a.file;
    t.dir = a.exportTrials;
    t.workload = a.workload;
    t.tuner = a.tuner;
    t.costModel = a.costModel;
    t.features = a.features;
    t.trials = a.trials;
    t.seed = a.seed;
    t.expected = !a.noExpected;
    t.target = requestFor(a).target;
    try {
        return cli::exportTrials(t, driver::Context::builtin().costModels());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

int cmdTune(const Args& a) {
    if (!a.exportTrials.empty() || !a.importTrials.empty()) return cmdTrials(a);
    if (a.file.empty()) throw UsageError("no .te template or model given");
    if (a.records.empty()) throw UsageError("tune needs --records FILE (every trial is appended to it)");
    if (a.trials <= 0) throw UsageError("tune needs --trials N (N > 0)");
    if (!tune::featureKindFromName(a.features)) throw UsageError("--features must be itervar, knob or curve");
    // Every trial would fail to build for the CPU's runner: say so once, with the way that works.
    if (!a.target.empty() && requestFor(a).target.isGPU())
        throw UsageError("tune measures on CPUs and RPC devices; GPU kernels are not measured in place yet. Tune a "
                         "template for a GPU host in offline rounds: --export-trials DIR here, `tessel-run DIR` "
                         "there, --import-trials DIR here (docs/gpu.md)");
    // Likewise when the default local server cannot start: one error, not every trial failing.
    if (a.rpc.empty() && a.rpcTracker.empty() && !a.inProcess && rpc::LocalServer::findBinary().empty())
        throw UsageError("tune measures in a local tessel-rpc server, and none was found (next to tesselc, on PATH, "
                         "or named by TESSEL_RPC_SERVER); install it beside tesselc, or measure in this process "
                         "with --in-process");
    Measurer measurer(a);
    cli::TuneArgs t;
    t.file = a.file;
    t.workloads = a.workloads;
    t.records = a.records;
    t.tuner = a.tuner;
    t.costModel = a.costModel;
    t.features = a.features;
    t.trials = a.trials;
    t.earlyStopping = a.earlyStopping;
    t.threads = a.threads;
    t.buildJobs = a.buildJobs;
    t.batch = a.batch;
    t.seed = a.seed;
    t.timeoutSeconds = a.timeout;
    t.transfer = !a.noTransfer;
    t.verbose = a.verbose;
    Args targetArgs = a;
    if (!measurer.deviceTarget.empty()) targetArgs.target = measurer.deviceTarget;
    t.target = requestFor(targetArgs).target;
    // Built here for t.target (a remote device's own), run on the device.
    driver::DeviceRunners& d = measurer.runners;
    // A tuner that cannot be made (its cost model not loaded) is an error, not a usage error.
    if (a.file.ends_with(".te")) return cli::runTune(t, d, driver::Context::builtin().costModels());
    // A model: every fused function with knobs, identical workloads once.
    driver::CompileOptions co;
    co.request = driver::CompileRequest::forTarget(t.target.str());
    const auto model = driver::compileModel(a.file, importOptions(a), co);
    std::vector<cli::WeightedTask> tasks;
    for (auto& mt : driver::extractTasks(model, co)) tasks.push_back({mt.task, mt.weight});
    std::printf("%s: %zu fused functions, %zu tuning tasks\n", a.file.c_str(), model.functions.size(), tasks.size());
    if (tasks.empty()) return 0;
    return cli::runTuneTasks(tasks, t, d, driver::Context::builtin().costModels());
}

/// `compare MODEL.onnx`: CompareCommand.cpp.
int cmdCompare(const Args& a) {
    if (a.file.empty()) throw UsageError("no model given");
    if (!a.records.empty() && !a.recordsB.empty()) throw UsageError("--records and --records-b both name side B");
    cli::CompareArgs c;
    c.file = a.file;
    c.import = importOptions(a);
    c.recordsA = a.recordsA;
    c.recordsB = a.recordsB.empty() ? a.records : a.recordsB;
    c.threadsA = a.threadsA >= 0 ? a.threadsA : a.threads;
    c.threadsB = a.threadsB >= 0 ? a.threadsB : a.threads;
    if (c.recordsA == c.recordsB && c.threadsA == c.threadsB)
        throw UsageError("compare needs two different sides: --records G (B tuned by G), --records-a F, or "
                         "--threads-a and --threads-b");
    if (a.rounds < 1) throw UsageError("--rounds needs at least 1");
    c.rounds = a.rounds;
    c.seed = a.seed;
    c.csv = a.csv;
    c.inProcess = a.inProcess;
    c.rpc = a.rpc;
    c.rpcTracker = a.rpcTracker;
    c.rpcKey = a.rpcKey;
    c.rpcTokenFile = a.rpcTokenFile;
    try {
        return cli::runCompare(c);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

/// `compile FILE.te -o DIR`: one kernel of the script as a model of one step.
int compileKernel(const Args& a) {
    auto fns = lowerFile(a.file, false, a);
    const driver::LoweredFunction* f = nullptr;
    std::string known;
    for (auto& fn : fns) {
        known += " " + fn.name;
        if (fn.name == a.function || (a.function.empty() && fns.size() == 1)) f = &fn;
    }
    if (!f && a.function.empty()) throw UsageError("the script builds several functions; name one with --function:" + known);
    if (!f) throw CompileError("the script builds no function '" + a.function + "'; functions:" + known);
    const Target target = requestFor(a).target;
    if (target.isGPU()) {
        driver::BundleOptions bo;
        bo.expected = !a.noExpected;
        auto b = driver::exportKernelBundle(*f, a.output, target, bo);
        std::printf("%s: kernel bundle %s for %s, %zu kernel%s -> %s (run it with tessel-run)\n", a.file.c_str(),
                    b.signature.str().c_str(), target.cpu.c_str(), b.launches.size(), b.launches.size() == 1 ? "" : "s",
                    a.output.c_str());
        return 0;
    }
    driver::exportKernel(*f, a.output, target);
    std::printf("%s: kernel %s for %s -> %s\n", a.file.c_str(), driver::signatureOf(*f).str().c_str(),
                target.triple.c_str(), a.output.c_str());
    return 0;
}

int cmdCompile(const Args& a) {
    if (a.file.empty()) throw UsageError("no model given");
    if (a.output.empty()) throw UsageError("compile needs -o DIR");
    if (a.file.ends_with(".te")) return compileKernel(a);
    driver::CompileOptions co;
    co.request = requestFor(a);
    co.configs = tunedConfigs(a, co.request.target);
    auto m = driver::compileModel(a.file, importOptions(a), co);
    reportTuned(a, m);
    driver::exportModel(m, a.output, co.request.target);
    std::printf("%s: %zu fused functions, %.1f MiB of weights, %.1f MiB of activations -> %s\n", a.file.c_str(),
                m.functions.size(), double(m.plan.weightsBytes) / (1 << 20), double(m.plan.storageBytes()) / (1 << 20),
                a.output.c_str());
    return 0;
}

int cmdShow(Args a) {
    if (a.file.empty()) throw UsageError("no model given");
    if (a.stage.empty()) a.stage = "graph";
    static const std::vector<std::string> kStages = {"graph", "optimized", "fused", "te", "tir", "llvm", "asm"};
    if (std::find(kStages.begin(), kStages.end(), a.stage) == kStages.end())
        throw UsageError("--stage must be graph, optimized, fused, te, tir, llvm or asm");
    frontend::ImportOptions io = importOptions(a);
    if (a.stage == "graph") {
        // Every model has a graph to show; what cannot compile is listed under it.
        auto shown = driver::importModelToShow(a.file, io);
        std::cout << graph::printGraph(shown.graph).text << driver::unsupportedReport(shown.unsupported);
        return 0;
    }
    if (a.stage == "te" || a.stage == "tir" || a.stage == "llvm" || a.stage == "asm") return showFunctions(a, io);
    auto trace = driver::optimizeModel(a.file, io);
    if (a.stage == "optimized") {
        if (a.passes.empty()) {
            std::cout << trace.stages.back().text.text;
        } else {
            for (auto& name : a.passes) {
                bool found = false;
                for (auto& s : trace.stages)
                    if (s.pass == name) {
                        std::cout << "# after " << name << (s.changed ? "" : " (unchanged)") << "\n" << s.text.text;
                        found = true;
                    }
                if (!found) throw CompileError("pass '" + name + "' is not in the graph pipeline");
            }
        }
    } else {
        std::cout << driver::describeFusion(trace.optimized, trace.fusion);
    }
    return 0;
}

int cmdLower(const Args& a) {
    auto fns = lowerFile(a.file, !a.passes.empty(), a);
    for (auto& f : fns) {
        if (a.passes.empty()) {
            std::cout << tir::toString(f.lowered);
            continue;
        }
        for (auto& name : a.passes) {
            if (name == "schedule") {
                std::cout << "# " << f.name << " straight from the schedule\n" << tir::toString(f.scheduled);
                continue;
            }
            if (!tir::findTirPass(name)) {
                std::string known;
                for (auto& p : tir::tirPasses()) known += " " + p.name;
                throw CompileError("unknown pass '" + name + "'; passes:" + known);
            }
            bool found = false;
            for (auto& s : f.snapshots)
                if (s.pass == name) {
                    std::cout << "# " << f.name << " after " << name << (s.changed ? "" : " (unchanged)") << "\n"
                              << s.text.text;
                    found = true;
                }
            if (!found) std::cout << "# " << f.name << ": pass " << name << " is not in the pipeline\n";
        }
    }
    return 0;
}

int cmdBuild(const Args& a) {
    static const std::vector<std::string> kEmits = {"tir", "llvm", "llvm-unopt", "asm", "c", "ptx", "cuda"};
    if (std::find(kEmits.begin(), kEmits.end(), a.emit) == kEmits.end())
        throw UsageError("--emit must be one of tir, llvm, llvm-unopt, asm, c, ptx, cuda");
    const driver::CompileRequest request = requestFor(a);
    if ((a.emit == "ptx" || a.emit == "cuda") && !request.target.isGPU())
        throw UsageError("--emit " + a.emit + " needs a GPU target: --target cuda (or cuda -mcpu=sm_90)");
    auto fns = lowerFile(a.file, false, a);
    if (a.emit == "tir") {
        for (auto& f : fns) std::cout << tir::toString(f.lowered);
        if (request.target.isGPU())
            for (auto& split : driver::splitForDevice(fns))
                for (auto& k : split.kernels)
                    std::cout << "# kernel " << k.kernel->name << ": grid (" << k.grid[0] << ", " << k.grid[1] << ", "
                              << k.grid[2] << "), block (" << k.block[0] << ", " << k.block[1] << ", " << k.block[2]
                              << "), " << k.sharedBytes << " bytes shared"
                              << (k.minBlocksPerSM ? ", " + std::to_string(k.minBlocksPerSM) + " blocks per SM asked" : "")
                              << "\n";
        return 0;
    }
    if (a.emit == "c" && request.target.isGPU())
        throw UsageError("--emit c writes C for a CPU; for a GPU use --emit cuda (CUDA C) or --emit ptx");
    if (a.emit == "cuda") {
        std::vector<tir::PrimFunc> kernels;
        for (auto& split : driver::splitForDevice(fns))
            for (auto& k : split.kernels) kernels.push_back(k.kernel);
        std::cout << codegen::emitCudaC(kernels).text;
        return 0;
    }
    if (a.emit == "c") {
        for (auto& f : fns) std::cout << codegen::emitC(f.lowered).text;
        return 0;
    }
    codegen::BuildOptions bo = request.buildOptions();
    bo.jit = false;
    bo.emitAssembly = a.emit == "asm" || a.emit == "ptx";
    auto r = driver::buildFunctions(fns, request.target, bo);
    std::cout << (bo.emitAssembly ? r.assembly : a.emit == "llvm" ? r.llvmIROptimized : r.llvmIR);
    return 0;
}

runtime::TimeEvaluator evaluatorFor(int repeat) {
    runtime::TimeEvaluator ev;
    ev.repeat = repeat > 0 ? repeat : 5;
    ev.number = 1;
    ev.minRepeatMs = 100;
    ev.warmup = 1;
    return ev;
}

/// `run FILE.te --target cuda`: each function on the first CUDA device
/// (driver::runAndCheck's GPU path), checked against the default schedule on
/// this CPU; without a GPU, the runtime's reason.
int runOnGpu(const Args& a) {
    const std::string why = driver::whyCannotRun(requestFor(a).target);
    if (!why.empty()) throw std::runtime_error(why);
    auto fns = lowerFile(a.file, false, a);
    bool allOk = true;
    for (auto& f : fns) {
        driver::RunOptions ro;
        ro.request = requestFor(a);
        ro.evaluator = evaluatorFor(a.repeat);
        auto rep = driver::runAndCheck(f, ro);
        allOk &= rep.ok;
        std::printf("%s: %s on %s\n  latency %.4f ms (median of %zu, CUDA events), %.1f GFLOP/s\n  max abs err %.3g\n",
                    f.name.c_str(), rep.ok ? "ok" : "FAILED",
                    static_cast<runtime::CudaDeviceAPI&>(runtime::deviceAPI(runtime::Device::cuda(0))).describe(0).c_str(),
                    rep.latencyMs, rep.repeatsMs.size(), rep.gflops, rep.maxAbsErr);
        if (!rep.ok) std::printf("  %s\n", rep.error.c_str());
    }
    return allOk ? 0 : 1;
}

int cmdRun(const Args& given) {
    Args a = given;
    if (!a.file.ends_with(".onnx") && requestFor(a).target.isGPU()) return runOnGpu(a);
    Measurer measurer(a);
    if (!measurer.deviceTarget.empty()) a.target = measurer.deviceTarget;
    auto fns = lowerFile(a.file, false, a);
    bool allOk = true;
    nlohmann::json arr = nlohmann::json::array();
    for (auto& f : fns) {
        driver::RunOptions ro;
        ro.threads = a.threads;
        ro.evaluator = evaluatorFor(a.repeat);
        measurer.apply(ro);
        auto rep = driver::runAndCheck(f, ro);
        allOk &= rep.ok;
        nlohmann::json j = {{"ok", rep.ok},           {"latency_ms", rep.latencyMs}, {"gflops", rep.gflops},
                            {"max_abs_err", rep.maxAbsErr}, {"max_rel_err", rep.maxRelErr},
                            {"threads", rep.threads}};
        if (!rep.ok) {
            j["error"] = rep.error;
            j["error_kind"] = runtime::measureErrorName(rep.errorKind);
        }
        if (fns.size() > 1) j["function"] = f.name;
        if (a.json) {
            arr.push_back(j);
        } else {
            std::printf("%s: %s\n  latency %.3f ms (median of %zu), %.2f GFLOP/s, %d thread%s\n"
                        "  max abs err %.3g, max rel err %.3g\n",
                        f.name.c_str(), rep.ok ? "ok" : "FAILED", rep.latencyMs, rep.repeatsMs.size(),
                        rep.gflops, rep.threads, rep.threads == 1 ? "" : "s", rep.maxAbsErr, rep.maxRelErr);
            if (!rep.ok) std::printf("  %s\n", rep.error.c_str());
        }
    }
    if (a.json) std::cout << (arr.size() == 1 ? arr[0].dump() : arr.dump()) << "\n";
    return allOk ? 0 : 1;
}

/// `space FILE.te`: the knobs of a tunable template, each with its choices.
int cmdSpace(const Args& a) {
    if (a.file.empty()) throw UsageError("no .te file given");
    te::script::ScriptOptions so;
    so.fileName = a.file;
    so.config = a.config;
    so.workload = a.workload;
    auto r = driver::runScript(readFile(a.file), so, requestFor(a).target);
    if (a.json) {
        nlohmann::json workload = nlohmann::json::array();
        for (auto& p : r.workload)
            workload.push_back({{"name", p.name}, {"default", p.defaultValue}, {"value", p.value},
                                {"line", p.loc.line}});
        nlohmann::json knobs = nlohmann::json::array();
        for (auto& k : r.knobs) {
            nlohmann::json choices = nlohmann::json::array();
            for (int64_t i = 0; i < k.size(); ++i) choices.push_back(k.choiceText(i));
            knobs.push_back({{"name", k.name},
                             {"kind", te::knobKindName(k.kind)},
                             {"choices", choices},
                             {"default", k.defaultIndex},
                             {"chosen", k.chosen},
                             {"line", k.loc.line}});
        }
        std::cout << nlohmann::json{{"knobs", knobs}, {"size", te::spaceSize(r.knobs)}, {"workload", workload}}.dump()
                  << "\n";
        return 0;
    }
    if (!r.workload.empty()) {
        std::printf("%s: workload", a.file.c_str());
        for (auto& p : r.workload)
            std::printf(" %s=%lld%s", p.name.c_str(), static_cast<long long>(p.value),
                        p.overridden ? "" : " (default)");
        std::printf("\n");
    }
    if (r.knobs.empty()) {
        std::printf("%s: no knobs (the script defines none with cfg.define_split, define_knob or define_reorder)\n",
                    a.file.c_str());
        return 0;
    }
    std::printf("%s: %zu knob%s, %lld configurations\n", a.file.c_str(), r.knobs.size(),
                r.knobs.size() == 1 ? "" : "s", static_cast<long long>(te::spaceSize(r.knobs)));
    for (auto& k : r.knobs) {
        std::printf("\n  %-16s %-8s %lld choice%s, %s %lld: %s\n", k.name.c_str(), te::knobKindName(k.kind),
                    static_cast<long long>(k.size()), k.size() == 1 ? "" : "s",
                    k.configured ? "chosen" : "default", static_cast<long long>(k.chosen), k.choiceText(k.chosen).c_str());
        std::string line = "  ";
        for (int64_t i = 0; i < k.size(); ++i) {
            std::string item = "  " + std::to_string(i) + ": " + k.choiceText(i);
            if (line.size() + item.size() > 100) {
                std::printf("%s\n", line.c_str());
                line = "  ";
            }
            line += item;
        }
        std::printf("%s\n", line.c_str());
    }
    return 0;
}

int cmdLadder(const Args& a) {
    std::string dir = a.file.empty() ? std::string(TESSEL_SOURCE_DIR "/resources/examples/gemm") : a.file;
    std::vector<fs::path> steps;
    for (auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".te") steps.push_back(e.path());
    std::sort(steps.begin(), steps.end());
    if (steps.empty()) throw CompileError("no .te steps in '" + dir + "'");
    Measurer measurer(a);
    Args stepArgs;
    stepArgs.target = measurer.deviceTarget;
    if (a.threads > 0) runtime::ThreadPool::global().setNumThreads(a.threads);
    std::printf("GEMM ladder (%s), %d thread%s\n\n", dir.c_str(), runtime::ThreadPool::global().numThreads(),
                runtime::ThreadPool::global().numThreads() == 1 ? "" : "s");
    std::printf("%-24s %12s %10s %9s %12s  %s\n", "step", "latency ms", "GFLOP/s", "speedup", "max rel err", "check");
    std::vector<runtime::NDArray> reference;
    double prevMs = 0;
    bool allOk = true;
    for (auto& step : steps) {
        std::string name = step.stem().string();
        try {
            auto fns = lowerFile(step.string(), false, stepArgs);
            driver::RunOptions ro;
            ro.referenceOutputs = reference;
            ro.evaluator = evaluatorFor(a.repeat);
            ro.threads = a.threads;
            measurer.apply(ro);
            auto rep = driver::runAndCheck(fns[0], ro);
            if (reference.empty()) reference = rep.outputs;
            std::printf("%-24s %12.2f %10.2f %8.2fx %12.2e  %s\n", name.c_str(), rep.latencyMs, rep.gflops,
                        prevMs > 0 ? prevMs / rep.latencyMs : 1.0, rep.maxRelErr, rep.ok ? "ok" : "FAILED");
            std::fflush(stdout);
            allOk &= rep.ok;
            prevMs = rep.latencyMs;
        } catch (const CompileError& e) {
            std::printf("%-24s %s\n", name.c_str(), e.diagnostic().str().c_str());
            allOk = false;
        }
    }
    return allOk ? 0 : 1;
}

/// `zoo NAME -o FILE.onnx [--seed N]` and `zoo --list`.
int cmdZoo(const Args& a) {
    if (a.list) {
        for (auto& name : frontend::zooModelNames())
            std::printf("%-14s %s\n", name.c_str(), frontend::zooModelDescription(name).c_str());
        return 0;
    }
    if (a.file.empty()) throw UsageError("zoo needs a model name (tesselc zoo --list lists them)");
    if (a.output.empty()) throw UsageError("zoo needs -o FILE.onnx");
    frontend::writeZooModel(a.file, a.output, a.seed);
    std::printf("%s (seed %llu) -> %s\n", a.file.c_str(), static_cast<unsigned long long>(a.seed), a.output.c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    Args a;
    try {
        a = parseArgs(argc, argv);
        if (a.command == "passes") return cmdPasses();
        if (a.command == "plugins") return cmdPlugins(a);
        if (a.command == "lower") return cmdLower(a);
        if (a.command == "build") return cmdBuild(a);
        if (a.command == "run") return a.file.ends_with(".onnx") ? cmdRunModel(a) : cmdRun(a);
        if (a.command == "ladder") return cmdLadder(a);
        if (a.command == "space") return cmdSpace(a);
        if (a.command == "show") return cmdShow(a);
        if (a.command == "compile") return cmdCompile(a);
        if (a.command == "zoo") return cmdZoo(a);
        if (a.command == "tune") return cmdTune(a);
        if (a.command == "compare") return cmdCompare(a);
        if (a.command == "records") {
            if (a.file.empty()) throw UsageError("records needs a records file");
            return cli::runRecords(a.file, a.best, a.json);
        }
        if (a.command == "help" || a.command == "--help" || a.command == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        throw UsageError("unknown command '" + a.command + "'");
    } catch (const UsageError& e) {
        std::fprintf(stderr, "tesselc: %s\n\n%s", e.what(), kUsage);
        return 2;
    } catch (const CompileError& e) {
        // "file:line:col: error: ..." or, without a location, "file: error: ...".
        Diagnostic d = e.diagnostic();
        // The importer names the model itself; say the file once.
        if (!a.file.empty() && d.message.starts_with(a.file + ": ")) d.message = d.message.substr(a.file.size() + 2);
        std::string where = a.file.empty() ? "" : a.file + (d.loc.known() ? ":" : ": ");
        std::fprintf(stderr, "%s%s\n", where.c_str(), d.str().c_str());
        return 1;
    } catch (const InternalError& e) {
        std::fprintf(stderr, "tesselc: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tesselc: error: %s\n", e.what());
        return 1;
    }
}
