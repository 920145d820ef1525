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

#include "common/ModelData.h"

#include <QtTest>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace tessel;

namespace {

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/recurrent/";

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
    test::checkAgainstData(compiled, kModels + name + "_data", 1e-5);
}

QTEST_GUILESS_MAIN(TestRecurrent)
#include "tst_recurrent.moc"
