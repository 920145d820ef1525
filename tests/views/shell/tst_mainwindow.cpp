// The IDE as a user drives it: open the bundled example, pick a fused group
// in the graph and see its TIR, click a TIR line and see the linked assembly,
// type a schedule line with a typo (error mark), fix it (new TIR), undo, run
// (a latency), and switch the language to Korean (translated menus). The
// window at real screen sizes (1366 x 768, 1920 x 1080): every code pane
// readable, the maximise key, and room for the lesson when it is chosen.

#include "shell/MainWindow.h"

#include "code/CodeView.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/MessageLog.h"
#include "codegen/Target.h"
#include "common/TuneConfigs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "graph/GraphItems.h"
#include "graph/GraphPanel.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"
#include "graph/NodeProperties.h"
#include "lesson/LessonView.h"
#include "schedule/ScheduleEditor.h"
#include "shell/InputShapesDialog.h"

#include "frontend/OnnxBytes.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QTabBar>
#include <QStatusBar>
#include <QTreeWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include "driver/ApplyBest.h"

#include <QtTest>

#include <memory>

using namespace tessel::views;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void exampleGraphToCode();
    void scheduleTypoFixUndoRun();
    void koreanMenus();
    void badFilesAreMessages();
    void uncompilableModelOpensAsAGraph();
    void controlFlowModelListsItsFunctions();
    void firstWindowFitsTheScreen();
    void viewRegistryDrivesTheWindow();
    void dynamicWidthModelThroughTheDialog();
    void theTargetReachesEveryCompile();
    void readableAtRealScreenSizes_data();
    void readableAtRealScreenSizes();
    void aMaximisedViewGivesWayToChoices();
    void gpuKernelAtRealScreenSizes_data();
    void gpuKernelAtRealScreenSizes();

private:
    void clickLine(CodeEditor* e, int line);
    /// Clicks box `index` of the graph's drawing (scrolled to it first).
    static void clickNode(GraphPanel* g, int index);
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

