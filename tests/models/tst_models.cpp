// Whole models against ONNX Runtime: torchvision's ResNet-18, ResNet-50 and
// MobileNet-V2 (seeded random weights, batch norms with seeded random
// statistics), a 6-layer nn.TransformerEncoder (opset 17: MatMuls of rank 3,
// attention, LayerNormalization, Erf) and a DCGAN generator (ConvTranspose +
// BatchNormalization + Relu stages), a sequence model (a 2-layer bidirectional
// LSTM, a GRU, a Linear: ONNX LSTM and GRU nodes), each also as a _probe variant whose graph outputs include 3 or 4
// intermediate tensors, and ResNet-18 stored in float16 (weights, input and
// output; Tessel computes in float32, ONNX Runtime rounds every tensor between
// its float32 kernels to float16: measured 0.89 of the bound), compiled by driver::compileModel and run by
// driver::runModel on a seeded random input, on the path a user gets by
// default (this machine's tessel-rpc server) and in this process. Every output must be within
// 1e-3 x max|reference| of ONNX Runtime's (max abs error), and the reference
// must not be degenerate (not NaN, not all zero, not all equal). For ResNet-18
// the optimized graph is checked too: no BatchNormalization is left, and every
// Conv shares its fused function with the Relu/Add after it.
//
// The models and references are made by scripts/export-models.py (torch to
// ONNX; scripts/ort-run.mjs for ONNX Runtime's outputs) in the ctest fixture
// models/references, into <build>/models (or $TESSEL_MODELS_DIR).
#include "driver/Devices.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "ir/Diagnostic.h"

#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace fs = std::filesystem;
using namespace tessel;

namespace {

fs::path modelsDir() {
    if (const char* d = std::getenv("TESSEL_MODELS_DIR"); d && *d) return d;
    return fs::path(TESSEL_BINARY_DIR) / "models";
}

const char* kHowToMake = "the ctest fixture models/references makes it: /usr/bin/python3 scripts/export-models.py "
                         "BUILD/models --ort BUILD/ort (after scripts/setup-ort.sh BUILD/ort)";

std::vector<runtime::NDArray> readTensors(const fs::path& dir, const char* prefix) {
    std::vector<runtime::NDArray> out;
    for (int i = 0;; ++i) {
        fs::path p = dir / (std::string(prefix) + std::to_string(i) + ".pb");
        if (!fs::exists(p)) break;
        out.push_back(driver::toNDArray(*frontend::readTensorProto(p.string()).value));
    }
    return out;
}

struct Stats {
    double maxAbs = 0, min = INFINITY, max = -INFINITY;
    bool hasNaN = false;
};

Stats statsOf(const runtime::NDArray& a) {
    Stats s;
    for (int64_t i = 0; i < a.numElements(); ++i) {
        double v = a.at(i);
        if (std::isnan(v)) {
            s.hasNaN = true;
            continue;
        }
        s.maxAbs = std::max(s.maxAbs, std::fabs(v));
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
    }
    return s;
}

std::string seconds(qint64 ms) { return QString::number(ms / 1000.0, 'f', 1).toStdString() + " s"; }

} // namespace

class TestModels : public QObject {
    Q_OBJECT

    /// ResNet-18, compiled once for the fusion test and the numeric one.
    std::optional<driver::CompiledModel> resnet18_;

