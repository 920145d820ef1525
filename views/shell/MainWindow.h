/// \file
/// The IDE's main window: one open project, the views as dockable panels
/// (their layout remembered), menus, recent files, the status bar with the
/// running job's progress and a cancel button, and the messages panel where
/// every failure ends up (never a crash, never a modal box for a worker's
/// error).
///
/// Opening a model compiles it on a worker with the full trace; the views
/// follow the Session. A language change rebuilds the views so every string
/// is retranslated.
#pragma once

#include "shell/Project.h"

#include <QMainWindow>
#include <QMap>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QToolButton;

namespace tessel::views {

class Session;
class GraphPanel;
class NodeProperties;
class CodeView;
class StageView;
class ScheduleEditor;
class LessonView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Session* session() const { return session_; }

    /// Opens an ONNX model: asks for the shapes of dynamic inputs (unless
    /// `shapes` binds them) and compiles it on a worker.
    void openModel(const QString& path, const QMap<QString, QString>& shapes = {});
    /// Opens a TE script; false (with a message) when it cannot be read.
    bool openScript(const QString& path);
    bool openProject(const QString& path);
    /// Saves the project (model or script, shapes, schedules, layout).
    bool saveProject(const QString& path);
    QString projectPath() const { return projectPath_; }
    /// Opens whatever `path` is (.onnx, .te or a project file).
    bool openFile(const QString& path);
    /// The bundled example: ResNet-18 from the model zoo, and the GEMM lesson.
    void openExample();
    /// Writes model-zoo model `name` ("resnet18", "mobilenet_v2") to the cache and opens it.
    void openZooModel(const QString& name);

    /// "" follows the system locale; otherwise "en", "ko" or "zh_CN".
    void setLanguage(const QString& code);
    QString language() const { return language_; }

    /// Compiles the open model again with the edited schedules and runs it.
    void compileAndRunModel();

    /// Saves PNGs of the window and of each view into `dir`; returns the files.
    QStringList saveScreenshots(const QString& dir);

    // The views (for tests and the smoke run).
    GraphPanel* graphPanel() const { return graph_; }
    NodeProperties* nodeProperties() const { return properties_; }
    CodeView* codeView() const { return code_; }
    StageView* stageView() const { return stages_; }
    ScheduleEditor* scheduleEditor() const { return schedule_; }
    LessonView* lessonView() const { return lesson_; }
    QListWidget* messages() const { return messages_; }
    QDockWidget* dock(const QString& objectName) const;

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
    void restoreLayout();
    void applyDefaultSizes();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void rebuildExamplesMenu();
    void compileModel(const QString& path, const QMap<QString, QString>& shapes, const QString& selectFunction,
                      const QMap<QString, QString>& schedules);
    void showMessage(const QString& text, bool error);
    void updateJobStatus();
    void updateTitle();
    void showPassReference();
    void showAbout();
    void openDialog();
    void saveProjectAs();

    Session* session_;
    QString projectPath_;
    QString language_;
    QString lastMessage_;
    bool painted_ = false;
    bool sizesPending_ = false;
    Project pendingProject_;     ///< layout/schedules applied once its model compiled

    // Views (recreated on a language change).
    GraphPanel* graph_ = nullptr;
    NodeProperties* properties_ = nullptr;
    CodeView* code_ = nullptr;
    StageView* stages_ = nullptr;
    ScheduleEditor* schedule_ = nullptr;
    LessonView* lesson_ = nullptr;
    QListWidget* messages_ = nullptr;
    QMap<QString, QDockWidget*> docks_;

    QMenu *fileMenu_ = nullptr, *recentMenu_ = nullptr, *examplesMenu_ = nullptr, *viewMenu_ = nullptr,
          *runMenu_ = nullptr, *settingsMenu_ = nullptr, *languageMenu_ = nullptr, *helpMenu_ = nullptr;
    QAction *openAct_, *openProjectAct_, *saveProjectAct_, *saveProjectAsAct_, *quitAct_, *compileRunAct_,
        *cancelAct_, *passRefAct_, *lessonAct_, *aboutAct_, *aboutQtAct_, *resetLayoutAct_;
    QActionGroup* languageGroup_ = nullptr;
    QMap<QString, QAction*> languageActions_;

    QLabel* statusLabel_;
    QProgressBar* progress_;
    QToolButton* cancelButton_;
    QByteArray defaultState_;
};

} // namespace tessel::views
