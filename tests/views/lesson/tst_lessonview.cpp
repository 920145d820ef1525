// Lesson mode driven offscreen: the GEMM ladder's eight steps, the diff between
// steps, the TIR and assembly the compiler produces for a step, the tutorial's
// published figures, a real measurement (and a cancelled one), and handing a
// step to the schedule editor through the session.
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "lesson/LessonChart.h"
#include "lesson/LessonTimes.h"
#include "lesson/LessonView.h"
#include "lesson/UnifiedDiff.h"
#include "common/Resources.h"
#include "codegen/Target.h"
#include "driver/Measure.h"

#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace tessel::views;

namespace {

/// Pixels of the chart, as drawn, in the colour of this machine's bars.
int measuredPixels(LessonChart* chart) {
    const QImage img = chart->grab().toImage();
    const QRgb blue = chart->measuredBars()->brush().color().rgb();
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) n += img.pixel(x, y) == blue ? 1 : 0;
    return n;
}

} // namespace

class TestLessonView : public QObject {
    Q_OBJECT

    Session session_;
    LessonView* view_ = nullptr;
    int legendPixels_ = 0; ///< the measured colour before any bar: the legend's icon

    /// The lesson at the two screen sizes the layout rule checks, for looking at.
    void saveShots(const QString& name) {
        const QSize was = view_->size();
        for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)}) {
            view_->resize(size);
            QTest::qWait(200);
            const QString dir = QStringLiteral(TESSEL_BINARY_DIR "/screenshots");
            QDir().mkpath(dir);
            QVERIFY(view_->grab().save(QStringLiteral("%1/%2-%3x%4.png").arg(dir, name).arg(size.width()).arg(size.height())));
        }
        view_->resize(was);
    }

