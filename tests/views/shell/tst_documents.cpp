// Documents like an editor's, as issue 21 found them missing: a script edit
// marks the title, File has Save / Save As / Revert for it, closing with
// unsaved edits asks (scripts, a model's edited schedules, the tuning
// settings), autosave keeps unsaved work in a recovery file, and an IDE
// killed with kill -9 offers it back at the next start. The last test kills
// the real `tessel` process.

#include "shell/MainWindow.h"

#include "code/CodeView.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "schedule/ScheduleEditor.h"
#include "shell/Recovery.h"

#include <QAbstractButton>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QToolBar>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace tessel::views;

namespace {

QString readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool writeFile(const QString& path, const QString& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

/// The File menu's action with `objectName`.
QAction* fileAction(MainWindow& w, const QString& objectName) {
    QMenu* file = w.menuBar()->findChild<QMenu*>(QStringLiteral("FileMenu"));
    for (QAction* a : file ? file->actions() : QList<QAction*>())
        if (a->objectName() == objectName) return a;
    return nullptr;
}

/// Answers the next "Unsaved Changes" box with the button whose text is
/// `button` (Save, Don't Save, Cancel); the box's text lands in `shown`.
void answerUnsavedBox(const QString& button, QString* shown) {
    QTimer::singleShot(0, [button, shown] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) {
            answerUnsavedBox(button, shown); // not up yet
            return;
        }
        if (shown) *shown = box->text() + QLatin1Char('\n') + box->informativeText();
        for (QAbstractButton* b : box->buttons())
            if (b->text() == button) {
                b->click();
                return;
            }
        box->reject();
    });
}

/// Selects the text `from` on the line starting with `linePrefix` and types `to` over it.
void typeOver(CodeEditor* e, const QString& linePrefix, const QString& from, const QString& to) {
    for (QTextBlock b = e->document()->firstBlock(); b.isValid(); b = b.next()) {
        if (!b.text().startsWith(linePrefix)) continue;
        const int at = int(b.text().indexOf(from, linePrefix.size() - 1));
        QTextCursor c(b);
        c.setPosition(b.position() + at);
        e->setTextCursor(c);
        for (int i = 0; i < from.size(); ++i) QTest::keyClick(e, Qt::Key_Right, Qt::ShiftModifier);
        QTest::keyClicks(e, to);
        return;
    }
    QFAIL(qPrintable(QStringLiteral("no line starts with ") + linePrefix));
}

const QString kLadderStep = QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/08_register_blocking.te");

} // namespace

class TestDocuments : public QObject {
    Q_OBJECT
    QTemporaryDir home_;

private slots:
    void initTestCase() {
        // The real IDE's settings names, in a home of our own: the kill -9
        // test starts `tessel` itself on the same folders.
        qputenv("XDG_CONFIG_HOME", home_.filePath(QStringLiteral("config")).toLocal8Bit());
        qputenv("XDG_DATA_HOME", home_.filePath(QStringLiteral("data")).toLocal8Bit());
        qputenv("XDG_CACHE_HOME", home_.filePath(QStringLiteral("cache")).toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("Tessel"));
        QCoreApplication::setApplicationName(QStringLiteral("tessel"));
        QVERIFY(QFileInfo::exists(kLadderStep));
    }

