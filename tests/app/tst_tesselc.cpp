// tesselc as a user runs it: every command, JSON output, the scripts in tests/error/ that
// must fail with exit status 1 and the message in their first line, and the ONNX models there
// that must fail with the message in their FILE.onnx.expect sidecar.
#include "frontend/OnnxBytes.h"

#include "common/Tesselc.h"

#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {

using Result = tessel::test::TesselcResult;

Result tesselc(const QStringList& args) { return tessel::test::runTesselc(args); }

QString example(const char* name) { return QString(TESSEL_SOURCE_DIR "/resources/examples/gemm/") + name; }

// x.view(x.size(0), -1) as PyTorch exports it, with a dynamic batch: Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape.
std::string flattenModel() {
    namespace ob = onnxbytes;
    auto int64s = [](const std::string& name, std::vector<int64_t> dims, std::vector<int64_t> v) {
        return ob::tensorRaw(name, ob::kInt64, dims, std::string(reinterpret_cast<const char*>(v.data()), v.size() * 8));
    };
    return ob::model(ob::graph({ob::node("Shape", {"x"}, {"s"}, "shape"), ob::node("Gather", {"s", "zero"}, {"n"}, "batch"),
                                ob::node("Unsqueeze", {"n", "axes"}, {"n1"}, "unsqueeze"),
                                ob::node("Concat", {"n1", "minus_one"}, {"target"}, "concat", {ob::intAttr("axis", 0)}),
                                ob::node("Reshape", {"x", "target"}, {"y"}, "flatten")},
                               {ob::valueInfo("x", ob::kFloat, {-1, 3, 4, 4})}, {ob::valueInfo("y", ob::kFloat, {-1, 48})},
                               {int64s("zero", {}, {0}), int64s("axes", {1}, {0}), int64s("minus_one", {1}, {-1})}),
                     13);
}

// The issue's snippet, exactly as written, with M = N = K = 1024 and bn = 32 above it.
const char* kSnippet = R"(M = N = K = 1024
bn = 32
k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], bn, bn)
(k,) = s[C].op.reduce_axis
ko, ki = s[C].split(k, factor=4)
s[C].reorder(xo, yo, ko, xi, ki, yi)
s[C].vectorize(yi)
)";

} // namespace

class TestTesselc : public QObject {
    Q_OBJECT
private slots:
    void passes() {
        auto r = tesselc({"passes"});
        QCOMPARE(r.exitCode, 0);
        for (auto name : {"storage-flatten", "simplify", "loop-partition", "vectorize", "unroll-loop", "storage-rewrite"})
            QVERIFY2(r.out.contains(name), qPrintable(r.out));
    }