private slots:
    void initTestCase() {
        view_ = new LessonView(&session_);
        view_->resize(1200, 800);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_));
    }

    void resourcesAreFound() {
        QVERIFY(QFileInfo::exists(resourcePath(QStringLiteral("examples/gemm/01_baseline.te"))));
        QTemporaryDir dir;
        qputenv("TESSEL_RESOURCES", dir.path().toUtf8());
        QCOMPARE(resourcesDir(), QDir(dir.path()).absolutePath());
        qunsetenv("TESSEL_RESOURCES");
        QVERIFY(resourcesDir() != QDir(dir.path()).absolutePath());
    }

    /// The step list's text at `row`, `column` (LessonTimes::Column).
    QString cell(int row, int column) const { return view_->times()->index(row, column).data().toString(); }

    void eightStepsListed() {
        QCOMPARE(view_->stepCount(), 8);
        QCOMPARE(view_->stepList()->model(), view_->times());
        QCOMPARE(view_->times()->rowCount(), 8);
        QCOMPARE(cell(0, LessonTimes::Step), QStringLiteral("GEMM ladder, step 1: the baseline."));
        QVERIFY(cell(7, LessonTimes::Step).contains(QLatin1String("register blocking")));
        QCOMPARE(view_->currentStep(), 0);
        QVERIFY(view_->explanationText().contains(QLatin1String("three plain nested loops")));
        QVERIFY(!view_->explanationText().contains(QLatin1Char('#')));
    }

    void step4ShowsItsDiff() {
        view_->selectStep(3);
        QCOMPARE(view_->currentStep(), 3);
        const LineDiffResult& d = view_->currentDiff();
        QCOMPARE(d.added, 1);
        QCOMPARE(d.removed, 1);
        const QString text = view_->diffView()->toPlainText();
        QVERIFY(text.contains(QLatin1String("- s[C].reorder(xo, yo, ko, ki, xi, yi)\n")));
        QVERIFY(text.contains(QLatin1String("+ s[C].reorder(xo, yo, ko, xi, ki, yi)\n")));
        QVERIFY(text.contains(QLatin1String("  s[C].vectorize(yi)\n"))); // context stays
        QVERIFY(!text.contains(QLatin1String("GEMM ladder")));            // the explanations are not diffed
        QVERIFY(view_->explanationText().startsWith(QLatin1String("GEMM ladder, step 4: loop permutation.")));
        QVERIFY(view_->scriptView()->toPlainText().startsWith(QLatin1String("# GEMM ladder, step 4")));
    }

    void step4ShowsTirAndAssembly() {
        QSignalSpy ready(view_, &LessonView::artifactsReady);
        if (!view_->tirView()->toPlainText().contains(QLatin1String("k_inner"))) QVERIFY(ready.wait(60000));
        const QString tir = view_->tirView()->toPlainText();
        QVERIFY2(tir.contains(QLatin1String("for")) && tir.contains(QLatin1String("k_inner")), qPrintable(tir.left(400)));
        QVERIFY(tir.contains(QLatin1String("x_inner")));
        const QString asmText = view_->assemblyView()->toPlainText();
        QVERIFY2(asmText.contains(QLatin1String("ret")), qPrintable(asmText.left(400)));
        // Another step has other TIR: step 5 packs B.
        view_->selectStep(4);
        QVERIFY(ready.wait(60000));
        QVERIFY(view_->tirView()->toPlainText().contains(QLatin1String("packedB")));
        // Back to step 4: shown again from what was kept, at once.
        view_->selectStep(3);
        QVERIFY(view_->tirView()->toPlainText().contains(QLatin1String("k_inner")));
        QVERIFY(!view_->tirView()->toPlainText().contains(QLatin1String("packedB")));
    }

    void publishedFigures() {
        view_->selectStep(1);
        QVERIFY2(view_->publishedText().contains(QLatin1String("295.8 ms")), qPrintable(view_->publishedText()));
        QVERIFY(view_->publishedText().contains(QLatin1String("Opt1: blocking")));
        QCOMPARE(cell(1, LessonTimes::Tutorial), QStringLiteral("295.8 ms"));
        QCOMPARE(cell(0, LessonTimes::Tutorial), QStringLiteral("3.37 s"));
        QCOMPARE(view_->lesson().docsVersion, QStringLiteral("0.9.dev0"));
        QVERIFY(view_->lesson().sourceUrl.startsWith(QLatin1String("https://tvm.apache.org/docs/")));
        view_->selectStep(7);
        QVERIFY(view_->publishedText().contains(QLatin1String("beyond the tutorial")));
        QCOMPARE(cell(7, LessonTimes::Tutorial), QStringLiteral("—"));
    }

    void chartHasABarPerStep() {
        // The tutorial's figure of each step that has one (step 8 goes beyond
        // it), none measured yet, one tick per step on a log time axis.
        LessonChart* chart = view_->chart();
        QVERIFY(chart);
        QCOMPARE(chart->publishedBars()->data()->size(), 7);
        for (int i = 0; i < 7; ++i) {
            const auto bar = chart->publishedBars()->data()->at(i);
            QCOMPARE(bar->key, double(i + 1));
            QCOMPARE(bar->value, *view_->lesson().steps[i].publishedSeconds * 1e3);
        }
        QCOMPARE(chart->measuredBars()->data()->size(), 0);
        legendPixels_ = measuredPixels(chart);
        QVERIFY(legendPixels_ > 0);
        auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(chart->xAxis->ticker());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), 8);
        QCOMPARE(chart->yAxis->scaleType(), QCPAxis::stLogarithmic);
        // Every bar is inside the plotted range: nothing is clipped.
        const QCPRange y = chart->yAxis->range();
        for (auto it = chart->publishedBars()->data()->constBegin(); it != chart->publishedBars()->data()->constEnd(); ++it)
            QVERIFY(y.contains(it->value));
        QVERIFY(chart->xAxis->range().contains(0.6) && chart->xAxis->range().contains(8.4));
        // A click on a bar opens its step.
        chart->replot();
        const QPointF at(chart->xAxis->coordToPixel(3), chart->yAxis->coordToPixel(view_->times()->publishedMs(2).value() / 2));
        QTest::mouseClick(chart, Qt::LeftButton, {}, at.toPoint() + QPoint(int(chart->xAxis->coordToPixel(3.2) - chart->xAxis->coordToPixel(3)), 0));
        QCOMPARE(view_->currentStep(), 2);
    }

    void measureStep7() {
        view_->selectStep(6);
        QCOMPARE(view_->measuredText(), QStringLiteral("This machine: not measured yet"));
        QSignalSpy measured(view_, &LessonView::measured);
        QTest::mouseClick(view_->measureButton(), Qt::LeftButton);
        QVERIFY(view_->isMeasuring());
        QVERIFY(view_->cancelButton()->isEnabled());
        QVERIFY(!view_->measureButton()->isEnabled());
        QVERIFY(measured.wait(180000));
        const auto args = measured.takeFirst();
        QCOMPARE(args.at(0).toInt(), 6);
        QVERIFY(args.at(1).toDouble() > 0);
        QVERIFY(args.at(2).toDouble() > 0);
        QVERIFY(args.at(3).toBool());
        QVERIFY2(view_->measuredText().contains(QLatin1String("GFLOP/s, correct")), qPrintable(view_->measuredText()));
        QVERIFY(!cell(6, LessonTimes::Measured).isEmpty());
        QCOMPARE(cell(6, LessonTimes::Measured), formatMs(args.at(1).toDouble()));
        QTRY_VERIFY(view_->measureButton()->isEnabled());
        QVERIFY(!view_->cancelButton()->isEnabled());
        // The chart follows: step 7's bar, this machine's time.
        QCPBars* bars = view_->chart()->measuredBars();
        QCOMPARE(bars->data()->size(), 1);
        QCOMPARE(bars->data()->at(0)->key, 7.0);
        QCOMPARE(bars->data()->at(0)->value, args.at(1).toDouble());
        QVERIFY(view_->chart()->yAxis->range().contains(args.at(1).toDouble()));
        QVERIFY2(measuredPixels(view_->chart()) > legendPixels_ + 20, "the measured bar is not drawn");
        QCOMPARE(view_->chart()->publishedBars()->data()->size(), 7);
    }

    void cancelledMeasurementShowsNothing() {
        // Step 2, not the baseline: a cancelled run still ends its current call
        // on the worker, and the baseline's calls take seconds each.
        view_->selectStep(1);
        QSignalSpy measured(view_, &LessonView::measured);
        QTest::mouseClick(view_->measureButton(), Qt::LeftButton);
        QVERIFY(view_->isMeasuring());
        QTest::mouseClick(view_->cancelButton(), Qt::LeftButton);
        QVERIFY(!view_->isMeasuring());
        QVERIFY(view_->measureButton()->isEnabled());
        QCOMPARE(view_->measuredText(), QStringLiteral("This machine: not measured yet"));
        QTest::qWait(200);
        QCOMPARE(measured.count(), 0);
    }

    void openInEditorSetsTheScript() {
        view_->selectStep(6);
        QTest::mouseClick(view_->openButton(), Qt::LeftButton);
        QCOMPARE(session_.kind(), Session::Kind::Script);
        QVERIFY(session_.sourcePath().endsWith(QLatin1String("07_parallel.te")));
        QCOMPARE(session_.scriptText(), view_->scriptView()->toPlainText());
    }

    void hiddenLessonLowersNothing() {
        Session quiet;
        LessonView hidden(&quiet);
        QCOMPARE(hidden.stepCount(), 8);
        QCOMPARE(quiet.jobs()->runningCount(), 0);
        QVERIFY(hidden.tirView()->toPlainText().startsWith(QLatin1String("# Lowering")));
        QSignalSpy ready(&hidden, &LessonView::artifactsReady);
        hidden.show();
        QVERIFY(ready.wait(60000));
        QVERIFY(hidden.tirView()->toPlainText().contains(QLatin1String("for")));
    }

    /// The GPU ladder: its six steps, their kernels' TIR and PTX, no timing
    /// where there is no GPU (never a CPU emulation's time), and opening a
    /// step selects the CUDA target.
    void gpuLesson() {
        QComboBox* chooser = view_->lessonChooser();
        QCOMPARE(chooser->count(), 2);
        const int gpu = chooser->findData(resourcePath(QStringLiteral("examples/gemm-gpu")));
        QVERIFY(gpu >= 0);
        QVERIFY(chooser->itemText(gpu).contains(QLatin1String("GPU")));
        QSignalSpy ready(view_, &LessonView::artifactsReady);
        emit chooser->activated(gpu);
        QCOMPARE(view_->stepCount(), 6);
        QCOMPARE(view_->lesson().target, QStringLiteral("cuda -mcpu=sm_90"));
        QCOMPARE(cell(0, LessonTimes::Step), QStringLiteral("GPU GEMM ladder, step 1: bind loops to blocks and threads."));
        QVERIFY(cell(3, LessonTimes::Step).contains(QLatin1String("vectorised cooperative loads")));
        QVERIFY(cell(4, LessonTimes::Step).contains(QLatin1String("double buffering")));
        QVERIFY(cell(5, LessonTimes::Step).contains(QLatin1String("virtual threads")));
        QCOMPARE(view_->tabs()->tabText(3), QStringLiteral("PTX"));
        QVERIFY(view_->lesson().sourceUrl.endsWith(QLatin1String("opt_conv_cuda.html")));
        view_->selectStep(1);
        if (!view_->tirView()->toPlainText().contains(QLatin1String("thread_binding"))) QVERIFY(ready.wait(60000));
        QVERIFY2(view_->tirView()->toPlainText().contains(QLatin1String("T.thread_binding")),
                 qPrintable(view_->tirView()->toPlainText().left(400)));
        QVERIFY(view_->assemblyView()->toPlainText().contains(QLatin1String(".entry gemm_kernel0")));
        QVERIFY(view_->publishedText().contains(QLatin1String("Memory Hierarchy")));

        const std::string why = tessel::driver::whyCannotRun(tessel::codegen::resolveTarget("cuda -mcpu=sm_90"));
        if (why.empty()) {
            QVERIFY(view_->cannotMeasure().isEmpty());
            QVERIFY(view_->measureButton()->isEnabled());
        } else {
            // Said plainly, in the label, the button and the time column; nothing is run.
            QCOMPARE(view_->cannotMeasure(), QString::fromStdString(why));
            QVERIFY(!view_->measureButton()->isEnabled());
            QVERIFY2(view_->measuredText().startsWith(QLatin1String("Not timed here")), qPrintable(view_->measuredText()));
            QCOMPARE(cell(1, LessonTimes::Measured), QStringLiteral("no GPU"));
            QVERIFY2(view_->chart()->emptyText().contains(QLatin1String("need a GPU")), qPrintable(view_->chart()->emptyText()));
            view_->measure();
            QVERIFY(!view_->isMeasuring());
            QCOMPARE(session_.jobs()->runningCount(), 0);
        }
        saveShots(QStringLiteral("gpu-lesson"));

        // Opening a GPU step edits it for the GPU.
        QTest::mouseClick(view_->openButton(), Qt::LeftButton);
        QCOMPARE(session_.target(), QStringLiteral("cuda -mcpu=sm_90"));
        QVERIFY(session_.sourcePath().endsWith(QLatin1String("02_shared_tiles.te")));

        // Back to the CPU's ladder: timed again, its assembly tab named so.
        emit chooser->activated(chooser->findData(resourcePath(QStringLiteral("examples/gemm"))));
        QCOMPARE(view_->stepCount(), 8);
        QVERIFY(view_->measureButton()->isEnabled());
        QCOMPARE(view_->tabs()->tabText(3), QStringLiteral("Assembly"));
        QCOMPARE(cell(1, LessonTimes::Measured), QString());
        QVERIFY(view_->chart()->emptyText().isEmpty()); // the tutorial's bars
        session_.setTarget(QStringLiteral("host"));
    }

    void lineDiffMarksChanges() {
        LineDiffResult d = lineDiff(QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nx\nc\nd\n"));
        QCOMPARE(d.text(), QStringLiteral("  a\n- b\n+ x\n  c\n+ d\n"));
        QCOMPARE(d.added, 2);
        QCOMPARE(d.removed, 1);
        QCOMPARE(lineDiff(QString(), QStringLiteral("a\n")).text(), QStringLiteral("+ a\n"));
    }

    void cleanupTestCase() {
        delete view_;
        session_.jobs()->cancelAll();
    }
};

QTEST_MAIN(TestLessonView)
#include "tst_lessonview.moc"
