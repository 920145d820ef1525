// If, Loop and Scan end to end: the models of tests/frontend/models/controlflow
// (an If on data and on a shape, a Loop that stops on its condition with a
// scan output whose length is data, Scan with axes and directions, opset 8's
// batched Scan, a Loop whose body's If reads a value two scopes out) imported, compiled (static
// regions and bodies compiled once) and run on the host control-flow executor against numpy's
// reference outputs, which make_controlflow.py computed when it wrote them. Runs go both in process
// and where a user's run goes by default: this machine's tessel-rpc server (which a model with
// control flow cannot reach yet: it runs in this process then, and a remote device is refused).
#include "driver/ControlFlowProgram.h"
#include "driver/Devices.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/OnnxImporter.h"
#include "ir/Diagnostic.h"

#include "common/ModelData.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace tessel;

namespace {

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/controlflow/";

int count(const graph::Graph& g, const std::string& op) {
    int n = 0;
    for (const auto& node : g.nodes())
        n += node->op == op;
    return n;
}

} // namespace

class TestControlFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        local_ = driver::DeviceRunners(driver::DeviceSpec::local()).modelRunner();
    }

    void matchesNumpy_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("data");
        QTest::addColumn<QString>("op");
        QTest::newRow("if_data") << "if_data" << QStringList{"if_data_then", "if_data_else"}
                                 << "If";
        QTest::newRow("loop_cond")
            << "loop_cond" << QStringList{"loop_cond_stops", "loop_cond_trips", "loop_cond_zero"} << "Loop";
        QTest::newRow("scan_axes") << "scan_axes" << QStringList{"scan_axes"} << "Scan";
        QTest::newRow("scan8_batch") << "scan8_batch" << QStringList{"scan8_batch"} << "Scan";
        QTest::newRow("loop_nested_if")
            << "loop_nested_if" << QStringList{"loop_nested_if"} << "Loop";
    }

    void matchesNumpy() {
        QFETCH(QString, model);
        QFETCH(QStringList, data);
        QFETCH(QString, op);
        graph::Graph g = frontend::importOnnx(kModels + model.toStdString() + ".onnx");
        QVERIFY(!g.hasUnsupported());
        QCOMPARE(count(g, op.toStdString()), 1);
        const driver::CompiledModel m = driver::compileGraph(g);
        QVERIFY(m.program); // the control flow stays: run by the host executor
        const int compiled = m.program->compiles();
        for (const QString& d : data) {
            test::checkAgainstData(m, kModels + d.toStdString() + "_data", 1e-5, nullptr);
            test::checkAgainstData(m, kModels + d.toStdString() + "_data", 1e-5, local_.get());
        }
        // Every segment and body is compiled once, not once per iteration or
        // run; the Loop's segment after it waits for the scan output's length
        // (one more compile per length: the data sets stop at 2 and 1; after no
        // iteration the element-wise segment's outputs are empty, no compile).
        if (model == "loop_cond")
            QCOMPARE(m.program->compiles(), compiled + 2);
        else
            QCOMPARE(m.program->compiles(), compiled);
    }

    void functionsOfEveryRegion() {
        // The code view lists them: with the trace, a Loop body's and an If
        // branch's fused functions, named by their subgraph's path, with the
        // TE script and TIR the code view shows; without it none are kept.
        const graph::Graph g = frontend::importOnnx(kModels + "loop_nested_if.onnx");
        driver::CompileOptions o;
        o.trace = true;
        const driver::CompiledModel m = driver::compileGraph(g, o);
        QVERIFY(m.program);
        QStringList names;
        const driver::FusedFunction *body = nullptr, *branch = nullptr;
        for (const auto& f : m.functions) {
            names << QString::fromStdString(f.name);
            if (f.name.starts_with("outer/body/inner/then_branch/")) branch = &f;
            else if (f.name.starts_with("outer/body/") && f.region.size() == 1) body = &f;
            QVERIFY2(f.lowered.lowered.defined() && !f.script.empty() && f.group == -1, f.name.c_str());
        }
        QVERIFY2(body && branch, qPrintable(names.join(", ")));
        QCOMPARE(names.removeDuplicates(), 0);
        // Where they are: the Loop 'outer', then its body's If 'inner'.
        QCOMPARE(branch->region.size(), size_t(2));
        QCOMPARE(branch->region[0].second, std::string("body"));
        QCOMPARE(branch->region[1].second, std::string("then_branch"));
        const graph::Node* loop = m.graph.findNode(branch->region[0].first);
        QVERIFY(loop && loop->op == "Loop" && loop->name == "outer");
        const graph::Graph& bodyGraph = *loop->subgraphs[0].graph;
        for (int64_t id : body->members) QVERIFY(bodyGraph.findNode(id));
        QCOMPARE(branch->script.find("create_schedule") != std::string::npos, true);
        // Compiled for running alone (the CLI's runs): nothing is kept.
        QVERIFY(driver::compileGraph(g).functions.empty());
    }

    void loopBodyIsCompiledOnce() {
        const driver::CompiledModel m = driver::compileModel(kModels + "loop_cond.onnx", {});
        QVERIFY(m.program);
        // The segment before the Loop and the Loop's body, compiled when the
        // model is; the segment after it (Mul, Relu) reads the scan output,
        // whose length is data: compiled when it runs, per length.
        QCOMPARE(m.program->compiles(), 2);
        const std::string steps = m.program->describe();
        QVERIFY2(
            steps ==
                "segment (1 node) -> Loop 'loop' [body: segment (6 nodes)] -> segment (2 nodes)",
            steps.c_str());
        test::checkAgainstData(m, kModels + "loop_cond_stops_data", 1e-5, nullptr);
        QCOMPARE(m.program->compiles(), 3);
        test::checkAgainstData(m, kModels + "loop_cond_stops_data", 1e-5, nullptr);
        QCOMPARE(m.program->compiles(), 3); // run again: nothing compiled
    }

    void constantIfIsInlined() {
        graph::Graph g = frontend::importOnnx(kModels + "if_constant.onnx");
        QCOMPARE(count(g, "If"), 1);
        const driver::CompiledModel m = driver::compileGraph(g);
        QVERIFY(!m.program); // compiled statically, as any model
        QCOMPARE(count(m.graph, "If"), 0);
        QVERIFY(!m.functions.empty());
        test::checkAgainstData(m, kModels + "if_constant_data", 1e-5, nullptr);
        test::checkAgainstData(m, kModels + "if_constant_data", 1e-5, local_.get());
    }

    void cannotLeaveThisProcess() {
        const driver::CompiledModel m = driver::compileModel(kModels + "if_data.onnx", {});
        QVERIFY(m.program);
        QTemporaryDir dir;
        try {
            driver::exportModel(m, dir.path().toStdString());
            QFAIL("exported");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find(
                         "control flow (If, Loop, Scan) or data-dependent output shapes") !=
                         std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::packageOf(m));
    }

    void remoteDeviceIsRefused() {
        // A runner elsewhere (a board): the model cannot reach it yet.
        struct Remote : runtime::ModelRunner {
            std::string name() const override { return "rpc 10.0.0.2:9090"; }
            void load(const runtime::ModelPackage&) override { throw std::runtime_error("loaded"); }
            void setInputs(const std::vector<runtime::NDArray>&) override {}
            runtime::ModelTiming run(const runtime::ModelRunSpec&) override { return {}; }
            std::vector<runtime::NDArray> outputs() override { return {}; }
            runtime::ModelTiming profile(const runtime::ModelRunSpec&) override { return {}; }
        } remote;
        const driver::CompiledModel m = driver::compileModel(kModels + "scan_axes.onnx", {});
        driver::ModelRunOptions o;
        o.runner = &remote;
        const auto rep = driver::runModel(m, {}, {}, o);
        QVERIFY(!rep.ok);
        QVERIFY2(rep.error.find("runs in this process only") != std::string::npos &&
                     rep.error.find("rpc 10.0.0.2:9090") != std::string::npos,
                 rep.error.c_str());
        // The compile says where it runs.
        QCOMPARE(m.warnings.size(), size_t(1));
        QVERIFY2(m.warnings[0].find("runs on the host executor in this process") !=
                     std::string::npos,
                 m.warnings[0].c_str());
    }

private:
    std::unique_ptr<runtime::ModelRunner> local_;
};

QTEST_GUILESS_MAIN(TestControlFlow)
#include "tst_controlflow.moc"
