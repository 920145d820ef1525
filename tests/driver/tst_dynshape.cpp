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
            test::checkAgainstData(m, kModels + d, 1e-5, nullptr);
            test::checkAgainstData(m, kModels + d, 1e-5, local_.get());
        }
        // One compile per count kept (3, then 2); none for the empty result,
        // whose element-wise region is empty too.
        QCOMPARE(m.program->compiles(), 3);
        test::checkAgainstData(m, kModels + "detector_overlap_data", 1e-5, nullptr);
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
        test::checkAgainstData(m, kModels + "nonzero_where_data", 1e-5, nullptr);
        test::checkAgainstData(m, kModels + "nonzero_where_data", 1e-5, local_.get());
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
        test::checkAgainstData(m, dir + "test_data_set_0", 1e-5, nullptr);
        test::checkAgainstData(m, dir + "test_data_set_0", 1e-5, local_.get());
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
