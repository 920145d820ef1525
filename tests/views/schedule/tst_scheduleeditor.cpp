// The schedule editor driven as a user would: a GEMM script opened in a session,
// typing (a typo, its fix, undo), the outline's context actions, completion,
// Run with its history, and a model function whose edit lands in the session's
// edited schedules. Every check is on what the real compiler produced.
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "runtime/DeviceInfo.h"
#include "schedule/LoopOutline.h"
#include "schedule/ScheduleEditor.h"
#include "schedule/ScriptEdit.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCompleter>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTreeWidget>

using namespace tessel;
using namespace tessel::views;

namespace {

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// Step 7 of the GEMM ladder at 256^3, so that running it (and its reference) is quick.
QString smallGemm() {
    QString s = readText(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/07_parallel.te"));
    s.replace(QStringLiteral("= 1024"), QStringLiteral("= 256"));
    return s;
}

std::string tirOf(const Session& s) { return s.artifacts() ? s.artifacts()->build.tir : std::string(); }

/// The 0-based line of `text` that equals `line` (trimmed), or -1.
int lineIndex(const QString& text, const QString& line) {
    const auto lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].trimmed() == line) return i;
    return -1;
}

/// Puts the text cursor at the end of 0-based line `line`.
void cursorToLineEnd(CodeEditor* e, int line) {
    QTextCursor c(e->document()->findBlockByNumber(line));
    c.movePosition(QTextCursor::EndOfBlock);
    e->setTextCursor(c);
}

} // namespace

class TestScheduleEditor : public QObject {
    Q_OBJECT

    Session session_;
    ScheduleEditor* editor_ = nullptr;
    QString gemm_;
    std::string tir0_;

    bool settle(int timeoutMs = 60000) {
        QElapsedTimer t;
        t.start();
        while ((editor_->document()->isRelowering() || session_.jobs()->runningCount() > 0) && t.elapsed() < timeoutMs)
            QTest::qWait(10);
        return !editor_->document()->isRelowering();
    }

