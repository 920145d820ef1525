// tesselc: Tessel's command line. Thin: every command is a call into core/driver.
#include "codegen/CodeGenC.h"
#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "driver/ModelDriver.h"
#include "driver/TeDriver.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/ThreadPool.h"
#include "tir/IRPrinter.h"
#include "graph/passes/GraphPassRegistry.h"
#include "tir/passes/PassRegistry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
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
  build FILE.te --emit tir|llvm|llvm-unopt|asm|c [--target TRIPLE]
                                    print one stage of the compiled script
  run FILE.te [--threads N] [--repeat R] [--json]
                                    build, run on seeded random inputs, check against the
                                    default schedule, print latency and GFLOP/s
  ladder [DIR] [--threads N]        run every .te step of a GEMM ladder and print a table
  passes                            list every TIR and graph pass with its summary
  show MODEL.onnx --stage graph|optimized|fused [--input-shape NAME:D1,D2,...]...
                                    print the imported graph, the graph after the graph
                                    pipeline (--pass NAME: after that pass), or the fusion plan
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
    int threads = 0, repeat = 0;
    bool json = false;
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
        if (s == "--pass") a.passes.push_back(value());
        else if (s == "--emit") a.emit = value();
        else if (s == "--target") a.target = value();
        else if (s == "--stage") a.stage = value();
        else if (s == "--input-shape") a.inputShapes.push_back(value());
        else if (s == "--threads") a.threads = number();
        else if (s == "--repeat") a.repeat = number();
        else if (s == "--json") a.json = true;
        else if (s.starts_with("--")) throw UsageError("unknown option " + s);
        else if (a.file.empty()) a.file = s;
        else throw UsageError("unexpected argument '" + s + "'");
    }
    return a;
}

std::vector<driver::LoweredFunction> lowerFile(const std::string& path, bool snapshots) {
    if (path.empty()) throw UsageError("no .te file given");
    driver::ScriptOptions so;
    so.fileName = path;
    so.lower.snapshots = snapshots;
    auto fs = driver::lowerScript(readFile(path), so);
    if (fs.empty())
        throw CompileError("the script builds no function: it creates no schedule and calls no tvm.build");
    return fs;
}

int cmdPasses() {
    std::printf("TIR passes:\n");
    for (auto& p : tir::tirPasses()) std::printf("  %-34s %s\n", p.name.c_str(), p.summary.c_str());
    std::printf("graph passes:\n");
    for (auto& p : graph::graphPasses()) std::printf("  %-34s %s\n", p.name.c_str(), p.summary.c_str());
    return 0;
}

int cmdShow(const Args& a) {
    if (a.file.empty()) throw UsageError("no model given");
    if (a.stage != "graph" && a.stage != "optimized" && a.stage != "fused")
        throw UsageError("--stage must be graph, optimized or fused (the later stages come with the operator library)");
    frontend::ImportOptions io;
    for (auto& b : a.inputShapes) {
        auto [name, dims] = frontend::parseInputShapeBinding(b);
        io.inputShapes[name] = dims;
    }
    auto trace = driver::optimizeModel(a.file, io);
    if (a.stage == "graph") {
        std::cout << trace.stages.front().text;
    } else if (a.stage == "optimized") {
        if (a.passes.empty()) {
            std::cout << trace.stages.back().text;
        } else {
            for (auto& name : a.passes) {
                bool found = false;
                for (auto& s : trace.stages)
                    if (s.pass == name) {
                        std::cout << "# after " << name << (s.changed ? "" : " (unchanged)") << "\n" << s.text;
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
    auto fns = lowerFile(a.file, !a.passes.empty());
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
                              << s.text;
                    found = true;
                }
            if (!found) std::cout << "# " << f.name << ": pass " << name << " is not in the pipeline\n";
        }
    }
    return 0;
}

int cmdBuild(const Args& a) {
    static const std::vector<std::string> kEmits = {"tir", "llvm", "llvm-unopt", "asm", "c"};
    if (std::find(kEmits.begin(), kEmits.end(), a.emit) == kEmits.end())
        throw UsageError("--emit must be one of tir, llvm, llvm-unopt, asm, c");
    auto fns = lowerFile(a.file, false);
    if (a.emit == "tir") {
        for (auto& f : fns) std::cout << tir::toString(f.lowered);
        return 0;
    }
    if (a.emit == "c") {
        for (auto& f : fns) std::cout << codegen::emitC(f.lowered);
        return 0;
    }
    codegen::Target t = a.target.empty() ? codegen::Target::host() : codegen::Target::fromString(a.target);
    codegen::BuildOptions bo;
    bo.jit = false;
    bo.emitAssembly = a.emit == "asm";
    auto r = driver::buildFunctions(fns, t, bo);
    std::cout << (a.emit == "asm" ? r.assembly : a.emit == "llvm" ? r.llvmIROptimized : r.llvmIR);
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

int cmdRun(const Args& a) {
    auto fns = lowerFile(a.file, false);
    bool allOk = true;
    nlohmann::json arr = nlohmann::json::array();
    for (auto& f : fns) {
        driver::RunOptions ro;
        ro.threads = a.threads;
        ro.evaluator = evaluatorFor(a.repeat);
        auto rep = driver::runAndCheck(f, ro);
        allOk &= rep.ok;
        nlohmann::json j = {{"ok", rep.ok},           {"latency_ms", rep.latencyMs}, {"gflops", rep.gflops},
                            {"max_abs_err", rep.maxAbsErr}, {"max_rel_err", rep.maxRelErr},
                            {"threads", rep.threads}};
        if (!rep.ok) j["error"] = rep.error;
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

int cmdLadder(const Args& a) {
    std::string dir = a.file.empty() ? std::string(TESSEL_SOURCE_DIR "/resources/examples/gemm") : a.file;
    std::vector<fs::path> steps;
    for (auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".te") steps.push_back(e.path());
    std::sort(steps.begin(), steps.end());
    if (steps.empty()) throw CompileError("no .te steps in '" + dir + "'");
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
            auto fns = lowerFile(step.string(), false);
            driver::RunOptions ro;
            ro.referenceOutputs = reference;
            ro.evaluator = evaluatorFor(a.repeat);
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

} // namespace

int main(int argc, char** argv) {
    Args a;
    try {
        a = parseArgs(argc, argv);
        if (a.command == "passes") return cmdPasses();
        if (a.command == "lower") return cmdLower(a);
        if (a.command == "build") return cmdBuild(a);
        if (a.command == "run") return cmdRun(a);
        if (a.command == "ladder") return cmdLadder(a);
        if (a.command == "show") return cmdShow(a);
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
