// The TE script printer, tested by round trip: lowering the printed script of a
// schedule gives exactly the TIR text of the schedule itself, for the GEMM
// ladder, hand-written scripts that use every primitive and expression form,
// and every fused function of ONNX models compiled through the driver.
#include "driver/ModelCompiler.h"
#include "driver/TeDriver.h"
#include "ir/Diagnostic.h"
#include "te/script/Script.h"
#include "te/script/ScriptPrinter.h"
#include "tir/IRPrinter.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessel;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Prints `f`'s schedule, lowers the script and compares the TIR; the
/// failure message carries the script.
void checkRoundTrip(const driver::LoweredFunction& f, const std::string& what) {
    std::string script = te::script::printScript(f.schedule, f.args, f.name);
    std::vector<driver::LoweredFunction> again;
    try {
        again = driver::lowerScript(script, {});
    } catch (const CompileError& e) {
        QFAIL(qPrintable(QString::fromStdString(
            what + ": the printed script fails: " +
            te::script::formatDiagnostic(e.diagnostic(), "script") + "\n" + script)));
    }
    QVERIFY2(again.size() == 1, qPrintable(QString::fromStdString(what + "\n" + script)));
    QCOMPARE(again[0].name, f.name);
    std::string a = tir::toString(f.scheduled), b = tir::toString(again[0].scheduled);
    QVERIFY2(a == b,
             qPrintable(QString::fromStdString(what + ": scheduled TIR differs\n" + script +
                                               "\n--- expected\n" + a + "\n--- got\n" + b)));
    QCOMPARE(tir::toString(again[0].lowered), tir::toString(f.lowered));
    // Printing is stable: the script of the script is the same text.
    QCOMPARE(te::script::printScript(again[0].schedule, again[0].args, again[0].name), script);
}

void checkScript(const std::string& source, const std::string& what) {
    std::vector<driver::LoweredFunction> fs;
    try {
        fs = driver::lowerScript(source, {});
    } catch (const CompileError& e) {
        QFAIL(qPrintable(QString::fromStdString(what + ": " + e.what())));
    }
    for (auto& f : fs) {
        checkRoundTrip(f, what);
        if (QTest::currentTestFailed()) return;
    }
}

void checkModel(const std::string& path) {
    driver::CompileOptions co;
    co.trace = true;
    auto m = driver::compileModel(path, {}, co);
    QVERIFY(!m.functions.empty());
    for (auto& f : m.functions) {
        QVERIFY2(f.script.rfind("# ", 0) != 0,
                 qPrintable(QString::fromStdString(path + " " + f.name + ": " + f.script)));
        QCOMPARE(f.script, te::script::printScript(f.lowered.schedule, f.lowered.args, f.name));
        checkRoundTrip(f.lowered, path + " " + f.name);
        if (QTest::currentTestFailed()) return;
    }
}

const char* kOnnxData = "/usr/share/libonnx-testdata/data/pytorch-converted/";

} // namespace

class TestScriptPrinter : public QObject {
    Q_OBJECT
private slots:
    void gemmLadder() {
        int n = 0;
        for (auto& e :
             std::filesystem::directory_iterator(TESSEL_SOURCE_DIR "/resources/examples/gemm")) {
            if (e.path().extension() != ".te") continue;
            checkScript(readFile(e.path().string()), e.path().filename().string());
            if (QTest::currentTestFailed()) return;
            ++n;
        }
        QCOMPARE(n, 8);
    }

    void primitives_data() {
        QTest::addColumn<QString>("script");
        const char* gemm = R"(
k = te.reduce_axis((0, 64), name="k")
A = te.placeholder((32, 64), name="A")
B = te.placeholder((64, 48), name="B")
C = te.compute((32, 48), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
)";
        QTest::newRow("tile-fuse") << QString(gemm) + R"(
xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 8, 16)
f = s[C].fuse(xo, yo)
s[C].parallel(f)
ko, ki = s[C].split(s[C].op.reduce_axis[0], nparts=4)
s[C].reorder(f, ko, xi, ki, yi)
s[C].unroll(ki)
s[C].vectorize(yi)
s[C].pragma(f, "auto_unroll_max_step", 16)
)";
        QTest::newRow("vthread-launch-bounds") << QString(gemm) + R"(
x, y = s[C].op.axis
bx, xi = s[C].split(x, factor=16)
vx, xi = s[C].split(xi, nparts=2)
tx, xi = s[C].split(xi, nparts=4)
s[C].bind(bx, te.thread_axis("blockIdx.x"))
s[C].bind(vx, te.thread_axis("vthread.x"))
s[C].bind(tx, te.thread_axis("threadIdx.x"))
s[C].launch_bounds(min_blocks=2)
)";
        QTest::newRow("storage-align") << QString(gemm) + R"(
AS = s.cache_read(A, "shared", [C])
x, y = s[C].op.axis
bx, tx = s[C].split(x, factor=8)
s[C].bind(bx, te.thread_axis("blockIdx.x"))
s[C].bind(tx, te.thread_axis("threadIdx.x"))
s[AS].compute_at(s[C], bx)
s[AS].storage_align(AS.op.axis[0], 32, 1)
)";
        QTest::newRow("fuse-after-reorder") << QString(gemm) + R"(
