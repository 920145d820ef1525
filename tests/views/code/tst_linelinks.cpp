// LineLinks on the real texts of GEMM ladder step 7 (parallel): a TIR line
// lights exactly the LLVM IR and assembly lines whose line maps point at it,
// an assembly line lights its TIR line and its siblings, groups follow the
// TIR lines, the TE script's schedule lines reach the loops they made (and
// the loops reach back) through lowering's line table, the C source's lines
// map to the TIR's through the C backend's table (also in a fused convolution
// and every ladder step), and scripts that cannot be linked say why instead of
// failing.
#include "code/LineLinks.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "graph/Graph.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace tessel;
using tessel::views::LineLinks;

namespace {

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);)
        out.push_back(l);
    return out;
}

std::string trimmed(const std::string& s) {
    size_t i = s.find_first_not_of(" \t");
    return i == std::string::npos ? std::string() : s.substr(i);
}

/// Every line (1-based) whose text, without indentation, starts with `prefix`.
std::vector<int> find(const std::string& text, const std::string& prefix) {
    std::vector<int> out;
    auto lines = linesOf(text);
    for (size_t i = 0; i < lines.size(); ++i)
        if (trimmed(lines[i]).rfind(prefix, 0) == 0) out.push_back(int(i) + 1);
    return out;
}

int findOne(const std::string& text, const std::string& prefix) {
    auto v = find(text, prefix);
    if (v.size() != 1) qWarning("'%s' found %d times", prefix.c_str(), int(v.size()));
    return v.size() == 1 ? v.front() : 0;
}

std::set<int> keys(const std::map<int, int>& m) {
    std::set<int> s;
    for (auto& [k, _] : m)
        s.insert(k);
    return s;
}

std::set<int> asSet(const std::vector<int>& v) {
    return {v.begin(), v.end()};
}

/// Checks the C pane's links against both texts, independently of the line
/// table: every TIR loop `for X in` is linked from the C loop over X, every
/// allocation from the C declaration of its buffer, the n-th store into a
/// buffer in the TIR from the n-th in the C (and a lane loop around it from
/// the same line); every other line of the C function body links somewhere.
/// Returns the number of statements checked (-1000 on a mismatch).
int checkCLinks(const driver::FunctionArtifacts& a, const LineLinks& l) {
    static const std::regex tirFor(R"(^\s*for (\w+) in )"), cFor(R"(^\s*for \(\w+ (\w+) = )"),
        tirAlloc(R"(^\s*(\w+) = T\.allocate\()"),
        cAlloc(R"(^\s*\w+(?:\* | )(\w+)(?: = \(\w+\*\)tessel_alloc\(|\[\d+\] __attribute__))"),
        store(R"(^\s*(\w+)\[.*\] = )");
    auto lines = [](const std::string& text, const std::regex& re) {
        std::map<std::string, std::vector<int>> out;
        auto ls = linesOf(text);
        std::smatch m;
        for (size_t i = 0; i < ls.size(); ++i)
            if (std::regex_search(ls[i], m, re)) out[m[1].str()].push_back(int(i) + 1);
        return out;
    };
    int checked = 0;
    auto pair = [&](int c, int t, const std::string& what) {
        bool ok = l.cLines().tirLine(c) == t &&
                  keys(l.linksOf(LineLinks::Tir, t).lines[LineLinks::C]).count(c);
        if (!ok)
            qWarning("%s: C line %d links to TIR %d, not %d", what.c_str(), c,
                     l.cLines().tirLine(c), t);
        checked += ok ? 1 : -1000;
    };
    auto cLoops = lines(a.c, cFor), cAllocs = lines(a.c, cAlloc), cStores = lines(a.c, store);
    for (auto& [v, ts] : lines(a.build.tir, tirFor))
        if (ts.size() == 1 && cLoops[v].size() == 1) pair(cLoops[v][0], ts[0], "loop " + v);
    for (auto& [b, ts] : lines(a.build.tir, tirAlloc))
        if (ts.size() == 1 && cAllocs[b].size() == 1) pair(cAllocs[b][0], ts[0], "allocation " + b);
    auto cl = linesOf(a.c);
    for (auto& [b, ts] : lines(a.build.tir, store)) {
        const auto& cs = cStores[b];
        if (cs.size() != ts.size()) {
            qWarning("%d stores into %s in the TIR, %d in the C", int(ts.size()), b.c_str(),
                     int(cs.size()));
            return -1000;
        }
        for (size_t i = 0; i < ts.size(); ++i) {
            pair(cs[i], ts[i], "store " + std::to_string(i) + " into " + b);
            if (trimmed(cl[size_t(cs[i] - 2)]).rfind("for (int32_t lane", 0) == 0)
                pair(cs[i] - 1, ts[i], "lane loop of store into " + b);
        }
    }
    int def = findOne(a.c, "int32_t " + a.name + "(void* const* args)");
    for (size_t i = size_t(def); i < cl.size(); ++i)
        if (!cl[i].empty() && l.cLines().tirLine(int(i) + 1) == 0) {
            qWarning("C line %d '%s' links nowhere", int(i) + 1, cl[i].c_str());
            return -1000;
        }
    return checked;
}

} // namespace

