// The aarch64 board without a board (docs/board.md): tesselc on the host compiles
// for aarch64 (Tessel's own codegen, linked by lld), the runtime alone cross-built
// into TESSEL_AARCH64_BUILD_DIR runs it under qemu's user-mode emulation, and the
// outputs match the host's run of the same export on the same seeded inputs:
// ResNet-18 from the model zoo and every step of the GEMM ladder (at 256^3). The cross-built
// tessel-rpc server, under qemu too, registers with a host tracker under the key
// aarch64-qemu and runs a kernel for `tesselc run --rpc`. Nothing is built here;
// `./run.sh test` builds the cross build first. Without qemu or the cross build
// this test says what is missing and fails.
#include "common/RpcProcess.h"

#include <QtTest>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <vector>

namespace {

const QString kQemu = "qemu-aarch64-static";
const QString kBoardRun = TESSEL_AARCH64_BUILD_DIR "/bin/tessel-run";
const QString kBoardRpc = TESSEL_AARCH64_BUILD_DIR "/bin/tessel-rpc";
const QString kHostBin = TESSEL_BINARY_DIR "/bin/";
const QString kHowToGetIt = "(scripts/install-deps.sh installs qemu-user-static, g++-aarch64-linux-gnu and the arm64 "
                            "libraries; ./run.sh test configures and builds the cross build, docs/board.md)";

struct Result {
    int exitCode = -1;
    QString out, err;
    double seconds = 0;
    QString text() const { return out + err; }
};

Result run(const QString& program, const QStringList& args) {
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(program, args);
    Result r;
    if (!p.waitForFinished(400000)) {
        p.kill();
        p.waitForFinished();
        r.err = program + " did not finish in 400 s";
        return r;
    }
    r.seconds = timer.elapsed() / 1e3;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

/// The board: the cross-built tessel-run under emulation.
Result onBoard(const QStringList& args) { return run(QStandardPaths::findExecutable(kQemu), QStringList{kBoardRun} + args); }

std::vector<float> readFloats(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QByteArray bytes = f.readAll();
    std::vector<float> v(size_t(bytes.size()) / sizeof(float));
    std::memcpy(v.data(), bytes.constData(), v.size() * sizeof(float));
    return v;
}

} // namespace

class TestBoard : public QObject {
    Q_OBJECT

    QTemporaryDir work_;
    /// A host tracker and the qemu board's server registered with it (key
    /// aarch64-qemu), started by rpcServerOnATracker for the tests after it.
    QProcess tracker_, server_;
    QString trackerAddress_;
    int serverPort_ = 0;

    /// `tesselc run FILE --rpc-tracker ... --rpc-key aarch64-qemu --json`: built
    /// for the board's triple, run there, checked against this machine.
    QJsonObject runOnBoard(const QString& file, const QStringList& extra = {}) {
        if (trackerAddress_.isEmpty()) return {};
        auto r = run(kHostBin + "tesselc", QStringList{"run", file, "--rpc-tracker", trackerAddress_, "--rpc-key",
                                                        "aarch64-qemu", "--json"} + extra);
        if (r.exitCode != 0) qWarning("%s", qPrintable(r.text()));
        QJsonDocument d = QJsonDocument::fromJson(r.out.toUtf8());
        return d.isArray() ? d.array().at(0).toObject() : d.object();
    }

    /// A copy of a ladder step at 256^3 instead of the examples' 1024^3: every
    /// schedule's tiling divides 256, so the same loop nests (and NEON code) run
    /// in 1/64 of the emulated time. Empty when the sizes are not where expected.
    QString at256(const QString& file) {
        QFile in(file);
        if (!in.open(QIODevice::ReadOnly)) return {};
        QString script = QString::fromUtf8(in.readAll());
        static const QRegularExpression size(R"(^([MNK]) = 1024$)", QRegularExpression::MultilineOption);
        if (script.count(size) != 3) return {};
        script.replace(size, R"(\1 = 256)");
        const QString small = work_.filePath(QFileInfo(file).completeBaseName() + "_256.te");
        QFile out(small);
        if (!out.open(QIODevice::WriteOnly) || out.write(script.toUtf8()) < 0) return {};
        return small;
    }

