// The IDE as a user drives it: open the bundled example, pick a fused group
// in the graph and see its TIR, click a TIR line and see the linked assembly,
// type a schedule line with a typo (error mark), fix it (new TIR), undo, run
// (a latency), and switch the language to Korean (translated menus).

#include "shell/MainWindow.h"

#include "code/CodeView.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "graph/GraphItems.h"
#include "graph/GraphPanel.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"
#include "schedule/ScheduleEditor.h"

#include <QListWidget>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>

using namespace tessel::views;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void exampleGraphToCode();
    void scheduleTypoFixUndoRun();
    void koreanMenus();
    void badFilesAreMessages();

private:
    void clickLine(CodeEditor* e, int line);
    QTemporaryDir home_;
};

void TestMainWindow::initTestCase() {
    // Keep the user's settings and cache out of it.
    QStandardPaths::setTestModeEnabled(true);
    qputenv("XDG_CACHE_HOME", home_.filePath(QStringLiteral("cache")).toLocal8Bit());
    QCoreApplication::setOrganizationName(QStringLiteral("TesselTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
}

void TestMainWindow::clickLine(CodeEditor* e, int line) {
    e->revealLine(line);
    QCoreApplication::processEvents();
    QTextBlock b = e->document()->findBlockByNumber(line - 1);
    QRect r = e->cursorRect(QTextCursor(b));
    QTest::mouseClick(e->viewport(), Qt::LeftButton, {}, r.center() + QPoint(4, 0));
}

void TestMainWindow::exampleGraphToCode() {
    MainWindow w;
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy ready(&w, &MainWindow::modelReady);
    w.openExample();
    QVERIFY2(ready.wait(240000), "the example model did not compile");
    Session* s = w.session();
    QVERIFY(s->model());
    QVERIFY(s->jobs()->waitForIdle(120000));
    QVERIFY(!s->currentFunction().isEmpty());

    // Pick a node of another fused function in the graph, by a real click.
    GraphPanel* g = w.graphPanel();
    QTRY_VERIFY_WITH_TIMEOUT(g->document() && !g->layoutPending(), 30000);
    auto doc = g->document();
    int target = -1;
    for (size_t i = 0; i < doc->nodes.size(); ++i)
        if (!doc->nodes[i].function.isEmpty() && doc->nodes[i].function != s->currentFunction() &&
            doc->nodes[i].op == QLatin1String("Conv")) {
            target = int(i);
            break;
        }
    QVERIFY(target >= 0);
    QString function = doc->nodes[size_t(target)].function;
    QGraphicsItem* item = g->scene()->nodeItem(target);
    g->view()->centerOn(item);
    QPoint at = g->view()->mapFromScene(item->sceneBoundingRect().center());
    QTest::mouseClick(g->view()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(s->currentFunction(), function);

    // Its TIR reaches the code view.
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() && QString::fromStdString(s->artifacts()->name) == function, 60000);
    QVERIFY(s->jobs()->waitForIdle(60000));
    CodeView* code = w.codeView();
    QString tir = code->pane(CodeView::Tir)->toPlainText();
    QVERIFY2(tir.contains(function), qPrintable(tir.left(300)));
    QCOMPARE(tir.trimmed(), QString::fromStdString(s->artifacts()->build.tir).trimmed());
    // The generated texts open at the function, not at headers or constant pools.
    QString topAsm = code->pane(CodeView::Assembly)->cursorForPosition(QPoint(5, 5)).block().text();
    QVERIFY2(topAsm.startsWith(function + QLatin1Char(':')), qPrintable(topAsm));
    QString topIr = code->pane(CodeView::LlvmIr)->cursorForPosition(QPoint(5, 5)).block().text();
    QVERIFY2(topIr.startsWith(QLatin1String("define")) && topIr.contains(function), qPrintable(topIr));

    // Click a TIR line that became assembly: exactly its assembly lines light up.
    const auto& asmMap = s->artifacts()->build.assemblyLines;
    int tirLine = 0;
    for (int l = 1; l < int(asmMap.fromTir.size()); ++l)
        if (asmMap.linesOf(l).size() >= 2) {
            tirLine = l;
            break;
        }
    QVERIFY(tirLine > 0);
    QTRY_VERIFY(code->linksReady());
    clickLine(code->pane(CodeView::Tir), tirLine);
    QList<int> lit = code->linkedLines(CodeView::Assembly).keys();
    QList<int> expected(asmMap.linesOf(tirLine).begin(), asmMap.linesOf(tirLine).end());
    QCOMPARE(lit, expected);
    QVERIFY(code->linkedLines(CodeView::Tir).contains(tirLine));
    // One colour for one TIR line, in every pane.
    QColor c = code->linkedLines(CodeView::Tir).value(tirLine);
    for (int l : lit) QCOMPARE(code->linkedLines(CodeView::Assembly).value(l), c);

    // An edited schedule (this function made serial) is used when the whole
    // model is compiled and run.
    QString script = QString::fromStdString(s->model()->findFunction(function.toStdString())->script);
    QStringList lines = script.split(QLatin1Char('\n'));
    qsizetype before = lines.size();
    lines.removeIf([](const QString& l) { return l.contains(QLatin1String(".parallel(")); });
    QVERIFY(lines.size() < before);
    s->setEditedSchedule(function, lines.join(QLatin1Char('\n')));
    int shown = w.messages()->count();
    w.compileAndRunModel();
    auto lastMessage = [&] { return w.messages()->item(w.messages()->count() - 1)->text(); };
    QTRY_VERIFY_WITH_TIMEOUT(w.messages()->count() > shown && !s->jobs()->isRunning(QStringLiteral("run-model")), 180000);
    QVERIFY2(lastMessage().contains(QStringLiteral("edited schedules: 1")) && lastMessage().contains(QStringLiteral(" ms")),
             qPrintable(lastMessage()));
}

void TestMainWindow::scheduleTypoFixUndoRun() {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("small_gemm.te"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("M = 128\nN = 128\nK = 128\n"
                "k = te.reduce_axis((0, K), \"k\")\n"
                "A = te.placeholder((M, K), name=\"A\")\n"
                "B = te.placeholder((K, N), name=\"B\")\n"
                "C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name=\"C\")\n"
                "s = te.create_schedule(C.op)\n"
                "xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 32, 32)\n"
                "s[C].reorder(xo, yo, k, xi, yi)");
    }
    MainWindow w;
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Session* s = w.session();
    QVERIFY(w.openScript(path));
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() != nullptr, 60000);
    QVERIFY(s->jobs()->waitForIdle(60000));
    const QString original = QString::fromStdString(s->artifacts()->build.tir);
    QVERIFY(!original.contains(QStringLiteral("vectorized")));

    ScheduleEditor* sched = w.scheduleEditor();
    CodeEditor* ed = sched->editor();
    const QString originalText = ed->toPlainText();
    ed->setFocus();
    QTest::keyClick(ed, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClick(ed, Qt::Key_Return);
    QTest::keyClicks(ed, QStringLiteral("s[C].vectorise(yi)"));
    const int typoLine = ed->document()->blockCount();
    QTRY_VERIFY_WITH_TIMEOUT(!ed->marks().isEmpty(), 30000);
    QVERIFY(s->jobs()->waitForIdle(30000));
    QCOMPARE(ed->marks().first().line, typoLine);
    QVERIFY2(ed->marks().first().message.contains(QStringLiteral("vectorise")), qPrintable(ed->marks().first().message));
    // The previous result stays in the code view while the script is wrong.
    QCOMPARE(QString::fromStdString(s->artifacts()->build.tir), original);
    QCOMPARE(w.codeView()->pane(CodeView::Tir)->toPlainText().trimmed(), original.trimmed());

    // Fix the typo: "vectorise(yi)" -> "vectori" + "ze(yi)".
    for (int i = 0; i < 6; ++i) QTest::keyClick(ed, Qt::Key_Backspace);
    QTest::keyClicks(ed, QStringLiteral("ze(yi)"));
    QTRY_VERIFY2_WITH_TIMEOUT(ed->marks().isEmpty() && s->jobs()->runningCount() == 0 &&
                                  QString::fromStdString(s->artifacts()->build.tir) != original,
                              qPrintable(ed->toPlainText() + QLatin1Char('\n') + sched->statusText()), 30000);
    QString vectorized = QString::fromStdString(s->artifacts()->build.tir);
    QVERIFY2(vectorized.contains(QStringLiteral("T.Ramp(")),
             qPrintable(vectorized));
    QTRY_COMPARE_WITH_TIMEOUT(w.codeView()->pane(CodeView::Tir)->toPlainText().trimmed(), vectorized.trimmed(), 10000);

    // Undo back to the file as opened: the TIR follows.
    for (int i = 0; i < 20 && ed->toPlainText() != originalText; ++i) QTest::keyClick(ed, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(ed->toPlainText(), originalText);
    QTRY_VERIFY_WITH_TIMEOUT(s->jobs()->runningCount() == 0 &&
                                 QString::fromStdString(s->artifacts()->build.tir) == original,
                             30000);
    // Back at a TIR it has built before: the texts came from the cache, no LLVM run.
    QVERIFY(sched->artifactCache() && sched->artifactCache()->hits() > 0);

    // Run: a latency, GFLOP/s and a correct result, in the history.
    QSignalSpy finished(sched, &ScheduleEditor::runFinished);
    sched->run();
    QVERIFY(finished.wait(120000));
    auto rec = sched->lastRun();
    QVERIFY(rec.has_value());
    QVERIFY2(rec->error.isEmpty(), qPrintable(rec->error));
    QVERIFY(rec->latencyMs > 0);
    QVERIFY(rec->gflops > 0);
    QVERIFY(rec->correct);
    QCOMPARE(sched->runs().size(), 1);

    // A language switch rebuilds the views: an unsaved edit survives it.
    QTest::keyClick(ed, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClick(ed, Qt::Key_Return);
    QTest::keyClicks(ed, QStringLiteral("# kept"));
    w.setLanguage(QStringLiteral("ko"));
    QVERIFY(w.scheduleEditor()->script().endsWith(QStringLiteral("# kept")));
    w.setLanguage(QStringLiteral("en"));
    QVERIFY(w.scheduleEditor()->script().endsWith(QStringLiteral("# kept")));
}

void TestMainWindow::koreanMenus() {
    MainWindow w;
    w.show();
    QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
    w.setLanguage(QStringLiteral("ko"));
    QString file = w.menuBar()->actions().first()->text();
    QVERIFY2(file != QStringLiteral("&File"), "the File menu was not translated");
    auto hangul = [](const QString& t) {
        return std::any_of(t.begin(), t.end(), [](QChar c) { return c.unicode() >= 0xAC00 && c.unicode() <= 0xD7A3; });
    };
    for (QAction* a : w.menuBar()->actions()) QVERIFY2(hangul(a->text()), qPrintable(a->text()));
    // The rebuilt views speak Korean too.
    QVERIFY(w.graphPanel() && w.codeView() && w.scheduleEditor());
    w.setLanguage(QStringLiteral("en"));
    QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
}

void TestMainWindow::badFilesAreMessages() {
    MainWindow w;
    w.show();
    QSignalSpy failed(&w, &MainWindow::openFailed);
    w.openModel(QStringLiteral(TESSEL_SOURCE_DIR "/tests/error/truncated_model.onnx"));
    QVERIFY(failed.wait(30000));
    QVERIFY(w.messages()->count() >= 1);
    QVERIFY(!w.session()->model());
    QVERIFY(!w.openFile(QStringLiteral("/nonexistent/model.onnx")));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