class TestLineLinks : public QObject {
    Q_OBJECT
    driver::FunctionArtifacts a_;
    LineLinks links_;

    int tir(const std::string& prefix) { return findOne(a_.build.tir, prefix); }
    int te(const std::string& prefix) { return findOne(a_.script, prefix); }
    std::set<int> teLinks(const std::string& prefix) {
        int l = te(prefix);
        return l ? asSet(links_.tirLinesOf(LineLinks::Te, l)) : std::set<int>{-1};
    }

private slots:
    void initTestCase() {
        std::filesystem::path p =
            std::filesystem::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/07_parallel.te";
        a_ = driver::compileScriptArtifacts(readFile(p), "07_parallel.te");
        QVERIFY(!a_.build.assemblyLines.empty());
        QElapsedTimer t;
        t.start();
        links_ = LineLinks::build(a_);
        qInfo("LineLinks::build: %lld ms for %d TIR lines", t.elapsed(), links_.tirLineCount());
        QCOMPARE(links_.tirLineCount(), int(linesOf(a_.build.tir).size()));
        QVERIFY(links_.teStatus() == LineLinks::Status::Linked);
        QVERIFY(links_.cStatus() == LineLinks::Status::Linked);
    }

    void tirLineLightsWhatTheLineMapsSay() {
        int withLinks = 0;
        for (int t = 1; t <= links_.tirLineCount(); ++t) {
            LineLinks::Result r = links_.linksOf(LineLinks::Tir, t);
            QCOMPARE(r.tirLines, std::vector<int>{t});
            QCOMPARE(keys(r.lines[LineLinks::Tir]), std::set<int>{t});
            QCOMPARE(keys(r.lines[LineLinks::LlvmIr]),
                     asSet(a_.build.llvmIROptimizedLines.linesOf(t)));
            QCOMPARE(keys(r.lines[LineLinks::Assembly]), asSet(a_.build.assemblyLines.linesOf(t)));
            for (auto& m : r.lines)
                for (auto [_, g] : m)
                    QCOMPARE(g, 0);
            withLinks += !r.lines[LineLinks::Assembly].empty();
        }
        QVERIFY2(withLinks >= 5, "most TIR statements become some assembly");
    }

    void assemblyLineLightsItsSourceAndSiblings() {
        // The vector update of C_global (TIR) becomes several instructions.
        int store = find(a_.build.tir, "C_global[T.Ramp(x_c * 32, 1, 32)] = C_global").at(0);
        const auto& asmLines = a_.build.assemblyLines.linesOf(store);
        QVERIFY(asmLines.size() >= 2);
        int clicked = asmLines.back();
        LineLinks::Result r = links_.linksOf(LineLinks::Assembly, clicked);
        QCOMPARE(r.tirLines, std::vector<int>{store});
        QCOMPARE(keys(r.lines[LineLinks::Tir]), std::set<int>{store});
        QCOMPARE(keys(r.lines[LineLinks::Assembly]), asSet(asmLines));
        QVERIFY(r.lines[LineLinks::Assembly].count(clicked));
        QCOMPARE(keys(r.lines[LineLinks::LlvmIr]),
                 asSet(a_.build.llvmIROptimizedLines.linesOf(store)));
        // A directive maps to no TIR line and so lights nothing.
        int directive = find(a_.build.assembly, ".text").at(0);
        QCOMPARE(a_.build.assemblyLines.tirLine(directive), 0);
        QVERIFY(links_.linksOf(LineLinks::Assembly, directive).empty());
    }

