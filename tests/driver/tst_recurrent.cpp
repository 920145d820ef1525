// RNN, GRU and LSTM end to end: the models of tests/frontend/models/recurrent
// (directions, sequence_lens, peepholes, initial states, layout 1, clip,
// activations with alpha and beta, linear_before_reset 0 and 1) imported,
// unrolled by expand-recurrent, compiled and run in process against numpy's
// reference outputs, which make_recurrent.py computed when it wrote them.
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

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/recurrent/";

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

class TestRecurrent : public QObject {
    Q_OBJECT
private slots:
    void matchesNumpy_data();
    void matchesNumpy();
};

void TestRecurrent::matchesNumpy_data() {
    QTest::addColumn<QString>("model");
    for (const char* m : {"lstm_bidi_seqlens", "lstm_batchfirst", "gru_lbr0_bidi",
                          "gru_lbr1_reverse", "rnn_reverse_lens"})
        QTest::newRow(m) << QString(m);
}

void TestRecurrent::matchesNumpy() {
    QFETCH(QString, model);
    const std::string name = model.toStdString();
    graph::Graph g = frontend::importOnnx(kModels + name + ".onnx");
    // The importer keeps one node for the layer (what the IDE shows).
    int layers = 0;
    for (const auto& n : g.nodes())
        layers += n->op == "LSTM" || n->op == "GRU" || n->op == "RNN";
    QCOMPARE(layers, 1);
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
        QVERIFY2(o.maxAbsErr < 1e-5, detail.c_str());
    }
}

QTEST_GUILESS_MAIN(TestRecurrent)
#include "tst_recurrent.moc"
