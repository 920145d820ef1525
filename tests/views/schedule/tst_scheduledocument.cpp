// The schedule editor's document without any widget: the re-lowering policy
// (an edit after a pause is lowered at once, a burst once, one lowering at a
// time with the newest text following, results for another document
// dropped), the error of the newest text, measuring, and the run history as a
// table model.
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "schedule/RunHistory.h"
#include "schedule/ScheduleDocument.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace tessel;
using namespace tessel::views;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// A GEMM ladder step at 256^3 (quick to lower and to run).
QString gemmStep(const char* file) {
    QString s = readText(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/") +
                         QLatin1String(file));
    s.replace(QStringLiteral("= 1024"), QStringLiteral("= 256"));
    return s;
}

} // namespace

class TestScheduleDocument : public QObject {
    Q_OBJECT

    Session session_;
    ScheduleDocument* doc_ = nullptr;
    QString gemm_;

    bool settle(int timeoutMs = 60000) {
        QElapsedTimer t;
        t.start();
        while ((doc_->isRelowering() || session_.jobs()->runningCount() > 0) &&
               t.elapsed() < timeoutMs)
            QTest::qWait(5);
        return !doc_->isRelowering();
    }

    QString scriptShown() const {
        return session_.artifacts() ? QString::fromStdString(session_.artifacts()->script)
                                    : QString();
    }

private slots:
    void initTestCase() {
        gemm_ = gemmStep("07_parallel.te");
        QVERIFY(gemm_.contains(QLatin1String("M = 256")));
        doc_ = new ScheduleDocument(&session_);
        doc_->openCurrent();
        QCOMPARE(doc_->source(), ScheduleDocument::Source::None);
        QSignalSpy loaded(doc_, &ScheduleDocument::loaded);
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(doc_->text(), gemm_);
        QVERIFY(doc_->isEditable());
        QVERIFY(settle());
        QVERIFY(doc_->artifacts());
        QCOMPARE(session_.artifacts(), doc_->artifacts());
        QVERIFY(doc_->outline().findStage(QStringLiteral("CC")) >= 0);
        QVERIFY2(doc_->statusText().startsWith(QLatin1String("Lowered in")),
                 qPrintable(doc_->statusText()));
    }

    void anEditAfterAPauseIsLoweredAtOnce() {
        QVERIFY(settle());
        QTest::qWait(doc_->debounceMs() + 10);
        QSignalSpy started(doc_, &ScheduleDocument::relowerStarted);
        doc_->edit(gemm_ + QStringLiteral("\n# one edit"));
        QCOMPARE(started.count(), 1); // no waiting for a pause
        QCOMPARE(started.at(0).at(0).toULongLong(), doc_->generation());
        QCOMPARE(session_.scriptText(), doc_->text()); // the session keeps the edited script
        QVERIFY(settle());
        QCOMPARE(scriptShown(), doc_->text());
    }

    void aBurstIsLoweredOnceWithTheNewestText() {
        QVERIFY(settle());
        QTest::qWait(doc_->debounceMs() + 10);
        QSignalSpy started(doc_, &ScheduleDocument::relowerStarted);
        QSignalSpy relowered(doc_, &ScheduleDocument::relowered);
        const quint64 first = doc_->generation() + 1;
        doc_->edit(gemm_ + QStringLiteral("\n# a"));
        doc_->edit(gemm_ + QStringLiteral("\n# ab"));
        doc_->edit(gemm_ + QStringLiteral("\n# abc"));
        QCOMPARE(started.count(), 1); // the first key; the others wait for the pause
        QVERIFY(doc_->isRelowering());
        QVERIFY(settle());
        // Two lowerings: the first key's and the newest text's, never the middle one.
        QCOMPARE(started.count(), 2);
        QCOMPARE(started.at(0).at(0).toULongLong(), first);
        QCOMPARE(started.at(1).at(0).toULongLong(), doc_->generation());
        QVERIFY(relowered.count() <= 2);
        QCOMPARE(scriptShown(), gemm_ + QStringLiteral("\n# abc"));
    }

