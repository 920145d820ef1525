#include "shell/MainWindow.h"

#include "common/Jobs.h"
#include "common/MessageLog.h"
#include "common/Resources.h"
#include "common/DeviceChoice.h"
#include "common/Session.h"
#include "driver/ApplyBest.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/ModelZoo.h"
#include "frontend/OnnxImporter.h"
#include "frontend/OnnxInputs.h"
#include "shell/InputShapes.h"
#include "shell/InputShapesDialog.h"
#include "shell/Language.h"
#include "shell/PassReference.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextStream>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>

namespace tessel::views {

namespace {

constexpr int kMaxRecent = 8;
/// The smallest first window that fits next to every view (a larger screen gets more).
constexpr QSize kPreferredSize(1440, 900);

/// What the inspect job finds out about a model before compiling it.
struct ModelInfo {
    QVector<ModelInput> inputs;
};

ModelInfo inspectModel(const QString& path) {
    frontend::ImportOptions io;
    io.inferShapes = false;
    graph::Graph g = frontend::importOnnx(path.toStdString(), io);
    ModelInfo info;
    bool dynamic = false;
    for (const auto& in : g.inputs()) {
        ModelInput mi;
        const auto& t = in->output(0).type();
        mi.name = QString::fromStdString(in->output(0).name());
        mi.dtype = QString::fromStdString(t.dtype.str());
        for (int64_t d : t.shape) mi.dims << d;
        dynamic = dynamic || mi.dynamic();
        info.inputs << mi;
    }
    // The names of symbolic dimensions (the import forgets them) are the
    // model's hints for the shape dialog.
    if (dynamic)
        for (const auto& in : frontend::onnxInputs(path.toStdString()))
            for (auto& mi : info.inputs)
                if (mi.name == QString::fromStdString(in.name))
                    for (const auto& n : in.dimNames) mi.dimNames << QString::fromStdString(n);
    return info;
}

/// Whether a dock is in front: shown, and not behind another tab of its
/// group (QMainWindow keeps those "visible", out of sight).
bool inFront(const QDockWidget* d) { return d->isVisible() && (d->isFloating() || !d->visibleRegion().isEmpty()); }

/// The fused function the views show first: the first convolution, else the first.
QString firstInterestingFunction(const driver::CompiledModel& m) {
    for (const auto& f : m.functions)
        if (f.name.find("conv") != std::string::npos) return QString::fromStdString(f.name);
    return m.functions.empty() ? QString() : QString::fromStdString(m.functions.front().name);
}

/// Apply-best for a compile job (runs on the worker): the configurations of
/// the records at `path` (a file or a folder) for `target`; none without a path.
/// Configurations chosen in the session (Session::chosenConfigs) win over the records'.
std::map<std::string, tune::Config> tunedConfigs(const QString& path, const Target& target,
                                                 const std::map<std::string, Session::KnobChoices>& chosen) {
    std::map<std::string, tune::Config> configs;
    if (!path.isEmpty()) configs = driver::bestConfigsFor(driver::loadRecords(path.toStdString()), target).configs;
    for (const auto& [key, config] : chosen) configs[key] = config;
    return configs;
}

} // namespace

QRect fitWindowToScreen(const QSize& preferred, const QRect& available) {
    // Room for the frame a window manager adds around the client area: the
    // title bar above, thin borders elsewhere (unknown before the window is shown).
    const QRect room = available.adjusted(8, 40, -8, -8);
    const QSize size = preferred.boundedTo(room.size()).expandedTo(QSize(1, 1));
    QRect r(QPoint(), size);
    r.moveCenter(room.center());
    return r;
}

QSize preferredWindowSize(const QSize& available) {
    return QSize(std::max(kPreferredSize.width(), available.width() * 9 / 10),
                 std::max(kPreferredSize.height(), available.height() * 9 / 10));
}

MainWindow::MainWindow(QWidget* parent, ViewRegistry views)
    : QMainWindow(parent), session_(new Session(this)), registry_(std::move(views)),
      layout_(new WindowLayout(this, &registry_, &views_, &docks_)) {
    setObjectName(QStringLiteral("TesselMainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/tessel.svg")));
    setDockNestingEnabled(true);
    // A saved geometry (restoreLayout) replaces this; a first window fits the
    // screen, so the messages and the status bar are never off it.
    if (QScreen* s = screen())
        setGeometry(fitWindowToScreen(preferredWindowSize(s->availableGeometry().size()), s->availableGeometry()));
    else resize(kPreferredSize);

    statusLabel_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(180);
    progress_->setVisible(false);
    cancelButton_ = new QToolButton(this);
    cancelButton_->setVisible(false);
    statusBar()->addWidget(statusLabel_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);

    connect(layout_, &WindowLayout::maximisedChanged, this, &MainWindow::onMaximisedChanged);
    createActions();
    createMenus();
    createViews();
    defaultState_ = saveState();
    restoreLayout();

