/// \file
/// The IDE's main window: one open project, the views as dockable panels
/// (their layout remembered), menus, recent files, the status bar with the
/// running job's progress and a cancel button, and the messages panel where
/// every failure ends up (never a crash, never a modal box for a worker's
/// error).
///
/// Opening a model compiles it on a worker with the full trace; the views
/// follow the Session. The maximise key (Ctrl+Shift+M, View > Maximise Pane)
/// lets the view with the focus fill the window and brings the layout back;
/// a view whose record asks for room when chosen (the lesson, the stage view)
/// grows when its tab comes to the front and gives the room back after. A language change rebuilds the views so every string
/// is retranslated.
#pragma once

#include "shell/Project.h"
#include "shell/Recovery.h"
#include "shell/ViewRegistry.h"
#include "shell/WindowLayout.h"

#include <QMainWindow>
#include <QMap>
#include <QPointer>

#include <memory>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTimer;
class QToolBar;
class QToolButton;

namespace tessel::driver {
struct CompiledModel;
}

namespace tessel::views {

class Session;

/// The first window's geometry on a screen whose free area (without panels)
/// is `available`: `preferred` when it fits with room for the window
/// manager's frame, else the largest size that fits, centred.
QRect fitWindowToScreen(const QSize& preferred, const QRect& available);

/// The first window's preferred size on a screen whose free area is
/// `available`: nine tenths of it, and at least 1440 × 900 (which
/// fitWindowToScreen shrinks to a smaller screen).
QSize preferredWindowSize(const QSize& available);

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// A window with the views of `views` (the IDE's own by default).
    explicit MainWindow(QWidget* parent = nullptr, ViewRegistry views = builtinViews());
    ~MainWindow() override;

    Session* session() const { return session_; }

    /// Opens an ONNX model: asks for the shapes of dynamic inputs (unless
    /// `shapes`, input name -> "1,3,224,224", binds them all to shapes that
    /// fit) and compiles it on a worker.
    void openModel(const QString& path, const QMap<QString, QString>& shapes = {});
    /// Opens a TE script; false (with a message) when it cannot be read.
    bool openScript(const QString& path);
    bool openProject(const QString& path);
    /// Saves the project (model or script, shapes, schedules, tuning settings, layout).
    bool saveProject(const QString& path);

    // ---- documents (File > Save, Save As, Revert; the prompt on close)
    /// File > Save: the open script to its file (Save As when it has none or
    /// it cannot be written), or for a model the project (asking for a path
    /// when there is none). False when nothing was saved.
    bool save();
    /// File > Save As: the script or the project under a new name (a file dialog).
    bool saveAs();
    /// Writes the open script to `path` (which becomes its file).
    bool saveScript(const QString& path);
    /// File > Revert: the script as its file holds it; `ask` confirms first.
    bool revertScript(bool ask);
    /// With unsaved changes (Session::unsavedChanges) asks Save / Don't Save /
    /// Cancel; true when the window may go on (saved, discarded or nothing to
    /// save). Closing the window and opening another file go through it.
    bool maybeSave();

    // ---- autosave and recovery (Recovery.h)
    /// Writes the unsaved state to this process's recovery file (or removes
    /// it when nothing is unsaved); the window's timer calls it every
    /// autosave interval (QSettings "autosave/intervalMs", default 10 s).
    void autosave();
    void setAutosaveInterval(int ms);
    const Recovery& recovery() const { return recovery_; }
    /// Offers the work that an IDE which did not exit cleanly left (a bar at
    /// the top of the window: Restore / Discard, newest first); returns how
    /// many are offered. The application calls it once at start.
    int offerRecovery();
    /// Opens recovered work as it was, unsaved (the bar's Restore).
    bool restoreRecovered(const RecoveredWork& work);
    /// The bar offering recovered work (null before offerRecovery() found any).
    QToolBar* recoveryBar() const { return recoveryBar_; }
    QString projectPath() const { return projectPath_; }
    /// Opens whatever `path` is (.onnx, .te or a project file).
    bool openFile(const QString& path);
    /// The bundled example: ResNet-18 from the model zoo, and the GEMM lesson,
    /// compiled with the bundled tuned configurations (bundledRecords()).
    void openExample();
    /// The bundled records (resources/records: the zoo models tuned on an
    /// x86-64 machine with AVX-512), or empty when this installation has none.
    static QString bundledRecords();
    /// Writes model-zoo model `name` ("resnet18", "mobilenet_v2") to the cache and opens it.
    void openZooModel(const QString& name);

    /// "" follows the system locale; otherwise "en", "ko" or "zh_CN".
    void setLanguage(const QString& code);
    QString language() const { return language_; }

    /// Compiles the open model again with the edited schedules and runs it.
    void compileAndRunModel();

    /// Saves PNGs of the window and of each view into `dir`; returns the files.
    QStringList saveScreenshots(const QString& dir);

