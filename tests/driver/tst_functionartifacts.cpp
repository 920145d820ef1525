// driver::compileScriptArtifacts and driver::artifactsOf: every text of one
// function (TIR after each pass, LLVM IR, optimised IR, assembly, C) is there,
// the line maps agree with the texts they index, a typo is reported at its
// line and column, and a model's fused function printed as a script builds
// the same TIR again. The schedule editor's hot path is timed too: every
// GEMM ladder step and ResNet-18's 64-channel convolution + Add + Relu
// function, median and 95th percentile of
// a few runs (TESSEL_ARTIFACT_REPEAT=N for more; TESSEL_ARTIFACT_SCRIPT=FILE.te
// times that script too).
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "graph/Graph.h"
#include "ir/Diagnostic.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int lineCount(const std::string& s) {
    if (s.empty()) return 0;
    int n = static_cast<int>(std::count(s.begin(), s.end(), '\n'));
    return s.back() == '\n' ? n : n + 1;
}

std::vector<fs::path> gemmSteps() {
    std::vector<fs::path> steps;
    for (auto& e : fs::directory_iterator(fs::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm"))
        if (e.path().extension() == ".te") steps.push_back(e.path());
    std::sort(steps.begin(), steps.end());
    return steps;
}

/// A map is consistent with its text (one entry per line, TIR lines in range)
/// and with its own reverse table.
void checkLineMap(const codegen::LineMap& m, const std::string& text, int tirLines,
                  const char* what) {
    QVERIFY2(!m.empty(), what);
    QCOMPARE(static_cast<int>(m.toTir.size()), lineCount(text));
    for (size_t i = 0; i < m.toTir.size(); ++i) {
        int t = m.toTir[i];
        QVERIFY2(t >= 0 && t <= tirLines, qPrintable(QString("%1 line %2 maps to TIR line %3 of %4")
                                                         .arg(what)
                                                         .arg(i + 1)
                                                         .arg(t)
                                                         .arg(tirLines)));
        if (t > 0) {
            const auto& back = m.linesOf(t);
            QVERIFY2(std::find(back.begin(), back.end(), static_cast<int>(i + 1)) != back.end(),
                     what);
        }
    }
    for (int t = 1; t < static_cast<int>(m.fromTir.size()); ++t)
        for (int l : m.fromTir[static_cast<size_t>(t)])
            QCOMPARE(m.tirLine(l), t);
}

void checkArtifacts(const driver::FunctionArtifacts& a) {
    QVERIFY(!a.name.empty());
    QVERIFY(!a.lowered.snapshots.empty());
    QVERIFY(!a.build.module); // texts only, no JIT
    QCOMPARE(a.build.tir, tir::printPrimFunc(a.lowered.lowered).text);
    QVERIFY(a.build.llvmIR.find("define") != std::string::npos);
    QVERIFY(a.build.llvmIROptimized.find("define") != std::string::npos);
    QVERIFY(a.build.assembly.find(a.name + ":") != std::string::npos);
    QVERIFY2(a.c.find("int32_t " + a.name) != std::string::npos, a.c.substr(0, 200).c_str());
    int tirLines = lineCount(a.build.tir);
    checkLineMap(a.build.llvmIRLines, a.build.llvmIR, tirLines, "llvm IR");
    checkLineMap(a.build.llvmIROptimizedLines, a.build.llvmIROptimized, tirLines,
                 "optimised llvm IR");
    checkLineMap(a.build.assemblyLines, a.build.assembly, tirLines, "assembly");
}

struct Timing {
    double median = 0, p95 = 0;       ///< wall time, ms
    double cpuMedian = 0, cpuP95 = 0; ///< this thread's CPU time, ms (steadier on a shared machine)
};

double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

Timing timeRuns(int repeat, const std::function<void()>& run) {
    std::vector<double> wall, cpu;
    for (int i = 0; i < repeat; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        double c0 = threadCpuMs();
        run();
        cpu.push_back(threadCpuMs() - c0);
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    auto pick = [](std::vector<double>& v, double q) {
        std::sort(v.begin(), v.end());
        return v[std::min(v.size() - 1,
                          static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1)];
    };
    Timing t;
    t.median = pick(wall, 0.5);
    t.p95 = pick(wall, 0.95);
    t.cpuMedian = pick(cpu, 0.5);
    t.cpuP95 = pick(cpu, 0.95);
    return t;
}

void report(const std::string& what, const Timing& t, int repeat) {
    qInfo("%-26s wall median %6.1f ms  p95 %6.1f ms | cpu median %6.1f ms  p95 %6.1f ms  (%d runs)",
          what.c_str(), t.median, t.p95, t.cpuMedian, t.cpuP95, repeat);
}

int repeatCount() {
    if (const char* r = std::getenv("TESSEL_ARTIFACT_REPEAT"); r && std::atoi(r) > 0)
        return std::atoi(r);
    return 3;
}

/// ResNet-18's commonest function: a 3x3 convolution of 64 channels on 56x56
/// (its batch norm folded into the bias), the residual Add and the Relu.
graph::Graph convGraph() {
    graph::Graph g("conv");
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-0.1, 0.1);
    std::vector<double> w(64 * 64 * 9), b(64);
    for (auto& v : w)
        v = u(rng);
    for (auto& v : b)
        v = u(rng);
    auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 64, 56, 56]"));
    graph::Attributes pads;
    pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    auto y = g.addOp("Conv",
                     {x, g.addConstant("w", graph::Constant::fromFloats({64, 64, 3, 3}, w)),
                      g.addConstant("b", graph::Constant::fromFloats({64}, b))},
                     pads, "conv");
    g.setOutputs({g.addOp("Relu", {g.addOp("Add", {y, x}, {}, "add")}, {}, "relu")});
    return g;
}

} // namespace

