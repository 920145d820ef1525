// driver::runAndCheck: a measurement stops when its cancel hook says so
// (polled before every kernel call), and runs to the end otherwise.

#include "driver/Measure.h"

#include <QtTest>

#include <atomic>

using namespace tessel;

class TestRunAndCheck : public QObject {
    Q_OBJECT
private slots:
    void runsWithoutCancel();
    void cancelStopsBetweenCalls();
};

namespace {

driver::LoweredFunction smallGemm() {
    const char* src = "M = 64\nN = 64\nK = 64\n"
                      "k = te.reduce_axis((0, K), \"k\")\n"
                      "A = te.placeholder((M, K), name=\"A\")\n"
                      "B = te.placeholder((K, N), name=\"B\")\n"
                      "C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name=\"C\")\n"
                      "s = te.create_schedule(C.op)\n"
                      "xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 16, 16)\n";
    driver::ScriptOptions so;
    so.fileName = "small.te";
    auto fs = driver::lowerScript(src, so);
    return fs.at(0);
}

} // namespace

void TestRunAndCheck::runsWithoutCancel() {
    driver::RunOptions o;
    std::atomic<int> polls{0};
    o.cancelled = [&] {
        ++polls;
        return false;
    };
    auto rep = driver::runAndCheck(smallGemm(), o);
    QVERIFY2(rep.ok, rep.error.c_str());
    QVERIFY(rep.latencyMs > 0);
    QVERIFY(polls > 3);  // the first call, the reference, every timed call
}

void TestRunAndCheck::cancelStopsBetweenCalls() {
    driver::RunOptions o;
    o.evaluator = runtime::TimeEvaluator{1, 1000, 0, 0};  // would take a while
    std::atomic<int> calls{0};
    o.cancelled = [&] { return ++calls > 5; };
    auto rep = driver::runAndCheck(smallGemm(), o);
    QVERIFY(!rep.ok);
    QCOMPARE(QString::fromStdString(rep.error), QStringLiteral("cancelled"));
    QCOMPARE(calls.load(), 6);  // stopped at the sixth poll, not after 1000 repeats
}

QTEST_GUILESS_MAIN(TestRunAndCheck)
#include "tst_runandcheck.moc"
