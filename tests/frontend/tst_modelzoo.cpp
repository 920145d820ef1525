/// \file
/// Tests of the model zoo (frontend/ModelZoo.h): each model imports with the
/// operators and exactly the parameter count of torchvision's architecture,
/// the same seed gives the same bytes (another seed other weights), files are
/// written whole or not at all, and unknown names are errors. Compiling the
/// models and checking them against ONNX Runtime is tests/driver/tst_modelzoo_ort.
#include "frontend/ModelZoo.h"
#include "frontend/OnnxImporter.h"
#include "ir/Diagnostic.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace tessel;
using namespace tessel::frontend;

namespace {

template <class F> std::string errorOf(F&& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return e.what();
    }
    return "";
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

class TestModelZoo : public QObject {
    Q_OBJECT
private slots:
    void namesAndDescriptions() {
        QCOMPARE(zooModelNames(), (std::vector<std::string>{"resnet18", "mobilenet_v2"}));
        for (auto& n : zooModelNames())
            QVERIFY(!zooModelDescription(n).empty());
        std::string e = errorOf([] { zooModelDescription("resnet19"); });
        QVERIFY2(e.find("no model 'resnet19' (it has resnet18, mobilenet_v2)") != std::string::npos,
                 e.c_str());
        e = errorOf([] { zooModelBytes("vgg16"); });
        QVERIFY2(e.find("no model 'vgg16'") != std::string::npos, e.c_str());
    }

    void importsAsTorchvision_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qlonglong>("parameters");
        QTest::addColumn<QString>("ops");
        // torchvision's parameter counts (batch norm running statistics are buffers, not
        // parameters).
        QTest::newRow("resnet18")
            << "resnet18" << 11689512LL
            << "Add=8 BatchNormalization=20 Conv=20 Flatten=1 Gemm=1 GlobalAveragePool=1 "
               "MaxPool=1 Relu=17";
        QTest::newRow("mobilenet_v2")
            << "mobilenet_v2" << 3504872LL
            << "Add=10 BatchNormalization=52 Clip=35 Conv=52 Flatten=1 Gemm=1 "
               "GlobalAveragePool=1";
    }

    void importsAsTorchvision() {
        QFETCH(QString, name);
        QFETCH(qlonglong, parameters);
        QFETCH(QString, ops);
        graph::Graph g("main");
        try {
            g = importOnnxBytes(zooModelBytes(name.toStdString()));
        } catch (const CompileError& e) {
            QFAIL(e.what());
        }
        QCOMPARE(g.inputs().size(), size_t(1));
        QCOMPARE(g.inputs()[0]->name, std::string("input"));
        QCOMPARE(g.inputs()[0]->outputTypes[0].str(), std::string("float32[1, 3, 224, 224]"));
        QCOMPARE(g.outputs().size(), size_t(1));
        QCOMPARE(g.outputs()[0].name(), std::string("output"));
        QCOMPARE(g.outputs()[0].type().str(), std::string("float32[1, 1000]"));

        std::map<std::string, int> counts;
        for (auto& n : g.nodes())
            ++counts[n->op];
        std::string got;
        for (auto& [op, c] : counts)
            got += (got.empty() ? "" : " ") + op + "=" + std::to_string(c);
        QCOMPARE(QString::fromStdString(got), ops);

        // Learned parameters: initializers other than running statistics (the
        // Clip bounds of Constant nodes are named after their node, "/...").
        int64_t params = 0;
        for (auto& c : g.constants())
            if (c->name.find("running_") == std::string::npos && !c->name.starts_with("/"))
                params += c->constant->numElements();
        QCOMPARE(qlonglong(params), parameters);
        // Conv weights as PyTorch names them, every convolution followed by its batch norm.
        QVERIFY(g.nodes()[0]->op == "Conv" && g.nodes()[1]->op == "BatchNormalization");
        QVERIFY(g.nodes()[0]->name.ends_with("/Conv"));
    }

    void sameSeedSameBytes() {
        for (auto& name : zooModelNames()) {
            std::string a = zooModelBytes(name), b = zooModelBytes(name, 1),
                        c = zooModelBytes(name, 2);
            QVERIFY2(a == b, name.c_str());
            QCOMPARE(c.size(), a.size());   // same structure ...
            QVERIFY2(c != a, name.c_str()); // ... other weights
        }
    }

    void writesFiles() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("mobilenet_v2.onnx").toStdString();
        writeZooModel("mobilenet_v2", path, 7);
        QVERIFY(readAll(path) == zooModelBytes("mobilenet_v2", 7));
        QVERIFY(!std::filesystem::exists(path + ".tmp"));
        QCOMPARE(onnxOpsetOf(path), int64_t(13));

        const std::string bad = dir.filePath("missing/dir/x.onnx").toStdString();
        std::string e = errorOf([&] { writeZooModel("mobilenet_v2", bad); });
        QVERIFY2(e.find("cannot write '" + bad + "'") != std::string::npos, e.c_str());
        QVERIFY(!std::filesystem::exists(bad));
        e = errorOf([&] { writeZooModel("mobilenet", path); });
        QVERIFY2(e.find("no model 'mobilenet'") != std::string::npos, e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestModelZoo)
#include "tst_modelzoo.moc"
