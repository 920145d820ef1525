/// \file
/// onnxInputs: the graph inputs of a model file with the names of their
/// symbolic dimensions (which the importer forgets), initializers left out.
#include "OnnxBytes.h"

#include "frontend/OnnxInputs.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <fstream>

using namespace tessel;
using namespace tessel::frontend;
namespace ob = onnxbytes;

class TestOnnxInputs : public QObject {
    Q_OBJECT
private slots:
    void namesOfSymbolicDimensions() {
        // y = x + b with x: float32[N, 3, 48, W], b an initializer, and a
        // symbolic dimension without a name.
        const std::string bytes = ob::model(
            ob::graph({ob::node("Add", {"x", "b"}, {"y"}, "add")},
                      {ob::valueInfoNamed("x", ob::kFloat, {-1, 3, 48, -1}, {"N", "", "", "W"}),
                       ob::valueInfo("b", ob::kFloat, {1}),
                       ob::valueInfoNamed("m", ob::kFloat, {-1, 2}, {"", ""})},
                      {ob::valueInfoNamed("y", ob::kFloat, {-1, 3, 48, -1}, {"N", "", "", "W"})},
                      {ob::tensorRaw("b", ob::kFloat, {1}, std::string(4, '\0'))}),
            13);
        const std::string path = std::string(TESSEL_BINARY_DIR) + "/tst_onnxinputs.onnx";
        std::ofstream(path, std::ios::binary) << bytes;
        const auto inputs = onnxInputs(path);
        QCOMPARE(inputs.size(), size_t(2)); // b is an initializer
        QCOMPARE(inputs[0].name, std::string("x"));
        QCOMPARE(inputs[0].dims, (std::vector<int64_t>{-1, 3, 48, -1}));
        QCOMPARE(inputs[0].dimNames, (std::vector<std::string>{"N", "", "", "W"}));
        QCOMPARE(inputs[1].name, std::string("m"));
        QCOMPARE(inputs[1].dims, (std::vector<int64_t>{-1, 2}));
        QCOMPARE(inputs[1].dimNames, (std::vector<std::string>{"", ""}));
    }

    void unreadableFiles() {
        const std::string path = std::string(TESSEL_BINARY_DIR) + "/tst_onnxinputs_bad.onnx";
        std::ofstream(path, std::ios::binary) << "\x0a\xff\xff";
        try {
            onnxInputs(path);
            QFAIL("no error for a truncated model");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("not a valid ONNX model") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(CompileError, onnxInputs("/nonexistent/model.onnx"));
    }
};

QTEST_MAIN(TestOnnxInputs)
#include "tst_onnxinputs.moc"
