// The Tuning view on small tasks with the "random" tuner through this
// machine's tessel-rpc server (rpc::LocalRunner): curves gain points as trials
// end, pause starts no new trial until resume, stop ends the run, the records
// file holds every trial and a later view resumes from it, a record of a
// template opens in the schedule editor as a script that lowers, a record of a
// model task selects its fused function, and the GUI thread stays responsive
// while tuning runs (the longest gap between 10 ms timer ticks is measured).
#include "common/GapMeter.h"
#include "common/Session.h"
#include "driver/ModelCompiler.h"
#include "driver/TeDriver.h"
#include "graph/Graph.h"
#include "schedule/ScheduleDocument.h"
#include "schedule/ScheduleEditor.h"
#include "tune/Records.h"
#include "tuning/RecordTable.h"
#include "tuning/TaskTable.h"
#include "tuning/TuningSession.h"
#include "tuning/TuningView.h"

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QLineEdit>
#include <QtTest>

#include <cmath>
#include <random>

using namespace tessel;
using namespace tessel::views;

namespace {

QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

int plotted(QCustomPlot* plot) { return plot->graph(0)->dataCount() + plot->graph(1)->dataCount(); }


graph::Graph denseModel() {
    graph::Graph g("dense");
    auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 64]"));
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> w(32 * 64);
    for (auto& v : w) v = u(rng);
    graph::Attributes transB;
    transB.set("transB", int64_t(1));
    auto wd = g.addConstant("fc_w", graph::Constant::fromFloats({32, 64}, w));
    g.setOutputs({g.addOp("Relu", {g.addOp("Gemm", {x, wd}, transB, "fc")}, {}, "fc_relu")});
    return g;
}

} // namespace