    /// The views the window was built with.
    const ViewRegistry& views() const { return registry_; }
    /// The view registered as `id` (ViewRecord::id), or null.
    QWidget* view(const QString& id) const { return views_.value(id); }
    /// The first view of type T, or null (for tests and the smoke run).
    template <class T>
    T* view() const {
        for (QWidget* w : views_)
            if (auto* t = qobject_cast<T*>(w)) return t;
        return nullptr;
    }
    /// The dock of view `id` (its object name), or null for the central view.
    QDockWidget* dock(const QString& id) const;
    /// Shows view `id`'s dock and brings its tab to the front (with the room
    /// its record asks for when chosen).
    void showView(const QString& id);

    /// The maximise key (WindowLayout): the view with the keyboard focus (the
    /// central view when the focus is in none) fills the window, the other
    /// docks hidden; a view of panes lets the focused pane fill it.
    void maximiseFocusedView();
    /// Brings back the layout from before maximiseFocusedView().
    void restoreMaximised();
    /// The maximised view's id, or empty.
    QString maximisedView() const;
    /// The View menu's checkable Maximise Pane action (Ctrl+Shift+M).
    QAction* maximiseAction() const { return maximiseAct_; }
    /// How the views are arranged as the user works (the layout rule, maximising).
    WindowLayout* windowLayout() const { return layout_; }

signals:
    /// The first time the window painted (startup measurement).
    void firstPaint();
    /// A model finished compiling and is shown.
    void modelReady();
    /// Opening or compiling failed.
    void openFailed(const QString& message);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createViews();
    void destroyViews();
    void retranslate();
    void applyDefaultLayout();
    void restoreLayout();
    void applyDefaultSizes();
    void resetLayout();
    void onMaximisedChanged(const QString& id);
    /// Ticks the View menu's views that are in front.
    void updateViewActions();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void rebuildExamplesMenu();
    /// Opens a model that cannot be compiled as its imported graph alone.
    void showUncompiledModel(const QString& path, std::shared_ptr<const driver::CompiledModel> model,
                             const QMap<QString, QString>& shapes);
    /// The layout from before a model that cannot compile gave the graph
    /// the room, back once something compiles or a script opens.
    void leaveUncompiledLayout();
    void compileModel(const QString& path, const QMap<QString, QString>& shapes, const QString& selectFunction,
                      const QMap<QString, QString>& schedules);
    void showMessage(const QString& text, bool error);
    void onMessage(const QString& text, bool error);
    void updateJobStatus();
    void updateTitle();
    void chooseTarget();
    void onTargetChanged();
    void rebuildRecordsMenu();
    void chooseRecordsFile();
    void onRecordsChanged();
    void showPassReference();
    void showAbout();
    void openDialog();
    bool saveProjectAs();
    void updateFileActions();
    void hideRecoveryBar();
    /// The session as a project (what Save Project and autosave write).
    Project sessionAsProject() const;
    /// Opens what a project (or recovered work) holds; `savedSchedules` and
    /// `savedTuning` are what its file holds (the unsaved state is the difference).
    void applyProject(const Project& p, const QMap<QString, QString>& savedSchedules, const QVariantMap& savedTuning);

    Session* session_;
    QString projectPath_;
    QString language_;
    QString lastMessage_;
    bool painted_ = false;
    bool sizesPending_ = false;
    Project pendingProject_;     ///< layout/schedules applied once its model compiled
    QByteArray uncompiledBefore_; ///< the layout before a model that cannot compile was shown
    QMap<QString, QString> pendingSavedSchedules_; ///< what its project file holds of them

    ViewRegistry registry_;
    QMap<QString, QWidget*> views_;       ///< by record id; recreated on a language change
    QMap<QString, QDockWidget*> docks_;   ///< by record id; kept across language changes
    QMap<QString, QPointer<QAction>> viewActions_; ///< the View menu's, by record id

    QMenu *fileMenu_ = nullptr, *recentMenu_ = nullptr, *examplesMenu_ = nullptr, *viewMenu_ = nullptr,
          *runMenu_ = nullptr, *recordsMenu_ = nullptr, *settingsMenu_ = nullptr, *languageMenu_ = nullptr, *helpMenu_ = nullptr;
    QAction *openAct_, *openProjectAct_, *saveAct_, *saveAsAct_, *revertAct_, *saveProjectAct_, *saveProjectAsAct_, *quitAct_, *compileRunAct_,
        *cancelAct_, *passRefAct_, *lessonAct_, *gpuLessonAct_, *aboutAct_, *aboutQtAct_, *resetLayoutAct_, *targetAct_,
        *maximiseAct_;
    QActionGroup* languageGroup_ = nullptr;
    QMap<QString, QAction*> languageActions_;

    QLabel* statusLabel_;
    QProgressBar* progress_;
    QToolButton* cancelButton_;
    QByteArray defaultState_;
    WindowLayout* layout_; ///< maximising, room for chosen views, layouts restored

    Recovery recovery_;
    QTimer* autosave_ = nullptr;
    quint64 autosaved_ = 0; ///< Session::changeCount() at the last autosave
    QToolBar* recoveryBar_ = nullptr;
    QLabel* recoveryLabel_ = nullptr;
    QPushButton *recoverButton_ = nullptr, *discardButton_ = nullptr;
};

} // namespace tessel::views
