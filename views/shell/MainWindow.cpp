/// \file
/// MainWindow: construction, the views and their docks, layout, status and
/// screenshots. The rest of the class is split by concern:
/// MainWindowActions.cpp (actions, menus, translations of their texts),
/// MainWindowModels.cpp (opening models, scripts, projects and examples;
/// compiling and running), MainWindowDocuments.cpp (save, revert, the
/// unsaved-changes prompt, autosave and recovery).
#include "shell/MainWindow.h"

#include "common/Jobs.h"
#include "common/MessageLog.h"
#include "common/Resources.h"
#include "common/Session.h"
#include "common/TargetChoice.h"
#include "shell/Language.h"
#include "shell/PassReference.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>

namespace tessel::views {

namespace {

/// The smallest first window that fits next to every view (a larger screen gets more).
constexpr QSize kPreferredSize(1440, 900);

/// Whether a dock is in front: shown, and not behind another tab of its
/// group (QMainWindow keeps those "visible", out of sight).
bool inFront(const QDockWidget* d) { return d->isVisible() && (d->isFloating() || !d->visibleRegion().isEmpty()); }

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

namespace {
/// A window shorter than this gives the left column the bottom-left corner (applyDefaultSizes).
constexpr int kShortWindow = 800;
} // namespace

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
    // menu's actions) are gone: nothing may follow them any more, the
    // window layout (a child, alive until ~QObject) included: it reads docks_,
    // which is gone by then (ASan: use after free as ~QWidget closes the window).
    for (QDockWidget* d : std::as_const(docks_)) {
        disconnect(d, nullptr, this, nullptr);
        disconnect(d, nullptr, layout_, nullptr);
    }
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
    // A view that asks for room itself gets it as if it were chosen (once
    // the window is on screen: sizes before the first paint are not final).
    for (const ViewRecord& r : registry_.records())
        if (r.asksForRoom)
            r.asksForRoom(views_.value(r.id), [this, id = r.id] {
                auto give = [this, id] { QTimer::singleShot(0, layout_, [this, id] { layout_->giveRoom(id); }); };
                if (painted_)
                    give();
                else
                    connect(this, &MainWindow::firstPaint, layout_, give, Qt::SingleShotConnection);
            });
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
    uncompiledBefore_.clear();
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
    // On a short window (a 1366 x 768 screen) the left column — the graph over
    // the schedule editor, both short of height — reaches down to the status
    // bar and the bottom docks sit under the code view alone, which stacks its
    // panes in the same height either way. (Issue 21: under full-width
    // messages, choosing the graph left the schedule's script 3 to 6 lines.)
    setCorner(Qt::BottomLeftCorner, height() < kShortWindow ? Qt::LeftDockWidgetArea : Qt::BottomDockWidgetArea);
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
    QStringList presets{QStringLiteral("host"), QStringLiteral("x86_64 -mcpu=skylake-avx512"),
                              QStringLiteral("x86_64 -mcpu=haswell"), QStringLiteral("aarch64 -mcpu=cortex-a72"),
                              QStringLiteral("armv7"), QStringLiteral("riscv64")};
    // NVIDIA GPUs: PTX (and SASS) in the code view; runs need a GPU.
    for (const TargetPreset& p : cudaPresets()) presets.append(p.target);
    QStringList items = presets;
    if (!items.contains(session_->target())) items.prepend(session_->target());
    bool ok = false;
    const QString text = QInputDialog::getItem(
        this, tr("Target"),
        tr("Generate code for (host, an architecture, a triple with -mcpu/-mattr, llvm -mtriple=…, or cuda "
           "-mcpu=sm_90 for an NVIDIA GPU):"),
        items,
        int(items.indexOf(session_->target())), true, &ok);
    if (ok) session_->setTarget(text);
}

void MainWindow::onTargetChanged() {
    updateTitle();
    showMessage(tr("Target: %1").arg(targetText(session_->request().target)), false);
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
                          "and assembly (PTX and CUDA C for NVIDIA GPUs), all shown side by side.</p><p>Built with "
                          "Qt %2, LLVM 16 and Graphviz.</p>")
                           .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
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
