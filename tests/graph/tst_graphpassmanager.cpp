#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"
#include <QFile>

#include "GraphTestUtil.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

using namespace tessel;
using namespace tessel::graph;
using namespace tessel::graph::test;

namespace {

Graph sample() {
    Graph g("m");
    Value x = g.addInput("x", type("float32[1, 2, 2, 2]"));
    Value c = g.addConstant("c", Constant::fromFloats({2}, {1, 2}));
    Value bn = g.addOp("BatchNormalization", {x, c, c, c, c});
    g.addOp("Exp", {x}); // dead
    g.setOutputs({g.addOp("Relu", {g.addOp("Identity", {bn})})});
    return g;
}

class FailingInstrument : public GraphPassInstrument {
public:
    std::vector<std::string> events;
    void beforePipeline(const std::vector<std::string>& names, const Graph&) override {
        events.push_back("pipeline " + std::to_string(names.size()));
    }
    void beforePass(const GraphPassInfo& p, const Graph&) override {
        events.push_back("before " + p.name);
    }
    void afterPass(const GraphPassInfo& p, const Graph&, const Graph&, double) override {
        events.push_back("after " + p.name);
    }
    void passFailed(const GraphPassInfo& p, const Graph&, const std::exception& e) override {
        events.push_back("failed " + p.name + ": " + e.what());
    }
    void afterPipeline(const Graph&) override { events.push_back("done"); }
};

} // namespace

class TestGraphPassManager : public QObject {
    Q_OBJECT
private slots:
    void everyPassHasARecordAndATest();
    void snapshotsAfterEveryPass();
    void unknownPassesAndOptions();
    void optionsFromEntriesAndManager();
    void failedHook();
};