    void scriptEditMarksTitleSaveAndRevert() {
        const QString path = home_.filePath(QStringLiteral("08_register_blocking.te"));
        QFile::remove(path);
        QVERIFY(QFile::copy(kLadderStep, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const QString original = readFile(path);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w)); // the window's shortcuts (Ctrl+S)
        QVERIFY(w.openScript(path));
        Session* s = w.session();
        QVERIFY(s->jobs()->waitForIdle(60000));
        QVERIFY(w.windowTitle().contains(QStringLiteral("08_register_blocking.te[*]")));
        QVERIFY(!w.isWindowModified());
        QAction* save = fileAction(w, QStringLiteral("SaveAction"));
        QAction* saveAs = fileAction(w, QStringLiteral("SaveAsAction"));
        QAction* revert = fileAction(w, QStringLiteral("RevertAction"));
        QVERIFY(save && saveAs && revert);
        QCOMPARE(save->text(), QStringLiteral("&Save Script"));
        QCOMPARE(save->shortcut(), QKeySequence(QKeySequence::Save));
        QCOMPARE(saveAs->text(), QStringLiteral("Save Script &As…"));
        QVERIFY(!revert->isEnabled()); // nothing to revert yet

        // The edit: mr = 4 -> 8. The title gets its '*'.
        CodeEditor* e = w.view<ScheduleEditor>()->editor();
        e->setFocus();
        typeOver(e, QStringLiteral("mr = "), QStringLiteral("4"), QStringLiteral("8"));
        QVERIFY(e->toPlainText().contains(QStringLiteral("mr = 8")));
        QVERIFY(w.isWindowModified());
        QVERIFY(s->isScriptModified());
        QVERIFY(revert->isEnabled());
        // Undone to the file's text: not modified any more.
        QTest::keyClick(e, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(e->toPlainText(), original);
        QVERIFY(!w.isWindowModified());
        QTest::keyClick(e, Qt::Key_Z, Qt::ShiftModifier | Qt::ControlModifier);
        QVERIFY(w.isWindowModified());

        // Ctrl+S writes the file; the marker goes.
        QTest::keyClick(e, Qt::Key_S, Qt::ControlModifier);
        QVERIFY(!w.isWindowModified());
        QVERIFY(readFile(path).contains(QStringLiteral("mr = 8")));
        QCOMPARE(readFile(path), e->toPlainText());

        // Another edit, then Revert: the file's text is back, unmodified.
        typeOver(e, QStringLiteral("nr = "), QStringLiteral("64"), QStringLiteral("32"));
        QVERIFY(w.isWindowModified());
        QVERIFY(w.revertScript(false));
        QTRY_COMPARE(w.view<ScheduleEditor>()->editor()->toPlainText(), readFile(path));
        QVERIFY(!w.isWindowModified());

        // Save As: the same text under a new name, which the title takes.
        e = w.view<ScheduleEditor>()->editor();
        typeOver(e, QStringLiteral("nr = "), QStringLiteral("64"), QStringLiteral("16"));
        const QString other = home_.filePath(QStringLiteral("register_blocking_8x8.te"));
        QVERIFY(w.saveScript(other));
        QCOMPARE(s->sourcePath(), other);
        QVERIFY(w.windowTitle().contains(QStringLiteral("register_blocking_8x8.te")));
        QVERIFY(!w.isWindowModified());
        QVERIFY(readFile(other).contains(QStringLiteral("nr = 16")));
        QVERIFY(!readFile(path).contains(QStringLiteral("nr = 16")));
        QVERIFY(s->jobs()->waitForIdle(60000));
    }

    void closingAsksAboutUnsavedWork() {
        const QString path = home_.filePath(QStringLiteral("ask.te"));
        QFile::remove(path);
        QVERIFY(QFile::copy(kLadderStep, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        auto w = std::make_unique<MainWindow>();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openScript(path));
        Session* s = w->session();
        QVERIFY(s->jobs()->waitForIdle(60000));
        // Nothing edited: closes at once.
        CodeEditor* e = w->view<ScheduleEditor>()->editor();
        e->setFocus();
        typeOver(e, QStringLiteral("mr = "), QStringLiteral("4"), QStringLiteral("8"));

        // Ctrl+Q with an edit: asked; Cancel keeps the window and the edit.
        QString shown;
        answerUnsavedBox(QStringLiteral("Cancel"), &shown);
        fileAction(*w, QStringLiteral("QuitAction"))->trigger();
        QVERIFY(w->isVisible());
        QVERIFY2(shown.contains(QStringLiteral("ask.te")), qPrintable(shown));
        QVERIFY(e->toPlainText().contains(QStringLiteral("mr = 8")));
        // Save: written, then closed.
        answerUnsavedBox(QStringLiteral("Save"), &shown);
        QVERIFY(w->close());
        QVERIFY(readFile(path).contains(QStringLiteral("mr = 8")));
        QVERIFY(!w->recovery().exists());

        // A model's edited schedule and the tuning settings count too.
        w = std::make_unique<MainWindow>();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        Session* m = w->session();
        m->setTuningSettings({{QStringLiteral("trials"), 300}});
        QVERIFY(m->isModified());
        QVERIFY(m->unsavedChanges().contains(QStringLiteral("the tuning settings")));
        answerUnsavedBox(QStringLiteral("Don't Save"), &shown);
        QVERIFY(w->close());
        QVERIFY2(shown.contains(QStringLiteral("the tuning settings")), qPrintable(shown));
    }

    void autosaveKeepsUnsavedWork() {
        const QString path = home_.filePath(QStringLiteral("autosaved.te"));
        QFile::remove(path);
        QVERIFY(QFile::copy(kLadderStep, path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setAutosaveInterval(50);
        QVERIFY(w.openScript(path));
        QVERIFY(w.session()->jobs()->waitForIdle(60000));
        QTest::qWait(200);
        QVERIFY(!w.recovery().exists()); // nothing unsaved: no file
        CodeEditor* e = w.view<ScheduleEditor>()->editor();
        e->setFocus();
        typeOver(e, QStringLiteral("mr = "), QStringLiteral("4"), QStringLiteral("8"));
        QTRY_VERIFY(w.recovery().exists());
        RecoveredWork kept;
        QVERIFY(Recovery::read(w.recovery().path(), &kept));
        QCOMPARE(kept.project.scriptPath, path);
        QCOMPARE(kept.project.scriptText, e->toPlainText());
        QVERIFY(kept.unsaved.join(QString()).contains(QStringLiteral("autosaved.te")));
        // This process runs: its own file is not left over.
        QVERIFY(Recovery(w.recovery().dir()).leftOver().isEmpty());
        QVERIFY(w.save());
        QTRY_VERIFY(!w.recovery().exists());
    }

    void ctrlRRunsFromAnywhereInTheWindow() {
        // Issue 21: Ctrl+R ran the schedule only with the focus in its dock.
        const QString path = home_.filePath(QStringLiteral("small.te"));
        QVERIFY(writeFile(path, QStringLiteral("A = te.placeholder((256,), name=\"A\")\n"
                                               "B = te.compute((256,), lambda i: A[i] * 2.0, name=\"B\")\n"
                                               "s = te.create_schedule(B.op)\n"
                                               "func = tvm.build(s, [A, B], name=\"twice\")\n")));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.openScript(path));
        QVERIFY(w.session()->jobs()->waitForIdle(60000));
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->artifacts() != nullptr, 60000);
        ScheduleDocument* doc = w.view<ScheduleEditor>()->document();
        QSignalSpy finished(doc, &ScheduleDocument::runFinished);
        // The focus in the code view's TIR, not in the schedule editor.
        CodeEditor* tir = w.view<CodeView>()->pane(CodeView::Tir);
        tir->setFocus();
        QTRY_VERIFY(tir->hasFocus());
        QTest::keyClick(tir, Qt::Key_R, Qt::ControlModifier);
        QVERIFY2(finished.wait(120000), "Ctrl+R with the focus in the TIR ran nothing");
        QVERIFY(finished.takeFirst().at(0).value<RunRecord>().correct);
        QVERIFY(w.session()->jobs()->waitForIdle(60000));
    }

    void killedIdeOffersItsEditBack() {
        const QString tessel = QStringLiteral(TESSEL_BINARY_DIR "/bin/tessel");
        QVERIFY2(QFileInfo::exists(tessel), qPrintable(tessel + " was not built"));
        // A script with an unsaved edit: a project that holds the edited
        // text while the file has the ladder step as it is.
        const QString script = home_.filePath(QStringLiteral("killed.te"));
        QFile::remove(script);
        QVERIFY(QFile::copy(kLadderStep, script));
        QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner);
        const QString original = readFile(script);
        QString edited = original;
        edited.replace(QStringLiteral("mr = 4"), QStringLiteral("mr = 8"));
        QVERIFY(edited != original);
        Project p;
        p.scriptPath = script;
        p.scriptText = edited;
        const QString projectPath = home_.filePath(QStringLiteral("killed.tessel"));
        QCOMPARE(p.save(projectPath), QString());
        {
            QSettings settings; // the IDE's own settings file, in our home
            settings.setValue(QStringLiteral("autosave/intervalMs"), 200);
            settings.setValue(QStringLiteral("started"), true);
        }
        const Recovery recovery;
        QDir(recovery.dir()).removeRecursively();

        QProcess ide;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        ide.setProcessEnvironment(env);
        ide.setProcessChannelMode(QProcess::MergedChannels);
        ide.start(tessel, {projectPath});
        QVERIFY2(ide.waitForStarted(), qPrintable(ide.errorString()));
        const qint64 pid = ide.processId();
        QTRY_VERIFY2_WITH_TIMEOUT(!QDir(recovery.dir()).entryList({QStringLiteral("%1-*.tessel").arg(pid)}).isEmpty(),
                                  qPrintable(QStringLiteral("no autosave from tessel:\n") + QString::fromUtf8(ide.readAll())),
                                  60000);
        ::kill(pid_t(pid), SIGKILL);
        QVERIFY(ide.waitForFinished(10000));
        QCOMPARE(ide.exitStatus(), QProcess::CrashExit);
        QCOMPARE(readFile(script), original); // the edit never reached the file

        // The next start offers it back; Restore opens it as it was, unsaved.
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.offerRecovery(), 1);
        QToolBar* bar = w.recoveryBar();
        QVERIFY(bar && bar->isVisible());
        auto* label = bar->findChild<QLabel*>(QStringLiteral("RecoveryLabel"));
        QVERIFY(label);
        QVERIFY2(label->text().contains(QStringLiteral("killed.te")), qPrintable(label->text()));
        const QString shots = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/views");
        QVERIFY(QDir().mkpath(shots));
        QVERIFY(w.grab().save(shots + QStringLiteral("/recovery-offered.png")));
        bar->findChild<QPushButton*>(QStringLiteral("RecoveryRestore"))->click();
        Session* s = w.session();
        QCOMPARE(s->sourcePath(), script);
        QTRY_COMPARE(w.view<ScheduleEditor>()->editor()->toPlainText(), edited);
        QVERIFY(w.isWindowModified());
        QCOMPARE(w.projectPath(), projectPath);
        QVERIFY(!bar->isVisible());
        QVERIFY(Recovery().leftOver().isEmpty()); // the killed IDE's file is taken over
        QVERIFY(s->jobs()->waitForIdle(60000));
        // Saved now: the edit reaches the file.
        QVERIFY(w.save());
        QCOMPARE(readFile(script), edited);
        QVERIFY(!w.isWindowModified());
    }
};

QTEST_MAIN(TestDocuments)
#include "tst_documents.moc"