    connect(session_, &Session::message, this, &MainWindow::onMessage);
    connect(session_, &Session::modelChanged, this, &MainWindow::updateTitle);
    connect(session_, &Session::scriptChanged, this, &MainWindow::updateTitle);
    connect(session_, &Session::scriptRenamed, this, &MainWindow::updateTitle);
    connect(session_, &Session::cleared, this, &MainWindow::updateTitle);
    connect(session_, &Session::modifiedChanged, this, &MainWindow::updateTitle);
    connect(session_, &Session::targetChanged, this, &MainWindow::onTargetChanged);
    connect(session_, &Session::recordsChanged, this, &MainWindow::onRecordsChanged);
    connect(session_, &Session::chosenConfigsChanged, this, [this] {
        if (session_->kind() == Session::Kind::Model && session_->model())
            compileModel(session_->sourcePath(), session_->inputShapes(), session_->currentFunction(),
                         session_->editedSchedules());
    });
    auto* jobs = session_->jobs();
    connect(jobs, &Jobs::started, this, &MainWindow::updateJobStatus);
    connect(jobs, &Jobs::finished, this, &MainWindow::updateJobStatus);
    auto* poll = new QTimer(this);
    poll->setInterval(150);
    connect(poll, &QTimer::timeout, this, &MainWindow::updateJobStatus);
    connect(jobs, &Jobs::busyChanged, poll, [poll](bool busy) { busy ? poll->start() : poll->stop(); });
    connect(cancelButton_, &QToolButton::clicked, cancelAct_, &QAction::trigger);

    QSettings settings;
    language_ = settings.value(QStringLiteral("language")).toString();
    // Autosave: while something is unsaved, its state goes to this process's
    // recovery file every few seconds (when it changed); MainWindow::offerRecovery
    // offers what a crashed or killed IDE left.
    autosave_ = new QTimer(this);
    autosave_->setInterval(settings.value(QStringLiteral("autosave/intervalMs"), 10000).toInt());
    connect(autosave_, &QTimer::timeout, this, &MainWindow::autosave);
    autosave_->start();
    retranslate();
    updateTitle();
    installEventFilter(this);
}

MainWindow::~MainWindow() {
    // The docks hide as the window goes, after the menus (and the View
    // menu's actions) are gone: nothing may follow them any more.
    for (QDockWidget* d : std::as_const(docks_)) disconnect(d, nullptr, this, nullptr);
    viewActions_.clear();
    // Gone without a crash: nothing to recover. (A window closed by the user
    // removed it already, after the prompt.)
    recovery_.remove();
    // Views observe the session: they go first, then the session (and its
    // workers, which it waits for).
    session_->jobs()->cancelAll();
    destroyViews();
    delete session_;
}

// ---------------------------------------------------------------- actions / menus

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

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QMainWindow::changeEvent(event);
}

// ---------------------------------------------------------------- views

void MainWindow::createViews() {
    const bool first = views_.isEmpty() && docks_.isEmpty();
    for (const ViewRecord& r : registry_.records()) {
        QWidget* w = r.create(session_, this);
        views_.insert(r.id, w);
        if (r.placement.central) {
            setCentralWidget(w); // the previous one is gone with the old views
            continue;
        }
        auto* d = docks_.value(r.id);
        if (!d) {
            d = new QDockWidget(this);
            d->setObjectName(r.id);
            addDockWidget(r.placement.area, d);
            docks_.insert(r.id, d);
            layout_->watch(r.id, d);
        }
        // Views' own size hints would pin the dock areas (a tabbed stage view
        // would keep the messages panel tall); the user sizes the docks.
        w->setMinimumSize(160, 80);
        d->setWidget(w);
    }
    const ViewLookup find = [this](const QString& id) { return views_.value(id); };
    for (const ViewRecord& r : registry_.records())
        if (r.link) r.link(views_.value(r.id), find);
    if (!first) return;
    applyDefaultLayout();
    viewMenu_->clear();
    // Not the docks' toggle actions: for a dock behind another tab they
    // hid it (it was "shown", so ticked). Ticked is "in front"; choosing a
    // view brings it to the front with its room, choosing the one in front hides it.
    for (const ViewRecord& r : registry_.records()) {
        QDockWidget* d = docks_.value(r.id);
        if (!d) continue;
        auto* a = viewMenu_->addAction(ViewRegistry::title(r));
        a->setObjectName(QStringLiteral("ViewAction_") + r.id);
        a->setCheckable(true);
        viewActions_.insert(r.id, a);
        connect(a, &QAction::triggered, this, [this, id = r.id, d] {
            if (inFront(d)) {
                if (layout_->maximised() == id) layout_->restoreMaximised();
                d->hide();
            } else {
                showView(id);
            }
            updateViewActions();
        });
        connect(d, &QDockWidget::visibilityChanged, this, &MainWindow::updateViewActions);
    }
    connect(viewMenu_, &QMenu::aboutToShow, this, &MainWindow::updateViewActions);
    viewMenu_->addSeparator();
    viewMenu_->addAction(maximiseAct_);
    viewMenu_->addAction(resetLayoutAct_);
}

void MainWindow::applyDefaultLayout() {
    // Every dock exists by now, so a record may name one that comes after it.
    // Splits first, then tabs: a tab group is placed where its first dock is.
    for (const ViewRecord& r : registry_.records())
        if (auto *d = docks_.value(r.id), *at = docks_.value(r.placement.below); d && at)
            splitDockWidget(at, d, Qt::Vertical);
    for (const ViewRecord& r : registry_.records())
        if (auto *d = docks_.value(r.id), *with = docks_.value(r.placement.tabWith); d && with)
            tabifyDockWidget(with, d);
    for (const ViewRecord& r : registry_.records())
        if (auto* d = docks_.value(r.id); d && r.placement.raised) d->raise();
}

void MainWindow::destroyViews() {
    for (QWidget* w : std::as_const(views_)) delete w;
    views_.clear();
}

QDockWidget* MainWindow::dock(const QString& id) const { return docks_.value(id); }