x, y = s[C].op.axis
(kk,) = s[C].op.reduce_axis
s[C].reorder(kk, y, x)
g = s[C].fuse(y, x)
go, gi = s[C].split(g, factor=7)
)";
        QTest::newRow("cache-read-write") << QString(gemm) + R"(
AA = s.cache_read(A, "local", [C])
CC = s.cache_write(C, "local")
BB = s.cache_read(B, "global", [CC])
xo, xi = s[C].split(C.op.axis[0], factor=4)
s[CC].compute_at(s[C], xo)
s[AA].compute_at(s[CC], s[CC].op.reduce_axis[0])
)";
        QTest::newRow("cache-read-two-readers") << QString(R"(
A = te.placeholder((16, 16), name="A")
B = te.compute((16, 16), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((16, 16), lambda i, j: A[j, i] + B[i, j], name="C")
s = te.create_schedule(C.op)
AL = s.cache_read(A, "local", [B, C])
s[B].compute_inline()
)");
        QTest::newRow("expressions") << QString(R"(
A = te.placeholder((8, 9), name="A")
I = te.placeholder((8,), dtype="int64", name="I")
D = te.placeholder((8, 9), dtype="float64", name="D")
r = te.reduce_axis((1, 9), name="r")
E = te.compute((8, 9), lambda i, j: te.if_then_else(te.all(i > 0, j < 8), te.exp(A[i, j]) - te.sqrt(A[i, j]), 0.5) + te.pow(A[i, j], 2.0), name="E")
F = te.compute((8, 9), lambda i, j: (I[i] * te.const(3, "int64") + j).astype("float32") / te.max(A[i, j], 1e-05), name="F")
G = te.compute((8, 9), lambda i, j: te.tanh(D[i, j] * te.const(0.25, "float64")).astype("float32") + te.truncdiv(i, 3) + (j // 2) % 3 + te.truncmod(i, 5), name="G")
H = te.compute((8,), lambda i: te.max(A[i, r] * (-1.5), axis=r, where=r != 4), name="H")
P = te.compute((8,), lambda i: te.prod(A[i, r], axis=r), name="P")
R = te.compute((8,), lambda i: te.sum(A[i, te.min(8, r.var)] * r.var.astype("float32"), axis=r), name="R")
M = te.compute((8, 9), lambda i, j: te.min(A[i, j], j.astype("float32")) + te.max(E[i, j], 2.0) + R[i], name="M")
Q = te.compute((8, 9), lambda i, j: te.if_then_else((not (E[i, j] < F[i, j])) | (G[i, j] >= 3.0), te.abs(M[i, j]), te.floor(H[i]) * te.ceil(P[i])) + te.sigmoid(F[i, j]) + te.erf(G[i, j]) + te.log(te.round(E[i, j])), name="Q")
s = te.create_schedule([Q.op])
func = tvm.build(s, [A, I, D, Q], name="exprs")
)");
        QTest::newRow("names") << QString(R"(
X = te.placeholder((4, 4), name="1 input/x")
B = te.compute((4, 4), lambda A, s: X[A, s].astype("int32") + A + s, name="A")
C = te.compute((4, 4), lambda i, j: B[i, j] + float("inf"), name="A")
s = te.create_schedule(C.op)
func = tvm.build(s, [X, C], name="names")
)");
    }

    void primitives() {
        QFETCH(QString, script);
        checkScript(script.toStdString(), QTest::currentDataTag());
    }

    void unsupportedIsAnError() {
        auto fs = driver::lowerScript(R"(
n = te.var("n")
A = te.placeholder((n,), name="A")
B = te.compute((n,), lambda i: A[i] + 1.0, name="B")
s = te.create_schedule(B.op)
)",
                                      {});
        QCOMPARE(fs.size(), size_t(1));
        try {
            te::script::printScript(fs[0].schedule, fs[0].args, fs[0].name);
            QFAIL("a symbolic shape was printed");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("symbolic shape of 'A'") != std::string::npos,
                     e.what());
        }
    }

    void onnxModels_data() {
        QTest::addColumn<QString>("path");
        for (auto& e : std::filesystem::directory_iterator(kOnnxData)) {
            std::string n = e.path().filename().string();
            if (n.rfind("test_Conv2d", 0) == 0 || n == "test_Linear" || n == "test_AvgPool2d" ||
                n == "test_BatchNorm2d_eval" || n == "test_Softmax" || n == "test_LogSoftmax")
                QTest::newRow(n.c_str())
                    << QString::fromStdString(e.path().string() + "/model.onnx");
        }
    }

    void onnxModels() {
        QFETCH(QString, path);
        checkModel(path.toStdString());
    }

    void wholeModels_data() {
        QTest::addColumn<QString>("path");
        for (const char* m : {"resnet18", "mobilenet_v2"})
            QTest::newRow(m) << QString(TESSEL_SOURCE_DIR "/build/models/") + m + "/model.onnx";
    }

    void wholeModels() {
        QFETCH(QString, path);
        if (!QFile::exists(path)) QSKIP("model not exported (./run.sh test exports it)");
        checkModel(path.toStdString());
    }
};

QTEST_GUILESS_MAIN(TestScriptPrinter)
#include "tst_scriptprinter.moc"
