// The model zoo's models (frontend/ModelZoo.h) through the whole compiler,
// against an outside reference: each model is written to a file, compiled by
// driver::compileModel and run on a seeded random input, and ONNX Runtime
// (scripts/ort-run.mjs: node and the onnxruntime-node that scripts/setup-ort.sh
// installs into <build>/ort, or $ORT_DIR) runs the same file on the same input.
// Tessel's logits must be within 1e-3 x max|reference| of ONNX Runtime's, as in
// tests/models, and neither may be degenerate (NaN, or a standard deviation
// across classes below 0.1). The graph pipeline must have folded every batch
// norm into its convolution. Without ONNX Runtime the comparison is skipped
// with the reason; everything else still runs.
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/ModelZoo.h"
#include "ir/Diagnostic.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

/// Where onnxruntime-node is installed, or why it cannot be used.
struct Ort {
    std::string dir, why;
};

Ort findOrt() {
    std::vector<fs::path> candidates;
    if (const char* d = std::getenv("ORT_DIR"); d && *d) candidates.emplace_back(d);
    candidates.emplace_back(fs::path(TESSEL_BINARY_DIR) / "ort");
    candidates.emplace_back(fs::path(TESSEL_SOURCE_DIR) / "build" / "ort"); // ./run.sh test's build
    Ort ort;
    for (auto& c : candidates)
        if (fs::exists(c / "node_modules" / "onnxruntime-node" / "package.json")) {
            ort.dir = c.string();
            break;
        }
    if (ort.dir.empty()) {
        ort.why = "onnxruntime-node is not installed in " + candidates[0].string() +
                  " (run scripts/setup-ort.sh " + (fs::path(TESSEL_BINARY_DIR) / "ort").string() +
                  ", or set ORT_DIR)";
        return ort;
    }
    QProcess node;
    node.start("node", {"--version"});
    if (!node.waitForFinished(30000) || node.exitCode() != 0) {
        ort.why = "node is not installed (scripts/install-deps.sh installs nodejs)";
        ort.dir.clear();
    }
    return ort;
}

struct Stats {
    double mean = 0, std = 0, maxAbs = 0;
    bool nan = false;
};

Stats statsOf(const float* v, int64_t n) {
    Stats s;
    double sum = 0, sum2 = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (std::isnan(v[i])) s.nan = true;
        sum += v[i];
        sum2 += double(v[i]) * v[i];
        s.maxAbs = std::max(s.maxAbs, double(std::fabs(v[i])));
    }
    s.mean = sum / double(n);
    s.std = std::sqrt(std::max(0.0, sum2 / double(n) - s.mean * s.mean));
    return s;
}

/// ONNX Runtime running `model` on `input` (float32[1, 3, 224, 224]) in a node
/// process of its own, so that it runs while Tessel compiles.
class OrtRun {
public:
    OrtRun(const Ort& ort, const fs::path& dir, const fs::path& model,
           const runtime::NDArray& input)
        : out_(dir / "ort_out") {
        fs::path in = dir / "ort_in";
        fs::create_directories(in);
        std::ofstream(in / "input_0.bin", std::ios::binary)
            .write(static_cast<const char*>(input.rawData()),
                   static_cast<std::streamsize>(input.numBytes()));
        std::ofstream(in / "input_0.json")
            << R"({"name": "input", "type": "float32", "dims": [1, 3, 224, 224]})";
        node_.setProcessChannelMode(QProcess::MergedChannels);
        node_.start("node", {QString(TESSEL_SOURCE_DIR "/scripts/ort-run.mjs"), "--model",
                             QString::fromStdString(model.string()), "--inputs",
                             QString::fromStdString(in.string()), "--out",
                             QString::fromStdString(out_.string()), "--ort",
                             QString::fromStdString(ort.dir)});
    }

    /// Output 0, once the run has finished.
    std::vector<float> output() {
        if (!node_.waitForFinished(120000) || node_.exitStatus() != QProcess::NormalExit ||
            node_.exitCode() != 0)
            throw std::runtime_error("ort-run.mjs failed: " + node_.readAll().toStdString());
        std::ifstream f(out_ / "output_0.bin", std::ios::binary);
        std::vector<float> v(1000);
        f.read(reinterpret_cast<char*>(v.data()),
               static_cast<std::streamsize>(v.size() * sizeof(float)));
        if (f.gcount() != static_cast<std::streamsize>(v.size() * sizeof(float)))
            throw std::runtime_error("ONNX Runtime's output is not float32[1, 1000]");
        return v;
    }

private:
    fs::path out_;
    QProcess node_;
};

} // namespace

class TestModelZooOrt : public QObject {
    Q_OBJECT
private slots:
    void againstOnnxRuntime_data() {
        QTest::addColumn<QString>("name");
        for (auto& n : frontend::zooModelNames())
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }

    void againstOnnxRuntime() {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const fs::path model = fs::path(dir.path().toStdString()) / (name.toStdString() + ".onnx");
        QElapsedTimer t;
        t.start();
        std::optional<driver::CompiledModel> m;
        runtime::NDArray input({1, 3, 224, 224}, DataType::float32());
        input.fillRandom(11, 0.0, 1.0);
        const Ort ort = findOrt();
        std::optional<OrtRun> ortRun;
        driver::ModelRunReport rep;
        try {
            frontend::writeZooModel(name.toStdString(), model.string());
            qint64 writeMs = t.restart();
            if (!ort.dir.empty()) ortRun.emplace(ort, dir.path().toStdString(), model, input);
            m = driver::compileModel(model.string(), {});
            qInfo("%s: written in %lld ms, compiled in %lld ms (%zu fused functions)",
                  qPrintable(name), writeMs, t.restart(), m->functions.size());
            rep = driver::runModel(*m, {input}, {});
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY2(rep.ok, rep.error.c_str());
        // fold-scale-shift has folded every batch norm; fusion joined the activations.
        for (auto& n : m->graph.nodes())
            QVERIFY2(n->op != "BatchNormalization",
                     ("left in the graph: " + n->describe()).c_str());
        QVERIFY(m->functions.size() < m->graph.nodes().size());

        const float* ours = rep.values[0].data<float>();
        Stats so = statsOf(ours, 1000);
        qInfo("%s: Tessel's logits: mean %.3f, std %.3f, max |x| %.3f", qPrintable(name), so.mean,
              so.std, so.maxAbs);
        QVERIFY2(!so.nan && so.std > 0.1, "Tessel's logits are degenerate");

        if (!ortRun) QSKIP(("no ONNX Runtime to compare with: " + ort.why).c_str());
        std::vector<float> ref;
        try {
            ref = ortRun->output();
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        Stats sr = statsOf(ref.data(), 1000);
        QVERIFY2(!sr.nan && sr.std > 0.1, "ONNX Runtime's logits are degenerate");
        double maxErr = 0;
        for (size_t i = 0; i < ref.size(); ++i)
            maxErr = std::max(maxErr, double(std::fabs(ours[i] - ref[i])));
        qInfo("%s: max |Tessel - ONNX Runtime| = %.3g (max |reference| %.3g)", qPrintable(name),
              maxErr, sr.maxAbs);
        QVERIFY2(maxErr <= 1e-3 * sr.maxAbs,
                 qPrintable(QString("max abs error %1 > 1e-3 x %2").arg(maxErr).arg(sr.maxAbs)));
    }
};

QTEST_GUILESS_MAIN(TestModelZooOrt)
#include "tst_modelzoo_ort.moc"