class TestTuningView : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString templatePath_;

    /// A view over gemm.te at 64x64x64, "random", small rounds, records in the temporary directory.
    void setUp(Session& session, TuningView& view, const QString& records, int trials) {
        Q_UNUSED(session);
        view.tuning()->setWorkload(QStringLiteral("M=64,N=64,K=64"));
        view.tuning()->setTuner(QStringLiteral("random"));
        view.tuning()->setTrials(trials);
        view.tuning()->setBatchSize(2);
        view.tuning()->setRecordsPath(dir_.filePath(records));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        templatePath_ = dir_.filePath(QStringLiteral("gemm.te"));
        QVERIFY(QFile::copy(QStringLiteral(TESSEL_SOURCE_DIR "/resources/templates/gemm.te"), templatePath_));
    }

    void spearmanRanks() {
        QCOMPARE(spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
        QCOMPARE(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
        // Monotone but not linear: still 1; ties take their average rank.
        QCOMPARE(spearman({1, 2, 3, 4}, {1, 8, 27, 1000}), 1.0);
        QVERIFY(std::abs(spearman({1, 2, 3, 4}, {1, 3, 2, 4}) - 0.8) < 1e-12);
        QVERIFY(std::isnan(spearman({1}, {2})));
        QVERIFY(std::isnan(spearman({1, 2, 3}, {5, 5, 5})));
    }

    void defaults() {
        Session session;
        QVERIFY(TuningSession::availableTuners().contains(QStringLiteral("random")));
        QCOMPARE(TuningSession::defaultTuner(),
                 TuningSession::availableTuners().contains(QStringLiteral("xgb")) ? QStringLiteral("xgb")
                                                                                 : QStringLiteral("random"));
        TuningView view(&session);
        QVERIFY(view.tuning()->tasks().empty());
        QVERIFY(!view.tuning()->tasksError().isEmpty());
        QVERIFY(!view.tuning()->start());
        session.setScript(templatePath_, readFile(templatePath_));
        QCOMPARE(view.tuning()->tasks().size(), size_t(1));
        QCOMPARE(view.tuning()->recordsPath(), templatePath_ + QStringLiteral(".records.jsonl"));
        // Issue 21: the workload field's hint is the template's own workload
        // (gemm.te's 1024 cubed), not a made-up one.
        QCOMPARE(view.tuning()->templateDefaults(), QStringLiteral("M=1024,N=1024,K=1024"));
        QLineEdit* workload = nullptr;
        for (QLineEdit* e : view.findChildren<QLineEdit*>())
            if (e->placeholderText().startsWith(QStringLiteral("the template's"))) workload = e;
        QVERIFY(workload);
        QCOMPARE(workload->placeholderText(), QStringLiteral("the template's: M=1024,N=1024,K=1024"));
        // The settings are the session's (a rebuild of the views, the project): what differs from the defaults.
        QVERIFY(session.tuningSettings().isEmpty());
        workload->setText(QStringLiteral("M=64,N=64,K=64"));
        emit workload->editingFinished();
        QCOMPARE(session.tuningSettings().value(QStringLiteral("workload")).toString(), QStringLiteral("M=64,N=64,K=64"));
        QVERIFY(session.areTuningSettingsModified());
        {
            TuningView rebuilt(&session);
            QCOMPARE(rebuilt.tuning()->workload(), QStringLiteral("M=64,N=64,K=64"));
        }
        workload->setText(QString());
        emit workload->editingFinished();
        QVERIFY(session.tuningSettings().isEmpty());
        // A script without knobs has nothing to tune, and says so.
        session.setScript(dir_.filePath(QStringLiteral("plain.te")),
                          QStringLiteral("A = te.placeholder((8,), name='A')\nB = te.compute((8,), lambda i: A[i] * 2, name='B')\n"
                                         "s = te.create_schedule(B.op)\n"));
        QVERIFY(view.tuning()->tasks().empty());
        QVERIFY2(view.tuning()->tasksError().contains(QStringLiteral("knob")), qPrintable(view.tuning()->tasksError()));
    }

    void runPauseResumeStop() {
        Session session;
        session.setScript(templatePath_, readFile(templatePath_));
        TuningView view(&session);
        view.resize(1100, 800);
        view.show();
        setUp(session, view, QStringLiteral("run.jsonl"), 400);
        TuningSession* tuning = view.tuning();
        QCOMPARE(tuning->tasks().size(), size_t(1));
        QCOMPARE(tuning->tasks()[0].done, 0);
        QCOMPARE(view.currentTask(), 0);

        // Every trial adds one point to the curve as it arrives.
        QList<int> pointsAtTrial;
        connect(tuning, &TuningSession::trialAdded, this,
                [&](int, const TrialPoint&) { pointsAtTrial << plotted(view.trialPlot()); });
        tessel::test::GapMeter gaps;
        QVERIFY(tuning->start());
        QVERIFY(tuning->isRunning());
        QVERIFY(!tuning->start()); // one run at a time
        QTRY_VERIFY_WITH_TIMEOUT(tuning->tasks()[0].done >= 4, 120000);
        QCOMPARE(tuning->tasks()[0].state, TuningTask::State::Running);
        for (int i = 1; i < pointsAtTrial.size(); ++i) QCOMPARE(pointsAtTrial[i], pointsAtTrial[i - 1] + 1);
        QCOMPARE(plotted(view.trialPlot()), tuning->tasks()[0].done);
        QCOMPARE(view.trialPlot()->graph(2)->dataCount(), tuning->tasks()[0].done); // the best so far
        QVERIFY(tuning->tasks()[0].bestGflops > 0);
        QVERIFY(tuning->tasks()[0].defaultGflops > 0); // trial 0 is the default configuration
        QVERIFY2(view.statusText().contains(QStringLiteral("ETA")), qPrintable(view.statusText()));
        QVERIFY(view.taskTable()->data(view.taskTable()->index(0, TaskTable::Trials)).toString().contains(QStringLiteral("/400")));

        // Issue 21: the legend sits beside the curves, not over them, and the
        // predicted-vs-measured points are drawn whole inside the chart.
        for (QCustomPlot* plot : {view.trialPlot(), view.modelPlot()}) {
            plot->replot(QCustomPlot::rpImmediateRefresh);
            if (plot->legend->visible())
                QVERIFY(!plot->axisRect()->rect().intersects(plot->legend->outerRect()));
        }
        QCustomPlot* model = view.modelPlot();
        const QRect inside = model->axisRect()->rect().adjusted(3, 3, -3, -3);
        for (auto it = model->graph(0)->data()->constBegin(); it != model->graph(0)->data()->constEnd(); ++it) {
            const QPointF at(model->xAxis->coordToPixel(it->key), model->yAxis->coordToPixel(it->value));
            QVERIFY2(inside.contains(at.toPoint()), qPrintable(QStringLiteral("point at %1,%2 outside %3,%4 %5x%6")
                                                                   .arg(at.x()).arg(at.y()).arg(inside.x()).arg(inside.y())
                                                                   .arg(inside.width()).arg(inside.height())));
        }

        // Pause: the trial in flight ends, no other starts.
        tuning->pause();
        QVERIFY(tuning->isPaused());
        QCOMPARE(tuning->tasks()[0].state, TuningTask::State::Paused);
        QTest::qWait(1500); // longer than a trial at 64^3
        const int paused = tuning->tasks()[0].done;
        QTest::qWait(1500);
        QCOMPARE(tuning->tasks()[0].done, paused);
        QVERIFY(view.statusText().startsWith(QStringLiteral("Paused")));
        tuning->resume();
        QTRY_VERIFY_WITH_TIMEOUT(tuning->tasks()[0].done >= paused + 2, 60000);

        // Stop ends the run well before the budget.
        QSignalSpy finished(tuning, &TuningSession::finished);
        tuning->stop();
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        QVERIFY(!tuning->isRunning());
        const int done = tuning->tasks()[0].done;
        QVERIFY(done < 400);
        QCOMPARE(tuning->tasks()[0].state, TuningTask::State::Stopped);
        QVERIFY2(gaps.longest() < 200, qPrintable(QStringLiteral("GUI thread blocked %1 ms").arg(gaps.longest())));
        qInfo("longest gap between GUI timer ticks while tuning: %lld ms (%d trials)", gaps.longest(), done);

        // The records file holds every trial, and the explorer shows them.
        std::vector<std::string> warnings;
        const tune::Records records = tune::Records::load(tuning->recordsPath().toStdString(), &warnings);
        QVERIFY(warnings.empty());
        const auto mine = records.forWorkload(tuning->tasks()[0].key.toStdString());
        QCOMPARE(int(mine.size()), done);
        QVERIFY(mine.front()->isDefault);
        for (size_t i = 0; i < mine.size(); ++i) QCOMPARE(mine[i]->trial, int64_t(i));
        QCOMPARE(view.records()->rowCount(), done);
        view.setRecordFilter(QStringLiteral("ok"));
        int ok = 0;
        for (auto* r : mine) ok += r->ok();
        QCOMPARE(view.records()->rowCount(), ok);
        QVERIFY(view.records()->data(view.records()->index(0, RecordTable::Configuration)).toString().contains(QStringLiteral("tile_x=")));
        view.setRecordFilter(QStringLiteral("crash"));
        int crashed = 0;
        for (auto* r : mine) crashed += r->error == runtime::MeasureError::Crash;
        QCOMPARE(view.records()->rowCount(), crashed);
        view.setRecordFilter(QString());

        if (const QByteArray shots = qgetenv("TESSEL_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QDir().mkpath(QString::fromLocal8Bit(shots));
            view.trialPlot()->replot();
            view.modelPlot()->replot();
            QVERIFY(view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/tuning.png")));
        }

        // A later view resumes: the trials come from the records file.
        TuningView again(&session);
        setUp(session, again, QStringLiteral("run.jsonl"), done + 2);
        QCOMPARE(again.tuning()->tasks()[0].done, done);
        QCOMPARE(plotted(again.trialPlot()), done);
        QVERIFY(again.tuning()->start());
        QTRY_VERIFY_WITH_TIMEOUT(!again.tuning()->isRunning(), 60000);
        QCOMPARE(again.tuning()->tasks()[0].done, done + 2);
        QCOMPARE(again.tuning()->tasks()[0].state, TuningTask::State::Done);
        QCOMPARE(int(tune::Records::load(tuning->recordsPath().toStdString()).forWorkload(again.tuning()->tasks()[0].key.toStdString()).size()), done + 2);
    }

    void recordOpensInScheduleEditor() {
        Session session;
        session.setScript(templatePath_, readFile(templatePath_));
        TuningView view(&session);
        ScheduleEditor editor(&session);
        setUp(session, view, QStringLiteral("open.jsonl"), 6);
        QVERIFY(view.tuning()->start());
        QTRY_VERIFY_WITH_TIMEOUT(!view.tuning()->isRunning(), 120000);
        view.setRecordFilter(QStringLiteral("ok"));
        int row = -1;
        for (int i = 0; i < view.records()->rowCount(); ++i)
            if (!view.records()->record(i)->isDefault) row = i;
        QVERIFY(row >= 0);
        const tune::Record record = *view.records()->record(row);
        QSignalSpy opened(&view, &TuningView::recordOpened);
        // Issue 21: the explorer sorts by a column, here the fastest first.
        view.recordView()->sortByColumn(RecordTable::Gflops, Qt::DescendingOrder);
        const QAbstractItemModel* shown = view.recordView()->model();
        QCOMPARE(shown->rowCount(), view.records()->rowCount());
        int shownRow = -1;
        for (int i = 0; i < shown->rowCount(); ++i) {
            if (i > 0)
                QVERIFY(shown->index(i - 1, RecordTable::Gflops).data(Qt::UserRole).toDouble() >=
                        shown->index(i, RecordTable::Gflops).data(Qt::UserRole).toDouble());
            if (shown->index(i, RecordTable::Trial).data(Qt::UserRole).toLongLong() == qlonglong(record.trial))
                shownRow = i;
        }
        QVERIFY(shownRow >= 0);
        // What a double-click on the row emits.
        emit view.recordView()->doubleClicked(shown->index(shownRow, RecordTable::Configuration));
        QTRY_VERIFY2_WITH_TIMEOUT(opened.count() == 1, qPrintable(view.statusText()), 60000);
        const QString config = QString::fromStdString(te::formatConfig(record.config));
        QCOMPARE(opened.at(0).at(0).toString(), config);
        // The editor shows the configuration as a plain script, which lowers
        // to the same kernel as the template with that configuration.
        QVERIFY(session.sourcePath().endsWith(QStringLiteral("gemm.trial%1.te").arg(record.trial)));
        QTRY_COMPARE(editor.document()->text(), session.scriptText());
        QVERIFY(session.scriptText().contains(QStringLiteral("--config ") + config));
        driver::ScriptOptions so;
        so.config = record.config;
        so.workload = {{"M", 64}, {"N", 64}, {"K", 64}};
        const auto tuned = driver::lowerScript(readFile(templatePath_).toStdString(), so);
        const auto opened2 = driver::lowerScript(session.scriptText().toStdString(), {});
        QCOMPARE(opened2.size(), size_t(1));
        QCOMPARE(driver::flopCount(opened2[0]), driver::flopCount(tuned[0]));
        // The tuning view keeps the template's task.
        QCOMPARE(view.tuning()->tasks().size(), size_t(1));
        QCOMPARE(view.tuning()->tasks()[0].done, 6);
    }

    void modelTasks() {
        Session session;
        auto model = std::make_shared<const driver::CompiledModel>(driver::compileGraph(denseModel()));
        session.setModel(dir_.filePath(QStringLiteral("dense.onnx")), model);
        TuningView view(&session);
        TuningSession* tuning = view.tuning();
        QVERIFY2(!tuning->tasks().empty(), qPrintable(tuning->tasksError()));
        QCOMPARE(tuning->recordsPath(), dir_.filePath(QStringLiteral("dense.onnx.records.jsonl")));
        const TuningTask& t = tuning->tasks()[0];
        QCOMPARE(t.weight, 1);
        QVERIFY(!t.functions.isEmpty());
        tuning->setTuner(QStringLiteral("random"));
        tuning->setTrials(3);
        tuning->setBatchSize(3);
        tuning->setOrder(TuningSession::Order::Weight);
        QVERIFY(tuning->start());
        QTRY_VERIFY_WITH_TIMEOUT(!tuning->isRunning(), 120000);
        QCOMPARE(tuning->tasks()[0].state, TuningTask::State::Done);
        QCOMPARE(tuning->tasks()[0].done, 3);
        QCOMPARE(view.records()->rowCount(), 3);
        QSignalSpy opened(&view, &TuningView::recordOpened);
        view.openRecord(1);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(session.currentFunction(), t.functions.front());
        // Issue 21: the status line names the knobs as the table does, not by index.
        QVERIFY2(view.statusText().contains(RecordTable::valuesText(*view.records()->record(1))),
                 qPrintable(view.statusText()));
        QVERIFY2(!view.statusText().contains(opened.at(0).at(0).toString()), qPrintable(view.statusText()));
        // The session takes the record's configuration for its workload: the
        // next compile of the model applies it (over any records file).
        const tune::Record* r = view.records()->record(1);
        QVERIFY(r && r->ok());
        QCOMPARE(session.chosenConfigs().size(), size_t(1));
        QCOMPARE(session.chosenConfigs().at(r->workload.key), r->config);
        bool matches = false;
        for (const auto& f : model->functions) matches |= f.workload == r->workload.key;
        QVERIFY2(matches, "the record's key is a workload key of the model's functions");
    }
};

QTEST_MAIN(TestTuningView)
#include "tst_tuningview.moc"