    /// Opens the GEMM again (a fresh document) and waits for its texts.
    bool reload() {
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        return settle() && tirOf(session_) == tir0_;
    }

private slots:
    void initTestCase() {
        gemm_ = smallGemm();
        QVERIFY(gemm_.contains(QLatin1String("M = 256")));
        editor_ = new ScheduleEditor(&session_);
        editor_->resize(1200, 800);
        editor_->show();
        QVERIFY(QTest::qWaitForWindowExposed(editor_));
        editor_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(editor_)); // keyboard focus and shortcuts
        QSignalSpy artifacts(&session_, &Session::artifactsChanged);
        session_.setScript(QStringLiteral("gemm256.te"), gemm_);
        QVERIFY(settle());
        QVERIFY(session_.artifacts());
        QCOMPARE(session_.artifacts()->name, std::string("gemm"));
        QVERIFY(artifacts.count() >= 2); // reset by setScript, then set by the editor
        tir0_ = tirOf(session_);
        QVERIFY(tir0_.find("x_outer") != std::string::npos);
        QCOMPARE(editor_->editor()->toPlainText(), gemm_);
        QVERIFY2(editor_->document()->statusText().startsWith(QLatin1String("Lowered in")), qPrintable(editor_->document()->statusText()));
        QVERIFY(!editor_->editor()->isReadOnly());
    }

    void outlineShowsTheLoopNest() {
        // C's tiles: xo (256/32 = 8, parallel), yo, xi, yi; CC computed at yo with its 32x32 block.
        QTreeWidgetItem* xo = editor_->findItem(QStringLiteral("C"), QStringLiteral("xo"));
        QVERIFY(xo);
        QCOMPARE(xo->text(1), QStringLiteral("8"));
        QVERIFY(xo->text(2).contains(QLatin1String("parallel")));
        QTreeWidgetItem* yo = editor_->findItem(QStringLiteral("C"), QStringLiteral("yo"));
        QVERIFY(yo);
        QCOMPARE(yo->parent(), xo);
        QTreeWidgetItem* cc = editor_->findItem(QStringLiteral("CC"));
        QVERIFY(cc);
        QCOMPARE(cc->parent(), yo);
        QTreeWidgetItem* yc = editor_->findItem(QStringLiteral("CC"), QStringLiteral("yc"));
        QVERIFY(yc);
        QCOMPARE(yc->text(1), QStringLiteral("32"));
        QVERIFY(yc->text(2).contains(QLatin1String("vectorized")));
        QTreeWidgetItem* ki = editor_->findItem(QStringLiteral("CC"), QStringLiteral("ki"));
        QVERIFY(ki);
        QCOMPARE(ki->text(1), QStringLiteral("4"));
        QVERIFY(ki->text(2).contains(QLatin1String("reduce")));
        QVERIFY(ki->text(2).contains(QLatin1String("unrolled")));
        QVERIFY(editor_->findItem(QStringLiteral("packedB"), QStringLiteral("z")));
    }

    void typoIsMarkedAndKeepsArtifacts() {
        auto before = session_.artifacts();
        CodeEditor* e = editor_->editor();
        e->setFocus();
        const int at = lineIndex(e->toPlainText(), QStringLiteral("s[C].parallel(xo)"));
        QVERIFY(at >= 0);
        cursorToLineEnd(e, at);
        QTest::keyClick(e, Qt::Key_Return);
        QTest::keyClicks(e, QStringLiteral("s[C].paralel(xi)"));
        QVERIFY(settle());
        QCOMPARE(e->toPlainText().split(QLatin1Char('\n'))[at + 1], QStringLiteral("s[C].paralel(xi)"));
        QCOMPARE(e->marks().size(), 1);
        const EditorMark m = e->marks().front();
        QCOMPARE(m.line, at + 2); // 1-based, the new line
        QCOMPARE(m.column, 6);    // the method name
        QVERIFY2(m.message.contains(QLatin1String("paralel")) && m.message.contains(QLatin1String("did you mean 'parallel'")),
                 qPrintable(m.message));
        QVERIFY2(editor_->document()->statusText().contains(QStringLiteral("gemm256.te:%1:6: error:").arg(at + 2)),
                 qPrintable(editor_->document()->statusText()));
        // The previous texts stay. (The Return alone was lowered at once: a new
        // result with the same TIR, so the texts are compared, not the pointer.)
        QVERIFY(session_.artifacts());
        QCOMPARE(session_.artifacts()->build.tir, before->build.tir);
        QCOMPARE(session_.artifacts()->build.assembly, before->build.assembly);
    }

    void fixShowsNewTir() {
        CodeEditor* e = editor_->editor();
        const int at = lineIndex(e->toPlainText(), QStringLiteral("s[C].paralel(xi)"));
        QVERIFY(at >= 0);
        cursorToLineEnd(e, at);
        QTest::keyClick(e, Qt::Key_Home, Qt::ShiftModifier);
        QTest::keyClicks(e, QStringLiteral("xio, xii = s[C].split(xi, factor=8)"));
        QVERIFY(settle());
        QCOMPARE(e->toPlainText().split(QLatin1Char('\n'))[at], QStringLiteral("xio, xii = s[C].split(xi, factor=8)"));
        QVERIFY2(e->marks().isEmpty(), qPrintable(editor_->document()->statusText()));
        const std::string tir = tirOf(session_);
        QVERIFY(tir != tir0_);
        QVERIFY(tir0_.find("x_inner_outer") == std::string::npos);
        QVERIFY(tir.find("x_inner_outer") != std::string::npos);
        QVERIFY(tir.find("x_inner_inner") != std::string::npos);
        // The outline follows: xi is split into xio (4) and xii (8).
        QTreeWidgetItem* xii = editor_->findItem(QStringLiteral("C"), QStringLiteral("xii"));
        QVERIFY(xii);
        QCOMPARE(xii->text(1), QStringLiteral("8"));
    }

    void undoRestoresTextAndTir() {
        CodeEditor* e = editor_->editor();
        e->setFocus();
        for (int i = 0; i < 200 && e->toPlainText() != gemm_; ++i) QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), gemm_);
        QVERIFY(settle());
        QVERIFY(e->marks().isEmpty());
        QCOMPARE(tirOf(session_), tir0_);
    }

    void undoStepsFollowTheEdits() {
        // Issue 21: one Ctrl+Z undid two edits. QTextDocument merges a key
        // into the previous step whenever its position follows on from it,
        // even after the cursor went elsewhere, or after a line the outline
        // wrote: each is its own step here.
        QVERIFY(reload());
        CodeEditor* e = editor_->editor();
        e->setFocus();
        const int mLine = lineIndex(gemm_, QStringLiteral("M = 256"));
        const int kLine = lineIndex(gemm_, QStringLiteral("K = 256"));
        QVERIFY(mLine >= 0 && kLine > mLine);
        // "M = 256" -> "M = 2560" here, a look at another line, then "M = 25600".
        cursorToLineEnd(e, mLine);
        QTest::keyClicks(e, QStringLiteral("0"));
        cursorToLineEnd(e, kLine);
        cursorToLineEnd(e, mLine);
        QTest::keyClicks(e, QStringLiteral("0"));
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY2(e->toPlainText().split(QLatin1Char('\n'))[mLine] == QStringLiteral("M = 2560"),
                 qPrintable(e->toPlainText().split(QLatin1Char('\n'))[mLine]));
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), gemm_);

        // Typed where a line the outline wrote ends: two steps.
        QVERIFY(settle());
        QTreeWidgetItem* yi = editor_->findItem(QStringLiteral("C"), QStringLiteral("yi"));
        QVERIFY(yi);
        LoopActionArgs args;
        args.factor = 4;
        const QString line = editor_->applyOutlineAction(yi, LoopAction::Split, args);
        QVERIFY(!line.isEmpty());
        const QString withLine = e->toPlainText();
        const int at = lineIndex(withLine, line);
        QVERIFY(at > 0);
        QTextCursor c(e->document()->findBlockByNumber(at + 1)); // right after the written line's newline
        e->setTextCursor(c);
        QTest::keyClicks(e, QStringLiteral("# a note"));
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), withLine);
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), gemm_);

        // Typing in one place is still one step, as in any editor.
        cursorToLineEnd(e, kLine);
        QTest::keyClicks(e, QStringLiteral(" # kept"));
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), gemm_);
        QVERIFY(settle());
    }

    void outlineSplitWritesALine() {
        CodeEditor* e = editor_->editor();
        QTreeWidgetItem* yi = editor_->findItem(QStringLiteral("C"), QStringLiteral("yi"));
        QVERIFY(yi);
        LoopActionArgs args;
        args.factor = 16;
        const QString line = editor_->applyOutlineAction(yi, LoopAction::Split, args);
        QCOMPARE(line, QStringLiteral("yio, yii = s[C].split(yi, factor=16)"));
        // After the last schedule line, before the blank line and the build call.
        const QStringList lines = e->toPlainText().split(QLatin1Char('\n'));
        const int at = int(lines.indexOf(line));
        QVERIFY(at > 0);
        QCOMPARE(lines[at - 1], QStringLiteral("s[C].parallel(xo)"));
        QCOMPARE(lines[at + 1], QString());
        QVERIFY(lines[at + 2].startsWith(QLatin1String("func = tvm.build")));
        QVERIFY(settle());
        QVERIFY2(e->marks().isEmpty(), qPrintable(editor_->document()->statusText()));
        QVERIFY(tirOf(session_).find("y_inner_outer") != std::string::npos);
        // One undoable edit: one Ctrl+Z takes it back out, and the TIR with it.
        e->setFocus();
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), gemm_);
        QVERIFY(settle());
        QCOMPARE(tirOf(session_), tir0_);
    }

    void outlineActionsLowerCleanly_data() {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("loop");
        QTest::addColumn<int>("action");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unroll") << "C" << "yi" << int(LoopAction::Unroll) << "s[C].unroll(yi)";
        QTest::newRow("vectorize") << "C" << "yi" << int(LoopAction::Vectorize) << "s[C].vectorize(yi)";
        QTest::newRow("fuse") << "packedB" << "x" << int(LoopAction::Fuse) << "x_y = s[packedB].fuse(x, y)";
        QTest::newRow("tile") << "C" << "xi" << int(LoopAction::Tile) << "xio, yio, xii, yii = s[C].tile(xi, yi, 4, 8)";
        QTest::newRow("reorder") << "CC" << "ki" << int(LoopAction::Reorder) << "s[CC].reorder(ki, xc)";
        QTest::newRow("cache_write") << "packedB" << "" << int(LoopAction::CacheWrite)
                                     << "packedB_global = s.cache_write(packedB, \"global\")";
    }

    void outlineActionsLowerCleanly() {
        QFETCH(QString, stage);
        QFETCH(QString, loop);
        QFETCH(int, action);
        QFETCH(QString, expected);
        QVERIFY(reload());
        QTreeWidgetItem* item = editor_->findItem(stage, loop);
        QVERIFY(item);
        LoopActionArgs args;
        args.factor = 4;
        args.factor2 = 8;
        args.order = QStringList{QStringLiteral("ki"), QStringLiteral("xc")};
        QCOMPARE(editor_->applyOutlineAction(item, LoopAction(action), args), expected);
        QVERIFY(settle());
        QVERIFY2(editor_->editor()->marks().isEmpty(), qPrintable(editor_->document()->statusText()));
        QVERIFY(tirOf(session_) != tir0_);
        if (LoopAction(action) == LoopAction::CacheWrite) // right after create_schedule
            QCOMPARE(lineIndex(editor_->document()->text(), expected), lineIndex(editor_->document()->text(), QStringLiteral("s = te.create_schedule(C.op)")) + 1);
    }

    void computeAtNamesTheTarget() {
        QVERIFY(reload());
        const ScheduleOutline& o = editor_->document()->outline();
        const int packed = o.findStage(QStringLiteral("packedB")), c = o.findStage(QStringLiteral("C"));
        QVERIFY(packed >= 0 && c >= 0);
        LoopActionArgs args;
        args.targetStage = c;
        args.targetLoop = o.findLoop(c, QStringLiteral("xo"));
        QCOMPARE(editor_->applyOutlineAction(editor_->findItem(QStringLiteral("packedB")), LoopAction::ComputeAt, args),
                 QStringLiteral("s[packedB].compute_at(s[C], xo)"));
        QVERIFY(settle());
        QVERIFY2(editor_->editor()->marks().isEmpty(), qPrintable(editor_->document()->statusText()));
        QTreeWidgetItem* p = editor_->findItem(QStringLiteral("packedB"));
        QVERIFY(p && p->parent() == editor_->findItem(QStringLiteral("C"), QStringLiteral("xo")));
    }

    void completionOffersPrimitives() {
        QVERIFY(reload());
        auto* e = static_cast<ScriptEdit*>(editor_->editor());
        QVERIFY(e->completions().contains(QStringLiteral("split")));
        QVERIFY(e->completions().contains(QStringLiteral("packedB"))); // from the last lowering
        QVERIFY(e->completions().contains(QStringLiteral("xo")));
        e->setFocus();
        cursorToLineEnd(e, lineIndex(e->toPlainText(), QStringLiteral("s[C].parallel(xo)")));
        QTest::keyClick(e, Qt::Key_Return);
        QTest::keyClicks(e, QStringLiteral("s[C]."));
        QVERIFY(e->completer()->popup()->isVisible());
        QTest::keyClicks(e, QStringLiteral("vecto"));
        QCOMPARE(e->completer()->currentCompletion(), QStringLiteral("vectorize"));
        QTest::keyClick(e, Qt::Key_Return);
        QVERIFY(!e->completer()->popup()->isVisible());
        QCOMPARE(e->textCursor().block().text(), QStringLiteral("s[C].vectorize"));
        QTest::keyClicks(e, QStringLiteral("(yi)"));
        QVERIFY(settle());
        QVERIFY2(e->marks().isEmpty(), qPrintable(editor_->document()->statusText()));
    }

    void runMeasuresAndKeepsHistory() {
        QVERIFY(reload());
        QSignalSpy finished(editor_->document(), &ScheduleDocument::runFinished);
        editor_->document()->run();
        QVERIFY(editor_->document()->isRunning());
        QVERIFY(finished.wait(120000));
        RunRecord r = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY2(r.correct, qPrintable(r.error));
        QVERIFY(r.latencyMs > 0);
        QVERIFY(r.gflops > 0);
        QCOMPARE(r.function, QStringLiteral("gemm"));
        if (runtime::DeviceInfo::local().peakGflops() > 0) QVERIFY(r.peakShare > 0);
        RunHistory* history = editor_->document()->history();
        QCOMPARE(editor_->historyView()->model(), history);
        QCOMPARE(history->rowCount(), 1);
        QCOMPARE(history->index(0, RunHistory::Correct).data().toString(), QStringLiteral("ok"));
        QCOMPARE(history->index(0, RunHistory::Change).data().toString(), QStringLiteral("run 1"));
        QCOMPARE(r.label, QStringLiteral("run 1"));

        // An edit, then Run before it is lowered: the edit is lowered first and measured.
        editor_->activateWindow(); // the completion popup of an earlier test took the activation
        QVERIFY(QTest::qWaitForWindowActive(editor_));
        auto* e = editor_->editor();
        e->setFocus();
        cursorToLineEnd(e, lineIndex(e->toPlainText(), QStringLiteral("kfactor = 4")));
        QTest::keyClick(e, Qt::Key_Backspace);
        QTest::keyClicks(e, QStringLiteral("8"));
        QTest::keyClick(e, Qt::Key_R, Qt::ControlModifier); // Run's shortcut
        QVERIFY(editor_->document()->isRelowering() || editor_->document()->isRunning());
        QVERIFY(finished.wait(120000));
        r = finished.takeFirst().at(0).value<RunRecord>();
        QVERIFY2(r.correct, qPrintable(r.error));
        QVERIFY(r.script.contains(QLatin1String("kfactor = 8")));
        QVERIFY2(r.label.contains(QLatin1String("kfactor = 8")), qPrintable(r.label));
        QCOMPARE(history->rowCount(), 2);
        QCOMPARE(editor_->document()->runs().size(), 2);

        // Double-clicking the first run puts its script back.
        QTableView* t = editor_->historyView();
        const QPoint cell = t->visualRect(history->index(0, RunHistory::Change)).center();
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell); // item views want the press first
        QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, cell);
        QCOMPARE(editor_->document()->text(), gemm_);
        QVERIFY(settle());
        QCOMPARE(tirOf(session_), tir0_);
    }

    void modelFunctionEditIsRecorded() {
        const std::string path = "/usr/share/libonnx-testdata/data/node/test_conv_with_strides_padding/model.onnx";
        if (!QFile::exists(QString::fromStdString(path))) QSKIP("libonnx-testdata is not installed");
        driver::CompileOptions options;
        options.trace = true;
        auto model = std::make_shared<const driver::CompiledModel>(driver::compileModel(path, {}, options));
        QVERIFY(!model->functions.empty());
        const driver::FusedFunction& fn = model->functions.front();
        const QString name = QString::fromStdString(fn.name);
        session_.setModel(QString::fromStdString(path), model);
        QVERIFY(editor_->document()->text().isEmpty());
        session_.selectFunction(name);
        QVERIFY(settle());
        QCOMPARE(editor_->document()->text(), QString::fromStdString(fn.script));
        QVERIFY(session_.artifacts());
        QCOMPARE(session_.artifacts()->name, fn.name);
        QCOMPARE(session_.artifacts()->build.tir, driver::artifactsOf(fn.lowered, fn.script).build.tir);
        QVERIFY(session_.editedSchedules().isEmpty());

        // An edit that lowers: the function's schedule is now the edited one.
        CodeEditor* e = editor_->editor();
        e->setFocus();
        QTreeWidgetItem* out = editor_->findItem(QString::fromStdString(fn.lowered.args.back()->op->name));
        QVERIFY(out);
        QVERIFY(out->childCount() > 0);
        LoopActionArgs args;
        args.factor = 2;
        QVERIFY(!editor_->applyOutlineAction(out->child(0), LoopAction::Split, args).isEmpty());
        QVERIFY(settle());
        QVERIFY2(e->marks().isEmpty(), qPrintable(editor_->document()->statusText()));
        QCOMPARE(session_.editedSchedules().size(), 1);
        QCOMPARE(session_.editedSchedule(name), editor_->document()->text());

        // Selecting it again shows the edit; undoing it goes back to the default schedule.
        session_.selectFunction(QString());
        QVERIFY(editor_->document()->text().isEmpty());
        QVERIFY(!session_.artifacts()); // no function, no texts
        session_.selectFunction(name);
        QVERIFY(settle());
        QCOMPARE(editor_->document()->text(), session_.editedSchedule(name));
        QVERIFY(!editor_->editor()->document()->isUndoAvailable()); // a freshly loaded document
        // Back to the default text: the edit is dropped.
        QTextCursor all(e->document());
        all.select(QTextCursor::Document);
        all.insertText(QString::fromStdString(fn.script));
        QVERIFY(settle());
        QVERIFY(session_.editedSchedules().isEmpty());
        QCOMPARE(session_.artifacts()->build.tir, driver::artifactsOf(fn.lowered, fn.script).build.tir);
    }

    void insertionPoints() {
        QCOMPARE(insertionLine(QStringLiteral("s = te.create_schedule(C.op)\ns[C].parallel(x)\n\nf = tvm.build(s, [A, C])\n"),
                               LoopAction::Split),
                 2);
        QCOMPARE(insertionLine(QStringLiteral("s = te.create_schedule(C.op)\ns[C].parallel(x)\n\n"), LoopAction::Split), 2);
        QCOMPARE(insertionLine(QStringLiteral("A = 1\ns = te.create_schedule(C.op)\nx = 2\n"), LoopAction::CacheWrite), 2);
        QVERIFY(identifiersIn(QStringLiteral("xo, xi = s[C].split(x, factor=8)")).contains(QStringLiteral("xi")));
    }

    void cleanupTestCase() {
        delete editor_;
        session_.jobs()->waitForIdle();
    }
};

QTEST_MAIN(TestScheduleEditor)
#include "tst_scheduleeditor.moc"