void MainWindow::showView(const QString& id) {
    if (auto* d = dock(id)) {
        if (!layout_->maximised().isEmpty() && layout_->maximised() != id) layout_->restoreMaximised();
        d->show();
        d->raise();
        // Chosen again while in front: the room it asks for all the same.
        QTimer::singleShot(0, layout_, [this, id] { layout_->giveRoom(id); });
    }
}

void MainWindow::updateViewActions() {
    for (auto it = viewActions_.begin(); it != viewActions_.end(); ++it) {
        const QDockWidget* d = docks_.value(it.key());
        if (it.value()) it.value()->setChecked(d && inFront(d));
    }
}

void MainWindow::restoreLayout() {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    const QByteArray state = s.value(QStringLiteral("window/state")).toByteArray();
    if (!state.isEmpty() && layout_->restore(state)) return;
    // Dock sizes only take once the window is laid out: at its first paint.
    sizesPending_ = true;
}

void MainWindow::resetLayout() {
    layout_->restore(defaultState_);
    applyDefaultSizes();
}

void MainWindow::maximiseFocusedView() { layout_->maximiseFocused(); }

void MainWindow::restoreMaximised() { layout_->restoreMaximised(); }

QString MainWindow::maximisedView() const { return layout_->maximised(); }

void MainWindow::onMaximisedChanged(const QString& id) {
    maximiseAct_->setChecked(!id.isEmpty());
    const ViewRecord* record = registry_.find(id);
    if (!record) {
        statusBar()->clearMessage();
        return;
    }
    statusBar()->showMessage(tr("%1 fills the window: %2 brings the other views back.")
                                 .arg(ViewRegistry::title(*record),
                                      maximiseAct_->shortcut().toString(QKeySequence::NativeText)),
                             8000);
}