    /// Exports `file` for the host and for `target`, runs both on the same seeded
    /// inputs (the host's tessel-run, the board's under qemu) and compares output 0:
    /// max |board - host| <= 1e-4 x max |host|.
    void compareWithHost(const QString& file, const QString& target, const QString& name) {
        const QString dir = work_.filePath(name);
        auto host = run(kHostBin + "tesselc", {"compile", file, "-o", dir + "/host"});
        QVERIFY2(host.exitCode == 0, qPrintable(host.text()));
        auto cross = run(kHostBin + "tesselc", {"compile", file, "--target", target, "-o", dir + "/aarch64"});
        QVERIFY2(cross.exitCode == 0, qPrintable(cross.text()));
        // An aarch64 ELF shared object, not the host's.
        QFile so(dir + "/aarch64/model.so");
        QVERIFY(so.open(QIODevice::ReadOnly));
        const QByteArray elf = so.read(20);
        QVERIFY2(elf.size() == 20 && elf.startsWith("\x7f" "ELF") && uint8_t(elf[18]) == 183 /* EM_AARCH64 */,
                 "model.so is not an aarch64 ELF file");

        auto hostRun = run(kHostBin + "tessel-run", {dir + "/host", "--repeat", "0", "--save-outputs", dir + "/out-host"});
        QVERIFY2(hostRun.exitCode == 0, qPrintable(hostRun.text()));
        auto boardRun = onBoard({dir + "/aarch64", "--repeat", "0", "--save-outputs", dir + "/out-aarch64"});
        QVERIFY2(boardRun.exitCode == 0, qPrintable(boardRun.text()));
        // The same outputs are printed (names, types and first values).
        QCOMPARE(boardRun.out.section('\n', 0, 0).section(':', 0, 0), hostRun.out.section('\n', 0, 0).section(':', 0, 0));

        const auto want = readFloats(dir + "/out-host/output0.bin");
        const auto got = readFloats(dir + "/out-aarch64/output0.bin");
        QVERIFY(!want.empty());
        QCOMPARE(got.size(), want.size());
        double maxAbs = 0, maxErr = 0;
        for (size_t i = 0; i < want.size(); ++i) {
            QVERIFY2(std::isfinite(got[i]), qPrintable(QString("element %1 is %2 on the board").arg(i).arg(got[i])));
            maxAbs = std::max(maxAbs, double(std::abs(want[i])));
            maxErr = std::max(maxErr, double(std::abs(got[i] - want[i])));
        }
        qInfo("%s on aarch64 (qemu): %.1f s for one run, max |board - host| %.3g (max |host| %.3g)", qPrintable(name),
              boardRun.seconds, maxErr, maxAbs);
        QVERIFY2(maxErr <= 1e-4 * maxAbs,
                 qPrintable(QString("max |board - host| = %1 > 1e-4 x %2").arg(maxErr).arg(maxAbs)));
    }

private slots:
    void initTestCase() {
        if (QStandardPaths::findExecutable(kQemu).isEmpty())
            QFAIL(qPrintable("the aarch64 board needs user-mode emulation: " + kQemu + " is not on PATH " + kHowToGetIt));
        if (!QFile::exists(kBoardRun))
            QFAIL(qPrintable("the aarch64 board needs the cross build: " + kBoardRun + " is missing " + kHowToGetIt));
        QVERIFY(work_.isValid());
    }