void TestMainWindow::clickNode(GraphPanel* g, int index) {
    QGraphicsItem* item = g->scene()->nodeItem(index);
    g->view()->centerOn(item);
    QTest::mouseClick(g->view()->viewport(), Qt::LeftButton, {}, g->view()->mapFromScene(item->sceneBoundingRect().center()));
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

    // The example opens with the bundled tuned configurations (like TVM's
    // TopHub): on a machine of a kind they were tuned on (architecture and
    // vector width) every tunable function of ResNet-18 takes one; elsewhere
    // none fits and all keep the default.
    QVERIFY(!MainWindow::bundledRecords().isEmpty());
    QCOMPARE(s->recordsPath(), MainWindow::bundledRecords());
    auto countTuned = [&](int* tunable) {
        int tuned = 0;
        *tunable = 0;
        for (const auto& f : s->model()->functions) {
            *tunable += !f.knobs.empty();
            tuned += f.tuned;
        }
        return tuned;
    };
    int tunable = 0;
    const int tuned = countTuned(&tunable);
    QVERIFY(tunable > 0);
    // Those whose workload key (operator, shapes, kernel versions, target
    // kind) has a bundled record; none where the records are of another
    // machine kind or an older kernel.
    const auto bundled = tessel::driver::bestConfigsFor(
        tessel::driver::loadRecords(MainWindow::bundledRecords().toStdString()), tessel::codegen::hostTarget());
    int covered = 0;
    for (const auto& f : s->model()->functions) covered += !f.knobs.empty() && bundled.configs.count(f.workload);
    QCOMPARE(tuned, covered);
    QVERIFY2(s->messages()->lastText().contains(QStringLiteral("%1 of %2 tunable functions tuned").arg(tuned).arg(tunable)) ||
                 tuned == 0,
             qPrintable(s->messages()->lastText()));
    // Switched off, the model compiles again with the default schedules.
    QSignalSpy again(&w, &MainWindow::modelReady);
    s->setRecordsPath(QString());
    QVERIFY2(again.wait(240000), "the model did not compile again");
    QCOMPARE(countTuned(&tunable), 0);
    QVERIFY(s->jobs()->waitForIdle(120000));
    // A configuration chosen for one workload (a record opened in the Tuning
    // view) applies to the functions of that workload alone.
    std::string workload;
    Session::KnobChoices choice;
    int sharing = 0;
    for (const auto& f : s->model()->functions)
        if (!f.knobs.empty() && workload.empty()) {
            workload = f.workload;
            choice = tessel::test::otherThanDefault(f.knobs);
        }
    for (const auto& f : s->model()->functions) sharing += f.workload == workload;
    QSignalSpy chosen(&w, &MainWindow::modelReady);
    s->setChosenConfig(workload, choice);
    QVERIFY2(chosen.wait(240000), "the model did not compile with the chosen configuration");
    QCOMPARE(countTuned(&tunable), sharing);
    QSignalSpy unchosen(&w, &MainWindow::modelReady);
    s->setChosenConfig(workload, {});
    QVERIFY(unchosen.wait(240000));
    QCOMPARE(countTuned(&tunable), 0);
    QVERIFY(s->jobs()->waitForIdle(120000));

    // Pick a node of another fused function in the graph, by a real click.
    GraphPanel* g = w.view<GraphPanel>();
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
    clickNode(g, target);
    QCOMPARE(s->currentFunction(), function);

    // Its TIR reaches the code view.
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() && QString::fromStdString(s->artifacts()->name) == function, 60000);
    QVERIFY(s->jobs()->waitForIdle(60000));
    CodeView* code = w.view<CodeView>();
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
    MessageLog* log = s->messages();
    int shown = log->count();
    w.compileAndRunModel();
    auto lastMessage = [&] { return log->lastText(); };
    QTRY_VERIFY_WITH_TIMEOUT(log->count() > shown && !s->jobs()->isRunning(QStringLiteral("run-model")), 180000);
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

    ScheduleEditor* sched = w.view<ScheduleEditor>();
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
    QCOMPARE(w.view<CodeView>()->pane(CodeView::Tir)->toPlainText().trimmed(), original.trimmed());

    // Fix the typo: "vectorise(yi)" -> "vectori" + "ze(yi)".
    for (int i = 0; i < 6; ++i) QTest::keyClick(ed, Qt::Key_Backspace);
    QTest::keyClicks(ed, QStringLiteral("ze(yi)"));
    QTRY_VERIFY2_WITH_TIMEOUT(ed->marks().isEmpty() && s->jobs()->runningCount() == 0 &&
                                  QString::fromStdString(s->artifacts()->build.tir) != original,
                              qPrintable(ed->toPlainText() + QLatin1Char('\n') + sched->document()->statusText()), 30000);
    QString vectorized = QString::fromStdString(s->artifacts()->build.tir);
    QVERIFY2(vectorized.contains(QStringLiteral("T.Ramp(")),
             qPrintable(vectorized));
    QTRY_COMPARE_WITH_TIMEOUT(w.view<CodeView>()->pane(CodeView::Tir)->toPlainText().trimmed(), vectorized.trimmed(), 10000);

    // Undo back to the file as opened: the TIR follows.
    for (int i = 0; i < 20 && ed->toPlainText() != originalText; ++i) QTest::keyClick(ed, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(ed->toPlainText(), originalText);
    QTRY_VERIFY_WITH_TIMEOUT(s->jobs()->runningCount() == 0 &&
                                 QString::fromStdString(s->artifacts()->build.tir) == original,
                             30000);
    // Back at a TIR it has built before: the texts came from the cache, no LLVM run.
    QVERIFY(sched->document()->artifactCache() && sched->document()->artifactCache()->hits() > 0);

    // Run: a latency, GFLOP/s and a correct result, in the history.
    ScheduleDocument* doc = sched->document();
    QSignalSpy finished(doc, &ScheduleDocument::runFinished);
    doc->run();
    QVERIFY(finished.wait(120000));
    auto rec = doc->lastRun();
    QVERIFY(rec.has_value());
    QVERIFY2(rec->error.isEmpty(), qPrintable(rec->error));
    QVERIFY(rec->latencyMs > 0);
    QVERIFY(rec->gflops > 0);
    QVERIFY(rec->correct);
    QCOMPARE(doc->runs().size(), 1);

    // A language switch rebuilds the views: an unsaved edit survives it.
    QTest::keyClick(ed, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClick(ed, Qt::Key_Return);
    QTest::keyClicks(ed, QStringLiteral("# kept"));
    w.setLanguage(QStringLiteral("ko"));
    QVERIFY(w.view<ScheduleEditor>()->document()->text().endsWith(QStringLiteral("# kept")));
    w.setLanguage(QStringLiteral("en"));
    QVERIFY(w.view<ScheduleEditor>()->document()->text().endsWith(QStringLiteral("# kept")));
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
    QVERIFY(w.view<GraphPanel>() && w.view<CodeView>() && w.view<ScheduleEditor>());
    w.setLanguage(QStringLiteral("en"));
    QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
}

void TestMainWindow::badFilesAreMessages() {
    MainWindow w;
    w.show();
    QSignalSpy failed(&w, &MainWindow::openFailed);
    w.openModel(QStringLiteral(TESSEL_SOURCE_DIR "/tests/error/truncated_model.onnx"));
    QVERIFY(failed.wait(30000));
    QVERIFY(w.session()->messages()->count() >= 1);
    QVERIFY(!w.session()->model());
    QVERIFY(!w.openFile(QStringLiteral("/nonexistent/model.onnx")));
}

namespace {
QByteArray dynamicWidthModel();
} // namespace

void TestMainWindow::controlFlowModelListsItsFunctions() {
    // Issue 20: a model with a Loop whose body holds an If opened with its
    // subgraphs as clusters, and the code view had no function to show. Now
    // every region's fused functions are the model's, named by their
    // subgraph's path; a box inside a cluster selects its function, whose
    // texts are made on a worker like any model's.
    MainWindow w;
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy ready(&w, &MainWindow::modelReady);
    Session* s = w.session();
    QVERIFY(w.openFile(QStringLiteral(TESSEL_SOURCE_DIR "/tests/frontend/models/controlflow/loop_nested_if.onnx")));
    QVERIFY2(ready.wait(120000), qPrintable(s->messages()->lastText()));
    QVERIFY(s->model() && s->model()->program);
    QStringList names;
    QString body, branch;
    for (const auto& f : s->model()->functions) {
        const QString name = QString::fromStdString(f.name);
        names << name;
        if (name.startsWith(QLatin1String("outer/body/inner/then_branch/"))) branch = name;
        else if (name.startsWith(QLatin1String("outer/body/")) && f.region.size() == 1) body = name;
    }
    QVERIFY2(!body.isEmpty() && !branch.isEmpty(), qPrintable(names.join(QLatin1String(", "))));
    QVERIFY(s->jobs()->waitForIdle(60000));
    // A function is selected when the model opens, so the code view shows code.
    CodeView* code = w.view<CodeView>();
    QVERIFY(names.contains(s->currentFunction()));
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() && !code->showsPlaceholder(), 60000);

    // The If branch's box, inside its nested cluster, selects its function.
    GraphPanel* g = w.view<GraphPanel>();
    QTRY_VERIFY_WITH_TIMEOUT(g->document() && !g->layoutPending(), 30000);
    auto doc = g->document();
    int target = -1;
    for (size_t i = 0; i < doc->nodes.size(); ++i)
        if (doc->nodes[i].function == branch) target = int(i);
    QVERIFY2(target >= 0 && doc->nodes[size_t(target)].subgraph >= 0, qPrintable(branch));
    QCOMPARE(doc->nodes[size_t(target)].op, QStringLiteral("Add"));
    clickNode(g, target);
    QCOMPARE(s->currentFunction(), branch);
    const std::string symbol = s->model()->findFunction(branch.toStdString())->lowered.name;
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() && s->artifacts()->name == symbol && s->artifacts()->hasAssembly, 60000);
    QVERIFY(s->jobs()->waitForIdle(60000));
    for (CodeView::Pane p : {CodeView::Te, CodeView::Tir, CodeView::LlvmIr, CodeView::Assembly})
        QVERIFY2(!code->pane(p)->toPlainText().trimmed().isEmpty(), qPrintable(code->paneName(p)));
    QVERIFY(code->pane(CodeView::Tir)->toPlainText().contains(QString::fromStdString(symbol)));
    QVERIFY(code->pane(CodeView::Te)->toPlainText().contains(QLatin1String("create_schedule")));
    if (const QByteArray dir = qgetenv("TESSEL_SCREENSHOT_DIR"); !dir.isEmpty())
        w.grab().save(QString::fromLocal8Bit(dir) + "/mainwindow-controlflow-functions.png");
    // And the Loop body's function, selected as the Properties panel does.
    s->selectFunction(body);
    const std::string bodySymbol = s->model()->findFunction(body.toStdString())->lowered.name;
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() && s->artifacts()->name == bodySymbol &&
                                 !s->artifacts()->build.llvmIR.empty(),
                             60000);
}

