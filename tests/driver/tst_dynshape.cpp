// Data-dependent output shapes end to end: the models of tests/frontend/models/dynshape
// (a small detector, boxes and scores -> TopK -> Gather -> NonMaxSuppression -> Gather;
// NonZero feeding a compiled region) imported, compiled (the static regions before the
// data-dependent node at once, the ones after it for the shapes a run brings, once per
// shape) and run on the host executor against ONNX Runtime's outputs, which
// make_dynshape.py wrote. Runs go in process and where a user's run goes by default, this
// machine's tessel-rpc server (such a model runs in this process then, as control flow does).
#include "driver/ControlFlowProgram.h"
#include "driver/Devices.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/OnnxImporter.h"
#include "ir/Diagnostic.h"

#include "common/ModelData.h"

#include <QtTest>

#include <memory>
#include <string>

using namespace tessel;

namespace {

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/dynshape/";

/// Runs `m` on DIR's inputs on `runner` (null: in process): every output's
/// shape and values as ONNX Runtime's, within 1e-5.
void check(const driver::CompiledModel& m, const std::string& dir, runtime::ModelRunner* runner) {
    const auto inputs = test::readTensorFiles(dir, "input_");
    const auto expected = test::readTensorFiles(dir, "output_");
    QCOMPARE(m.plan.outputs.size(), expected.size());
    driver::ModelRunOptions o;
    o.runner = runner;
    o.atol = 1e-5;
    const auto rep = driver::runModel(m, inputs, expected, o);
    std::string detail = dir + ": " + rep.error;
    for (const auto& out : rep.outputs)
        detail += "\n  " + out.name + " " + out.type + ": max abs error " + std::to_string(out.maxAbsErr);
    QVERIFY2(rep.ok, detail.c_str());
    QCOMPARE(rep.values.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        QVERIFY2(rep.values[i].shape() == expected[i].shape(), (detail + "\n  output " + std::to_string(i) + " is " +
                                                                rep.values[i].str() + ", not " + expected[i].str())
                                                                   .c_str());
        QVERIFY2(rep.outputs[i].checked && rep.outputs[i].maxAbsErr <= 1e-5, detail.c_str());
    }
}

} // namespace

class TestDynShape : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { local_ = driver::DeviceRunners(driver::DeviceSpec::local()).modelRunner(); }

    void detectorMatchesOnnxRuntime() {
        const graph::Graph g = frontend::importOnnx(kModels + "detector.onnx");
        QVERIFY(!g.hasUnsupported()); // NonMaxSuppression is a node of the graph, not an opaque one
        const driver::CompiledModel m = driver::compileGraph(g);
        QVERIFY(m.program);
        const std::string steps = m.program->describe();
        QVERIFY2(steps == "segment (4 nodes) -> NonMaxSuppression 'nms' -> segment (4 nodes)", steps.c_str());
        // The region before NonMaxSuppression (TopK, Gather, the Unsqueezes) is
        // compiled with the model; the one after waits for the count it keeps.
        QCOMPARE(m.program->compiles(), 1);
        for (const char* d : {"detector_overlap_data", "detector_few_data", "detector_none_data"}) {
            check(m, kModels + d, nullptr);
            check(m, kModels + d, local_.get());
        }
        // One compile per count kept (3, then 2); none for the empty result,
        // whose element-wise region is empty too.
        QCOMPARE(m.program->compiles(), 3);
        check(m, kModels + "detector_overlap_data", nullptr);
        QCOMPARE(m.program->compiles(), 3); // again: nothing compiled
        QCOMPARE(m.warnings.size(), size_t(1));
        QVERIFY2(m.warnings[0].find("data-dependent output shapes (NonMaxSuppression) runs on the host executor") !=
                     std::string::npos,
                 m.warnings[0].c_str());
    }

    void nonZeroFeedsACompiledRegion() {
        const driver::CompiledModel m = driver::compileModel(kModels + "nonzero_where.onnx", {});
        QVERIFY(m.program);
        QCOMPARE(m.program->describe(), std::string("NonZero 'nonzero' -> segment (3 nodes)"));
        check(m, kModels + "nonzero_where_data", nullptr);
        check(m, kModels + "nonzero_where_data", local_.get());
    }

    void cannotLeaveThisProcess() {
        const driver::CompiledModel m = driver::compileModel(kModels + "nonzero_where.onnx", {});
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::packageOf(m));
        QVERIFY_THROWS_EXCEPTION(CompileError, m.makeExecutor());
    }

    void countGivenAtRunTime() {
        // TopK's K as an input (ONNX's test_top_k): compileGraph needs it as a
        // constant; compileModelForRun (tesselc run's) compiles per value of K
        // when the model runs, and the output's shape follows K.
        const std::string dir = "/usr/share/libonnx-testdata/data/node/test_top_k/";
        if (!QFile::exists(QString::fromStdString(dir + "model.onnx"))) QSKIP("libonnx-testdata is not installed");
        try {
            driver::compileModel(dir + "model.onnx", {});
            QFAIL("compiled with K unknown");
        } catch (const CompileError& e) {
            QVERIFY2(driver::isShapeCarryingError(e.what()), e.what());
        }
        const driver::CompiledModel m = driver::compileModelForRun(dir + "model.onnx", {});
        QVERIFY(m.program);
        QCOMPARE(m.program->compiles(), 0); // nothing until K is known
        check(m, dir + "test_data_set_0", nullptr);
        check(m, dir + "test_data_set_0", local_.get());
        QCOMPARE(m.program->compiles(), 1);
        auto inputs = test::readTensorFiles(dir + "test_data_set_0", "input_");
        inputs[1].data<int64_t>()[0] = 1;
        const auto rep = driver::runModel(m, inputs, {});
        QVERIFY2(rep.ok, rep.error.c_str());
        QCOMPARE(rep.values[0].shape(), (std::vector<int64_t>{3, 1}));
        QCOMPARE(rep.values[0].at(0), 3.0); // the largest of row 0, [0, 1, 2, 3]
        QCOMPARE(m.program->compiles(), 2);
        // A model without integer inputs is refused as before.
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::compileModelForRun(
                                                   "/usr/share/libonnx-testdata/data/node/test_resize_upsample_scales_nearest/model.onnx",
                                                   {}));
    }

private:
    std::unique_ptr<runtime::ModelRunner> local_;
};

QTEST_GUILESS_MAIN(TestDynShape)
#include "tst_dynshape.moc"