    // The TIR and LLVM IR show as soon as they are made, without assembly
    // (never an older text's), and the same texts with the assembly follow.
    void theAssemblyFollowsTheIr() {
        QVERIFY(settle());
        doc_->setArtifactCache(nullptr); // a text seen before would come whole from the cache
        QTest::qWait(doc_->debounceMs() + 10);
        std::vector<std::shared_ptr<const driver::FunctionArtifacts>> shown;
        auto c = connect(&session_, &Session::artifactsChanged, this, [&] { shown.push_back(session_.artifacts()); });
        QSignalSpy ready(doc_, &ScheduleDocument::assemblyReady);
        doc_->edit(gemm_ + QStringLiteral("\n# staged"));
        QVERIFY(ready.wait(60000));
        disconnect(c);
        QCOMPARE(shown.size(), size_t(2));
        QVERIFY(shown[0] && !shown[0]->hasAssembly && shown[0]->build.assembly.empty());
        QVERIFY(shown[1] && shown[1]->hasAssembly && !shown[1]->build.assembly.empty());
        QCOMPARE(shown[1]->build.tir, shown[0]->build.tir);
        QCOMPARE(shown[1]->build.llvmIROptimized, shown[0]->build.llvmIROptimized);
        QCOMPARE(shown[1]->script, doc_->text().toStdString());
        QVERIFY2(doc_->statusText().contains(QLatin1String("assembly")), qPrintable(doc_->statusText()));
        // An edit while the assembly is being made: that assembly is never shown with the newer texts.
        QVERIFY(settle());
        QTest::qWait(doc_->debounceMs() + 10);
        shown.clear();
        auto c2 = connect(&session_, &Session::artifactsChanged, this, [&] { shown.push_back(session_.artifacts()); });
        doc_->edit(gemm_ + QStringLiteral("\n# one"));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.empty(), 60000);
        doc_->edit(gemm_ + QStringLiteral("\n# two"));
        QTRY_VERIFY_WITH_TIMEOUT(session_.artifacts() && session_.artifacts()->hasAssembly &&
                                     session_.artifacts()->script == doc_->text().toStdString(),
                                 60000);
        QVERIFY(settle());
        disconnect(c2);
        // Each assembly right after its own text's IR, never with a newer one's.
        for (size_t i = 0; i < shown.size(); ++i)
            if (shown[i] && shown[i]->hasAssembly) {
                QVERIFY(i > 0 && shown[i - 1] && !shown[i - 1]->hasAssembly);
                QCOMPARE(shown[i]->script, shown[i - 1]->script);
                QCOMPARE(shown[i]->build.tir, shown[i - 1]->build.tir);
            }
        QCOMPARE(shown.back()->script, doc_->text().toStdString());
        doc_->setArtifactCache(std::make_shared<driver::ArtifactCache>());
    }

    void oneLoweringAtATime() {
        QVERIFY(settle());
        doc_->relowerNow();
        QVERIFY(session_.jobs()->isRunning(QStringLiteral("relower")));
        QSignalSpy started(doc_, &ScheduleDocument::relowerStarted);
        doc_->relowerNow(); // while one runs: the newest follows it, no second job now
        QCOMPARE(started.count(), 0);
        QVERIFY(doc_->isRelowering());
        QVERIFY(settle());
        QCOMPARE(started.count(), 1);
    }

    void theNewestTextsErrorKeepsTheArtifacts() {
        QVERIFY(settle());
        auto before = doc_->artifacts();
        QSignalSpy diagnostic(doc_, &ScheduleDocument::diagnosticChanged);
        doc_->edit(gemm_ + QStringLiteral("\ns[C].paralel(xo)"));
        QVERIFY(settle());
        QVERIFY(doc_->diagnostic().has_value());
        QCOMPARE(doc_->diagnostic()->line, int(gemm_.count(QLatin1Char('\n'))) + 2);
        QVERIFY(doc_->diagnostic()->message.contains(QLatin1String("paralel")));
        QVERIFY(doc_->statusIsError());
        QCOMPARE(doc_->artifacts(), before);
        QVERIFY(diagnostic.count() >= 1);
        // Running asks for a fix first.
        doc_->run();
        QVERIFY(!doc_->isRunning());
        QCOMPARE(doc_->statusText(), QStringLiteral("Fix the script before running it."));
        doc_->edit(gemm_);
        QVERIFY(settle());
        QVERIFY(!doc_->diagnostic());
    }

    void aResultForAnotherDocumentIsDropped() {
        QVERIFY(settle());
        const QString other = gemmStep("02_blocking.te");
        QSignalSpy relowered(doc_, &ScheduleDocument::relowered);
        doc_->relowerNow(); // the GEMM lowers...
        session_.setScript(QStringLiteral("blocking256.te"),
                           other); // ...while another document opens
        QVERIFY(settle());
        QCOMPARE(relowered.count(), 1); // the GEMM's result was dropped
        QCOMPARE(scriptShown(), other);
        QCOMPARE(doc_->text(), other);
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        QVERIFY(settle());
    }

    void runFillsTheHistory() {
        QVERIFY(settle());
        RunHistory* history = doc_->history();
        const int rows = history->rowCount();
        QSignalSpy finished(doc_, &ScheduleDocument::runFinished);
        QSignalSpy inserted(history, &QAbstractItemModel::rowsInserted);
        QSignalSpy busy(doc_, &ScheduleDocument::busyChanged);
        doc_->run();
        QVERIFY(doc_->isBusy() && doc_->isRunning());
        QVERIFY(finished.wait(120000));
        const RunRecord r = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY2(r.correct, qPrintable(r.error));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(history->rowCount(), rows + 1);
        QCOMPARE(history->at(rows).latencyMs, r.latencyMs);
        QCOMPARE(history->index(rows, RunHistory::Latency).data().toString(),
                 QString::number(r.latencyMs, 'f', 3));
        QCOMPARE(doc_->lastRun()->number, r.number);
        QTRY_VERIFY(!doc_->isBusy());
        QVERIFY(busy.count() >= 2);
        // Another document has its own history; coming back finds this one.
        session_.setScript(QStringLiteral("other.te"), gemm_);
        QCOMPARE(history->rowCount(), 0);
        QVERIFY(settle());
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        QCOMPARE(history->rowCount(), rows + 1);
        QVERIFY(settle());
    }

    void aSegfaultingScheduleIsAMessage() {
        // A gather whose indices come from the data: it reads far outside A
        // and the kernel dies of SIGSEGV in the IDE's tessel-rpc server.
        const QString gather = QStringLiteral(
            "A = te.placeholder((1024,), name=\"A\")\n"
            "I = te.placeholder((1024,), name=\"I\")\n"
            "B = te.compute((1024,), lambda i: A[te.floor(I[i] * 1e9).astype(\"int32\")], name=\"B\")\n"
            "s = te.create_schedule(B.op)\n"
            "func = tvm.build(s, [A, I, B], name=\"gather\")\n");
        session_.setScript(QStringLiteral("gather.te"), gather);
        QVERIFY(settle());
        QVERIFY2(doc_->artifacts(), qPrintable(doc_->statusText()));
        QSignalSpy finished(doc_, &ScheduleDocument::runFinished);
        doc_->run();
        QVERIFY(finished.wait(120000));
        const RunRecord r = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY(!r.correct);
        QVERIFY2(r.error.contains(QLatin1String("SIGSEGV")), qPrintable(r.error));
        QTRY_VERIFY(!doc_->isBusy());
        QVERIFY2(doc_->statusText().contains(QLatin1String("SIGSEGV")), qPrintable(doc_->statusText()));
        // This process lives, and the next run is measured as ever.
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        QVERIFY(settle());
        doc_->run();
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.takeFirst().at(0).value<RunRecord>().correct);
        QTRY_VERIFY(!doc_->isBusy());
    }

    void anUnreachableDeviceIsNoWrongResult() {
        // Issue 21: a run on a device that is gone recorded "0.000 ms, FAIL"
        // with a bare "Connection refused". Now it is a failure of kind
        // "device unreachable" that says what to check, with no time, and
        // the history says where it ran.
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        QVERIFY(settle());
        DeviceChoice gone;
        gone.kind = DeviceChoice::Kind::Server;
        gone.host = QStringLiteral("127.0.0.1");
        gone.port = 1; // nothing listens there
        session_.setDevice(gone);
        QSignalSpy finished(doc_, &ScheduleDocument::runFinished);
        doc_->run();
        QVERIFY(finished.wait(120000));
        const RunRecord r = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY(!r.correct);
        QVERIFY(!r.measured);
        QCOMPARE(r.failure, QStringLiteral("device unreachable"));
        QCOMPARE(r.device, QStringLiteral("server 127.0.0.1:1"));
        QVERIFY2(r.error.contains(QLatin1String("tessel-rpc server runs there")), qPrintable(r.error));
        RunHistory* h = doc_->history();
        const int row = h->rowCount() - 1;
        QCOMPARE(h->index(row, RunHistory::Latency).data().toString(), QStringLiteral("—"));
        QCOMPARE(h->index(row, RunHistory::Gflops).data().toString(), QStringLiteral("—"));
        QCOMPARE(h->index(row, RunHistory::Correct).data().toString(), QStringLiteral("device unreachable"));
        QCOMPARE(h->index(row, RunHistory::Device).data().toString(), QStringLiteral("server 127.0.0.1:1"));
        QTRY_VERIFY(!doc_->isBusy());
        QVERIFY(doc_->statusIsError());
        QVERIFY2(doc_->statusText().contains(QLatin1String("device unreachable")), qPrintable(doc_->statusText()));
        // Back on this machine: the stale failure goes, and the run is measured there.
        session_.setDevice(DeviceChoice{});
        QVERIFY(!doc_->statusIsError());
        QVERIFY2(doc_->statusText().contains(QLatin1String("this machine")), qPrintable(doc_->statusText()));
        doc_->run();
        QVERIFY(finished.wait(120000));
        const RunRecord ok = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY2(ok.correct && ok.measured, qPrintable(ok.error));
        QCOMPARE(ok.device, QStringLiteral("this machine"));
        QCOMPARE(h->index(h->rowCount() - 1, RunHistory::Device).data().toString(), QStringLiteral("this machine"));
        QTRY_VERIFY(!doc_->isBusy());
    }

    void historyModel() {
        RunHistory h;
        h.showDocument(QStringLiteral("a"));
        QString script = QStringLiteral("x = 1\ny = 2\n");
        for (int i = 0; i < RunHistory::kLimit + 2; ++i) {
            RunRecord r;
            r.script = script;
            r.latencyMs = i + 1;
            r.correct = i % 2 == 0;
            r.error = QStringLiteral("differs");
            h.add(QStringLiteral("a"), r);
            if (i == 0) script.replace(QStringLiteral("y = 2"), QStringLiteral("y = 3"));
        }
        QCOMPARE(h.rowCount(), RunHistory::kLimit); // the oldest went
        QCOMPARE(h.columnCount(), int(RunHistory::ColumnCount));
        QCOMPARE(h.at(0).number, 3);
        QCOMPARE(h.index(0, RunHistory::Number).data().toString(), QStringLiteral("3"));
        QCOMPARE(h.index(0, RunHistory::Correct).data().toString(), QStringLiteral("ok"));
        QCOMPARE(h.index(1, RunHistory::Correct).data().toString(), QStringLiteral("FAIL"));
        QCOMPARE(h.index(1, RunHistory::Correct).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("differs"));
        QCOMPARE(h.index(0, RunHistory::PeakShare).data().toString(), QStringLiteral("—"));
        QCOMPARE(h.headerData(RunHistory::Latency, Qt::Horizontal).toString(),
                 QStringLiteral("Latency (ms)"));
        RunRecord another;
        h.add(QStringLiteral("b"), another); // not shown
        QCOMPARE(h.rowCount(), RunHistory::kLimit);
        h.showDocument(QStringLiteral("b"));
        QCOMPARE(h.rowCount(), 1);
        QCOMPARE(h.at(0).number, 1);
        // What changed between runs.
        QCOMPARE(changeLabel(QString(), QStringLiteral("a"), 1), QStringLiteral("run 1"));
        QCOMPARE(changeLabel(QStringLiteral("a\nb"), QStringLiteral("a\nb"), 4),
                 QStringLiteral("run 4"));
        QCOMPARE(changeLabel(QStringLiteral("a\nb\nc"), QStringLiteral("a\nx\nc"), 2),
                 QStringLiteral("L2: x"));
        QCOMPARE(changeLabel(QStringLiteral("a\nb\nc"), QStringLiteral("a\nc"), 2),
                 QStringLiteral("L2: − b"));
    }

    // A script that calls topi lowers, and its outline knows the script's
    // names (the outline runs the script with the driver's modules).
    void topiScriptsHaveTheirNames() {
        const QString script = QStringLiteral(
            "x = te.placeholder((1, 8, 16, 16), name=\"x\")\n"
            "w = te.placeholder((16, 8, 3, 3), name=\"w\")\n"
            "conv = topi.nn.conv2d(x, w, padding=1)\n"
            "out = topi.nn.relu(conv)\n"
            "s = topi.schedule_default(out)\n");
        session_.setScript(QStringLiteral("topi_conv.te"), script);
        QVERIFY(settle());
        QVERIFY2(doc_->artifacts(), qPrintable(doc_->statusText()));
        const int stage = doc_->outline().findStage(QStringLiteral("conv2d"));
        QVERIFY(stage >= 0);
        QCOMPARE(doc_->outline().stages[stage].tensorRef, QStringLiteral("conv"));
        QVERIFY(doc_->outline().names.contains(QStringLiteral("out")));
    }

    void cleanupTestCase() {
        delete doc_;
        session_.jobs()->waitForIdle();
    }
};

QTEST_MAIN(TestScheduleDocument)
#include "tst_scheduledocument.moc"