void TestMainWindow::uncompilableModelOpensAsAGraph() {
    // A model with an If (subgraphs) and a custom-domain operator opens with
    // its graph drawn, the opaque nodes marked and every unsupported
    // construct in the log, on a worker (the window keeps painting).
    MainWindow w;
    w.resize(1440, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy ready(&w, &MainWindow::modelReady);
    QSignalSpy failed(&w, &MainWindow::openFailed);
    Session* s = w.session();
    const int before = s->messages()->count();
    QVERIFY(w.openFile(QStringLiteral(TESSEL_SOURCE_DIR "/tests/frontend/models/if.onnx")));
    QVERIFY2(ready.wait(60000), qPrintable(s->messages()->lastText()));
    QCOMPARE(failed.count(), 0);
    QVERIFY(s->model() && s->model()->functions.empty());
    QCOMPARE(s->model()->unsupported.size(), size_t(1)); // in the else branch: an If compiles
    QVERIFY(s->jobs()->waitForIdle(60000));
    // The log names the construct, nested in the If's else branch, with its path.
    QStringList logged;
    for (int i = before; i < s->messages()->count(); ++i) logged << s->messages()->at(i).text;
    const QString all = logged.join('\n');
    QVERIFY2(all.contains("node 'choose' (If) / else_branch / node 'else_custom' (com.example.Wobble)"),
             qPrintable(all));
    GraphPanel* g = w.view<GraphPanel>();
    QVERIFY(g && g->document());
    QTRY_VERIFY_WITH_TIMEOUT(g->scene()->nodeItemCount() == int(g->document()->nodes.size()), 30000);
    int marked = 0;
    for (int i = 0; i < g->scene()->nodeItemCount(); ++i) marked += g->scene()->nodeItem(i)->isUnsupported();
    QCOMPARE(marked, 1);
    QCOMPARE(g->scene()->clusterItemCount(), 2);
    // The graph is all there is to see: it gets the room (the layout rule:
    // the code view, with nothing to show, gives its room up and is hidden;
    // Properties, not the empty schedule editor, below) and shows the whole
    // drawing at a readable zoom, where its default dock cut the If off at the
    // bottom. (At 1440 x 900, 100 % would cost Properties its six rows.)
    QWidget* code = w.view(QStringLiteral("CodeView"));
    QDockWidget* graphDock = w.dock(QStringLiteral("GraphDock"));
    GraphView* gv = g->view();
    auto wholeGraphShown = [&] {
        const QRectF shown = gv->mapToScene(gv->viewport()->rect()).boundingRect();
        return shown.contains(g->scene()->itemsBoundingRect());
    };
    QTRY_VERIFY_WITH_TIMEOUT(!code->isVisible() && wholeGraphShown(), 10000);
    QTest::qWait(50); // the layout rule's last rounds
    if (const QByteArray dir = qgetenv("TESSEL_SCREENSHOT_DIR"); !dir.isEmpty())
        w.grab().save(QString::fromLocal8Bit(dir) + "/mainwindow-unsupported-if.png");
    QVERIFY2(wholeGraphShown() && gv->zoom() >= 0.7 && gv->height() > graphDock->height() / 2,
             qPrintable(QStringLiteral("zoom %1, view %2 x %3, drawing %4 x %5")
                            .arg(gv->zoom())
                            .arg(gv->viewport()->width())
                            .arg(gv->viewport()->height())
                            .arg(g->scene()->itemsBoundingRect().width())
                            .arg(g->scene()->itemsBoundingRect().height())));
    QVERIFY(w.windowLayout()->isUseful(QStringLiteral("GraphDock")));
    QVERIFY(w.maximisedView().isEmpty()); // beside the others: Messages and Properties stay
    QVERIFY(w.dock(QStringLiteral("MessagesDock"))->isVisible());
    QVERIFY(!w.dock(QStringLiteral("PropertiesDock"))->visibleRegion().isEmpty());
    // With nothing selected, Properties shows what there is to know of the
    // model (issue 21: "Nothing selected" over two empty rows): its operators
    // by kind, subgraphs, inputs, outputs, and what cannot compile and why.
    auto* properties = w.view<NodeProperties>();
    QVERIFY(properties->selection().empty());
    QCOMPARE(properties->value(QStringLiteral("Model")), QStringLiteral("if.onnx"));
    QCOMPARE(properties->value(QStringLiteral("Operators")), QStringLiteral("6 (3 in subgraphs)"));
    QCOMPARE(properties->value(QStringLiteral("Subgraphs")), QStringLiteral("2"));
    QCOMPARE(properties->value(QStringLiteral("Inputs")), QStringLiteral("2"));
    QCOMPARE(properties->value(QStringLiteral("Outputs")), QStringLiteral("1"));
    QCOMPARE(properties->value(QStringLiteral("Fused functions")), QStringLiteral("none (the model cannot be compiled)"));
    QCOMPARE(properties->value(QStringLiteral("Cannot compile")), QStringLiteral("1 construct(s)"));
    const QString summary = properties->text();
    QVERIFY2(summary.contains(QStringLiteral("com.example.Wobble: 1")) && summary.contains(QStringLiteral("If: 1")) &&
                 summary.contains(QStringLiteral("choose / else_branch: 2 operator(s)")) &&
                 summary.contains(QStringLiteral("node 'choose' (If) / else_branch / node 'else_custom' "
                                                 "(com.example.Wobble): operator domain 'com.example' is not supported")),
             qPrintable(summary));
    // The six rows its record asks for on screen at 1440 x 900 (issue 21:
    // four were, the messages dock kept its minimum height above its useful size).
    QTreeWidget* rows = properties->tree();
    QVERIFY(rows->topLevelItemCount() >= 7);
    QTreeWidgetItem* sixth = rows->topLevelItem(0); // rows as drawn: an expanded row's children count
    for (int i = 1; i < 6 && sixth; ++i) sixth = rows->itemBelow(sixth);
    QVERIFY(sixth);
    QVERIFY2(rows->visualItemRect(sixth).bottom() <= rows->viewport()->height(),
             qPrintable(QStringLiteral("%1 px of rows, row 6 ends at %2; messages dock %3 px")
                            .arg(rows->viewport()->height())
                            .arg(rows->visualItemRect(sixth).bottom())
                            .arg(w.dock(QStringLiteral("MessagesDock"))->height())));
    QVERIFY(w.windowLayout()->isUseful(QStringLiteral("PropertiesDock")));
    QVERIFY(w.windowLayout()->isUseful(QStringLiteral("MessagesDock")));
    // The stage box shows every stage's name whole when it is the one shown
    // (it showed "importec"), however squeezed its toolbar, and its list
    // every name whole.
    auto stageNamesWhole = [](GraphPanel* panel) {
        QComboBox* stage = panel->stageBox();
        const int shown = stage->currentIndex();
        QString cut;
        for (int i = 0; i < stage->count(); ++i) {
            stage->setCurrentIndex(i);
            QCoreApplication::processEvents();
            const int text = stage->fontMetrics().horizontalAdvance(stage->itemText(i));
            if (stage->width() < text + 16)
                cut += QStringLiteral("'%1' in %2 px; ").arg(stage->itemText(i)).arg(stage->width());
            if (stage->view()->minimumWidth() < text)
                cut += QStringLiteral("'%1' in its list; ").arg(stage->itemText(i));
        }
        stage->setCurrentIndex(shown);
        return cut;
    };
    QCOMPARE(stageNamesWhole(g), QString());
    // A language change rebuilds the views (a new code view too): the graph keeps the room.
    w.setLanguage(QStringLiteral("ko"));
    QTRY_VERIFY_WITH_TIMEOUT(!w.view(QStringLiteral("CodeView"))->isVisible() && w.windowLayout()->centralGivenAway(),
                             10000);
    w.setLanguage(QStringLiteral("en"));
    QTRY_VERIFY_WITH_TIMEOUT(!w.view(QStringLiteral("CodeView"))->isVisible(), 10000);
    code = w.view(QStringLiteral("CodeView"));
    // Running it says why it cannot run, naming the construct, and does not crash.
    const int shown = s->messages()->count();
    w.compileAndRunModel();
    QTRY_VERIFY_WITH_TIMEOUT(s->messages()->count() > shown && !s->jobs()->isRunning(QStringLiteral("run-model")), 60000);
    QVERIFY2(s->messages()->lastText().contains("node 'choose' (If) / else_branch / node 'else_custom'"),
             qPrintable(s->messages()->lastText()));

    // A model that compiles: the layout from before comes back, the code view with it.
    QTemporaryDir dir;
    const QString stem = dir.filePath(QStringLiteral("stem.onnx"));
    {
        QFile f(stem);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(dynamicWidthModel());
    }
    QSignalSpy compiled(&w, &MainWindow::modelReady);
    w.openModel(stem, {{QStringLiteral("x"), QStringLiteral("1,3,48,64")}});
    QVERIFY2(compiled.wait(120000), qPrintable(s->messages()->lastText()));
    QVERIFY(!s->model()->functions.empty());
    QTRY_VERIFY(code->isVisible());
    QVERIFY(!w.windowLayout()->centralGivenAway());
    QVERIFY2(graphDock->height() < w.height() / 2, qPrintable(QString::number(graphDock->height())));
    QVERIFY(s->jobs()->waitForIdle(60000));
    if (const QByteArray shots = qgetenv("TESSEL_SCREENSHOT_DIR"); !shots.isEmpty())
        w.grab().save(QString::fromLocal8Bit(shots) + "/mainwindow-after-unsupported.png");
    // Every stage of a compiled model ("after fold-constant (unchanged)"), in English and Korean.
    QVERIFY(w.view<GraphPanel>()->stageBox()->count() > 2);
    QCOMPARE(stageNamesWhole(w.view<GraphPanel>()), QString());
    w.setLanguage(QStringLiteral("ko"));
    QVERIFY(w.view<GraphPanel>()->stageBox()->itemText(0) != QStringLiteral("imported"));
    QCOMPARE(stageNamesWhole(w.view<GraphPanel>()), QString());
    QVERIFY(s->jobs()->waitForIdle(60000));
    w.setLanguage(QStringLiteral("en"));
}

void TestMainWindow::firstWindowFitsTheScreen() {
    // The sizing rule: the preferred 1440 x 900 where it fits with room for a
    // frame, else what fits, centred in the free area.
    QCOMPARE(fitWindowToScreen(QSize(1440, 900), QRect(0, 0, 1920, 1080)).size(), QSize(1440, 900));
    const QRect laptop(0, 0, 1366, 768 - 32); // a 1366 x 768 screen with a panel
    const QRect fitted = fitWindowToScreen(QSize(1440, 900), laptop);
    QVERIFY(laptop.contains(fitted.adjusted(-8, -40, 8, 8)));
    QVERIFY(fitted.width() >= 1300 && fitted.height() >= 650);
    QCOMPARE(fitWindowToScreen(QSize(1440, 900), QRect(1920, 0, 1366, 768)).left() >= 1920, true);

    // A first window (no saved geometry) on a small screen: the offscreen
    // platform's is 800 x 600. The messages and the status bar are on it.
    QSettings().remove(QStringLiteral("window"));
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QRect screen = w.screen()->availableGeometry();
    QVERIFY2(screen.contains(w.frameGeometry()), qPrintable(QStringLiteral("window %1x%2 on a %3x%4 screen")
                                                                 .arg(w.frameGeometry().width())
                                                                 .arg(w.frameGeometry().height())
                                                                 .arg(screen.width())
                                                                 .arg(screen.height())));
    auto onScreen = [&](QWidget* widget) {
        return screen.contains(QRect(widget->mapToGlobal(QPoint(0, 0)), widget->size()));
    };
    QVERIFY(onScreen(w.statusBar()));
    QVERIFY(w.dock(QStringLiteral("MessagesDock"))->isVisible());
    QVERIFY(onScreen(w.dock(QStringLiteral("MessagesDock"))));
}

void TestMainWindow::viewRegistryDrivesTheWindow() {
    // Every built-in view has a record; the docks, the View menu and the
    // titles come from the records.
    const ViewRegistry builtin = builtinViews();
    for (const char* id : {"CodeView", "GraphDock", "PropertiesDock", "StagesDock", "ScheduleDock", "LessonDock",
                           "MessagesDock"})
        QVERIFY2(builtin.find(QString::fromLatin1(id)), id);

    // A view added as one record: a dock, a View menu entry, a translated
    // title, a screenshot, and it is rebuilt on a language change.
    ViewRegistry views = builtinViews();
    ViewRecord extra;
    extra.id = QStringLiteral("ExtraDock");
    extra.title = QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Messages"); // a title with translations
    extra.placement.area = Qt::RightDockWidgetArea;
    extra.placement.tabWith = QStringLiteral("GraphDock");
    extra.screenshot = QStringLiteral("extra");
    extra.create = [](Session*, QWidget* parent) -> QWidget* {
        auto* label = new QLabel(QStringLiteral("an extra view"), parent);
        label->setObjectName(QStringLiteral("ExtraView"));
        return label;
    };
    int linked = 0;
    extra.link = [&linked](QWidget* self, const ViewLookup& find) {
        if (self && qobject_cast<GraphPanel*>(find(QStringLiteral("GraphDock")))) ++linked;
    };
    views.add(extra);
    MainWindow w(nullptr, views);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(linked, 1);
    QDockWidget* d = w.dock(QStringLiteral("ExtraDock"));
    QVERIFY(d);
    QCOMPARE(d->widget(), w.view(QStringLiteral("ExtraDock")));
    QCOMPARE(d->windowTitle(), QStringLiteral("Messages"));
    QMenu* viewMenu = w.menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    QVERIFY(viewMenu);
    QStringList entries;
    for (QAction* a : viewMenu->actions())
        if (!a->isSeparator()) entries << a->text();
    // The docks (not the central view) + Maximise Pane + Reset Layout.
    QCOMPARE(entries.size(), int(views.records().size()) - 1 + 2);
    QVERIFY(viewMenu->actions().contains(w.maximiseAction()));
    QAction* extraAction = viewMenu->findChild<QAction*>(QStringLiteral("ViewAction_ExtraDock"));
    QVERIFY(extraAction && viewMenu->actions().contains(extraAction));
    QCOMPARE(extraAction->text(), QStringLiteral("Messages"));
    QCOMPARE(w.tabifiedDockWidgets(w.dock(QStringLiteral("GraphDock"))).contains(d), true);

    QTemporaryDir shots;
    const QStringList files = w.saveScreenshots(shots.path());
    QVERIFY(files.contains(shots.filePath(QStringLiteral("extra.png"))));
    QVERIFY(files.contains(shots.filePath(QStringLiteral("lesson.png"))));
    QCOMPARE(w.dock(QStringLiteral("ExtraDock"))->isFloating(), false); // the layout is back

    w.setLanguage(QStringLiteral("ko"));
    QVERIFY(d->windowTitle() != QStringLiteral("Messages"));
    QCOMPARE(d->windowTitle(), w.dock(QStringLiteral("MessagesDock"))->windowTitle());
    QVERIFY(w.view(QStringLiteral("ExtraDock")) && d->widget() == w.view(QStringLiteral("ExtraDock")));
    QCOMPARE(linked, 2);
    w.setLanguage(QStringLiteral("en"));
}

namespace {

/// An OCR-style stem, y = Relu(Conv(x, w)) with x: float32[1, 3, 48, W]: the
/// width is dynamic, as in text recognition models.
QByteArray dynamicWidthModel() {
    namespace ob = onnxbytes;
    std::string weights;
    for (int i = 0; i < 4 * 3 * 3 * 3; ++i) {
        const float v = float((i * 7) % 11 - 5) / 10.0f;
        weights.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    const std::string bytes = ob::model(
        ob::graph({ob::node("Conv", {"x", "w"}, {"c"}, "conv"), ob::node("Relu", {"c"}, {"y"}, "relu")},
                  {ob::valueInfoNamed("x", ob::kFloat, {1, 3, 48, -1}, {"", "", "", "W"})},
                  {ob::valueInfo("y", ob::kFloat, {}, false)},
                  {ob::tensorRaw("w", ob::kFloat, {4, 3, 3, 3}, weights)}),
        13);
    return QByteArray::fromStdString(bytes);
}

} // namespace

void TestMainWindow::dynamicWidthModelThroughTheDialog() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("ocr_stem.onnx"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(dynamicWidthModel());
    }
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy ready(&w, &MainWindow::modelReady);
    QSignalSpy failed(&w, &MainWindow::openFailed);
    w.openModel(path);
    InputShapesDialog* dlg = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dlg = w.findChild<InputShapesDialog*>()) != nullptr, 30000);
    QLineEdit* field = dlg->field(QStringLiteral("x"));
    QVERIFY(field);
    // The model's hint: an image 48 high with a free width is a text line, 320 wide.
    QCOMPARE(field->text(), QStringLiteral("1,3,48,320"));
    auto* ok = dlg->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY2(ok->isEnabled(), qPrintable(dlg->errorText())); // a shape that compiles, as suggested
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("1,3,48,"));
    QVERIFY(!ok->isEnabled()); // not a shape yet
    QTest::keyClicks(field, QStringLiteral("320"));
    QVERIFY2(ok->isEnabled(), qPrintable(dlg->errorText()));
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY2(ready.wait(120000), qPrintable(w.session()->messages()->lastText()));
    QCOMPARE(failed.count(), 0);

    // Its fused graph: the convolution and its ReLU, one function, at the given width.
    Session* s = w.session();
    auto model = s->model();
    QVERIFY(model);
    QCOMPARE(s->inputShapes().value(QStringLiteral("x")), QStringLiteral("1,3,48,320"));
    QCOMPARE(model->graph.inputs().front()->output(0).type().shape, (std::vector<int64_t>{1, 3, 48, 320}));
    // (With 4 output channels on an AVX2 machine the convolution writes NCHW4c
    // blocks and a second function gives the output back as NCHW.)
    QVERIFY(model->functions.size() == 1 ||
            (model->functions.size() == 2 && model->functions.back().name == "fused_layouttransform"));
    QCOMPARE(model->functions.front().members.size(), size_t(2));
    QCOMPARE(model->graph.outputs().front().type().shape, (std::vector<int64_t>{1, 4, 46, 318}));
    QVERIFY(s->jobs()->waitForIdle(60000));
    QVERIFY(s->artifacts()); // the schedule editor lowered the selected function
    QVERIFY(!w.findChild<InputShapesDialog*>()); // gone when closed

    // Reopening a project that stores the shapes: no question, the same graph.
    const QString project = dir.filePath(QStringLiteral("ocr.tessel"));
    QVERIFY(w.saveProject(project));
    {
        MainWindow again;
        again.show();
        QSignalSpy againReady(&again, &MainWindow::modelReady);
        QVERIFY(again.openProject(project));
        QVERIFY2(againReady.wait(120000), qPrintable(again.session()->messages()->lastText()));
        QVERIFY(!again.findChild<InputShapesDialog*>());
        QCOMPARE(again.session()->inputShapes(), s->inputShapes());
        QCOMPARE(again.session()->model()->graph.inputs().front()->output(0).type().shape,
                 (std::vector<int64_t>{1, 3, 48, 320}));
        QVERIFY(again.session()->jobs()->waitForIdle(60000));
    }

    // A project whose shape does not fit (the "1x3x48x320" of old): the
    // dialog asks, showing it with what is wrong, OK disabled.
    Project stale;
    QVERIFY(stale.load(project, nullptr));
    stale.inputShapes[QStringLiteral("x")] = QStringLiteral("1x3x48x320");
    QVERIFY(stale.save(project).isEmpty());
    MainWindow third;
    third.show();
    QVERIFY(third.openProject(project));
    InputShapesDialog* asked = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((asked = third.findChild<InputShapesDialog*>()) != nullptr, 30000);
    QCOMPARE(asked->field(QStringLiteral("x"))->text(), QStringLiteral("1x3x48x320"));
    QVERIFY(!asked->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
    QVERIFY(!asked->errorText().isEmpty());
    asked->reject();
    QVERIFY(!third.session()->model());
    QVERIFY(third.session()->jobs()->waitForIdle(60000));
}

