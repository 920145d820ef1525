/// \file
/// MainWindow's actions and menus: creating them, their texts in the current
/// language (retranslate), and the menus rebuilt as they open (recent files,
/// examples, tuned configurations).
#include "shell/MainWindow.h"

#include "common/Jobs.h"
#include "common/Resources.h"
#include "common/Session.h"
#include "lesson/LessonView.h"
#include "shell/Language.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QToolButton>

namespace tessel::views {

namespace {
constexpr int kMaxRecent = 8;
} // namespace

void MainWindow::createActions() {
    targetAct_ = new QAction(this);
    connect(targetAct_, &QAction::triggered, this, &MainWindow::chooseTarget);
    openAct_ = new QAction(this);
    openAct_->setShortcut(QKeySequence::Open);
    connect(openAct_, &QAction::triggered, this, &MainWindow::openDialog);
    openProjectAct_ = new QAction(this);
    connect(openProjectAct_, &QAction::triggered, this, [this] {
        if (!maybeSave()) return;
        QString path = QFileDialog::getOpenFileName(this, tr("Open project"), {}, tr("Tessel projects (*.tessel)"));
        if (!path.isEmpty()) openProject(path);
    });
    // Save and Save As act on what is open: the script's file, or for a
    // model the project (its edited schedules); Save Project keeps both.
    saveAct_ = new QAction(this);
    saveAct_->setObjectName(QStringLiteral("SaveAction"));
    saveAct_->setShortcut(QKeySequence::Save);
    connect(saveAct_, &QAction::triggered, this, &MainWindow::save);
    saveAsAct_ = new QAction(this);
    saveAsAct_->setObjectName(QStringLiteral("SaveAsAction"));
    saveAsAct_->setShortcut(QKeySequence::SaveAs);
    connect(saveAsAct_, &QAction::triggered, this, &MainWindow::saveAs);
    revertAct_ = new QAction(this);
    revertAct_->setObjectName(QStringLiteral("RevertAction"));
    connect(revertAct_, &QAction::triggered, this, [this] { revertScript(true); });
    saveProjectAct_ = new QAction(this);
    connect(saveProjectAct_, &QAction::triggered, this, [this] {
        if (projectPath_.isEmpty())
            saveProjectAs();
        else
            saveProject(projectPath_);
    });
    saveProjectAsAct_ = new QAction(this);
    connect(saveProjectAsAct_, &QAction::triggered, this, &MainWindow::saveProjectAs);
    quitAct_ = new QAction(this);
    quitAct_->setObjectName(QStringLiteral("QuitAction"));
    quitAct_->setShortcut(QKeySequence::Quit);
    connect(quitAct_, &QAction::triggered, this, &QWidget::close);

    compileRunAct_ = new QAction(this);
    compileRunAct_->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    connect(compileRunAct_, &QAction::triggered, this, &MainWindow::compileAndRunModel);
    cancelAct_ = new QAction(this);
    cancelAct_->setShortcut(Qt::Key_Escape);
    cancelAct_->setEnabled(false);
    connect(cancelAct_, &QAction::triggered, this, [this] {
        session_->jobs()->cancelAll();
        showMessage(tr("Cancelled."), false);
    });

    passRefAct_ = new QAction(this);
    connect(passRefAct_, &QAction::triggered, this, &MainWindow::showPassReference);
    lessonAct_ = new QAction(this);
    connect(lessonAct_, &QAction::triggered, this, [this] { showView(QStringLiteral("LessonDock")); });
    gpuLessonAct_ = new QAction(this);
    connect(gpuLessonAct_, &QAction::triggered, this, [this] {
        showView(QStringLiteral("LessonDock"));
        if (auto* lesson = view<LessonView>()) lesson->loadLesson(resourcePath(QStringLiteral("examples/gemm-gpu")));
    });
    aboutAct_ = new QAction(this);
    connect(aboutAct_, &QAction::triggered, this, &MainWindow::showAbout);
    aboutQtAct_ = new QAction(this);
    connect(aboutQtAct_, &QAction::triggered, qApp, &QApplication::aboutQt);
    resetLayoutAct_ = new QAction(this);
    resetLayoutAct_->setObjectName(QStringLiteral("ResetLayoutAction"));
    connect(resetLayoutAct_, &QAction::triggered, this, &MainWindow::resetLayout);
    // One key to let the focused pane fill the window and to bring the rest
    // back (Ctrl+M would be Qt's minimise on some platforms; nothing else here
    // takes Ctrl+Shift+M).
    maximiseAct_ = new QAction(this);
    maximiseAct_->setCheckable(true);
    maximiseAct_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    maximiseAct_->setShortcutContext(Qt::WindowShortcut);
    addAction(maximiseAct_);
    connect(maximiseAct_, &QAction::triggered, this, [this] {
        if (layout_->maximised().isEmpty())
            layout_->maximiseFocused();
        else
            layout_->restoreMaximised();
        maximiseAct_->setChecked(!layout_->maximised().isEmpty());
    });

    languageGroup_ = new QActionGroup(this);
    QStringList codes = availableLanguages();
    codes.prepend(QString());
    for (const QString& code : codes) {
        auto* a = new QAction(this);
        a->setCheckable(true);
        a->setData(code);
        languageGroup_->addAction(a);
        languageActions_.insert(code, a);
        connect(a, &QAction::triggered, this, [this, code] { setLanguage(code); });
    }
}

void MainWindow::createMenus() {
    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->setObjectName(QStringLiteral("FileMenu"));
    fileMenu_->addAction(openAct_);
    fileMenu_->addAction(openProjectAct_);
    recentMenu_ = fileMenu_->addMenu(QString());
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    examplesMenu_ = fileMenu_->addMenu(QString());
    connect(examplesMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildExamplesMenu);
    fileMenu_->addSeparator();
    fileMenu_->addAction(saveAct_);
    fileMenu_->addAction(saveAsAct_);
    fileMenu_->addAction(revertAct_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(saveProjectAct_);
    fileMenu_->addAction(saveProjectAsAct_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(quitAct_);

    viewMenu_ = menuBar()->addMenu(QString());
    viewMenu_->setObjectName(QStringLiteral("ViewMenu"));

    runMenu_ = menuBar()->addMenu(QString());
    runMenu_->setObjectName(QStringLiteral("RunMenu"));
    runMenu_->addAction(compileRunAct_);
    runMenu_->addAction(cancelAct_);
    runMenu_->addSeparator();
    recordsMenu_ = runMenu_->addMenu(QString());
    recordsMenu_->setObjectName(QStringLiteral("RecordsMenu"));
    connect(recordsMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecordsMenu);

    settingsMenu_ = menuBar()->addMenu(QString());
    settingsMenu_->setObjectName(QStringLiteral("SettingsMenu"));
    settingsMenu_->addAction(targetAct_);
    languageMenu_ = settingsMenu_->addMenu(QString());
    for (auto* a : languageGroup_->actions()) languageMenu_->addAction(a);

    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->setObjectName(QStringLiteral("HelpMenu"));
    helpMenu_->addAction(passRefAct_);
    helpMenu_->addAction(lessonAct_);
    helpMenu_->addAction(gpuLessonAct_);
    helpMenu_->addSeparator();
    helpMenu_->addAction(aboutAct_);
    helpMenu_->addAction(aboutQtAct_);
}

void MainWindow::retranslate() {
    fileMenu_->setTitle(tr("&File"));
    openAct_->setText(tr("&Open Model or Script…"));
    openProjectAct_->setText(tr("Open &Project…"));
    recentMenu_->setTitle(tr("Recent &Files"));
    examplesMenu_->setTitle(tr("&Examples"));
    saveProjectAct_->setText(tr("Save &Project"));
    saveProjectAsAct_->setText(tr("Save Project As…"));
    updateFileActions();
    quitAct_->setText(tr("&Quit"));
    viewMenu_->setTitle(tr("&View"));
    resetLayoutAct_->setText(tr("Reset Layout"));
    maximiseAct_->setText(tr("&Maximise Pane"));
    maximiseAct_->setToolTip(
        tr("Let the pane with the keyboard focus fill the window; press %1 again to bring the other views back")
            .arg(maximiseAct_->shortcut().toString(QKeySequence::NativeText)));
    maximiseAct_->setStatusTip(maximiseAct_->toolTip());
    runMenu_->setTitle(tr("&Run"));
    compileRunAct_->setText(tr("Compile and Run &Model"));
    cancelAct_->setText(tr("&Cancel Running Work"));
    recordsMenu_->setTitle(tr("&Tuned Configurations"));
    settingsMenu_->setTitle(tr("&Settings"));
    languageMenu_->setTitle(tr("&Language"));
    targetAct_->setText(tr("&Target…"));
    targetAct_->setToolTip(tr("The machine every compile generates code for"));
    for (auto it = languageActions_.begin(); it != languageActions_.end(); ++it)
        it.value()->setText(it.key().isEmpty() ? tr("System Language") : languageName(it.key()));
    if (auto* a = languageActions_.value(language_)) a->setChecked(true);
    helpMenu_->setTitle(tr("&Help"));
    passRefAct_->setText(tr("&Pass Reference"));
    lessonAct_->setText(tr("&GEMM Lesson"));
    gpuLessonAct_->setText(tr("G&PU GEMM Lesson (PTX)"));
    aboutAct_->setText(tr("&About Tessel"));
    aboutQtAct_->setText(tr("About &Qt"));
    cancelButton_->setText(tr("Cancel"));
    cancelButton_->setToolTip(tr("Cancel the running work"));

    for (const ViewRecord& r : registry_.records()) {
        if (auto* d = docks_.value(r.id)) d->setWindowTitle(ViewRegistry::title(r));
        if (QAction* a = viewActions_.value(r.id)) a->setText(ViewRegistry::title(r));
    }
    updateJobStatus();
    updateTitle();
}

void MainWindow::rebuildRecordsMenu() {
    recordsMenu_->clear();
    auto* group = new QActionGroup(recordsMenu_);
    const QString current = session_->recordsPath();
    auto add = [&](const QString& text, const QString& path, const QString& tip) {
        QAction* a = recordsMenu_->addAction(text);
        a->setCheckable(true);
        a->setChecked(current == path);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, path] { session_->setRecordsPath(path); });
        return a;
    };
    add(tr("Default Schedules (Untuned)"), QString(), tr("Every fused function keeps its default schedule"));
    const QString bundled = bundledRecords();
    add(tr("Bundled for This Machine Kind"), bundled,
        tr("The zoo models' configurations tuned on an x86-64 machine with AVX-512 (%1)").arg(bundled))
        ->setEnabled(!bundled.isEmpty());
    if (!current.isEmpty() && current != bundled)
        add(tr("Records: %1").arg(QFileInfo(current).fileName()), current, current);
    recordsMenu_->addSeparator();
    connect(recordsMenu_->addAction(tr("Choose Records File…")), &QAction::triggered, this,
            &MainWindow::chooseRecordsFile);
}

void MainWindow::chooseRecordsFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Tuned configurations"), session_->recordsPath(),
                                                      tr("Tuning records (*.jsonl);;All files (*)"));
    if (!path.isEmpty()) session_->setRecordsPath(path);
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList recent = s.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    s.setValue(QStringLiteral("recentFiles"), recent);
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& p : recent) {
        auto* a = recentMenu_->addAction(QFileInfo(p).fileName());
        a->setToolTip(p);
        a->setStatusTip(p);
        connect(a, &QAction::triggered, this, [this, p] {
            if (maybeSave()) openFile(p);
        });
    }
    if (recent.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    recentMenu_->addSeparator();
    connect(recentMenu_->addAction(tr("Clear")), &QAction::triggered, this,
            [] { QSettings().remove(QStringLiteral("recentFiles")); });
}