void MainWindow::applyDefaultSizes() {
    QList<QDockWidget*> wide, tall;
    QList<int> widths, heights;
    for (const ViewRecord& r : registry_.records()) {
        auto* d = docks_.value(r.id);
        if (!d) continue;
        if (r.placement.widthShare > 0) {
            wide << d;
            widths << int(width() * r.placement.widthShare);
        }
        if (r.placement.heightShare > 0) {
            tall << d;
            heights << int(height() * r.placement.heightShare);
        }
    }
    if (!wide.isEmpty()) resizeDocks(wide, widths, Qt::Horizontal);
    if (!tall.isEmpty()) resizeDocks(tall, heights, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    recovery_.remove();
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), layout_->state());
    session_->jobs()->cancelAll();
    event->accept();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == this && event->type() == QEvent::Paint && !painted_) {
        painted_ = true;
        layout_->followChoices();
        if (sizesPending_) {
            sizesPending_ = false;
            QTimer::singleShot(0, this, &MainWindow::applyDefaultSizes);
        }
        QTimer::singleShot(0, this, &MainWindow::firstPaint);
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::setLanguage(const QString& code) {
    language_ = code;
    QSettings().setValue(QStringLiteral("language"), code);
    installLanguage(resolveLanguage(code));
    // Views set their strings when built: rebuild them over the same session
    // so every panel speaks the new language; the docks and layout stay.
    // The views build themselves from the session, which has the script's
    // unsaved edits (the schedule editor keeps them there as they are typed).
    restoreMaximised();
    destroyViews();
    createViews();
    retranslate();
}

// ---------------------------------------------------------------- status

void MainWindow::showMessage(const QString& text, bool error) { session_->report(text, error); }

void MainWindow::onMessage(const QString& text, bool error) {
    // An error is never missed: the messages come to the front.
    if (error) showView(QStringLiteral("MessagesDock"));
    lastMessage_ = text;
    statusLabel_->setText(text);
}

void MainWindow::updateJobStatus() {
    auto* jobs = session_->jobs();
    bool busy = jobs->runningCount() > 0;
    progress_->setVisible(busy);
    cancelButton_->setVisible(busy);
    cancelAct_->setEnabled(busy);
    if (!busy) {
        statusLabel_->setText(lastMessage_);
        return;
    }
    double p = jobs->progress();
    if (p < 0) {
        progress_->setRange(0, 0);
    } else {
        progress_->setRange(0, 1000);
        progress_->setValue(int(p * 1000));
    }
    statusLabel_->setText(jobs->runningTitles().join(QStringLiteral(" · ")));
}

void MainWindow::updateTitle() {
    QString what;
    if (!session_->sourcePath().isEmpty()) what = QFileInfo(session_->sourcePath()).fileName();
    else if (session_->kind() == Session::Kind::Script) what = tr("untitled.te");
    // Code for another machine is worth saying in the title: its assembly is not this one's.
    if (!what.isEmpty() && session_->target() != QLatin1String("host"))
        what = tr("%1 for %2").arg(what, QString::fromStdString(session_->request().target.arch()));
    // "[*]": Qt shows a '*' there while the window is modified.
    setWindowTitle(what.isEmpty() ? tr("Tessel[*]") : tr("%1[*] — Tessel").arg(what));
    setWindowModified(session_->isModified());
    updateFileActions();
}

void MainWindow::chooseTarget() {
    // Presets a user of this machine is likely to want; any target text works.
    const QStringList presets{QStringLiteral("host"), QStringLiteral("x86_64 -mcpu=skylake-avx512"),
                              QStringLiteral("x86_64 -mcpu=haswell"), QStringLiteral("aarch64 -mcpu=cortex-a72"),
                              QStringLiteral("armv7"), QStringLiteral("riscv64")};
    QStringList items = presets;
    if (!items.contains(session_->target())) items.prepend(session_->target());
    bool ok = false;
    const QString text = QInputDialog::getItem(
        this, tr("Target"),
        tr("Generate code for (host, an architecture, a triple with -mcpu/-mattr, or llvm -mtriple=…):"), items,
        int(items.indexOf(session_->target())), true, &ok);
    if (ok) session_->setTarget(text);
}

void MainWindow::onTargetChanged() {
    updateTitle();
    showMessage(tr("Target: %1").arg(QString::fromStdString(session_->request().target.str())), false);
    // The open model's kernels were made for the old target: compile it again.
    auto m = session_->model();
    if (session_->kind() == Session::Kind::Model && m)
        compileModel(session_->sourcePath(), session_->inputShapes(), session_->currentFunction(),
                     session_->editedSchedules());
}

QString MainWindow::bundledRecords() {
    const QString dir = resourcePath(QStringLiteral("records"));
    return QDir(dir).entryList({QStringLiteral("*.jsonl")}, QDir::Files).isEmpty() ? QString() : dir;
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

void MainWindow::onRecordsChanged() {
    const QString path = session_->recordsPath();
    showMessage(path.isEmpty() ? tr("Default schedules: tuned configurations are off")
                               : tr("Tuned configurations from %1").arg(path),
                false);
    // The open model's kernels were made with the old configurations.
    if (session_->kind() == Session::Kind::Model && session_->model())
        compileModel(session_->sourcePath(), session_->inputShapes(), session_->currentFunction(),
                     session_->editedSchedules());
}

// ---------------------------------------------------------------- opening

void MainWindow::openDialog() {
    if (!maybeSave()) return;
    QString path = QFileDialog::getOpenFileName(
        this, tr("Open model or script"), {},
        tr("Models and scripts (*.onnx *.te *.tessel);;ONNX models (*.onnx);;TE scripts (*.te);;Tessel projects (*.tessel)"));
    if (!path.isEmpty()) openFile(path);
}

bool MainWindow::openFile(const QString& path) {
    QFileInfo fi(path);
    if (!fi.exists()) {
        showMessage(tr("%1 does not exist").arg(path), true);
        emit openFailed(path);
        return false;
    }
    QString suffix = fi.suffix().toLower();
    if (suffix == QLatin1String("te")) return openScript(path);
    if (suffix == QLatin1String("tessel")) return openProject(path);
    openModel(path);
    return true;
}

void MainWindow::openModel(const QString& path, const QMap<QString, QString>& shapes) {
    QString abs = QFileInfo(path).absoluteFilePath();
    addRecent(abs);
    if (pendingProject_.modelPath != abs) {
        // A model of its own, no project's: nothing of it is saved yet.
        projectPath_.clear();
        pendingSavedSchedules_.clear();
        session_->setSavedTuningSettings(session_->tuningSettings());
    }
    session_->jobs()->run<ModelInfo>(
        QStringLiteral("inspect-model"), tr("Reading %1").arg(QFileInfo(abs).fileName()),
        [abs](const CancelToken&) { return inspectModel(abs); }, this,
        [this, abs, shapes](ModelInfo info) {
            QString select = pendingProject_.modelPath == abs ? pendingProject_.currentFunction : QString();
            QMap<QString, QString> schedules =
                pendingProject_.modelPath == abs ? pendingProject_.schedules : QMap<QString, QString>();
            // Shapes given (by a project) that fit the model are used as they
            // are; otherwise the dialog asks, starting from them.
            bool ask = false;
            for (const auto& in : info.inputs)
                if (in.dynamic() && !checkShapeText(in, shapes.value(in.name)).isEmpty()) ask = true;
            if (!ask) {
                compileModel(abs, shapes, select, schedules);
                return;
            }
            auto* dlg = new InputShapesDialog(QFileInfo(abs).fileName(), info.inputs, shapes, this);
            dlg->setAttribute(Qt::WA_DeleteOnClose);
            connect(dlg, &QDialog::accepted, this, [this, dlg, abs, shapes, select, schedules] {
                QMap<QString, QString> bound = shapes;
                const auto given = dlg->shapes();
                for (auto it = given.begin(); it != given.end(); ++it) bound.insert(it.key(), it.value());
                compileModel(abs, bound, select, schedules);
            });
            connect(dlg, &QDialog::rejected, this, [this, abs] {
                showMessage(tr("Opening %1 cancelled: its input shapes are needed.").arg(abs), false);
            });
            dlg->open();
        },
        [this, abs](const QString& err) {
            showMessage(tr("Cannot open %1: %2").arg(abs, err), true);
            emit openFailed(err);
        });
}

void MainWindow::compileModel(const QString& path, const QMap<QString, QString>& shapes, const QString& selectFunction,
                              const QMap<QString, QString>& schedules) {
    std::map<std::string, std::vector<int64_t>> io;
    try {
        io = importShapes(shapes);
    } catch (const std::exception& e) {
        showMessage(tr("Bad input shape: %1").arg(QString::fromStdString(e.what())), true);
        emit openFailed(QString::fromStdString(e.what()));
        return;
    }
    std::map<std::string, std::string> sched;
    for (auto it = schedules.begin(); it != schedules.end(); ++it) sched[it.key().toStdString()] = it.value().toStdString();
    QString name = QFileInfo(path).fileName();
    showMessage(tr("Compiling %1…").arg(name), false);
    session_->jobs()->run<std::shared_ptr<const driver::CompiledModel>>(
        QStringLiteral("compile-model"), tr("Compiling %1").arg(name),
        [path, io, sched, request = session_->request(), records = session_->recordsPath(),
         chosen = session_->chosenConfigs()](const CancelToken& token) {
            frontend::ImportOptions opts;
            opts.inputShapes = io;
            driver::CompileOptions co;
            co.request = request;
            co.trace = true;
            co.schedules = sched;
            co.configs = tunedConfigs(records, request.target, chosen);
            co.progress = [token](double fraction, const std::string&) {
                token.setProgress(fraction);
                return !token.cancelled();
            };
            return std::shared_ptr<const driver::CompiledModel>(
                std::make_shared<driver::CompiledModel>(driver::compileModel(path.toStdString(), opts, co)));
        },
        this,
        [this, path, shapes, selectFunction, schedules, name](std::shared_ptr<const driver::CompiledModel> m) {
            const bool opened = path != session_->sourcePath() || session_->kind() != Session::Kind::Model;
            session_->setModel(path, m, shapes);
            for (auto it = schedules.begin(); it != schedules.end(); ++it) session_->setEditedSchedule(it.key(), it.value());
            // Opened (not compiled again): the schedules its project file holds are the saved ones.
            if (opened) session_->setSavedSchedules(pendingSavedSchedules_);
            QString fn = selectFunction;
            if (fn.isEmpty() || !m->findFunction(fn.toStdString())) fn = firstInterestingFunction(*m);
            session_->selectFunction(fn);
            int tunable = 0, tuned = 0;
            for (const auto& f : m->functions) {
                tunable += !f.knobs.empty();
                tuned += f.tuned;
            }
            QString text = tr("%1: %2 fused functions, compiled in %3 s")
                               .arg(name)
                               .arg(m->functions.size())
                               .arg(m->timings.totalSeconds(), 0, 'f', 2);
            if (!session_->recordsPath().isEmpty())
                text += tr("; %1 of %2 tunable functions tuned").arg(tuned).arg(tunable);
            // Stale records skipped: each function kept its default schedule.
            for (const auto& w : m->warnings) session_->messages()->append(tr("Warning: %1").arg(QString::fromStdString(w)), false);
            showMessage(text, false);
            pendingProject_ = Project();
            emit modelReady();
        },
        [this, path](const QString& err) {
            showMessage(tr("Cannot compile %1: %2").arg(path, err), true);
            emit openFailed(err);
        });
}

bool MainWindow::openScript(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot read %1: %2").arg(path, f.errorString()), true);
        emit openFailed(f.errorString());
        return false;
    }
    QString abs = QFileInfo(path).absoluteFilePath();
    addRecent(abs);
    projectPath_.clear(); // a file of its own, no project's
    session_->setSavedTuningSettings(session_->tuningSettings());
    session_->setScript(abs, QString::fromUtf8(f.readAll()));
    showView(QStringLiteral("ScheduleDock"));
    return true;
}

bool MainWindow::openProject(const QString& path) {
    Project p;
    QString err;
    if (!p.load(path, &err)) {
        showMessage(tr("Cannot open project %1: %2").arg(path, err), true);
        emit openFailed(err);
        return false;
    }
    projectPath_ = QFileInfo(path).absoluteFilePath();
    addRecent(projectPath_);
    applyProject(p, p.schedules, p.tuning);
    return true;
}

void MainWindow::applyProject(const Project& p, const QMap<QString, QString>& savedSchedules,
                              const QVariantMap& savedTuning) {
    if (!p.windowState.isEmpty()) layout_->restore(p.windowState);
    if (!p.windowGeometry.isEmpty()) restoreGeometry(p.windowGeometry);
    session_->setTarget(p.target);
    session_->setRecordsPath(p.records);
    session_->setTuningSettings(p.tuning);
    session_->setSavedTuningSettings(savedTuning);
    if (!p.modelPath.isEmpty()) {
        pendingProject_ = p;
        pendingSavedSchedules_ = savedSchedules;
        openModel(p.modelPath, p.inputShapes);
    } else {
        // The text as the project kept it; the file's own text is what Save
        // compares with (a project may hold edits never written to the file).
        std::optional<QString> onDisk = QString();
        if (QFile f(p.scriptPath); !p.scriptPath.isEmpty() && f.open(QIODevice::ReadOnly))
            onDisk = QString::fromUtf8(f.readAll());
        session_->setScript(p.scriptPath, p.scriptText, onDisk);
    }
    updateTitle();
}

bool MainWindow::saveProject(const QString& path) {
    const Project p = sessionAsProject();
    QString err = p.save(path);
    if (!err.isEmpty()) {
        showMessage(err, true);
        return false;
    }
    projectPath_ = QFileInfo(path).absoluteFilePath();
    addRecent(projectPath_);
    session_->markProjectSaved();
    autosave();
    updateTitle();
    showMessage(tr("Saved %1").arg(projectPath_), false);
    return true;
}

bool MainWindow::saveProjectAs() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save project"), projectPath_, tr("Tessel projects (*.tessel)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".tessel"))) path += QLatin1String(".tessel");
    return saveProject(path);
}

