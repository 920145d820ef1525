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

#include "common/ModelData.h"

#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace tessel;

namespace {

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/quantized/";

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
    test::checkAgainstData(compiled, kModels + name + "_data", tolerance);
}

QTEST_GUILESS_MAIN(TestIntegerProducts)
#include "tst_integer_products.moc"