void TestMainWindow::theTargetReachesEveryCompile() {
    const QString path = QStringLiteral("/usr/share/libonnx-testdata/data/node/test_conv_with_strides_padding/model.onnx");
    if (!QFile::exists(path)) QSKIP("libonnx-testdata is not installed");
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy ready(&w, &MainWindow::modelReady);
    w.openModel(path);
    QVERIFY2(ready.wait(120000), qPrintable(w.session()->messages()->lastText()));
    Session* s = w.session();
    QVERIFY(s->jobs()->waitForIdle(60000));
    QCOMPARE(s->model()->target.arch(), std::string("x86_64"));

    // A board: the model is compiled again for it, and the editor's texts are its code.
    QVERIFY(s->setTarget(QStringLiteral("aarch64 -mcpu=cortex-a72")));
    QVERIFY2(ready.wait(120000), qPrintable(s->messages()->lastText()));
    QVERIFY(s->jobs()->waitForIdle(60000));
    QCOMPARE(s->model()->target.arch(), std::string("aarch64"));
    QCOMPARE(s->model()->target.cpu, std::string("cortex-a72"));
    QVERIFY(s->artifacts());
    const QString assembly = QString::fromStdString(s->artifacts()->build.assembly);
    QVERIFY2(assembly.contains(QLatin1String("ret")) && !assembly.contains(QLatin1String("%rsp")) &&
                 !assembly.contains(QLatin1String("vmov")),
             qPrintable(assembly.left(400)));
    QVERIFY2(w.windowTitle().contains(QLatin1String("aarch64")), qPrintable(w.windowTitle()));
    // Running it here is refused with what to do, not attempted.
    w.compileAndRunModel();
    QVERIFY2(s->messages()->lastText().contains(QLatin1String("Target > host")), qPrintable(s->messages()->lastText()));

    // A target Tessel does not know is a message, and the old one stays.
    QVERIFY(!s->setTarget(QStringLiteral("vax-dec-ultrix")));
    QVERIFY(s->messages()->lastText().contains(QLatin1String("vax")));
    QCOMPARE(s->request().target.arch(), std::string("aarch64"));

    // Back home; a project keeps the target.
    QVERIFY(s->setTarget(QStringLiteral("host")));
    QVERIFY2(ready.wait(120000), qPrintable(s->messages()->lastText()));
    QVERIFY(s->jobs()->waitForIdle(60000));
    QCOMPARE(s->model()->target, tessel::codegen::hostTarget());
}