void MainWindow::rebuildExamplesMenu() {
    examplesMenu_->clear();
    connect(examplesMenu_->addAction(tr("ResNet-18 (model zoo) and the GEMM lesson")), &QAction::triggered, this,
            [this] {
                if (maybeSave()) openExample();
            });
    const QString mobilenet = QStringLiteral("mobilenet_v2");
    connect(examplesMenu_->addAction(tr("%1 (model zoo)").arg(mobilenet)), &QAction::triggered, this,
            [this, mobilenet] {
                if (maybeSave()) openZooModel(mobilenet);
            });
    examplesMenu_->addSeparator();
    QDir gemm(resourcePath(QStringLiteral("examples/gemm")));
    for (const QFileInfo& fi : gemm.entryInfoList({QStringLiteral("*.te")}, QDir::Files, QDir::Name)) {
        QString p = fi.absoluteFilePath();
        connect(examplesMenu_->addAction(tr("GEMM: %1").arg(fi.completeBaseName())), &QAction::triggered, this,
                [this, p] {
                    if (maybeSave()) openScript(p);
                });
    }
    QDir templates(resourcePath(QStringLiteral("templates")));
    for (const QFileInfo& fi : templates.entryInfoList({QStringLiteral("*.te")}, QDir::Files, QDir::Name)) {
        QString p = fi.absoluteFilePath();
        connect(examplesMenu_->addAction(tr("Template: %1").arg(fi.completeBaseName())), &QAction::triggered, this,
                [this, p] {
                    if (maybeSave()) openScript(p);
                });
    }
}

} // namespace tessel::views
