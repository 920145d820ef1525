// The integer products end to end: the models of tests/frontend/models/quantized
// (MatMulInteger with per-row and per-column zero points, ConvInteger with
// per-channel ones, QLinearConv with a bias and saturation, QLinearMatMul with
// per-column scales, and a dynamically quantized MatMul) imported, expanded
// by expand-quantized, compiled and run in process against numpy's reference
// outputs, which make_quantized.py computed when it wrote them.
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace tessel;

namespace {

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/quantized/";

std::vector<runtime::NDArray> readAll(const fs::path& dir, const char* prefix) {
    std::vector<runtime::NDArray> out;
    for (int i = 0;; ++i) {
        fs::path p = dir / (std::string(prefix) + std::to_string(i) + ".pb");
        if (!fs::exists(p)) break;
        out.push_back(driver::toNDArray(*frontend::readTensorProto(p.string()).value));
    }
    return out;
}

} // namespace

class TestIntegerProducts : public QObject {
    Q_OBJECT
private slots:
    void matchesNumpy_data();
    void matchesNumpy();
};

void TestIntegerProducts::matchesNumpy_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("tolerance");
    for (const char* m : {"matmulinteger_rows_cols", "convinteger_channels", "qlinearconv_bias",
                          "qlinearmatmul_cols"})
        QTest::newRow(m) << QString(m) << 0.0; // integers: exact
    QTest::newRow("dynquant_matmul") << QString("dynquant_matmul") << 1e-5;
}

void TestIntegerProducts::matchesNumpy() {
    QFETCH(QString, model);
    QFETCH(double, tolerance);
    const std::string name = model.toStdString();
    const graph::Graph g = frontend::importOnnx(kModels + name + ".onnx");
    const driver::CompiledModel compiled = driver::compileGraph(g);
    const fs::path data = kModels + name + "_data";
    const auto inputs = readAll(data, "input_");
    const auto expected = readAll(data, "output_");
    QCOMPARE(compiled.plan.outputs.size(), expected.size());
    const auto report = driver::runModel(compiled, inputs, expected);
    std::string detail = report.error;
    for (const auto& o : report.outputs)
        detail += "\n  " + o.name + " " + o.type + ": max abs error " + std::to_string(o.maxAbsErr);
    QVERIFY2(report.ok, detail.c_str());
    for (const auto& o : report.outputs) {
        QVERIFY(o.checked);
        QVERIFY2(o.maxAbsErr <= tolerance, detail.c_str());
    }
}

QTEST_GUILESS_MAIN(TestIntegerProducts)
#include "tst_integer_products.moc"