    void llvmPaneFollowsTheChosenText() {
        LineLinks l = links_;
        int loop = tir("for k_outer in");
        l.setLlvmOptimized(false);
        QCOMPARE(keys(l.linksOf(LineLinks::Tir, loop).lines[LineLinks::LlvmIr]),
                 asSet(a_.build.llvmIRLines.linesOf(loop)));
        l.setLlvmOptimized(true);
        QCOMPARE(keys(l.linksOf(LineLinks::Tir, loop).lines[LineLinks::LlvmIr]),
                 asSet(a_.build.llvmIROptimizedLines.linesOf(loop)));
    }

    void groupsFollowTirLines() {
        // The tile line reaches four loops: four groups, and every other line
        // lit gets the group of the TIR line it maps to.
        int tile = te("xo, yo, xi, yi = s[C].tile");
        LineLinks::Result r = links_.linksOf(LineLinks::Te, tile);
        QCOMPARE(r.tirLines.size(), size_t(4));
        for (size_t g = 0; g < r.tirLines.size(); ++g)
            QCOMPARE(r.lines[LineLinks::Tir].at(r.tirLines[g]), int(g));
        for (auto [l, g] : r.lines[LineLinks::Assembly]) {
            int t = a_.build.assemblyLines.tirLine(l);
            QCOMPARE(r.tirLines[size_t(g)], t);
        }
        for (auto [l, g] : r.lines[LineLinks::LlvmIr])
            QCOMPARE(r.tirLines[size_t(g)], a_.build.llvmIROptimizedLines.tirLine(l));
        QCOMPARE(r.lines[LineLinks::Te].at(tile), 0);
    }

    void teScheduleLinesReachTheirLoops() {
        QCOMPARE(teLinks("xo, yo, xi, yi = s[C].tile"),
                 (std::set<int>{tir("for x_outer in"), tir("for y_outer in"), tir("for x_inner in"),
                                tir("for y_inner in")}));
        QCOMPARE(teLinks("s[C].parallel(xo)"), std::set<int>{tir("for x_outer in")});
        QCOMPARE(teLinks("s[CC].compute_at(s[C], yo)"), std::set<int>{tir("for y_outer in")});
        // The cache stage's reduce axis was split: its line reaches k_outer,
        // never packedB's own loop over `k`.
        QCOMPARE(teLinks("(k,) = s[CC].op.reduce_axis"), std::set<int>{tir("for k_outer in")});
        QVERIFY(teLinks("ko, ki = s[CC].split(k").count(tir("for k_outer in")));
        QVERIFY(!teLinks("ko, ki = s[CC].split(k").count(tir("for k in")));
        // xc also names the loop of the reduction's init nest.
        QCOMPARE(teLinks("xc, yc = s[CC].op.axis").count(tir("for x_c in")), size_t(1));
        QCOMPARE(teLinks("xc, yc = s[CC].op.axis").count(tir("for x_c_init in")), size_t(1));
        // Unrolled and vectorized loops are gone: their lines light the body
        // of the nearest loop that survived (the four unrolled updates).
        auto updates = asSet(find(a_.build.tir, "C_global[T.Ramp(x_c * 32, 1, 32)] = C_global"));
        QCOMPARE(updates.size(), size_t(4));
        QCOMPARE(teLinks("s[CC].unroll(ki)"), updates);
        QCOMPARE(teLinks("s[CC].vectorize(yc)"), updates);
        int packStore = tir("packedB[T.Ramp(");
        QCOMPARE(teLinks("s[packedB].vectorize(z)"), std::set<int>{packStore});
        QCOMPARE(teLinks("s[packedB].parallel(x)"), std::set<int>{tir("for bigN in")});
        QCOMPARE(teLinks("x, y, z = s[packedB].op.axis"),
                 (std::set<int>{tir("for bigN in"), tir("for k in"), packStore}));
        // A tensor's definition reaches its statements.
        auto cc = teLinks("CC = s.cache_write(C");
        QVERIFY(cc.count(tir("C_global = T.allocate(")));
        for (int u : updates)
            QVERIFY(cc.count(u));
        auto packed = teLinks("packedB = te.compute");
        QCOMPARE(packed, (std::set<int>{tir("packedB = T.allocate("), tir("for bigN in"),
                                        tir("for k in"), packStore}));
        // Comments and constants link nothing.
        QVERIFY(links_.tirLinesOf(LineLinks::Te, 1).empty());
        QVERIFY(teLinks("M = 1024").empty());
    }