    void snippetLowers() {
        QTemporaryDir dir;
        QFile f(dir.filePath("snippet.te"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kSnippet);
        f.close();
        auto r = tesselc({"lower", f.fileName()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("def snippet(A: T.Buffer((1048576,), \"float32\")"), qPrintable(r.out));
        // yi is vectorized: 32 lanes of B and C as one ramp, A broadcast.
        QVERIFY2(r.out.contains("T.Ramp("), qPrintable(r.out));
        QVERIFY(r.out.contains("T.Broadcast(A["));
        QVERIFY(!r.out.contains("if "));
    }

    void lowerAfterNamedPasses() {
        auto r = tesselc({"lower", example("03_vectorization.te"), "--pass", "schedule", "--pass", "storage-flatten", "--pass", "vectorize"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("# gemm straight from the schedule"));
        QVERIFY(r.out.contains("# gemm after storage-flatten"));
        QVERIFY(r.out.contains("# gemm after vectorize"));
        QVERIFY(r.out.contains("for y_inner in T.vectorized(32):")); // before the vectorize pass
        auto bad = tesselc({"lower", example("03_vectorization.te"), "--pass", "vectorise"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("unknown pass 'vectorise'"), qPrintable(bad.err));
    }

    void buildEmits() {
        auto llvm = tesselc({"build", example("04_loop_permutation.te"), "--emit", "llvm"});
        QCOMPARE(llvm.exitCode, 0);
        QVERIFY(llvm.out.contains("define i32 @gemm(ptr"));
        auto as = tesselc({"build", example("04_loop_permutation.te"), "--emit", "asm"});
        QCOMPARE(as.exitCode, 0);
        QVERIFY(as.out.contains(".loc"));
        // The host's widest vectors: zmm with AVX-512, ymm with AVX2.
        QVERIFY2(as.out.contains("zmm") || as.out.contains("ymm"), qPrintable(as.out.left(2000)));
        auto arm = tesselc({"build", example("04_loop_permutation.te"), "--emit", "asm", "--target", "aarch64-linux-gnu"});
        QCOMPARE(arm.exitCode, 0);
        QVERIFY2(arm.out.contains("fmla") || arm.out.contains("fmul"), qPrintable(arm.out.left(2000)));
        auto c = tesselc({"build", example("04_loop_permutation.te"), "--emit", "c"});
        QCOMPARE(c.exitCode, 0);
        QVERIFY(c.out.contains("int32_t gemm(void* const* args)"));
        auto bad = tesselc({"build", example("04_loop_permutation.te"), "--emit", "exe"});
        QCOMPARE(bad.exitCode, 2);
    }

    void runJson() {
        // A small GEMM keeps the test fast; the ladder itself runs in the main job.
        QTemporaryDir dir;
        QFile f(dir.filePath("small.te"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(kSnippet).replace("M = N = K = 1024", "M = N = K = 128"));
        f.close();
        auto r = tesselc({"run", f.fileName(), "--threads", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        auto doc = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY2(doc.isObject(), qPrintable(r.out));
        auto o = doc.object();
        QCOMPARE(o["ok"].toBool(), true);
        QVERIFY(o["latency_ms"].toDouble() > 0);
        QVERIFY(o["gflops"].toDouble() > 0);
        QVERIFY(o["max_rel_err"].toDouble() <= 1e-4);
        QVERIFY(o.contains("max_abs_err"));
        QCOMPARE(o["threads"].toInt(), 2);
    }

    // A tunable template: `space` lists its knobs, `--config` picks them.
    void templates() {
        const QString dense = TESSEL_SOURCE_DIR "/resources/templates/dense.te";
        auto space = tesselc({"space", dense});
        QCOMPARE(space.exitCode, 0);
        QVERIFY2(space.out.contains("tile_k           split    7 choices, default 4: [32, 16]"), qPrintable(space.out));
        QVERIFY2(space.out.contains("0: [512, 1]  1: [256, 2]"), qPrintable(space.out));
        auto json = tesselc({"space", dense, "--json", "--config", "tile_k=6"});
        QCOMPARE(json.exitCode, 0);
        auto knobs = QJsonDocument::fromJson(json.out.toUtf8()).object()["knobs"].toArray();
        QCOMPARE(knobs.size(), 4);
        QCOMPARE(knobs[2].toObject()["name"].toString(), QString("tile_k"));
        QCOMPARE(knobs[2].toObject()["chosen"].toInt(), 6);
        QCOMPARE(knobs[3].toObject()["choices"].toArray()[0].toString(), QString("True"));
        auto run = tesselc({"run", dense, "--config", "tile_x=20,tile_k=2,unroll_k=1", "--repeat", "1"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("dense: ok"), qPrintable(run.out));
        auto lowered = tesselc({"lower", dense, "--config", "tile_x=4"}); // [125, 1, 8]: 8 lanes
        QCOMPARE(lowered.exitCode, 0);
        QVERIFY2(lowered.out.contains("C_local[T.Ramp(0, 1, 8)]"), qPrintable(lowered.out));
        auto bad = tesselc({"run", dense, "--config", "tile_k=9"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.startsWith(dense + ":22:5: error: the config chooses index 9 for knob 'tile_k'"), qPrintable(bad.err));
        auto usage = tesselc({"run", dense, "--config", "tile_k"});
        QCOMPARE(usage.exitCode, 2);
    }

    // A template's workload parameters: `space` reports them, `--workload`
    // instantiates the template for another workload.
    void templateWorkloads() {
        const QString dense = TESSEL_SOURCE_DIR "/resources/templates/dense.te";
        auto space = tesselc({"space", dense, "--workload", "M=4,N=256"});
        QCOMPARE(space.exitCode, 0);
        QVERIFY2(space.out.contains("workload M=4 N=256 K=512 (default)"), qPrintable(space.out));
        auto json = tesselc({"space", dense, "--json", "--workload", "K=64"});
        QCOMPARE(json.exitCode, 0);
        auto wl = QJsonDocument::fromJson(json.out.toUtf8()).object()["workload"].toArray();
        QCOMPARE(wl.size(), 3);
        QCOMPARE(wl[2].toObject()["name"].toString(), QString("K"));
        QCOMPARE(wl[2].toObject()["default"].toInt(), 512);
        QCOMPARE(wl[2].toObject()["value"].toInt(), 64);
        auto run = tesselc({"run", dense, "--workload", "M=2,N=64,K=32", "--repeat", "1"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("dense: ok"), qPrintable(run.out));
        auto lowered = tesselc({"lower", dense, "--workload", "N=64,K=32"});
        QCOMPARE(lowered.exitCode, 0);
        QVERIFY2(lowered.out.contains("C: T.Buffer((64,)"), qPrintable(lowered.out)); // M = 1 row of N = 64
        auto bad = tesselc({"build", dense, "--emit", "tir", "--workload", "Q=1"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.startsWith(dense + ":17:13: error: the workload sets parameter 'Q'"), qPrintable(bad.err));
        auto usage = tesselc({"run", dense, "--workload", "M"});
        QCOMPARE(usage.exitCode, 2);
    }

    void errors_data() {
        QTest::addColumn<QString>("file");
        for (auto& e : QDir(TESSEL_SOURCE_DIR "/tests/error").entryInfoList({"*.te"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(e.fileName())) << e.absoluteFilePath();
    }
    void errors() {
        QFETCH(QString, file);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString first = QString::fromUtf8(f.readLine()).trimmed();
        QVERIFY2(first.startsWith("# expect: "), "an error script starts with '# expect: MESSAGE'");
        QString expected = first.mid(10);
        for (auto cmd : {"lower", "run"}) {
            auto r = tesselc({cmd, file});
            QCOMPARE(r.exitCode, 1);
            QCOMPARE(r.err.trimmed(), file + ":" + expected);
        }
    }

    void onnxErrors_data() {
        QTest::addColumn<QString>("file");
        for (auto& e : QDir(TESSEL_SOURCE_DIR "/tests/error").entryInfoList({"*.onnx"}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(e.fileName())) << e.absoluteFilePath();
    }
    void onnxErrors() {
        QFETCH(QString, file);
        // FILE.onnx.expect: the message on line 1, extra tesselc arguments (if any) on line 2.
        QFile f(file + ".expect");
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable("no sidecar " + f.fileName()));
        const QString expected = QString::fromUtf8(f.readLine()).trimmed();
        const QStringList extra = QString::fromUtf8(f.readLine()).trimmed().split(' ', Qt::SkipEmptyParts);
        QVERIFY(!expected.isEmpty());
        // Past the graph stage (what compiling starts with) the model fails.
        auto r = tesselc(QStringList{"show", file, "--stage", "optimized"} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        // One line: the file, then the message naming the node, operator and opset.
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith(file + ": ") && r.err.contains(expected), qPrintable(r.err));
        // The graph stage shows every model that is a model, with what cannot
        // compile listed under it (the node, without the opset, and the reason).
        auto g = tesselc(QStringList{"show", file, "--stage", "graph"} + extra);
        const int colon = expected.indexOf("): ");
        if (g.exitCode == 1) {
            QVERIFY2(g.err.contains(expected), qPrintable(g.err));
        } else {
            QCOMPARE(g.exitCode, 0);
            QVERIFY2(colon > 0 && g.out.contains("# this model cannot be compiled: 1 unsupported construct\n") &&
                         g.out.contains(expected.mid(colon + 3)),
                     qPrintable(g.out));
        }
    }

    // A model with operators Tessel lacks, a custom domain and an If with
    // subgraphs: show draws it and lists everything; compile and run fail
    // with one error that lists everything (tests/frontend/models).
    void unsupportedModels() {
        const QString models = TESSEL_SOURCE_DIR "/tests/frontend/models/";
        auto dq = tesselc({"show", models + "dynquant.onnx"}); // --stage graph is the default
        QCOMPARE(dq.exitCode, 0);
        QVERIFY2(dq.out.contains("= Relu(%x) : float32[2, 4]  # relu\n") &&
                     dq.out.contains("= DynamicQuantizeLinear(%3) : uint8[2, 4], float32[], uint8[]  # quantize") &&
                     dq.out.contains("= com.example.FancyScale(%7) {factor=0.5, mode=\"fast\", tags=\"[a, b]\"} : "
                                     "float32[2, 3]  # custom; unsupported: operator domain 'com.example'"),
                 qPrintable(dq.out));
        QVERIFY2(dq.out.contains("#   node 'custom' (com.example.FancyScale): operator domain 'com.example' is not "
                                 "supported (only the default ONNX domain is)\n"),
                 qPrintable(dq.out));
        auto iff = tesselc({"show", models + "if.onnx"});
        QCOMPARE(iff.exitCode, 0);
        QVERIFY2(iff.out.contains("    then_branch: graph then_body(%x: float32[2]) {\n") &&
                     iff.out.contains("# this model cannot be compiled: 1 unsupported construct\n"
                                      "#   node 'choose' (If) / else_branch / node 'else_custom' (com.example.Wobble): "
                                      "operator domain 'com.example' is not supported (only the default ONNX domain "
                                      "is)\n"),
                 qPrintable(iff.out));
        // Every listed construct is also in compile's and run's one error.
        for (const QString model : {"dynquant.onnx", "if.onnx"}) {
            auto shown = tesselc({"show", models + model});
            QStringList listed;
            for (const QString& line : shown.out.split('\n'))
                if (line.startsWith("#   ")) listed << line.mid(4).section(": ", 1); // the reason
            QVERIFY(!listed.isEmpty()); // dynquant.onnx: its custom operator only (MatMulInteger is computed)
            QTemporaryDir out;
            for (const QStringList& args : {QStringList{"compile", models + model, "-o", out.path() + "/m"},
                                            QStringList{"run", models + model},
                                            QStringList{"run", models + model, "--in-process"}}) {
                auto r = tesselc(args);
                QCOMPARE(r.exitCode, 1);
                if (listed.size() > 1) // one construct is the error itself
                    QVERIFY2(r.err.contains(QString("error: %1 constructs cannot be compiled:\n").arg(listed.size())),
                             qPrintable(r.err));
                for (const QString& reason : listed) QVERIFY2(r.err.contains(reason), qPrintable(r.err + reason));
            }
        }
    }

    // A float16 model (input, weights, output) runs in float32 and matches
    // a float16 reference within ONNX's tolerances, where tesselc runs by
    // default and in process.
    void float16Model() {
        const QString models = TESSEL_SOURCE_DIR "/tests/frontend/models/";
        const QString data = models + "fp16_data/";
        for (const bool inProcess : {false, true}) {
            QStringList args = {"run",      models + "fp16.onnx", "--inputs", data + "input_0.pb",
                                "--expect", data + "output_0.pb," + data + "output_1.pb"};
            if (inProcess) args << "--in-process";
            auto r = tesselc(args);
            QVERIFY2(r.exitCode == 0 && r.out.contains("fp16.onnx: ok"), qPrintable(r.out + r.err));
            QVERIFY2(r.out.contains("y float32[2, 3] (float16 in the model): max abs err"), qPrintable(r.out));
        }
        auto g = tesselc({"show", models + "fp16.onnx"});
        QVERIFY2(g.out.contains("# computed as float32, stored in the model as bias:float16 scale:float16 x:float16 "
                                "y:float16\n"),
                 qPrintable(g.out));
    }

    void showFoldsShapeSubgraphs() {
        QTemporaryDir dir;
        QFile f(dir.filePath("flatten.onnx"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string bytes = flattenModel();
        f.write(bytes.data(), static_cast<qint64>(bytes.size()));
        f.close();
        // With a dynamic batch the shape sub-graph stays.
        auto dynamic = tesselc({"show", f.fileName(), "--stage", "optimized"});
        QCOMPARE(dynamic.exitCode, 0);
        QVERIFY2(dynamic.out.contains("= Shape(%x)") && dynamic.out.contains(": float32[?, 48]"), qPrintable(dynamic.out));
        // Bound, it folds to a Reshape with a constant target and a static type.
        auto bound = tesselc({"show", f.fileName(), "--stage", "optimized", "--pass", "fold-constant", "--input-shape", "x:2,3,4,4"});
        QCOMPARE(bound.exitCode, 0);
        QVERIFY2(bound.out.startsWith("# after fold-constant\n"), qPrintable(bound.out));
        QVERIFY2(bound.out.contains("%target = constant [2, -1] : int64[2]") && bound.out.contains("= Reshape(%x, %target) : float32[2, 48]"),
                 qPrintable(bound.out));
        QVERIFY2(!bound.out.contains("Shape(") && !bound.out.contains("Gather") && !bound.out.contains("Concat"), qPrintable(bound.out));
        // The graph stage shows the model as imported.
        auto graph = tesselc({"show", f.fileName(), "--stage", "graph", "--input-shape", "x:2,3,4,4"});
        QCOMPARE(graph.exitCode, 0);
        QVERIFY2(graph.out.contains("= Shape(%x)"), qPrintable(graph.out));
    }

    // An ONNX test case run through the whole pipeline, checked against its expected output.
    void runModel() {
        const QString dir = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d_groups_thnn/";
        auto r = tesselc({"run", dir + "model.onnx", "--inputs", dir + "test_data_set_0/input_0.pb", "--expect",
                          dir + "test_data_set_0/output_0.pb", "--repeat", "3", "--json"});
        QCOMPARE(r.exitCode, 0);
        auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(j["ok"].toBool() && j["latency_ms"].toDouble() > 0, qPrintable(r.out));
        auto out = j["outputs"].toArray()[0].toObject();
        QVERIFY2(out["max_abs_err"].toDouble() < 1e-4 && out["shape"].toArray().size() == 4, qPrintable(r.out));
        // A wrong expectation fails with the error sizes.
        auto wrong = tesselc({"run", dir + "model.onnx", "--inputs", dir + "test_data_set_0/input_0.pb", "--expect",
                              dir + "test_data_set_0/input_0.pb"});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains("FAILED"), qPrintable(wrong.out));
    }

    // Models with nothing to compute (no fused function: an identity, a
    // constant, a shape) run where `tesselc run` runs by default, this
    // machine's tessel-rpc server, as in this process (issue 20: the export
    // used to fail with "codegen: no functions to build").
    void runModelWithNothingToCompute_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"test_identity", "test_constant", "test_shape", "test_size"}) QTest::newRow(n) << QString(n);
    }
    void runModelWithNothingToCompute() {
        QFETCH(QString, name);
        const QString dir = "/usr/share/libonnx-testdata/data/node/" + name + "/";
        if (!QFile::exists(dir + "model.onnx")) QSKIP("libonnx-testdata is not installed");
        QStringList args = {"run", dir + "model.onnx", "--json"};
        QStringList inputs;
        for (const QString& f : QDir(dir + "test_data_set_0").entryList({"input_*.pb"}, QDir::Files, QDir::Name))
            inputs << dir + "test_data_set_0/" + f;
        if (!inputs.empty()) args << "--inputs" << inputs.join(',');
        args << "--expect" << dir + "test_data_set_0/output_0.pb";
        for (const bool inProcess : {false, true}) {
            const auto r = tesselc(inProcess ? args + QStringList{"--in-process"} : args);
            QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
            auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QVERIFY2(j["ok"].toBool() && j["functions"].toInt() == 0, qPrintable(r.out));
        }
        // Exported, it has no library and tessel-run runs it all the same.
        QTemporaryDir out;
        QCOMPARE(tesselc({"compile", dir + "model.onnx", "-o", out.path() + "/m"}).exitCode, 0);
        QVERIFY(QFile::exists(out.path() + "/m/plan.json") && !QFile::exists(out.path() + "/m/model.so"));
        QProcess p;
        p.start(TESSEL_BINARY_DIR "/bin/tessel-run", {out.path() + "/m", "--repeat", "0"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, qPrintable(QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError())));
    }

    // A model whose output shape is data (TopK -> NonMaxSuppression -> Gather): `tesselc
    // run` by default asks for this machine's tessel-rpc server, and the model runs in this
    // process then (it has no export yet), as with --in-process; outputs as ONNX Runtime's.
    void runModelWithDataDependentShapes() {
        const QString dir = TESSEL_SOURCE_DIR "/tests/frontend/models/dynshape/";
        const QString data = dir + "detector_overlap_data/";
        const QStringList args = {"run", dir + "detector.onnx", "--inputs", data + "input_0.pb," + data + "input_1.pb",
                                  "--expect", data + "output_0.pb," + data + "output_1.pb," + data + "output_2.pb",
                                  "--repeat", "2", "--json"};
        for (const bool inProcess : {false, true}) {
            const auto r = tesselc(inProcess ? args + QStringList{"--in-process"} : args);
            QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
            auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QVERIFY2(j["ok"].toBool() && j["outputs"].toArray().size() == 3, qPrintable(r.out));
            for (const auto& o : j["outputs"].toArray())
                QVERIFY2(o.toObject()["ok"].toBool() && o.toObject()["max_abs_err"].toDouble() <= 1e-5, qPrintable(r.out));
        }
    }

    // TopK's K given at run time (ONNX's test_top_k): compiled when it runs, per value of K.
    void runModelWithCountGivenAtRunTime() {
        const QString dir = "/usr/share/libonnx-testdata/data/node/test_top_k/";
        if (!QFile::exists(dir + "model.onnx")) QSKIP("libonnx-testdata is not installed");
        const QString data = dir + "test_data_set_0/";
        const auto r = tesselc({"run", dir + "model.onnx", "--inputs", data + "input_0.pb," + data + "input_1.pb",
                                "--expect", data + "output_0.pb," + data + "output_1.pb", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(j["ok"].toBool() && j["outputs"].toArray().size() == 2, qPrintable(r.out));
    }

    // Export, then run with the runtime alone.
    void compileAndRunExported() {
        const QString dir = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d_groups_thnn/";
        QTemporaryDir out;
        auto c = tesselc({"compile", dir + "model.onnx", "-o", out.path() + "/m"});
        QCOMPARE(c.exitCode, 0);
        for (auto f : {"model.so", "plan.json", "weights.bin"}) QVERIFY2(QFile::exists(out.path() + "/m/" + f), f);
        QProcess p;
        p.start(TESSEL_BINARY_DIR "/bin/tessel-run", {out.path() + "/m", "--repeat", "3"});
        QVERIFY(p.waitForFinished(60000));
        QString text = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0 && text.contains("latency"), qPrintable(text));
    }

    // The GPU ladder's vthread step: no vthread loop is left in the TIR, the
    // kernel line says what launch_bounds asked, and the PTX carries it.
    void gpuVthreadStepTexts() {
        const QString step = TESSEL_SOURCE_DIR "/resources/examples/gemm-gpu/06_virtual_threads.te";
        auto tir = tesselc({"build", step, "--target", "cuda -mcpu=sm_90", "--emit", "tir"});
        QVERIFY2(tir.exitCode == 0, qPrintable(tir.err));
        QVERIFY2(!tir.out.contains("vthread"), qPrintable(tir.out));
        QVERIFY2(tir.out.contains("16384 bytes shared, 2 blocks per SM asked"), qPrintable(tir.out));
        auto ptx = tesselc({"build", step, "--target", "cuda -mcpu=sm_90", "--emit", "ptx"});
        QVERIFY2(ptx.exitCode == 0 && ptx.out.contains(".minnctapersm 2"), qPrintable(ptx.err));
    }

    // Offline trials from the command line: a round exported for the GPU, tessel-run on a
    // machine without one says why, importing before results exist is refused, and the
    // usage errors name the fix.
    void offlineTrialsCommands() {
        QTemporaryDir out;
        const QString tmpl = TESSEL_SOURCE_DIR "/resources/templates/gemm_cuda.te";
        const QString records = out.filePath("g.jsonl"), dir = out.filePath("round");
        auto e = tesselc({"tune", tmpl, "--target", "cuda", "--workload", "M=256,N=256,K=256", "--trials", "3",
                          "--records", records, "--export-trials", dir, "--tuner", "random"});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        QVERIFY2(e.out.contains("3 trials -> " + dir) && e.out.contains("tessel-run " + dir), qPrintable(e.out));
        QVERIFY(QFile::exists(dir + "/trials.json"));
        QVERIFY(QFile::exists(dir + "/trial-000/kernels.ptx"));
        if (!QFile::exists("/usr/lib/x86_64-linux-gnu/libcuda.so.1")) {
            QProcess p;
            p.start(TESSEL_BINARY_DIR "/bin/tessel-run", {dir});
            QVERIFY(p.waitForFinished(60000));
            const QString text = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(p.exitCode() == 1 && text.contains("NVIDIA"), qPrintable(text));
        }
        auto early = tesselc({"tune", "--import-trials", dir, "--records", records});
        QCOMPARE(early.exitCode, 1);
        QVERIFY2(early.err.contains("no results yet"), qPrintable(early.err));
        auto both = tesselc({"tune", tmpl, "--records", records, "--export-trials", dir, "--import-trials", dir});
        QCOMPARE(both.exitCode, 2);
        // Tuned in place for a GPU, every trial would fail: one clear error pointing at offline rounds.
        auto inPlace = tesselc({"tune", tmpl, "--target", "cuda", "--trials", "2", "--records", records});
        QCOMPARE(inPlace.exitCode, 2);
        QVERIFY2(inPlace.err.contains("--export-trials"), qPrintable(inPlace.err));
        auto cpu = tesselc({"tune", tmpl, "--trials", "2", "--records", records, "--export-trials", dir});
        QCOMPARE(cpu.exitCode, 2);
        QVERIFY2(cpu.err.contains("--target cuda"), qPrintable(cpu.err));
    }

    // One kernel of a TE script exported the same way; tessel-run saves its output.
    void compileKernelAndRunExported() {
        QTemporaryDir out;
        const QString te = out.filePath("two.te");
        QFile f(te);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("A = te.placeholder((8, 16), name=\"A\")\n"
                "B = te.compute((8, 16), lambda i, j: A[i, j] * 2, name=\"B\")\n"
                "C = te.compute((8, 16), lambda i, j: A[i, j] + 1, name=\"C\")\n"
                "s = te.create_schedule(B.op)\n"
                "twice = tvm.build(s, [A, B], name=\"twice\")\n"
                "s2 = te.create_schedule(C.op)\n"
                "plus = tvm.build(s2, [A, C], name=\"plus\")\n");
        f.close();
        auto both = tesselc({"compile", te, "-o", out.filePath("m")});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.contains("name one with --function: twice plus"), qPrintable(both.err));
        auto wrong = tesselc({"compile", te, "--function", "thrice", "-o", out.filePath("m")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains("no function 'thrice'"), qPrintable(wrong.err));
        auto c = tesselc({"compile", te, "--function", "plus", "-o", out.filePath("m")});
        QCOMPARE(c.exitCode, 0);
        QVERIFY2(c.out.contains("plus(A: float32[8, 16], out C: float32[8, 16])"), qPrintable(c.out));
        QProcess p;
        p.start(TESSEL_BINARY_DIR "/bin/tessel-run", {out.filePath("m"), "--repeat", "0", "--save-outputs", out.filePath("o")});
        QVERIFY(p.waitForFinished(60000));
        QString text = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0 && text.contains("output 'C' float32[8, 16]") && !text.contains("latency"),
                 qPrintable(text));
        // Inputs are uniform in [0, 1): every element of A + 1 lies in [1, 2).
        QFile saved(out.filePath("o/output0.bin"));
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray bytes = saved.readAll();
        QCOMPARE(bytes.size(), 8 * 16 * 4);
        const float* v = reinterpret_cast<const float*>(bytes.constData());
        for (int i = 0; i < 8 * 16; ++i) QVERIFY2(v[i] >= 1 && v[i] < 2, qPrintable(QString::number(v[i])));
    }

    void showModels() {
        const QString data = "/usr/share/libonnx-testdata/data/pytorch-converted/";
        auto g = tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "graph"});
        QCOMPARE(g.exitCode, 0);
        QVERIFY2(g.out.contains("= Conv(%0, %1, %2)") && g.out.contains(": float32[2, 4, 5, 4]"), qPrintable(g.out));
        // Batch norm becomes a scale and a shift, fused into one group.
        auto o = tesselc({"show", data + "test_BatchNorm2d_eval/model.onnx", "--stage", "optimized"});
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(!o.out.contains("BatchNormalization") && o.out.contains("fuse.function=\"fused_mul_add\""), qPrintable(o.out));
        auto after = tesselc({"show", data + "test_BatchNorm2d_eval/model.onnx", "--stage", "optimized", "--pass", "simplify-inference"});
        QCOMPARE(after.exitCode, 0);
        QVERIFY(after.out.startsWith("# after simplify-inference\n"));
        auto f = tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "fused"});
        QCOMPARE(f.exitCode, 0);
        QVERIFY2(f.out.startsWith("fused_conv (1 operator)"), qPrintable(f.out));
        // (The convolution writes channel blocks; a second function,
        // fused_layouttransform, gives the graph output back as NCHW.)
        auto tir = tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "tir", "--function", "fused_conv"});
        QCOMPARE(tir.exitCode, 0);
        QVERIFY2(tir.out.contains("def fused_conv(") && tir.out.contains("for "), qPrintable(tir.out));
        // The TE script of a fused function lowers to that function's TIR.
        auto script = tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "te", "--function", "fused_conv"});
        QCOMPARE(script.exitCode, 0);
        QVERIFY2(script.out.contains("te.placeholder((2, 3, 7, 5)") && script.out.contains("name=\"fused_conv\")"),
                 qPrintable(script.out));
        QTemporaryDir scriptDir;
        QFile scriptFile(scriptDir.path() + "/fused_conv.te");
        QVERIFY(scriptFile.open(QIODevice::WriteOnly));
        scriptFile.write(script.out.toUtf8());
        scriptFile.close();
        auto lowered = tesselc({"lower", scriptFile.fileName()});
        QCOMPARE(lowered.exitCode, 0);
        QCOMPARE(lowered.out.trimmed(), tir.out.trimmed());
        auto asmText = tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "asm", "--function", "fused_conv"});
        QCOMPARE(asmText.exitCode, 0);
        QVERIFY2(asmText.out.contains("fused_conv:") && asmText.out.contains(".loc"), qPrintable(asmText.out.left(2000)));
        auto none = tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "llvm", "--function", "nope"});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("no fused function 'nope'; functions: fused_conv"), qPrintable(none.err));
        QCOMPARE(tesselc({"show", data + "test_Conv2d/model.onnx", "--stage", "source"}).exitCode, 2);

        QTemporaryDir dir;
        QFile src(data + "test_Conv2d/model.onnx");
        QVERIFY(src.open(QIODevice::ReadOnly));
        QFile cut(dir.filePath("truncated.onnx"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(src.read(100));
        cut.close();
        auto bad = tesselc({"show", cut.fileName(), "--stage", "graph"});
        QCOMPARE(bad.exitCode, 1);
        QCOMPARE(bad.err.trimmed(), cut.fileName() + ": error: not a valid ONNX model (malformed or truncated protobuf data)");
    }

    void badInvocations() {
        QCOMPARE(tesselc({}).exitCode, 2);
        QCOMPARE(tesselc({"frobnicate"}).exitCode, 2);
        QCOMPARE(tesselc({"run", example("01_baseline.te"), "--threads", "two"}).exitCode, 2);
        auto missing = tesselc({"lower", "/nonexistent/x.te"});
        QCOMPARE(missing.exitCode, 1);
        QCOMPARE(missing.err.trimmed(), QString("/nonexistent/x.te: error: cannot read '/nonexistent/x.te'"));
        QTemporaryDir dir;
        QFile empty(dir.filePath("empty.te"));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        auto none = tesselc({"run", empty.fileName()});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains(": error: the script builds no function"), qPrintable(none.err));
        QFile garbage(dir.filePath("garbage.te"));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray("\x01\xff\xfe(((", 6));
        garbage.close();
        QCOMPARE(tesselc({"run", garbage.fileName()}).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestTesselc)
#include "tst_tesselc.moc"
