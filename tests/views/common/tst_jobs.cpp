// Jobs: results come back on the GUI thread; a newer job with the same key
// supersedes the older (whose result is dropped); cancel drops the result;
// an exception becomes a failure message.

#include "common/Jobs.h"

#include <QThread>
#include <QtTest>

using namespace tessel::views;

class TestJobs : public QObject {
    Q_OBJECT
private slots:
    void deliversOnGuiThread();
    void supersededResultIsDropped();
    void cancelDropsResult();
    void exceptionBecomesMessage();
};

void TestJobs::deliversOnGuiThread() {
    Jobs jobs;
    QThread* worker = nullptr;
    QThread* deliveredOn = nullptr;
    int value = 0;
    jobs.run<int>(QStringLiteral("k"), QStringLiteral("t"),
                  [&](const CancelToken&) {
                      worker = QThread::currentThread();
                      return 42;
                  },
                  this, [&](int v) {
                      value = v;
                      deliveredOn = QThread::currentThread();
                  });
    QVERIFY(jobs.isRunning(QStringLiteral("k")));
    QVERIFY(jobs.waitForIdle(5000));
    QCOMPARE(value, 42);
    QVERIFY(worker != QThread::currentThread());
    QCOMPARE(deliveredOn, QThread::currentThread());
}

void TestJobs::supersededResultIsDropped() {
    Jobs jobs;
    QList<int> got;
    std::atomic<bool> release{false};
    jobs.run<int>(QStringLiteral("relower"), QStringLiteral("old"),
                  [&](const CancelToken&) {
                      while (!release) QThread::msleep(1);
                      return 1;
                  },
                  this, [&](int v) { got << v; });
    jobs.run<int>(QStringLiteral("relower"), QStringLiteral("new"), [](const CancelToken&) { return 2; }, this,
                  [&](int v) { got << v; });
    QTRY_COMPARE(got, QList<int>{2});
    release = true;
    QVERIFY(jobs.waitForIdle(5000));
    jobs.pool()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(got, QList<int>{2});  // the old job's 1 never arrives
}

void TestJobs::cancelDropsResult() {
    Jobs jobs;
    bool delivered = false, sawCancel = false;
    jobs.run<int>(QStringLiteral("run"), QStringLiteral("long"),
                  [&](const CancelToken& t) {
                      for (int i = 0; i < 5000 && !t.cancelled(); ++i) QThread::msleep(1);
                      sawCancel = t.cancelled();
                      return 7;
                  },
                  this, [&](int) { delivered = true; });
    QSignalSpy busy(&jobs, &Jobs::busyChanged);
    jobs.cancel(QStringLiteral("run"));
    QCOMPARE(jobs.runningCount(), 0);
    QCOMPARE(busy.count(), 1);
    jobs.pool()->waitForDone();
    QCoreApplication::processEvents();
    QVERIFY(sawCancel);
    QVERIFY(!delivered);
}

void TestJobs::exceptionBecomesMessage() {
    Jobs jobs;
    QString error;
    jobs.run<int>(QStringLiteral("k"), QStringLiteral("t"),
                  [](const CancelToken&) -> int { throw std::runtime_error("model.onnx: node 3 (Conv): bad weights"); },
                  this, [](int) {}, [&](const QString& e) { error = e; });
    QVERIFY(jobs.waitForIdle(5000));
    QCOMPARE(error, QStringLiteral("model.onnx: node 3 (Conv): bad weights"));
}

QTEST_MAIN(TestJobs)
#include "tst_jobs.moc"