    driver::CompiledModel compile(const std::string& name) {
        fs::path model = modelsDir() / name / "model.onnx";
        if (!fs::exists(model))
            throw std::runtime_error(model.string() + " does not exist: " + kHowToMake);
        QElapsedTimer t;
        t.start();
        auto m = driver::compileModel(model.string(), {});
        qInfo("%s: imported and compiled in %s (%zu fused functions)", name.c_str(), seconds(t.elapsed()).c_str(),
              m.functions.size());
        return m;
    }

private slots:
    void resnet18Fusion() {
        try {
            resnet18_ = compile("resnet18");
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        const auto& m = *resnet18_;
        const auto& g = m.graph;
        int convs = 0;
        for (const auto& n : g.nodes()) {
            QVERIFY2(n->op != "BatchNormalization",
                     ("a BatchNormalization is left in the optimized graph: " + n->describe()).c_str());
            if (n->op == "Conv") ++convs;
        }
        QCOMPARE(convs, 20);

        auto groupOf = [&](const graph::Node* n) {
            const graph::FusionGroup* gr = m.fusion.groupOfNode(n->id);
            if (!gr) throw std::runtime_error(n->describe() + " is in no fused function");
            return gr;
        };
        auto convsIn = [&](const graph::FusionGroup* gr) {
            int c = 0;
            for (int64_t id : gr->members)
                if (g.findNode(id)->op == "Conv") ++c;
            return c;
        };
        auto singleUser = [&](const graph::Node* n) -> const graph::Node* {
            auto users = g.users(n->output(0));
            bool isOutput = std::find(g.outputs().begin(), g.outputs().end(), n->output(0)) != g.outputs().end();
            return users.size() == 1 && !isOutput ? users[0] : nullptr;
        };
        int convRelu = 0, convAdd = 0, addRelu = 0;
        try {
            for (const auto& n : g.nodes()) {
                if (n->op == "Conv") {
                    const graph::FusionGroup* gc = groupOf(n.get());
                    QVERIFY2(convsIn(gc) == 1, (gc->name + " holds " + std::to_string(convsIn(gc)) + " Convs").c_str());
                    QVERIFY2(gc->master == n->id, (gc->name + "'s master is not its Conv").c_str());
                    const graph::Node* u = singleUser(n.get());
                    if (!u) continue;
                    if (u->op == "Relu") {
                        QVERIFY2(groupOf(u) == gc, (n->describe() + " and the Relu after it are in different functions: " +
                                                    gc->name + ", " + groupOf(u)->name).c_str());
                        ++convRelu;
                    } else if (u->op == "Add") {
                        // The Add of a residual block takes two Convs on the downsampling
                        // blocks; it can join only one of them.
                        const graph::FusionGroup* ga = groupOf(u);
                        bool withOtherConv = ga != gc && convsIn(ga) == 1 &&
                                             std::any_of(u->inputs.begin(), u->inputs.end(), [&](const graph::Value& v) {
                                                 return v.producer() && v.producer()->op == "Conv" &&
                                                        groupOf(v.producer()) == ga;
                                             });
                        QVERIFY2(ga == gc || withOtherConv,
                                 (n->describe() + " and the Add after it are in different functions: " + gc->name +
                                  ", " + ga->name).c_str());
                        if (ga == gc) ++convAdd;
                    }
                } else if (n->op == "Add") {
                    const graph::Node* u = singleUser(n.get());
                    if (u && u->op == "Relu") {
                        QVERIFY2(groupOf(u) == groupOf(n.get()),
                                 (n->describe() + " and the Relu after it are in different functions").c_str());
                        ++addRelu;
                    }
                }
            }
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        // ResNet-18: the stem and one Conv of each of the 8 basic blocks are
        // followed by a Relu; the other Conv of each block by the residual Add
        // (then a Relu), and 3 downsampling Convs feed an Add fused elsewhere.
        QCOMPARE(convRelu, 9);
        QCOMPARE(convAdd, 8);
        QCOMPARE(addRelu, 8);
        qInfo("resnet18: %zu fused functions, %d Conv+Relu, %d Conv+Add(+Relu)", m.fusion.groups.size(), convRelu,
              convAdd);
    }

    void againstOnnxRuntime_data() {
        QTest::addColumn<QString>("name");
        for (const char* m : {"resnet18", "resnet18_probe", "mobilenet_v2", "mobilenet_v2_probe", "resnet50",
                              "resnet50_probe", "transformer_encoder", "transformer_encoder_probe", "dcgan_generator",
                              "dcgan_generator_probe", "resnet18_fp16", "lstm_gru", "lstm_gru_probe"})
            QTest::newRow(m) << QString(m);
    }

    void againstOnnxRuntime() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        fs::path data = modelsDir() / n / "test_data_set_0";
        std::vector<runtime::NDArray> inputs, expected;
        std::optional<driver::CompiledModel> compiled;
        const driver::CompiledModel* model = nullptr;
        try {
            inputs = readTensors(data, "input_");
            expected = readTensors(data, "output_");
            if (inputs.empty() || expected.empty())
                throw std::runtime_error("no input_0.pb or output_0.pb in " + data.string() + ": " + kHowToMake);
            if (n == "resnet18" && resnet18_) {
                model = &*resnet18_;
            } else {
                compiled = compile(n);
                model = &*compiled;
            }
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(model->plan.outputs.size(), expected.size());

        // The path a user gets by default (a session on this machine's
        // tessel-rpc server, the model going there as its export), and this
        // process.
        std::unique_ptr<runtime::ModelRunner> local = driver::DeviceRunners(driver::DeviceSpec::local()).modelRunner();
        for (runtime::ModelRunner* runner : {local.get(), static_cast<runtime::ModelRunner*>(nullptr)}) {
            const std::string where = runner ? runner->name() : std::string("in process");
            QElapsedTimer t;
            t.start();
            driver::ModelRunReport rep;
            try {
                driver::ModelRunOptions ro;
                ro.runner = runner;
                rep = driver::runModel(*model, inputs, expected, ro);
            } catch (const std::exception& e) {
                QFAIL((where + ": " + e.what()).c_str());
            }
            QVERIFY2(rep.error.empty() || rep.outputs.size() == expected.size(), (where + ": " + rep.error).c_str());
            QCOMPARE(rep.outputs.size(), expected.size());
            std::string failures;
            for (size_t i = 0; i < expected.size(); ++i) {
                const auto& o = rep.outputs[i];
                Stats want = statsOf(expected[i]);
                Stats got = statsOf(rep.values[i]);
                std::string what = n + " (" + where + ") output " + std::to_string(i) + " '" + o.name + "' " + o.type;
                QVERIFY2(!want.hasNaN, (what + ": ONNX Runtime's value has NaN").c_str());
                QVERIFY2(want.maxAbs > 0, (what + ": ONNX Runtime's value is all zero").c_str());
                QVERIFY2(want.min < want.max, (what + ": ONNX Runtime's value is constant").c_str());
                QVERIFY2(rep.values[i].shape() == expected[i].shape(),
                         (what + " but ONNX Runtime's is " + expected[i].str()).c_str());
                double bound = 1e-3 * want.maxAbs;
                bool ok = !got.hasNaN && o.maxAbsErr <= bound;
                qInfo("%s: max abs err %.3g (bound %.3g = 1e-3 x max|ORT| %.4g), max rel err %.3g, %lld elements "
                      "outside rtol 1e-3 / atol 1e-7%s",
                      what.c_str(), o.maxAbsErr, bound, want.maxAbs, o.maxRelErr, static_cast<long long>(o.mismatches),
                      ok ? "" : "  FAILED");
                if (!ok)
                    failures += "\n  " + what + (got.hasNaN ? ": Tessel's value has NaN" : "") + ": max abs err " +
                                std::to_string(o.maxAbsErr) + " > " + std::to_string(bound);
            }
            qInfo("%s (%s): ran in %s", n.c_str(), where.c_str(), seconds(t.elapsed()).c_str());
            QVERIFY2(failures.empty(), ("outputs differ from ONNX Runtime's:" + failures).c_str());
        }
    }

    void cleanupTestCase() { resnet18_.reset(); }
};

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
