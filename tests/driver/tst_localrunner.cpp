// Measuring through a tessel-rpc server child (rpc::LocalRunner): a GEMM
// ladder step checked against the reference like the in-process runner, a
// kernel that crashes or hangs is a failed measurement with its signal or
// time limit and the next run works, and a server that died is started again.
#include "driver/Measure.h"
#include "rpc/RpcRunner.h"
#include "runtime/InProcessRunner.h"
#include "common/RpcProcess.h"

#include <QtTest>

#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <iterator>

using namespace tessel;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

driver::LoweredFunction ladderStep(const char* name) {
    driver::ScriptOptions so;
    so.fileName = name;
    auto fns = driver::lowerScript(readText(std::string(TESSEL_SOURCE_DIR "/resources/examples/gemm/") + name), so);
    return fns.at(0);
}

/// An artifact over the test kernels' library calling `function` on two
/// float32[1024] arguments (the second written).
runtime::BuildArtifact testKernel(const std::string& function) {
    runtime::BuildArtifact a;
    std::ifstream in(TEST_KERNELS, std::ios::binary);
    a.library.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    a.signature.name = function;
    a.signature.args = {{"in", DataType::float32(), {1024}, false}, {"out", DataType::float32(), {1024}, true}};
    return a;
}

} // namespace

class TestLocalRunner : public QObject {
    Q_OBJECT
private slots:
    void aLadderStepMatchesTheInProcessRun() {
        rpc::LocalRunner local;
        const auto f = ladderStep("06_write_cache.te");
        driver::RunOptions ro;
        ro.runner = &local;
        ro.evaluator = {1, 3, 20, 1};
        const driver::RunReport viaServer = driver::runAndCheck(f, ro);
        QVERIFY2(viaServer.ok, viaServer.error.c_str());
        QCOMPARE(viaServer.maxRelErr, 0.0);
        QVERIFY(viaServer.latencyMs > 0);
        QCOMPARE(int(viaServer.repeatsMs.size()), 3);
        driver::RunOptions inProcess = ro;
        inProcess.runner = nullptr;
        const driver::RunReport here = driver::runAndCheck(f, inProcess);
        QVERIFY(here.ok);
        QCOMPARE(viaServer.outputs.size(), here.outputs.size());
        const auto c = runtime::compare(viaServer.outputs[0], here.outputs[0], 0, 0);
        QVERIFY2(c.maxAbsError == 0, c.str().c_str());
        QCOMPARE(local.server().starts(), 1);
        QCOMPARE(local.device().triple, runtime::DeviceInfo::local().triple);
    }

    void crashesAndHangsAreFailedRuns() {
        rpc::LocalRunner local;
        runtime::RunRequest req;
        req.evaluator = {1, 2, 1, 1};
        const auto ok = local.run(testKernel("add_one"), req);
        QVERIFY2(ok.ok, ok.message.c_str());
        QCOMPARE(int(ok.outputs.size()), 1);

        const auto crash = local.run(testKernel("crash"), req);
        QVERIFY(!crash.ok);
        QCOMPARE(crash.error, runtime::MeasureError::Crash);
        QVERIFY2(crash.message.find("SIGSEGV") != std::string::npos, crash.message.c_str());

        runtime::RunRequest quick = req;
        quick.timeoutSeconds = 0.5;
        QElapsedTimer t;
        t.start();
        const auto hang = local.run(testKernel("spin"), quick);
        QCOMPARE(hang.error, runtime::MeasureError::Timeout);
        QVERIFY(t.elapsed() < 5000);

        const auto fail = local.run(testKernel("fail"), req);
        QCOMPARE(fail.error, runtime::MeasureError::Runtime);
        QVERIFY(fail.message.find("error code 7") != std::string::npos);

        const auto missing = local.run(testKernel("no_such_kernel"), req);
        QCOMPARE(missing.error, runtime::MeasureError::Load);

        QVERIFY(local.run(testKernel("add_one"), req).ok);
        QCOMPARE(local.server().starts(), 1); // the server itself never went down
    }

    void aDeadServerIsStartedAgain() {
        rpc::LocalRunner local;
        runtime::RunRequest req;
        req.evaluator = {1, 1, 1, 0};
        QVERIFY(local.run(testKernel("add_one"), req).ok);
        QVERIFY(local.server().running());
        local.server().stop(); // as if it had been killed
        const auto again = local.run(testKernel("add_one"), req);
        QVERIFY2(again.ok, again.message.c_str());
        QCOMPARE(local.server().starts(), 2);
    }

    void aKilledServerIsReplacedByTheTracker() {
        const QString bin = QStringLiteral(TESSEL_BINARY_DIR "/bin/tessel-rpc");
        test::RpcProcess tracker(bin, {"tracker", "--port", "0", "--heartbeat-timeout", "1500"});
        QVERIFY(tracker.port);
        const QString at = QStringLiteral("127.0.0.1:%1").arg(tracker.port);
        test::RpcProcess a(bin, {"server", "--port", "0", "--tracker", at, "--key", "pool"});
        test::RpcProcess b(bin, {"server", "--port", "0", "--tracker", at, "--key", "pool"});
        QVERIFY(a.port && b.port);
        rpc::TrackerRunner runner("127.0.0.1", tracker.port, "pool", rpc::ClientOptions{}, "");
        runtime::RunRequest req;
        req.evaluator = {1, 2, 1, 1};
        // The servers register within a heartbeat; the request waits for one.
        const auto first = runner.run(testKernel("add_one"), req);
        QVERIFY2(first.ok, first.message.c_str());
        const uint16_t held = runner.assignment().port;
        QVERIFY(held == a.port || held == b.port);
        (held == a.port ? a : b).process->kill(); // the server it holds dies
        (held == a.port ? a : b).process->waitForFinished(3000);
        const auto second = runner.run(testKernel("add_one"), req);
        QVERIFY2(second.ok, second.message.c_str());
        QCOMPARE(runner.assignment().port, held == a.port ? b.port : a.port);
        const runtime::NDArray& x = first.outputs.at(0);
        QCOMPARE(runtime::compare(x, second.outputs.at(0), 0, 0).maxAbsError, 0.0);
    }

    void aMissingServerBinaryIsAClearError() {
        rpc::LocalRunner local("/nonexistent/tessel-rpc");
        const auto r = local.run(testKernel("add_one"), runtime::RunRequest{});
        QCOMPARE(r.error, runtime::MeasureError::Device);
        QVERIFY2(r.message.find("cannot start") != std::string::npos, r.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLocalRunner)
#include "tst_localrunner.moc"