class TestFunctionArtifacts : public QObject {
    Q_OBJECT
private slots:
    void gemmLadderTexts() {
        auto steps = gemmSteps();
        QVERIFY(steps.size() >= 8);
        for (auto& step : steps) {
            std::string script = readFile(step);
            try {
                auto a = driver::compileScriptArtifacts(script, step.filename().string());
                QCOMPARE(a.name, std::string("gemm"));
                QCOMPARE(a.script, script);
                checkArtifacts(a);
                QVERIFY(a.lowerMs > 0 && a.codegenMs > 0);
            } catch (const CompileError& e) {
                QFAIL((step.string() + ": " + e.diagnostic().str()).c_str());
            }
        }
    }

    /// For a GPU target the texts are the kernels': TIR with bound loops, PTX
    /// linked to it by .loc lines, CUDA C linked by its table.
    void gpuLadderTexts() {
        driver::ArtifactOptions options;
        options.request.target = codegen::resolveTarget("cuda -mcpu=sm_90");
        for (auto& e : fs::directory_iterator(fs::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm-gpu")) {
            if (e.path().extension() != ".te") continue;
            try {
                auto a = driver::compileScriptArtifacts(readFile(e.path()), e.path().filename().string(), {}, options);
                QVERIFY2(a.build.tir.find("T.thread_binding") != std::string::npos, a.build.tir.c_str());
                QVERIFY2(a.build.assembly.find(".entry gemm_kernel0") != std::string::npos, e.path().c_str());
                QVERIFY(a.build.assembly.find(".loc") != std::string::npos);
                QVERIFY(!a.build.assemblyLines.empty());
                QVERIFY2(a.c.find("__global__") != std::string::npos, a.c.substr(0, 300).c_str());
                QVERIFY(!a.cLines.empty());
            } catch (const CompileError& err) {
                QFAIL((e.path().string() + ": " + err.diagnostic().str()).c_str());
            }
        }
    }

    /// The verifier's error comes at the schedule line that made the block too big.
    void gpuVerifierErrorAtItsLine() {
        const char* script = "A = te.placeholder((4096,), name=\"A\")\n"
                             "B = te.compute((4096,), lambda i: A[i] * 2.0, name=\"B\")\n"
                             "s = te.create_schedule(B.op)\n"
                             "bx, tx = s[B].split(B.op.axis[0], factor=4096)\n"
                             "s[B].bind(bx, te.thread_axis(\"blockIdx.x\"))\n"
                             "s[B].bind(tx, te.thread_axis(\"threadIdx.x\"))\n";
        driver::ArtifactOptions options;
        options.request.target = codegen::resolveTarget("cuda");
        try {
            driver::compileScriptArtifacts(script, "big.te", {}, options);
            QFAIL("a block of 4096 threads passed the verifier");
        } catch (const CompileError& e) {
            QCOMPARE(e.diagnostic().loc.line, 6);
            QVERIFY2(e.diagnostic().message.find("1024") != std::string::npos, e.diagnostic().message.c_str());
        }
        // The same script on the CPU: a bound loop is a serial loop there.
        QVERIFY(!driver::compileScriptArtifacts(script, "big.te").build.assembly.empty());
    }

    void typoIsReportedAtItsPlace() {
        std::string script = readFile(fs::path(TESSEL_SOURCE_DIR) / "tests/error/typo_name.te");
        try {
            driver::compileScriptArtifacts(script, "typo_name.te");
            QFAIL("a script with a typo built");
        } catch (const CompileError& e) {
            QCOMPARE(e.diagnostic().loc.line, 5);
            QCOMPARE(e.diagnostic().loc.column, 5);
            QCOMPARE(te::script::formatDiagnostic(e.diagnostic(), "typo_name.te"),
                     std::string(
                         "typo_name.te:5:5: error: name 'tle' is not defined; did you mean 'te'?"));
        }
    }

    void illegalScheduleIsLocated() {
        // Vectorizing a reduction fails in the schedule; the error points at that line.
        const char* script = "A = te.placeholder((8, 8), name=\"A\")\n"
                             "k = te.reduce_axis((0, 8), \"k\")\n"
                             "B = te.compute((8,), lambda i: te.sum(A[i, k], axis=k), name=\"B\")\n"
                             "s = te.create_schedule(B.op)\n"
                             "s[B].vectorize(k)\n";
        try {
            driver::compileScriptArtifacts(script, "bad.te");
            QFAIL("vectorized a reduction");
        } catch (const CompileError& e) {
            QCOMPARE(e.diagnostic().loc.line, 5);
        }
    }

    void picksTheNamedFunction() {
        const char* script = "A = te.placeholder((64,), name=\"A\")\n"
                             "B = te.compute((64,), lambda i: A[i] * 2.0, name=\"B\")\n"
                             "C = te.compute((64,), lambda i: A[i] + 1.0, name=\"C\")\n"
                             "s1 = te.create_schedule(B.op)\n"
                             "s2 = te.create_schedule(C.op)\n"
                             "tvm.build(s1, [A, B], name=\"twice\")\n"
                             "tvm.build(s2, [A, C], name=\"plus_one\")\n";
        auto first = driver::compileScriptArtifacts(script, "two.te");
        QCOMPARE(first.name, std::string("twice"));
        auto second = driver::compileScriptArtifacts(script, "two.te", "plus_one");
        QCOMPARE(second.name, std::string("plus_one"));
        // Built alone: the other function appears in none of the texts.
        QVERIFY(second.build.llvmIR.find("twice") == std::string::npos);
        QVERIFY(second.build.assembly.find("twice") == std::string::npos);
        try {
            driver::compileScriptArtifacts(script, "two.te", "thrice");
            QFAIL("built a function the script does not have");
        } catch (const CompileError& e) {
            QVERIFY2(QString(e.what()).contains("twice, plus_one"), e.what());
        }
    }

    void optionsAreHonoured() {
        std::string script =
            readFile(fs::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/03_vectorization.te");
        driver::ArtifactOptions o;
        o.snapshots = false;
        o.emitC = false;
        o.request.optLevel = 0;
        auto a = driver::compileScriptArtifacts(script, "03_vectorization.te", {}, o);
        QVERIFY(a.lowered.snapshots.empty());
        QVERIFY(a.c.starts_with("/* C backend:"));
        QVERIFY(!a.build.assembly.empty());
        o.emitAssembly = false;
        auto noAsm = driver::compileScriptArtifacts(script, "03_vectorization.te", {}, o);
        QVERIFY(noAsm.build.assembly.empty() && noAsm.build.assemblyLines.empty());
        QVERIFY(!noAsm.build.llvmIROptimizedLines.empty());
        o.emitAssembly = true;
        // Cross-compiling gives the texts too.
        o.request.target = codegen::resolveTarget("aarch64");
        auto arm = driver::compileScriptArtifacts(script, "03_vectorization.te", {}, o);
        QVERIFY(arm.build.llvmIR.find("aarch64") != std::string::npos);
        QVERIFY(!arm.build.assemblyLines.empty());
    }

    // The schedule editor shows the IR first and the assembly after
    // (ScheduleDocument): withAssembly() from the optimised IR gives the same
    // assembly and line map one call with emitAssembly gives, and a cache
    // keeps the whole for the next time the TIR is seen.
    void assemblyAfterTheIR() {
        std::string script = readFile(fs::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/07_parallel.te");
        driver::ArtifactOptions o;
        const auto once = driver::compileScriptArtifacts(script, "07.te", {}, o);
        QVERIFY(once.hasAssembly && !once.build.assembly.empty());
        o.emitAssembly = false;
        o.cache = std::make_shared<driver::ArtifactCache>(4);
        const auto first = driver::compileScriptArtifacts(script, "07.te", {}, o);
        QVERIFY(!first.hasAssembly);
        QVERIFY(first.build.assembly.empty() && first.build.assemblyLines.empty());
        QCOMPARE(first.build.llvmIROptimized, once.build.llvmIROptimized);
        const auto full = driver::withAssembly(first, o);
        QVERIFY(full.hasAssembly);
        QCOMPARE(full.build.assembly, once.build.assembly);
        QCOMPARE(full.build.assemblyLines.toTir, once.build.assemblyLines.toTir);
        QCOMPARE(full.build.tir, first.build.tir);
        QVERIFY(full.codegenMs > first.codegenMs);
        checkArtifacts(full);
        // Seen again (an undo): the texts with the assembly, in one step.
        const auto again = driver::compileScriptArtifacts("# undone\n" + script, "07.te", {}, o);
        QVERIFY(again.hasAssembly);
        QCOMPARE(again.build.assembly, once.build.assembly);
        // Nothing to add to texts that have it; a GPU's PTX comes with its IR.
        QCOMPARE(driver::withAssembly(again, o).build.assembly, again.build.assembly);
        driver::FunctionArtifacts gpu = first;
        driver::ArtifactOptions cuda = o;
        cuda.request.target = codegen::resolveTarget("cuda");
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::withAssembly(gpu, cuda));
    }

    void theAssemblyComesFromTheKeptModule() {
        // The GEMM's module holds three functions: two outlined parallel bodies and the kernel.
        std::string script = readFile(fs::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/07_parallel.te");
        driver::ArtifactOptions o;
        const auto once = driver::compileScriptArtifacts(script, "07.te", {}, o);
        QVERIFY(!once.build.optimized); // made with its assembly: nothing kept
        o.emitAssembly = false;
        o.cache = std::make_shared<driver::ArtifactCache>(4);
        const auto first = driver::compileScriptArtifacts(script, "07.te", {}, o);
        QVERIFY(first.build.optimized);
        // From the module in memory: the text one step makes, and the module let go.
        const auto full = driver::withAssembly(first, o);
        QCOMPARE(full.build.assembly, once.build.assembly);
        QCOMPARE(full.build.assemblyLines.toTir, once.build.assemblyLines.toTir);
        QVERIFY(!full.build.optimized);
        // A second call on the same texts (the module taken): the printed IR read back, the same text.
        const auto again = driver::withAssembly(first, o);
        QCOMPARE(again.build.assembly, once.build.assembly);
        // The cache keeps texts, never a module: a hit has none and still gets its assembly.
        driver::ArtifactOptions cached = o;
        cached.cache = std::make_shared<driver::ArtifactCache>(4);
        const auto miss = driver::compileScriptArtifacts(script, "07.te", {}, cached);
        QVERIFY(miss.build.optimized);
        const auto hit = driver::compileScriptArtifacts("# again\n" + script, "07.te", {}, cached);
        QCOMPARE(cached.cache->hits(), size_t(1));
        QVERIFY(!hit.hasAssembly && !hit.build.optimized);
        QCOMPARE(driver::withAssembly(hit, cached).build.assembly, once.build.assembly);
    }

    void cacheSkipsCodegenForSeenTir() {
        std::string script =
            readFile(fs::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/06_write_cache.te");
        driver::ArtifactOptions o;
        o.cache = std::make_shared<driver::ArtifactCache>(2);
        auto first = driver::compileScriptArtifacts(script, "06.te", {}, o);
        QCOMPARE(o.cache->misses(), size_t(1));
        // An edit that leaves the TIR as it was (a comment) costs no LLVM run.
        auto again = driver::compileScriptArtifacts("# edited\n" + script, "06.te", {}, o);
        QCOMPARE(o.cache->hits(), size_t(1));
        QCOMPARE(again.build.assembly, first.build.assembly);
        QCOMPARE(again.build.llvmIROptimized, first.build.llvmIROptimized);
        QCOMPARE(again.build.assemblyLines.toTir, first.build.assemblyLines.toTir);
        QCOMPARE(again.c, first.c);
        QCOMPARE(again.script, "# edited\n" + script);
        // Other options are other entries; the least recently used one goes first.
        o.request.optLevel = 2;
        driver::compileScriptArtifacts(script, "06.te", {}, o);
        QCOMPARE(o.cache->misses(), size_t(2));
        QCOMPARE(o.cache->size(), size_t(2));
        o.request.optLevel = 1;
        driver::compileScriptArtifacts(script, "06.te", {}, o);
        QCOMPARE(o.cache->size(), size_t(2));
        o.request.optLevel = 3;
        driver::compileScriptArtifacts(script, "06.te", {}, o);
        QCOMPARE(o.cache->misses(), size_t(4));
    }

    void modelFunctionScriptRoundTrips() {
        driver::CompileOptions co;
        co.trace = true;
        auto m = driver::compileGraph(convGraph(), co);
        // The residual's input transformed into blocks, the convolution with the
        // add and relu, the output transformed back (alter-layout).
        QCOMPARE(m.functions.size(), size_t(3));
        const driver::FusedFunction* conv = nullptr;
        for (auto& fn : m.functions)
            if (fn.strategy == "conv2d_nchwc") conv = &fn;
        QVERIFY(conv);
        const auto& f = *conv;
        QVERIFY2(!f.script.starts_with("#"), f.script.c_str());
        auto fromModel = driver::artifactsOf(f.lowered, f.script);
        checkArtifacts(fromModel);
        auto fromScript = driver::compileScriptArtifacts(f.script, f.name + ".te", f.name);
        checkArtifacts(fromScript);
        QCOMPARE(fromScript.build.tir, fromModel.build.tir);
        QCOMPARE(fromScript.lowered.snapshots.size(), fromModel.lowered.snapshots.size());
        QCOMPARE(fromScript.build.assembly, fromModel.build.assembly);
    }

    /// The schedule editor's hot path: script edit -> TIR + LLVM IR + assembly.
    void hotPathTimings() {
        const int repeat = repeatCount();
        for (auto& step : gemmSteps()) {
            std::string script = readFile(step);
            report(
                step.filename().string(),
                timeRuns(repeat,
                         [&] { driver::compileScriptArtifacts(script, step.filename().string()); }),
                repeat);
        }
        driver::CompileOptions co;
        co.trace = true;
        auto m = driver::compileGraph(convGraph(), co);
        const auto& f = m.functions[0];
        report(f.name + " (56x56x64)",
               timeRuns(repeat,
                        [&] { driver::compileScriptArtifacts(f.script, f.name + ".te", f.name); }),
               repeat);
        driver::ArtifactOptions noAsm;
        noAsm.emitAssembly = false;
        report("  without assembly",
               timeRuns(repeat,
                        [&] {
                            driver::compileScriptArtifacts(f.script, f.name + ".te", f.name, noAsm);
                        }),
               repeat);
        // Any other script (a model function printed by `tesselc show --stage te`).
        if (const char* extra = std::getenv("TESSEL_ARTIFACT_SCRIPT"); extra && *extra) {
            std::string script = readFile(extra);
            report(fs::path(extra).filename().string(),
                   timeRuns(repeat, [&] { driver::compileScriptArtifacts(script, extra); }),
                   repeat);
        }
    }
};

QTEST_GUILESS_MAIN(TestFunctionArtifacts)
#include "tst_functionartifacts.moc"