void MainWindow::openExample() {
    projectPath_.clear();
    if (auto* d = dock(QStringLiteral("LessonDock"))) d->show();
    // Like TVM's TopHub: the example runs with the configurations tuned for
    // this kind of machine (Run > Tuned Configurations switches them off).
    session_->setRecordsPath(bundledRecords());
    openZooModel(QStringLiteral("resnet18"));
}

void MainWindow::openZooModel(const QString& name) {
    // Written once into the cache folder, then opened like any model file.
    QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/examples");
    QDir().mkpath(dir);
    QString path = dir + QLatin1Char('/') + name + QStringLiteral(".onnx");
    if (QFileInfo::exists(path)) {
        openModel(path);
        return;
    }
    session_->jobs()->run<QString>(
        QStringLiteral("write-example"), tr("Writing %1").arg(name),
        [path, name](const CancelToken&) {
            frontend::writeZooModel(name.toStdString(), path.toStdString(), 1);
            return path;
        },
        this, [this](QString p) { openModel(p); },
        [this](const QString& err) { showMessage(tr("Cannot write the example model: %1").arg(err), true); });
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

// ---------------------------------------------------------------- running

void MainWindow::compileAndRunModel() {
    auto m = session_->model();
    if (!m) {
        showMessage(tr("Open a model first (File > Open, or File > Examples)."), true);
        return;
    }
    const DeviceChoice device = session_->device();
    if (device.isLocal() && !codegen::isHostTarget(session_->request().target)) {
        showMessage(tr("Compile and Run Model runs on this machine, but the target is %1: choose Settings > "
                       "Target > host to run it here, or a device of that kind in the Devices panel.")
                        .arg(QString::fromStdString(session_->request().target.str())),
                    true);
        return;
    }
    QString path = session_->sourcePath();
    auto shapes = session_->inputShapes();
    // The shapes the open model was compiled with: they parsed then.
    const std::map<std::string, std::vector<int64_t>> io = importShapes(shapes);
    std::map<std::string, std::string> sched;
    const auto edited = session_->editedSchedules();
    for (auto it = edited.begin(); it != edited.end(); ++it) sched[it.key().toStdString()] = it.value().toStdString();
    struct Result {
        double compileSeconds = 0;
        driver::ModelRunReport report;
        size_t edited = 0;
    };
    session_->jobs()->run<std::shared_ptr<Result>>(
        QStringLiteral("run-model"), tr("Compiling and running %1").arg(QFileInfo(path).fileName()),
        [path, io, sched, device, request = session_->request(), records = session_->recordsPath(),
         chosen = session_->chosenConfigs()](
            const CancelToken& token) {
            frontend::ImportOptions opts;
            opts.inputShapes = io;
            driver::CompileOptions co;
            co.request = request;
            co.schedules = sched;
            co.configs = tunedConfigs(records, request.target, chosen);
            co.progress = [token](double f, const std::string&) {
                token.setProgress(0.8 * f);
                return !token.cancelled();
            };
            auto r = std::make_shared<Result>();
            auto compiled = driver::compileModel(path.toStdString(), opts, co);
            r->compileSeconds = compiled.timings.totalSeconds();
            r->edited = sched.size();
            if (token.cancelled()) return r;
            driver::ModelRunOptions ro;
            ro.repeat = 10;
            ro.profile = true; // the graph colours each fused function by its share
            // On the chosen device (the local server for this machine): the
            // model goes there as its export, so a crashing kernel is a message.
            std::unique_ptr<runtime::ModelRunner> runner;
            try {
                runner = DeviceRunners(device).modelRunner();
            } catch (const std::exception& e) {
                r->report.error = e.what();
                return r;
            }
            ro.runner = runner.get();
            r->report = driver::runModel(compiled, {}, {}, ro);
            return r;
        },
        this,
        [this, path, model = m, device](std::shared_ptr<Result> r) {
            if (!r->report.ok) {
                showMessage(tr("Running %1 on %2 failed: %3")
                                .arg(path, device.label(), QString::fromStdString(r->report.error)),
                            true);
                return;
            }
            if (session_->model() == model) { // still the model that ran
                session_->setProfile(Session::kernelTimes(*model, r->report.profile), device.label());
            }
            showMessage(tr("%1: %2 ms (median of %3 runs, %4 threads), edited schedules: %5, compiled in %6 s")
                            .arg(QFileInfo(path).fileName())
                            .arg(r->report.latencyMs, 0, 'f', 2)
                            .arg(r->report.runsMs.size())
                            .arg(r->report.threads)
                            .arg(r->edited)
                            .arg(r->compileSeconds, 0, 'f', 2),
                        false);
        },
        [this](const QString& err) { showMessage(tr("Compile and run failed: %1").arg(err), true); });
}

// ---------------------------------------------------------------- help

void MainWindow::showPassReference() {
    auto* dlg = new PassReferenceDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->show();
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Tessel"),
                       tr("<h3>Tessel %1</h3><p>An IDE for seeing and tuning deep-learning compilation: ONNX models "
                          "become fused operators, tensor expressions with schedules, loop programs (TIR), LLVM IR "
                          "and assembly, all shown side by side.</p><p>Built with Qt %2, LLVM 16 and Graphviz.</p>")
                           .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

// ---------------------------------------------------------------- saving

void MainWindow::updateFileActions() {
    const bool script = session_->kind() == Session::Kind::Script;
    const bool model = session_->kind() == Session::Kind::Model;
    saveAct_->setText(script ? tr("&Save Script") : tr("&Save"));
    saveAct_->setEnabled(script || model || session_->isModified());
    saveAsAct_->setText(script ? tr("Save Script &As…") : tr("Save &As…"));
    saveAsAct_->setEnabled(script || model);
    saveAct_->setToolTip(script ? tr("Write the script to its file")
                                : tr("Save the project: the model, its edited schedules, the tuning settings"));
    saveAct_->setStatusTip(saveAct_->toolTip());
    revertAct_->setText(tr("&Revert Script to Saved"));
    revertAct_->setEnabled(script && session_->isScriptModified() && !session_->sourcePath().isEmpty());
}

bool MainWindow::save() {
    if (session_->kind() == Session::Kind::Script) {
        const QString path = session_->sourcePath();
        // A file that cannot be written (an installed example) is saved elsewhere.
        const QFileInfo fi(path);
        if (path.isEmpty() || (fi.exists() ? !fi.isWritable() : !QFileInfo(fi.absolutePath()).isWritable()))
            return saveAs();
        return saveScript(path);
    }
    return projectPath_.isEmpty() ? saveProjectAs() : saveProject(projectPath_);
}

bool MainWindow::saveAs() {
    if (session_->kind() != Session::Kind::Script) return saveProjectAs();
    QString start = session_->sourcePath();
    if (start.isEmpty() || !QFileInfo(QFileInfo(start).absolutePath()).isWritable())
        start = QDir::home().filePath(start.isEmpty() ? QStringLiteral("untitled.te") : QFileInfo(start).fileName());
    QString path = QFileDialog::getSaveFileName(this, tr("Save script"), start, tr("TE scripts (*.te)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".te"))) path += QLatin1String(".te");
    return saveScript(path);
}

bool MainWindow::saveScript(const QString& path) {
    if (session_->kind() != Session::Kind::Script) return false;
    const QString abs = QFileInfo(path).absoluteFilePath();
    QSaveFile f(abs);
    if (!f.open(QIODevice::WriteOnly) || f.write(session_->scriptText().toUtf8()) < 0 || !f.commit()) {
        showMessage(tr("Cannot save %1: %2").arg(abs, f.errorString()), true);
        return false;
    }
    session_->markScriptSaved(abs);
    addRecent(abs);
    // A project that holds the script keeps it as saved too.
    if (!projectPath_.isEmpty()) return saveProject(projectPath_);
    autosave();
    showMessage(tr("Saved %1").arg(abs), false);
    return true;
}

bool MainWindow::revertScript(bool ask) {
    const QString path = session_->sourcePath();
    if (session_->kind() != Session::Kind::Script || path.isEmpty()) return false;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot read %1: %2").arg(path, f.errorString()), true);
        return false;
    }
    if (ask && session_->isScriptModified()) {
        QMessageBox box(QMessageBox::Question, tr("Revert Script"),
                        tr("Discard the changes to %1 and reload it from its file?").arg(QFileInfo(path).fileName()),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("RevertBox"));
        QPushButton* revert = box.addButton(tr("Revert"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() != revert) return false;
    }
    session_->setScript(path, QString::fromUtf8(f.readAll()));
    showMessage(tr("Reverted %1 to its file").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::maybeSave() {
    const QStringList unsaved = session_->unsavedChanges();
    if (unsaved.isEmpty()) return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"), tr("Save your changes before closing?"),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("UnsavedChangesBox"));
    box.setInformativeText(tr("Not saved yet: %1.").arg(unsaved.join(QStringLiteral("; "))));
    box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Save);
    box.button(QMessageBox::Discard)->setText(tr("Don't Save"));
    const int answer = box.exec();
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) {
        recovery_.remove(); // discarded on purpose: nothing to offer back
        return true;
    }
    // Save: what is open, and the project for schedules or tuning settings.
    if (session_->isScriptModified() && !save()) return false;
    if ((session_->areSchedulesModified() || session_->areTuningSettingsModified()) &&
        !(projectPath_.isEmpty() ? saveProjectAs() : saveProject(projectPath_)))
        return false;
    return !session_->isModified();
}

// ---------------------------------------------------------------- autosave and recovery

Project MainWindow::sessionAsProject() const {
    Project p;
    if (session_->kind() == Session::Kind::Model) {
        p.modelPath = session_->sourcePath();
        p.inputShapes = session_->inputShapes();
        p.schedules = session_->editedSchedules();
    } else if (session_->kind() == Session::Kind::Script) {
        p.scriptPath = session_->sourcePath();
        // The text as edited (the editor keeps the session's current), not as opened.
        p.scriptText = session_->scriptText();
    }
    p.target = session_->target();
    p.records = session_->recordsPath();
    p.currentFunction = session_->currentFunction();
    p.tuning = session_->tuningSettings();
    p.windowGeometry = saveGeometry();
    p.windowState = layout_->state();
    return p;
}

void MainWindow::setAutosaveInterval(int ms) { autosave_->setInterval(ms); }

void MainWindow::autosave() {
    if (!session_->isModified()) {
        recovery_.remove();
        autosaved_ = session_->changeCount();
        return;
    }
    if (autosaved_ == session_->changeCount() && recovery_.exists()) return;
    const QString err = recovery_.write(sessionAsProject(), projectPath_, session_->unsavedChanges());
    if (!err.isEmpty()) {
        showMessage(tr("Autosave failed: %1").arg(err), true);
        return;
    }
    autosaved_ = session_->changeCount();
}

int MainWindow::offerRecovery() {
    const QList<RecoveredWork> found = recovery_.leftOver();
    if (found.isEmpty()) {
        hideRecoveryBar();
        return 0;
    }
    const RecoveredWork& w = found.front();
    if (!recoveryBar_) {
        recoveryBar_ = new QToolBar(this);
        recoveryBar_->setObjectName(QStringLiteral("RecoveryBar"));
        recoveryBar_->setMovable(false);
        recoveryBar_->setFloatable(false);
        recoveryBar_->setStyleSheet(QStringLiteral("QToolBar#RecoveryBar { background: #fdf6e3; border-bottom: 1px solid #b58900; }"));
        recoveryLabel_ = new QLabel(recoveryBar_);
        recoveryLabel_->setObjectName(QStringLiteral("RecoveryLabel"));
        recoveryLabel_->setWordWrap(true);
        recoveryLabel_->setContentsMargins(6, 2, 6, 2);
        recoveryLabel_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        recoveryBar_->addWidget(recoveryLabel_);
        recoverButton_ = new QPushButton(recoveryBar_);
        recoverButton_->setObjectName(QStringLiteral("RecoveryRestore"));
        discardButton_ = new QPushButton(recoveryBar_);
        discardButton_->setObjectName(QStringLiteral("RecoveryDiscard"));
        recoveryBar_->addWidget(recoverButton_);
        recoveryBar_->addWidget(discardButton_);
    }
    disconnect(recoverButton_, nullptr, this, nullptr);
    disconnect(discardButton_, nullptr, this, nullptr);
    QString what = w.unsaved.isEmpty() ? QFileInfo(w.project.scriptPath + w.project.modelPath).fileName()
                                       : w.unsaved.join(QStringLiteral("; "));
    QString text = tr("Tessel did not close normally: unsaved work from %1 can be restored (%2).")
                       .arg(QLocale().toString(w.written, QLocale::ShortFormat), what);
    if (found.size() > 1) text += QLatin1Char(' ') + tr("%n more after this one.", nullptr, int(found.size() - 1));
    recoveryLabel_->setText(text);
    recoverButton_->setText(tr("Restore"));
    recoverButton_->setToolTip(tr("Open it again as it was, unsaved"));
    discardButton_->setText(tr("Discard"));
    discardButton_->setToolTip(tr("Delete the recovered copy"));
    connect(recoverButton_, &QPushButton::clicked, this, [this, w] {
        restoreRecovered(w);
        offerRecovery();
    });
    connect(discardButton_, &QPushButton::clicked, this, [this, w] {
        QFile::remove(w.file);
        offerRecovery();
    });
    // A toolbar only while it offers something: a saved layout never keeps it.
    if (toolBarArea(recoveryBar_) == Qt::NoToolBarArea) addToolBar(Qt::TopToolBarArea, recoveryBar_);
    recoveryBar_->show();
    return int(found.size());
}

bool MainWindow::restoreRecovered(const RecoveredWork& work) {
    // What the files hold is the saved state; the recovered text and
    // schedules are unsaved edits on top of it.
    QMap<QString, QString> savedSchedules;
    QVariantMap savedTuning;
    Project onDisk;
    if (!work.projectPath.isEmpty() && onDisk.load(work.projectPath, nullptr)) {
        savedSchedules = onDisk.schedules;
        savedTuning = onDisk.tuning;
    }
    Project p = work.project;
    p.windowGeometry.clear(); // this window stays where it is
    projectPath_ = work.projectPath;
    applyProject(p, savedSchedules, savedTuning);
    QFile::remove(work.file);
    autosave(); // kept again, now as this process's
    showMessage(tr("Restored unsaved work from %1").arg(QLocale().toString(work.written, QLocale::ShortFormat)), false);
    return true;
}

void MainWindow::hideRecoveryBar() {
    if (!recoveryBar_) return;
    recoveryBar_->hide();
    removeToolBar(recoveryBar_);
}

// ---------------------------------------------------------------- screenshots

QStringList MainWindow::saveScreenshots(const QString& dir) {
    QDir().mkpath(dir);
    QStringList files;
    const WindowLayout::Quiet quiet(layout_); // docks floated for their pictures are no user's choice
    // A view behind another tab, or squeezed into a small dock, is shown
    // floating at a readable size for its picture; the layout is restored after.
    const QByteArray state = saveState();
    const QSize readable(1000, 600);
    auto save = [&](const ViewRecord& r) {
        QWidget* w = views_.value(r.id);
        if (!w) return;
        QDockWidget* d = dock(r.id);
        if (d && (w->visibleRegion().isEmpty() || w->width() < readable.width() * 2 / 3 ||
                  w->height() < readable.height() * 2 / 3)) {
            d->setFloating(true);
            d->resize(readable);
            d->show();
            d->raise();
            QElapsedTimer laidOut; // layout requests and the window system's answers arrive as events
            laidOut.start();
            while (laidOut.elapsed() < 300) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        }
        QString f = dir + QLatin1Char('/') + r.screenshot + QStringLiteral(".png");
        if (w->grab().save(f)) files << f;
    };
    // The whole window as the X server shows it (under Xvfb), else as Qt paints it.
    QPixmap window;
    if (auto* screen = this->screen(); screen && QGuiApplication::platformName() == QLatin1String("xcb"))
        window = screen->grabWindow(winId());
    if (window.isNull()) window = grab();
    QString wf = dir + QStringLiteral("/window.png");
    if (window.save(wf)) files << wf;
    for (const ViewRecord& r : registry_.records())
        if (!r.screenshot.isEmpty()) save(r);
    restoreState(state);
    return files;
}

} // namespace tessel::views