    void tirLoopsReachBackToTheScript() {
        LineLinks::Result r = links_.linksOf(LineLinks::Tir, tir("for k_outer in"));
        std::set<int> back = keys(r.lines[LineLinks::Te]);
        QVERIFY(back.count(te("ko, ki = s[CC].split(k")));
        QVERIFY(back.count(te("s[CC].reorder(ko, xc, ki, yc)")));
        QVERIFY(!back.count(te("s[packedB].parallel(x)")));
        std::set<int> xo =
            keys(links_.linksOf(LineLinks::Tir, tir("for x_outer in")).lines[LineLinks::Te]);
        QCOMPARE(xo, (std::set<int>{te("C = te.compute"), te("xo, yo, xi, yi = s[C].tile"),
                                    te("s[C].parallel(xo)")}));
    }

    void cLinesUpWithTheTir() {
        const std::string& c = a_.c;
        struct Pair {
            const char* c;
            const char* tir;
        };
        for (Pair p : {Pair{"for (int32_t x_outer = 0;", "for x_outer in"},
                       Pair{"for (int32_t k_outer = 0;", "for k_outer in"},
                       Pair{"float* C_global = (float*)tessel_alloc(", "C_global = T.allocate("},
                       Pair{"C[x_outer * 32768", "C[x_outer * 32768"},
                       Pair{"int32_t gemm(void* const* args)", "def gemm("}}) {
            int cl = findOne(c, p.c), tl = tir(p.tir);
            QVERIFY2(cl && tl, p.c);
            QCOMPARE(links_.cLines().tirLine(cl), tl);
            QVERIFY(keys(links_.linksOf(LineLinks::Tir, tl).lines[LineLinks::C]).count(cl));
        }
        // The four unrolled updates keep their order, and each lane loop links
        // with the update inside it.
        auto cUpdates = find(c, "C_global[x_c * 32 + lane] = ");
        auto tUpdates = find(a_.build.tir, "C_global[T.Ramp(x_c * 32, 1, 32)] = C_global");
        QCOMPARE(cUpdates.size(), tUpdates.size());
        for (size_t i = 0; i < cUpdates.size(); ++i) {
            QCOMPARE(links_.cLines().tirLine(cUpdates[i]), tUpdates[i]);
            QCOMPARE(links_.cLines().tirLine(cUpdates[i] - 1), tUpdates[i]);
        }
    }

    void unlinkableScriptsSayWhy() {
        driver::FunctionArtifacts a = a_;
        a.script.clear();
        LineLinks none = LineLinks::build(a);
        QVERIFY(none.teStatus() == LineLinks::Status::NoText);
        QVERIFY(none.tirLinesOf(LineLinks::Te, 1).empty());
        // The TIR and assembly links do not depend on the script.
        int loop = tir("for k_outer in");
        QCOMPARE(keys(none.linksOf(LineLinks::Tir, loop).lines[LineLinks::Assembly]),
                 asSet(a_.build.assemblyLines.linesOf(loop)));

        // A script other than the one lowering recorded (shorter than the
        // lines the table names) is not linked.
        a.script = "s = te.create_schedule(undefined_name.op)\n";
        LineLinks broken = LineLinks::build(a);
        QVERIFY(broken.teStatus() == LineLinks::Status::Mismatch);
        QVERIFY(broken.linksOf(LineLinks::Te, 1).empty());
        // A function whose schedule no script made has no record to link with.
        driver::FunctionArtifacts cxx = a_;
        cxx.lowered.scriptLines = {};
        LineLinks noRecord = LineLinks::build(cxx);
        QVERIFY(noRecord.teStatus() == LineLinks::Status::NoRecord);
        QVERIFY(noRecord.linksOf(LineLinks::Te, te("s[C].parallel(xo)")).empty());
        // Out of range lines are harmless.
        QVERIFY(links_.linksOf(LineLinks::Te, 100000).empty());
        QVERIFY(links_.linksOf(LineLinks::Assembly, -3).empty());
        QVERIFY(links_.linksOf(LineLinks::Tir, links_.tirLineCount() + 1).empty());
    }