void TestGraphPassManager::everyPassHasARecordAndATest() {
    QVERIFY(graphPasses().size() >= 5);
    for (const char* name :
         {"infer-shapes", "dead-code-elimination", "common-subexpression-elimination",
          "simplify-inference", "fold-scale-shift"})
        QVERIFY2(findGraphPass(name), name);
    std::set<std::string> names;
    for (const auto& p : graphPasses()) {
        QVERIFY2(names.insert(p.name).second, p.name.c_str());
        for (char ch : p.name)
            QVERIFY2((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-',
                     p.name.c_str());
        QVERIFY2(!p.summary.empty() && p.summary.find('\n') == std::string::npos, p.name.c_str());
        QVERIFY2(p.description.size() > 100, p.name.c_str());
        QVERIFY2(p.run != nullptr, p.name.c_str());
        for (const auto& o : p.options)
            QVERIFY2(!o.name.empty() && !o.defaultValue.empty() && !o.help.empty(), p.name.c_str());
        std::string file = p.name;
        std::replace(file.begin(), file.end(), '-', '_');
        const std::string path =
            std::string(TESSEL_SOURCE_DIR) + "/tests/graph/tst_gpass_" + file + ".cpp";
        QVERIFY2(QFile::exists(QString::fromStdString(path)), ("no test file " + path).c_str());
        // Every pass leaves a graph without changes as it is (a fixed point on a tiny graph).
        Graph g("t");
        Value x = g.addInput("x", type("float32[2]"));
        g.setOutputs({g.addOp("Relu", {x})});
        g = inferShapes(g);
        QCOMPARE(QString::fromStdString(text(p.run(g, {}))), QString::fromStdString(text(g)));
    }
    QVERIFY(graphPassNames().find("fold-scale-shift") != std::string::npos);
}

void TestGraphPassManager::snapshotsAfterEveryPass() {
    GraphPassManager pm;
    auto snaps = std::make_shared<GraphSnapshotInstrument>();
    auto timing = std::make_shared<GraphTimingInstrument>();
    std::vector<std::string> printed;
    pm.addInstrument(snaps);
    pm.addInstrument(timing);
    pm.addInstrument(std::make_shared<GraphPrintAfterChangeInstrument>(
        [&](const std::string& pass, const std::string&) { printed.push_back(pass); }));
    const std::vector<std::string> pipeline{"infer-shapes", "simplify-inference",
                                            "common-subexpression-elimination",
                                            "dead-code-elimination", "dead-code-elimination"};
    Graph out = pm.run(sample(), pipeline);
    QCOMPARE(snaps->input().pass, std::string("input"));
    QCOMPARE(snaps->input().text.text, printGraph(sample()).text);
    QCOMPARE(snaps->snapshots().size(), pipeline.size());
    const std::vector<bool> changed{true, true, false, true, false};
    for (size_t i = 0; i < pipeline.size(); ++i) {
        const auto& s = snaps->snapshots()[i];
        QCOMPARE(s.pass, pipeline[i]);
        QVERIFY2(s.changed == changed[i], s.pass.c_str());
        QVERIFY(s.seconds >= 0);
        QCOMPARE(s.text.text, printGraph(*s.irAs<Graph>()).text);
    }
    QCOMPARE(snaps->snapshots().back().text.text, printGraph(out).text);
    QCOMPARE(printed, (std::vector<std::string>{"infer-shapes", "simplify-inference",
                                                "dead-code-elimination"}));
    QCOMPARE(timing->entries().size(), pipeline.size());
    QVERIFY(timing->totalSeconds() >= 0);
    QCOMPARE(QString::fromStdString(text(out)),
             QString("graph m(%x: float32[1, 2, 2, 2]) {\n"
                     "  %bn2_scale = constant : float32[2, 1, 1]\n"
                     "  %bn2_shift = constant : float32[2, 1, 1]\n"
                     "  %8 = Mul(%x, %bn2_scale) : float32[1, 2, 2, 2]\n"
                     "  %2 = Add(%8, %bn2_shift) : float32[1, 2, 2, 2]\n"
                     "  %5 = Relu(%2) : float32[1, 2, 2, 2]\n"
                     "  return %5\n"
                     "}\n"));
}

void TestGraphPassManager::unknownPassesAndOptions() {
    GraphPassManager pm;
    auto snaps = std::make_shared<GraphSnapshotInstrument>();
    pm.addInstrument(snaps);
    try {
        pm.run(sample(), {"infer-shapes", "fuse-everything"});
        QFAIL("no error for an unknown pass");
    } catch (const CompileError& e) {
        const std::string m = e.what();
        QVERIFY2(m.find("unknown graph pass 'fuse-everything'") != std::string::npos, m.c_str());
        QVERIFY2(m.find("dead-code-elimination") != std::string::npos, m.c_str());
        QVERIFY2(m.find("fold-scale-shift") != std::string::npos, m.c_str());
    }
    QVERIFY(snaps->snapshots().empty()); // nothing ran
    QVERIFY(snaps->input().pass.empty());
    try {
        pm.run(sample(), {"dead-code-elimination{keep-everything=true}"});
        QFAIL("no error for an unknown option");
    } catch (const CompileError& e) {
        QVERIFY2(std::string(e.what()).find("remove-constants") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(CompileError, pm.run(sample(), {"simplify-inference{dropout}"}));
    QVERIFY_THROWS_EXCEPTION(CompileError, pm.run(sample(), {""}));
}

void TestGraphPassManager::optionsFromEntriesAndManager() {
    GraphPassManager pm;
    Graph a =
        pm.run(sample(), {"infer-shapes", "simplify-inference{identity=false,batch-norm=false}"});
    QVERIFY(text(a).find("Identity") != std::string::npos);
    QVERIFY(text(a).find("BatchNormalization") != std::string::npos);
    pm.setPassOptions("simplify-inference", {{"identity", "false"}});
    Graph b = pm.run(sample(), {"infer-shapes", "simplify-inference"});
    QVERIFY(text(b).find("Identity") != std::string::npos);
    QVERIFY(text(b).find("BatchNormalization") == std::string::npos);
    // The entry's own options win over the manager's.
    Graph c = pm.run(sample(), {"infer-shapes", "simplify-inference{identity=true}"});
    QVERIFY(text(c).find("Identity") == std::string::npos);
}

void TestGraphPassManager::failedHook() {
    GraphPassManager pm;
    auto events = std::make_shared<FailingInstrument>();
    pm.addInstrument(events);
    GraphPassInfo boom{"boom",
                       "Always fails.",
                       "A pass for this test.",
                       {},
                       [](const Graph&, const GraphPassOptionValues&) -> Graph {
                           throw CompileError("boom went off");
                       }};
    std::vector<GraphPassInfo> passes{*findGraphPass("infer-shapes"), boom};
    QVERIFY_THROWS_EXCEPTION(CompileError, pm.runPasses(sample(), passes));
    QCOMPARE(events->events,
             (std::vector<std::string>{"pipeline 2", "before infer-shapes", "after infer-shapes",
                                       "before boom", "failed boom: boom went off"}));
    events->events.clear();
    pm.run(sample(), {"infer-shapes"});
    QCOMPARE(events->events, (std::vector<std::string>{"pipeline 1", "before infer-shapes",
                                                       "after infer-shapes", "done"}));
}

QTEST_APPLESS_MAIN(TestGraphPassManager)
#include "tst_graphpassmanager.moc"