    // What the runtime says of the emulated device: an aarch64 with NEON that
    // knows it runs under emulation (not the host's x86 flags).
    void deviceFacts() {
        auto r = onBoard({"--device"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.text() + "\n(a missing arm64 library: " + kHowToGetIt + ")"));
        QVERIFY2(r.out.contains("triple aarch64-") && r.out.contains("isa NEON") && r.out.contains("-vector-bits=128"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("emulated on"), qPrintable(r.out));
    }

    // The cross-built server under qemu: registered with a host tracker under
    // aarch64-qemu (its device facts say aarch64, NEON, emulated), and a kernel
    // compiled for its triple runs there and matches the host.
    void rpcServerOnATracker() {
        if (!QFile::exists(kBoardRpc))
            QFAIL(qPrintable("the aarch64 board needs the cross build: " + kBoardRpc + " is missing " + kHowToGetIt));
        tracker_.start(kHostBin + "tessel-rpc", {"tracker", "--port", "0", "--heartbeat-timeout", "3000"});
        const int trackerPort = tessel::test::listeningPort(tracker_);
        QVERIFY2(trackerPort > 0, tracker_.readAllStandardError().constData());
        const QString trackerAddress = "127.0.0.1:" + QString::number(trackerPort);
        server_.start(QStandardPaths::findExecutable(kQemu),
                      {kBoardRpc, "server", "--port", "0", "--tracker", trackerAddress, "--key", "aarch64-qemu"});
        const int serverPort = tessel::test::listeningPort(server_);
        QVERIFY2(serverPort > 0, server_.readAllStandardError().constData());

        QJsonObject device;
        QElapsedTimer waited;
        waited.start();
        while (device.isEmpty() && waited.elapsed() < 30000) {
            auto q = run(kHostBin + "tessel-rpc", {"query", trackerAddress, "--json"});
            QVERIFY2(q.exitCode == 0, qPrintable(q.text()));
            for (const auto& v : QJsonDocument::fromJson(q.out.toUtf8()).object()["servers"].toArray())
                if (v.toObject()["key"].toString() == "aarch64-qemu") device = v.toObject()["device"].toObject();
            if (device.isEmpty()) QTest::qWait(200);
        }
        QVERIFY2(!device.isEmpty(), "the qemu server did not register with the tracker in 30 s");
        trackerAddress_ = trackerAddress;
        serverPort_ = serverPort;
        QVERIFY2(device["triple"].toString().startsWith("aarch64-") && device["isa"].toString() == "NEON" &&
                     !device["emulated_on"].toString().isEmpty(),
                 QJsonDocument(device).toJson().constData());

        const QString te = work_.filePath("small_gemm.te");
        QFile f(te);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("M = 64\nN = 96\nK = 80\nk = te.reduce_axis((0, K), \"k\")\n"
                "A = te.placeholder((M, K), name=\"A\")\nB = te.placeholder((K, N), name=\"B\")\n"
                "C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name=\"C\")\n"
                "s = te.create_schedule(C.op)\nxo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 16, 32)\n"
                "s[C].vectorize(yi)\ns[C].parallel(xo)\nfunc = tvm.build(s, [A, B, C], name=\"gemm\")\n");
        f.close();
        auto r = run(kHostBin + "tesselc", {"run", te, "--rpc", "127.0.0.1:" + QString::number(serverPort), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
        const QJsonObject result = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(result["ok"].toBool() && result["max_rel_err"].toDouble() <= 1e-5, qPrintable(r.out));
    }

    // ResNet-18 of the model zoo, exported for the board's triple, uploaded and
    // run on the qemu board through the tracker: its output matches this
    // machine's to 1e-4 x max |output| (tesselc's check for a device).
    void resnet18() {
        QVERIFY2(!trackerAddress_.isEmpty(), "no board on the tracker (rpcServerOnATracker failed)");
        const QString model = work_.filePath("resnet18.onnx");
        auto zoo = run(kHostBin + "tesselc", {"zoo", "resnet18", "-o", model});
        QVERIFY2(zoo.exitCode == 0, qPrintable(zoo.text()));
        QElapsedTimer t;
        t.start();
        const QJsonObject r = runOnBoard(model, {"--repeat", "1"});
        QVERIFY2(r["ok"].toBool(), QJsonDocument(r).toJson().constData());
        const QJsonObject out = r["outputs"].toArray().at(0).toObject();
        qInfo("resnet18 on the qemu board: %.1f s in all, %.0f ms a run, max abs err %.3g (max |host| %.3g)",
              t.elapsed() / 1e3, r["latency_ms"].toDouble(), out["max_abs_err"].toDouble(),
              out["max_abs_expected"].toDouble());
        QVERIFY(out["max_abs_err"].toDouble() <= 1e-4 * out["max_abs_expected"].toDouble());
    }

    // Every step of the GEMM ladder (at 256^3, NEON, the parallel ABI) on the
    // board through the tracker, checked against the reference schedule run
    // on this machine.
    void gemmLadder_data() {
        QTest::addColumn<QString>("file");
        const QDir dir(TESSEL_SOURCE_DIR "/resources/examples/gemm");
        const auto steps = dir.entryList({"*.te"}, QDir::Files, QDir::Name);
        QVERIFY(steps.size() >= 7);
        for (const QString& step : steps) QTest::newRow(qPrintable(step)) << dir.filePath(step);
    }
    void gemmLadder() {
        QFETCH(QString, file);
        QVERIFY2(!trackerAddress_.isEmpty(), "no board on the tracker (rpcServerOnATracker failed)");
        const QString small = at256(file);
        QVERIFY(!small.isEmpty());
        const QJsonObject r = runOnBoard(small, {"--repeat", "1"});
        QVERIFY2(r["ok"].toBool() && r["max_rel_err"].toDouble() <= 1e-4, QJsonDocument(r).toJson().constData());
    }

    // The cross-built tessel-run alone (no server) runs an export for the board.
    void exportRunsWithTheRuntimeAlone() {
        const QString step = at256(TESSEL_SOURCE_DIR "/resources/examples/gemm/08_register_blocking.te");
        QVERIFY(!step.isEmpty());
        compareWithHost(step, "aarch64", "export");
    }

    void cleanupTestCase() {
        tessel::test::stopProcess(server_);
        tessel::test::stopProcess(tracker_);
    }
};

QTEST_GUILESS_MAIN(TestBoard)
#include "tst_board.moc"