    void modelFunctionScriptsLink() {
        // A fused function's script is printed from its schedule (topi's names):
        // x -> conv 3x3 (+ bias) -> relu, compiled with the trace.
        graph::Graph g("block");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 8, 10, 10]"));
        std::vector<double> w(16 * 8 * 9, 0.5), b(16, 0.1);
        auto cw = g.addConstant("w", graph::Constant::fromFloats({16, 8, 3, 3}, w));
        auto cb = g.addConstant("b", graph::Constant::fromFloats({16}, b));
        graph::Attributes pads;
        pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {x, cw, cb}, pads, "conv")}, {}, "relu")});
        driver::CompileOptions o;
        o.trace = true;
        auto m = driver::compileGraph(g, o);
        QVERIFY(!m.functions.empty());
        int linkedFunctions = 0;
        for (auto& f : m.functions) {
            driver::ArtifactOptions ao;
            ao.request.optLevel = 1;
            auto a = driver::artifactsOf(f.lowered, f.script, ao);
            LineLinks l = LineLinks::build(a);
            int linked = 0;
            for (auto& tirs : l.teToTir())
                linked += !tirs.empty();
            qInfo("%s: %d of %d script lines linked", f.name.c_str(), linked,
                  int(l.teToTir().size()));
            QVERIFY(l.teStatus() == LineLinks::Status::Linked);
            linkedFunctions += linked > 0;
            // Every TIR loop is reached from some script line (at least the
            // definition of its stage).
            for (int t : find(a.build.tir, "for "))
                QVERIFY2(!l.linesOf(LineLinks::Te, t).empty(),
                         linesOf(a.build.tir)[size_t(t - 1)].c_str());
        }
        QCOMPARE(linkedFunctions, int(m.functions.size()));
    }

    void cLinesOfAFusedConvolution() {
        // conv 3x3 + bias + relu as a model compile fuses it: a padded copy of
        // the input, a vectorised register block, a parallel write-back.
        graph::Graph g("block");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 8, 10, 10]"));
        std::vector<double> w(16 * 8 * 9, 0.5), b(16, 0.1);
        auto cw = g.addConstant("w", graph::Constant::fromFloats({16, 8, 3, 3}, w));
        auto cb = g.addConstant("b", graph::Constant::fromFloats({16}, b));
        graph::Attributes pads;
        pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {x, cw, cb}, pads, "conv")}, {}, "relu")});
        auto m = driver::compileGraph(g, {});
        // The convolution (writing channel blocks), then the transform back to NCHW.
        QCOMPARE(m.functions.size(), size_t(2));
        QCOMPARE(m.functions[0].strategy, std::string("conv2d_nchwc"));
        driver::ArtifactOptions ao;
        ao.request.optLevel = 1;
        auto a = driver::artifactsOf(m.functions[0].lowered, m.functions[0].script, ao);
        LineLinks l = LineLinks::build(a);
        QVERIFY(l.cStatus() == LineLinks::Status::Linked);
        // The first store into `relu` (the register block's stores are
        // unrolled) and the function itself.
        const auto cStores = find(a.c, "relu["), tStores = find(a.build.tir, "relu[");
        QVERIFY(!cStores.empty() && cStores.size() == tStores.size());
        const int cStore = cStores.front(), tStore = tStores.front();
        QCOMPARE(l.cLines().tirLine(cStore), tStore);
        QVERIFY(keys(l.linksOf(LineLinks::Tir, tStore).lines[LineLinks::C]).count(cStore));
        QCOMPARE(l.cLines().tirLine(findOne(a.c, "int32_t " + a.name + "(void* const* args)")),
                 findOne(a.build.tir, "def " + a.name + "("));
        int checked = checkCLinks(a, l);
        qInfo("%d C statements link to their TIR lines", checked);
        QVERIFY(checked >= 10);
        // The check is no formality: a table one line off fails it.
        driver::FunctionArtifacts shifted = a;
        shifted.cLines.toTir.insert(shifted.cLines.toTir.begin(), 0);
        shifted.cLines.toTir.pop_back();
        shifted.cLines.buildReverse();
        QVERIFY(checkCLinks(shifted, LineLinks::build(shifted)) < 0);
    }

    void blockingStepLinksItsLoops() {
        // GEMM ladder step 2: each schedule line lights the loops it made,
        // the reduction's init nest included, and the loops light it back.
        std::filesystem::path p =
            std::filesystem::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/02_blocking.te";
        driver::ArtifactOptions o;
        o.request.optLevel = 1;
        auto a = driver::compileScriptArtifacts(readFile(p), "02_blocking.te", {}, o);
        LineLinks l = LineLinks::build(a);
        QVERIFY(l.teStatus() == LineLinks::Status::Linked);
        auto tirLine = [&](const std::string& prefix) { return findOne(a.build.tir, prefix); };
        auto links = [&](const std::string& prefix) {
            return asSet(l.tirLinesOf(LineLinks::Te, findOne(a.script, prefix)));
        };
        const int ko = tirLine("for k_outer in"), ki = tirLine("for k_inner in");
        const int xo = tirLine("for x_outer in"), yo = tirLine("for y_outer in");
        const int xi = tirLine("for x_inner in"), yi = tirLine("for y_inner in");
        const int xiInit = tirLine("for x_inner_init in"), yiInit = tirLine("for y_inner_init in");
        QVERIFY(ko && ki && xo && yo && xi && yi && xiInit && yiInit);
        QCOMPARE(links("ko, ki = s[C].split(k"), (std::set<int>{ko, ki}));
        QCOMPARE(links("xo, yo, xi, yi = s[C].tile("),
                 (std::set<int>{xo, yo, xi, yi, xiInit, yiInit}));
        QCOMPARE(links("s[C].reorder(xo, yo, ko, ki, xi, yi)"),
                 (std::set<int>{xo, yo, ko, ki, xi, yi, xiInit, yiInit}));
        QCOMPARE(links("(k,) = s[C].op.reduce_axis"), (std::set<int>{ko, ki}));
        // The compute defines the stage: its loops and its statements.
        auto compute = links("C = te.compute(");
        for (int t : {xo, yo, ko, ki, xi, yi})
            QVERIFY(compute.count(t));
        for (int store : find(a.build.tir, "C["))
            QVERIFY(compute.count(store));
        // Back from the TIR: k_inner comes from the reduce axis, the compute
        // that reduces over it, the line that names it, the split and the reorder.
        QCOMPARE(keys(l.linksOf(LineLinks::Tir, ki).lines[LineLinks::Te]),
                 (std::set<int>{findOne(a.script, "k = te.reduce_axis"),
                                findOne(a.script, "C = te.compute("),
                                findOne(a.script, "(k,) = s[C].op.reduce_axis"),
                                findOne(a.script, "ko, ki = s[C].split(k"),
                                findOne(a.script, "s[C].reorder(xo, yo, ko, ki, xi, yi)")}));
        // Lines that make nothing of the TIR link nothing.
        QVERIFY(links("M = 1024").empty());
        QVERIFY(links("func = tvm.build(").empty());
    }

    void fusedConvolutionLinksItsPrintedScript() {
        // A model's fused convolution: its script is printed from the topi
        // schedule, and the printer records the line of every stage and loop.
        graph::Graph g("conv");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 16, 14, 14]"));
        std::vector<double> w(32 * 16 * 9, 0.25), b(32, 0.5);
        auto cw = g.addConstant("w", graph::Constant::fromFloats({32, 16, 3, 3}, w));
        auto cb = g.addConstant("b", graph::Constant::fromFloats({32}, b));
        graph::Attributes pads;
        pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {x, cw, cb}, pads, "conv")}, {}, "relu")});
        driver::CompileOptions o;
        o.trace = true;
        auto m = driver::compileGraph(g, o);
        const driver::FusedFunction* conv = nullptr;
        for (auto& f : m.functions)
            if (f.script.find(".split(") != std::string::npos) conv = &f;
        QVERIFY(conv);
        QVERIFY(!conv->lowered.scriptLines.empty());
        driver::ArtifactOptions ao;
        ao.request.optLevel = 1;
        auto a = driver::artifactsOf(conv->lowered, conv->script, ao);
        LineLinks l = LineLinks::build(a);
        QVERIFY(l.teStatus() == LineLinks::Status::Linked);
        // Every split line lights the loops named after its two new variables
        // (or, for one that left no loop, the statements where it went).
        auto scriptLines = linesOf(a.script), tirLines = linesOf(a.build.tir);
        int splits = 0;
        for (size_t i = 0; i < scriptLines.size(); ++i) {
            const std::string& line = scriptLines[i];
            auto eq = line.find(" = s[");
            if (eq == std::string::npos || line.find(".split(") == std::string::npos) continue;
            ++splits;
            std::string outer = line.substr(0, line.find(", ")),
                        inner = line.substr(line.find(", ") + 2, eq - line.find(", ") - 2);
            std::set<int> lit = asSet(l.tirLinesOf(LineLinks::Te, int(i) + 1));
            QVERIFY2(!lit.empty(), line.c_str());
            for (const std::string& v : {outer, inner})
                for (int t : find(a.build.tir, "for " + v + " in "))
                    QVERIFY2(lit.count(t), (line + " -> " + tirLines[size_t(t - 1)]).c_str());
            for (int t : lit)
                QVERIFY(t >= 1 && t <= l.tirLineCount());
        }
        QVERIFY(splits >= 1);
        // Every loop of the TIR is lit from some line of the script.
        for (int t : find(a.build.tir, "for "))
            QVERIFY2(!l.linesOf(LineLinks::Te, t).empty(), tirLines[size_t(t - 1)].c_str());
    }

    void multiLineStatementsLinkOnEveryLine() {
        // A statement continued over several lines (the template's call of the
        // blocked convolution) links the same TIR lines from each of its lines.
        std::filesystem::path p =
            std::filesystem::path(TESSEL_SOURCE_DIR) / "resources/templates/conv2d_nchwc.te";
        driver::ArtifactOptions o;
        o.request.optLevel = 1;
        o.emitC = false;
        auto a = driver::compileScriptArtifacts(readFile(p), "conv2d_nchwc.te", {}, o);
        LineLinks l = LineLinks::build(a);
        QVERIFY(l.teStatus() == LineLinks::Status::Linked);
        auto lines = linesOf(a.script);
        int first = findOne(a.script, "conv = topi.nn.conv2d_nchwc(");
        QVERIFY(first > 0);
        int last = first;
        while (last < int(lines.size()) && lines[size_t(last - 1)].find("cfg=cfg)") == std::string::npos)
            ++last;
        QVERIFY(last > first && last <= int(lines.size()));
        auto links = l.tirLinesOf(LineLinks::Te, first);
        QVERIFY(!links.empty());
        for (int i = first + 1; i <= last; ++i)
            QCOMPARE(l.tirLinesOf(LineLinks::Te, i), links);
    }

    void everyLadderStepLinks() {
        // Each step's schedule reaches some loop, and every link is in range.
        std::vector<std::filesystem::path> steps;
        for (auto& e : std::filesystem::directory_iterator(
                 std::filesystem::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm"))
            if (e.path().extension() == ".te") steps.push_back(e.path());
        QVERIFY(steps.size() >= 8);
        for (auto& p : steps) {
            driver::ArtifactOptions o;
            o.request.optLevel = 1;
            auto a = driver::compileScriptArtifacts(readFile(p), p.filename().string(), {}, o);
            LineLinks l = LineLinks::build(a);
            QVERIFY2(l.teStatus() == LineLinks::Status::Linked, p.filename().string().c_str());
            int linked = 0;
            for (auto& tirs : l.teToTir()) {
                linked += !tirs.empty();
                for (int t : tirs)
                    QVERIFY(t >= 1 && t <= l.tirLineCount());
            }
            QVERIFY2(linked >= 2, p.filename().string().c_str());
            QVERIFY2(l.cStatus() == LineLinks::Status::Linked, p.filename().string().c_str());
            QVERIFY2(checkCLinks(a, l) >= 3, p.filename().string().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestLineLinks)
#include "tst_linelinks.moc"