namespace {

/// The code panes a user sees in `w` (every CodeEditor on screen, in any view)
/// with fewer than `columns` columns: their text area measured in 'x'
/// advances of their font.
QStringList narrowPanes(QWidget* w, int columns) {
    QStringList narrow;
    for (CodeEditor* e : w->findChildren<CodeEditor*>()) {
        if (!e->isVisible() || e->visibleRegion().isEmpty()) continue;
        const int shown = e->viewport()->width() / QFontMetrics(e->font()).horizontalAdvance(QLatin1Char('x'));
        QString where;
        for (QWidget* p = e; p && where.isEmpty(); p = p->parentWidget())
            if (!p->objectName().isEmpty()) where = p->objectName();
        if (shown < columns) narrow << QStringLiteral("%1 (%2 columns, %3 px)").arg(where).arg(shown).arg(e->width());
    }
    return narrow;
}

/// A dock on screen: shown and not behind another tab of its group (Qt
/// keeps those shown, but moved out of sight).
bool inFront(QDockWidget* d) { return d->isVisible() && !d->visibleRegion().isEmpty(); }

int visibleCodePanes(QWidget* w) {
    int n = 0;
    for (CodeEditor* e : w->findChildren<CodeEditor*>()) n += e->isVisible() && !e->visibleRegion().isEmpty();
    return n;
}

/// Lets layout requests, deferred room and repaints run.
void settle() {
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::processEvents();
        QTest::qWait(20);
    }
}

QString shotsDir(const QSize& screen) {
    const QString dir = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/layout-%1x%2").arg(screen.width()).arg(screen.height());
    QDir().mkpath(dir);
    return dir;
}

} // namespace

void TestMainWindow::readableAtRealScreenSizes_data() {
    QTest::addColumn<QSize>("screen");
    QTest::newRow("1366x768") << QSize(1366, 768);
    QTest::newRow("1920x1080") << QSize(1920, 1080);
}

void TestMainWindow::readableAtRealScreenSizes() {
    QFETCH(QSize, screen);
    // A first start on that screen, with a 32 px panel: the window as
    // fitWindowToScreen places it, the default layout, the bundled example.
    QSettings().remove(QStringLiteral("window"));
    const QRect available(0, 0, screen.width(), screen.height() - 32);
    const QRect frame = fitWindowToScreen(preferredWindowSize(available.size()), available);
    QVERIFY(available.contains(frame));
    MainWindow w;
    w.resize(frame.size());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy ready(&w, &MainWindow::modelReady);
    w.openExample();
    QVERIFY2(ready.wait(240000), "the example model did not compile");
    Session* s = w.session();
    QVERIFY(s->jobs()->waitForIdle(120000));
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() != nullptr, 60000);
    QVERIFY(s->jobs()->waitForIdle(60000));
    settle();
    const QString dir = shotsDir(screen);
    QVERIFY(w.grab().save(dir + QStringLiteral("/window.png")));

    // Every code pane on screen shows at least 60 columns; the code view
    // shows two panes at once (side by side where they fit, else stacked),
    // the TIR and the assembly, the others one click away.
    QVERIFY2(narrowPanes(&w, 60).isEmpty(), qPrintable(narrowPanes(&w, 60).join(QStringLiteral("; "))));
    CodeView* code = w.view<CodeView>();
    QVERIFY(code->groupCount() >= 2);
    QVERIFY(code->isPaneInFront(CodeView::Tir) && code->isPaneInFront(CodeView::Assembly));
    QVERIFY(!code->isPaneInFront(CodeView::Te) && code->isPaneVisible(CodeView::Te));
    if (screen.width() >= 1920) QCOMPARE(code->groupOrientation(), Qt::Horizontal);
    const int panesBefore = visibleCodePanes(&w);
    QVERIFY(panesBefore >= 3); // the schedule's script, the TIR, the assembly

    // The maximise key on the assembly pane: it fills the window, the docks
    // go; the key again brings all of it back as it was.
    QMap<QString, QRect> docksBefore;
    for (const ViewRecord& r : w.views().records())
        if (QDockWidget* d = w.dock(r.id); d && inFront(d)) docksBefore.insert(r.id, d->geometry());
    CodeEditor* assembly = code->pane(CodeView::Assembly);
    assembly->setFocus();
    QTRY_VERIFY(assembly->hasFocus());
    QTest::keyClick(assembly, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    QCOMPARE(w.maximisedView(), QStringLiteral("CodeView"));
    QVERIFY(w.maximiseAction()->isChecked());
    QCOMPARE(code->maximisedPane(), int(CodeView::Assembly));
    for (const ViewRecord& r : w.views().records())
        if (QDockWidget* d = w.dock(r.id)) QVERIFY2(!inFront(d), qPrintable(r.id));
    QVERIFY2(assembly->width() > w.width() * 9 / 10, qPrintable(QString::number(assembly->width())));
    QVERIFY(assembly->hasFocus());
    QVERIFY(w.grab().save(dir + QStringLiteral("/maximised-assembly.png")));
    QTest::keyClick(assembly, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    QVERIFY(w.maximisedView().isEmpty());
    QVERIFY(!w.maximiseAction()->isChecked());
    QCOMPARE(code->maximisedPane(), -1);
    for (auto it = docksBefore.begin(); it != docksBefore.end(); ++it)
        QCOMPARE(w.dock(it.key())->geometry(), it.value());
    QVERIFY(code->isPaneInFront(CodeView::Tir) && code->isPaneInFront(CodeView::Assembly));
    QCOMPARE(visibleCodePanes(&w), panesBefore);

    // A dock maximises the same way: the schedule editor fills the window.
    ScheduleEditor* sched = w.view<ScheduleEditor>();
    sched->editor()->setFocus();
    QTRY_VERIFY(sched->editor()->hasFocus());
    QTest::keyClick(sched->editor(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    QCOMPARE(w.maximisedView(), QStringLiteral("ScheduleDock"));
    QVERIFY(!code->isVisible());
    QVERIFY2(w.dock(QStringLiteral("ScheduleDock"))->width() > w.width() * 9 / 10,
             qPrintable(QString::number(w.dock(QStringLiteral("ScheduleDock"))->width())));
    QVERIFY(sched->editor()->toPlainText().size() > 0);
    QTest::keyClick(sched->editor(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
    settle();
    QVERIFY(w.maximisedView().isEmpty());
    QVERIFY(code->isVisible());
    for (auto it = docksBefore.begin(); it != docksBefore.end(); ++it)
        QCOMPARE(w.dock(it.key())->geometry(), it.value());

    // Choosing the lesson (Help > GEMM Lesson, or its tab) gives it most of
    // the window: beside the other views where the window is large enough,
    // else the whole window (the maximise key brings the layout back). Every
    // code pane stays readable; back at the graph, the layout is as before.
    QDockWidget* lessonDock = w.dock(QStringLiteral("LessonDock"));
    QDockWidget* graphDock = w.dock(QStringLiteral("GraphDock"));
    const QRect graphBefore = graphDock->geometry();
    QVERIFY(!inFront(lessonDock));
    QMenu* help = w.menuBar()->findChild<QMenu*>(QStringLiteral("HelpMenu"));
    QAction* lessonAction = nullptr;
    for (QAction* a : help->actions())
        if (a->text() == QStringLiteral("&GEMM Lesson")) lessonAction = a;
    QVERIFY(lessonAction);
    LessonView* lesson = w.view<LessonView>();
    // Beside the others where they keep their useful size (the layout
    // rule, tst_layout), else the whole window. Beside, its share goes as far
    // as the views around it keep theirs: most of the width (the code view
    // stacks its panes), and the height its script needs.
    auto hasRoom = [&] {
        if (!inFront(lessonDock)) return false;
        if (w.maximisedView() == QLatin1String("LessonDock")) return true;
        const WindowLayout* layout = w.windowLayout();
        return lessonDock->width() >= w.width() * 55 / 100 &&
               layout->isUseful(QStringLiteral("LessonDock")) &&
               layout->isUseful(QStringLiteral("CodeView"));
    };
    auto backToTheGraph = [&] {
        if (w.maximisedView() == QLatin1String("LessonDock")) {
            lesson->scriptView()->setFocus();
            QTest::keyClick(lesson->scriptView(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
            settle();
            QVERIFY(w.maximisedView().isEmpty());
            QVERIFY(code->isVisible());
        }
        QVERIFY(w.maximisedView().isEmpty());
        graphDock->raise();
        QTRY_VERIFY(inFront(graphDock));
        // As before, to the layout's rounding (a few pixels).
        auto near = [](const QRect& a, const QRect& b) {
            return std::abs(a.left() - b.left()) <= 4 && std::abs(a.top() - b.top()) <= 4 &&
                   std::abs(a.width() - b.width()) <= 6 && std::abs(a.height() - b.height()) <= 6;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(near(graphDock->geometry(), graphBefore),
                                  qPrintable(QStringLiteral("graph at %1,%2 %3x%4, was %5x%6")
                                                 .arg(graphDock->x())
                                                 .arg(graphDock->y())
                                                 .arg(graphDock->width())
                                                 .arg(graphDock->height())
                                                 .arg(graphBefore.width())
                                                 .arg(graphBefore.height())),
                                  5000);
        settle();
        QVERIFY2(narrowPanes(&w, 60).isEmpty(), qPrintable(narrowPanes(&w, 60).join(QStringLiteral("; "))));
    };
    lessonAction->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(hasRoom(), 5000);
    settle();
    QVERIFY(hasRoom());
    if (w.maximisedView() == QLatin1String("LessonDock"))
        QVERIFY(lessonDock->width() > w.width() * 9 / 10 && lessonDock->height() > w.height() * 7 / 10);
    QVERIFY(s->jobs()->waitForIdle(60000));
    settle();
    QVERIFY(w.grab().save(dir + QStringLiteral("/lesson-chosen.png")));
    QVERIFY(!lesson->scriptView()->visibleRegion().isEmpty());
    QVERIFY2(narrowPanes(&w, 60).isEmpty(), qPrintable(narrowPanes(&w, 60).join(QStringLiteral("; "))));
    // The step's script has room for its lines, and so has its assembly.
    QVERIFY2(lesson->scriptView()->viewport()->height() >= 12 * lesson->scriptView()->fontMetrics().lineSpacing(),
             qPrintable(QString::number(lesson->scriptView()->viewport()->height())));
    lesson->tabs()->setCurrentWidget(lesson->assemblyView());
    settle();
    QVERIFY2(narrowPanes(&w, 60).isEmpty(), qPrintable(narrowPanes(&w, 60).join(QStringLiteral("; "))));
    lesson->tabs()->setCurrentWidget(lesson->scriptView());
    backToTheGraph();

    // Its tab clicked is a choice too.
    QTabBar* tabs = nullptr;
    int lessonTab = -1;
    for (QTabBar* t : w.findChildren<QTabBar*>())
        for (int i = 0; i < t->count() && !tabs; ++i)
            if (!t->visibleRegion().isEmpty() && t->tabText(i) == QStringLiteral("GEMM Lesson")) tabs = t, lessonTab = i;
    QVERIFY(tabs);
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(lessonTab).center());
    QTRY_VERIFY_WITH_TIMEOUT(hasRoom(), 5000);
    backToTheGraph();

    // The stage view chosen by its tab: its diff gets 45 % of the height
    // (where the window can give it), the messages' height comes back after.
    QDockWidget* stagesDock = w.dock(QStringLiteral("StagesDock"));
    QDockWidget* messagesDock = w.dock(QStringLiteral("MessagesDock"));
    const int messagesHeight = messagesDock->height();
    QVERIFY(!inFront(stagesDock));
    QTabBar* bottom = nullptr;
    int stagesTab = -1;
    for (QTabBar* t : w.findChildren<QTabBar*>())
        for (int i = 0; i < t->count() && !bottom; ++i)
            if (!t->visibleRegion().isEmpty() && t->tabText(i) == QStringLiteral("Stages")) bottom = t, stagesTab = i;
    QVERIFY(bottom);
    QTest::mouseClick(bottom, Qt::LeftButton, {}, bottom->tabRect(stagesTab).center());
    QTRY_VERIFY(inFront(stagesDock));
    // Its share as far as the views above keep their useful size, its own in any case.
    QTRY_VERIFY_WITH_TIMEOUT(!w.maximisedView().isEmpty() ||
                                 w.windowLayout()->isUseful(QStringLiteral("StagesDock")),
                             5000);
    const bool stagesMaximised = w.maximisedView() == QLatin1String("StagesDock");
    QVERIFY(stagesMaximised || w.maximisedView().isEmpty());
    QVERIFY(s->jobs()->waitForIdle(60000));
    settle();
    QVERIFY(w.grab().save(dir + QStringLiteral("/stages-chosen.png")));
    // Its diff and the code view keep their columns (the schedule editor,
    // squeezed to a few lines, may put its outline beside the script again).
    for (QWidget* readable : {static_cast<QWidget*>(code), static_cast<QWidget*>(stagesDock)})
        if (!stagesMaximised || readable == stagesDock)
            QVERIFY2(narrowPanes(readable, 60).isEmpty(), qPrintable(narrowPanes(readable, 60).join(QStringLiteral("; "))));
    // Back to the messages: their tab where the stage view sits beside the
    // others; where it fills the window no tab is on screen, and the View
    // menu brings the layout back with the messages chosen.
    if (stagesMaximised) {
        QMenu* viewMenu = w.menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
        QAction* messagesAction = nullptr;
        for (QAction* a : viewMenu->actions())
            if (a->objectName() == QLatin1String("ViewAction_MessagesDock")) messagesAction = a;
        QVERIFY(messagesAction);
        messagesAction->trigger();
        QTRY_VERIFY(w.maximisedView().isEmpty());
    } else {
        messagesDock->raise();
    }
    QTRY_VERIFY(inFront(messagesDock));
    QTRY_VERIFY_WITH_TIMEOUT(std::abs(messagesDock->height() - messagesHeight) <= 6, 5000);

    // A narrower window shows fewer panes at once, each still readable.
    w.resize(frame.width() * 2 / 3, frame.height());
    settle();
    QVERIFY(code->groupCount() <= 2);
    if (code->width() >= code->pane(CodeView::Tir)->widthForColumns(60))
        QVERIFY2(narrowPanes(code, 60).isEmpty(), qPrintable(narrowPanes(code, 60).join(QStringLiteral("; "))));
    QVERIFY(w.grab().save(dir + QStringLiteral("/narrower.png")));
    QVERIFY(s->jobs()->waitForIdle(60000));
}

void TestMainWindow::aMaximisedViewGivesWayToChoices() {
    QSettings().remove(QStringLiteral("window"));
    auto w = std::make_unique<MainWindow>();
    w->resize(1400, 900);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    settle();
    CodeView* code = w->view<CodeView>();
    QDockWidget* graph = w->dock(QStringLiteral("GraphDock"));
    QDockWidget* sched = w->dock(QStringLiteral("ScheduleDock"));
    QVERIFY(inFront(graph) && inFront(sched) && code->isVisible());

    // The graph maximised (the View menu's action, the focus in the graph).
    w->view<GraphPanel>()->view()->setFocus();
    QTRY_VERIFY(w->view<GraphPanel>()->view()->hasFocus());
    w->maximiseAction()->trigger();
    settle();
    QCOMPARE(w->maximisedView(), QStringLiteral("GraphDock"));
    QVERIFY(w->maximiseAction()->isChecked());
    QVERIFY(!code->isVisible() && !sched->isVisible());
    QVERIFY(graph->width() > w->width() * 9 / 10);
    // Showing another view from the View menu brings the layout back, with it.
    sched->toggleViewAction()->trigger();
    QTRY_VERIFY(w->maximisedView().isEmpty());
    QVERIFY(!w->maximiseAction()->isChecked());
    QTRY_VERIFY(inFront(sched));
    QVERIFY(inFront(graph) && code->isVisible());

    // Closing a maximised view brings the others back, without it.
    w->view<ScheduleEditor>()->editor()->setFocus();
    QTRY_VERIFY(w->view<ScheduleEditor>()->editor()->hasFocus());
    w->maximiseAction()->trigger();
    settle();
    QCOMPARE(w->maximisedView(), QStringLiteral("ScheduleDock"));
    sched->close();
    QTRY_VERIFY(w->maximisedView().isEmpty());
    settle();
    QVERIFY(!sched->isVisible());
    QVERIFY(inFront(graph) && code->isVisible());
    sched->show();
    settle();

    // Reset Layout while maximised: the default layout, nothing maximised.
    code->pane(CodeView::Tir)->setFocus();
    w->maximiseAction()->trigger();
    QCOMPARE(w->maximisedView(), QStringLiteral("CodeView"));
    QCOMPARE(code->maximisedPane(), int(CodeView::Tir));
    QMenu* viewMenu = w->menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    for (QAction* a : viewMenu->actions())
        if (a->text() == QStringLiteral("Reset Layout")) a->trigger();
    settle();
    QVERIFY(w->maximisedView().isEmpty());
    QCOMPARE(code->maximisedPane(), -1);
    QVERIFY(inFront(graph) && inFront(sched) && code->isVisible());

    // Closed while maximised: the layout saved is the one from before.
    code->pane(CodeView::Tir)->setFocus();
    w->maximiseAction()->trigger();
    QCOMPARE(w->maximisedView(), QStringLiteral("CodeView"));
    w->close();
    w.reset();
    MainWindow again;
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    settle();
    QVERIFY(again.maximisedView().isEmpty());
    QVERIFY(inFront(again.dock(QStringLiteral("GraphDock"))) && inFront(again.dock(QStringLiteral("ScheduleDock"))));
    QSettings().remove(QStringLiteral("window"));
}

QTEST_MAIN(TestMainWindow)
/// A GPU ladder step with CUDA chosen at the two screen sizes: the code view
/// shows the kernel's TIR (thread bindings) and its PTX in front, every code
/// pane keeps 60 columns, and the GPU lesson chosen shows its steps and PTX.
/// The pictures land in <build>/screenshots/gpu-<W>x<H>/.
void TestMainWindow::gpuKernelAtRealScreenSizes_data() {
    readableAtRealScreenSizes_data();
}

void TestMainWindow::gpuKernelAtRealScreenSizes() {
    QFETCH(QSize, screen);
    QSettings().remove(QStringLiteral("window"));
    const QRect available(0, 0, screen.width(), screen.height() - 32);
    const QRect frame = fitWindowToScreen(preferredWindowSize(available.size()), available);
    MainWindow w;
    w.resize(frame.size());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    Session* s = w.session();
    QVERIFY(w.openFile(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm-gpu/02_shared_tiles.te")));
    QVERIFY(s->setTarget(QStringLiteral("cuda -mcpu=sm_90")));
    QTRY_VERIFY_WITH_TIMEOUT(s->artifacts() && s->artifacts()->target.isGPU(), 60000);
    QVERIFY(s->jobs()->waitForIdle(60000));
    CodeView* code = w.view<CodeView>();
    QTRY_VERIFY_WITH_TIMEOUT(code->linksReady(), 30000);
    settle();
    // Opening a script chose the schedule editor, which fills a small window:
    // the maximise key brings the code view back beside it.
    if (!w.maximisedView().isEmpty()) w.restoreMaximised();
    settle();
    QVERIFY(code->isVisible() && !code->visibleRegion().isEmpty());
    QCOMPARE(code->paneName(CodeView::Assembly), QStringLiteral("PTX"));
    QVERIFY(code->isPaneInFront(CodeView::Tir) && code->isPaneInFront(CodeView::Assembly));
    QVERIFY(code->pane(CodeView::Tir)->toPlainText().contains(QLatin1String("T.thread_binding")));
    QVERIFY(code->pane(CodeView::Assembly)->toPlainText().contains(QLatin1String(".entry gemm_kernel0")));
    QVERIFY2(narrowPanes(&w, 60).isEmpty(), qPrintable(narrowPanes(&w, 60).join(QStringLiteral("; "))));
    // Light the TIR line that became the most PTX, as a user's click would
    // (what `tessel --screenshots` does on a CPU).
    const auto& map = s->artifacts()->build.assemblyLines;
    int best = 0;
    for (int l = 1; l < int(map.fromTir.size()); ++l)
        if (map.linesOf(l).size() > map.linesOf(best).size()) best = l;
    QVERIFY(best > 0);
    code->activateLine(CodeView::Tir, best);
    code->pane(CodeView::Tir)->revealLine(best);
    QVERIFY(!code->linkedLines(CodeView::Assembly).isEmpty());
    settle();
    const QString dir = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/gpu-%1x%2").arg(screen.width()).arg(screen.height());
    QDir().mkpath(dir);
    QVERIFY(w.grab().save(dir + QStringLiteral("/code-view.png")));

    // The GPU lesson, chosen: its six steps, the chosen step's PTX.
    w.showView(QStringLiteral("LessonDock"));
    LessonView* lesson = w.view<LessonView>();
    QSignalSpy lowered(lesson, &LessonView::artifactsReady);
    QVERIFY(lesson->loadLesson(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm-gpu")));
    QCOMPARE(lesson->stepCount(), 6);
    lesson->tabs()->setCurrentIndex(3);
    QVERIFY(lowered.wait(60000));
    QVERIFY(lesson->assemblyView()->toPlainText().contains(QLatin1String(".entry gemm_kernel0")));
    QVERIFY(s->jobs()->waitForIdle(60000));
    settle();
    QVERIFY2(narrowPanes(&w, 60).isEmpty(), qPrintable(narrowPanes(&w, 60).join(QStringLiteral("; "))));
    QVERIFY(w.grab().save(dir + QStringLiteral("/lesson.png")));
    s->setTarget(QStringLiteral("host"));
    QVERIFY(s->jobs()->waitForIdle(60000));
}

#include "tst_mainwindow.moc"
