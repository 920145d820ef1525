/// \file
/// MainWindow opening what a user works on: models (inspected for dynamic
/// input shapes, then compiled with the full trace on a worker), scripts,
/// projects and the bundled examples; and Compile and Run Model.
#include "shell/MainWindow.h"

#include "common/DeviceChoice.h"
#include "common/Jobs.h"
#include "common/MessageLog.h"
#include "common/Session.h"
#include "driver/ApplyBest.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/ModelZoo.h"
#include "frontend/OnnxImporter.h"
#include "frontend/OnnxInputs.h"
#include "shell/InputShapes.h"
#include "shell/InputShapesDialog.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QStandardPaths>

namespace tessel::views {

namespace {

/// What the inspect job finds out about a model before compiling it.
struct ModelInfo {
    QVector<ModelInput> inputs;
    /// A model that cannot be compiled: its imported graph, to be shown
    /// (driver::uncompiledModel); null for a model that compiles.
    std::shared_ptr<const driver::CompiledModel> shown;
};

ModelInfo inspectModel(const QString& path) {
    frontend::ImportOptions io;
    io.inferShapes = false;
    io.allowUnsupported = true; // every model has a graph to draw
    graph::Graph g = frontend::importOnnx(path.toStdString(), io);
    ModelInfo info;
    if (g.hasUnsupported()) {
        info.shown = std::make_shared<const driver::CompiledModel>(driver::uncompiledModel(g));
        return info;
    }
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
    configs = driver::applyBest(path.toStdString(), target).configs;
    for (const auto& [key, config] : chosen) configs[key] = config;
    return configs;
}
} // namespace

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
            if (info.shown) {
                showUncompiledModel(abs, info.shown, shapes);
                return;
            }
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

void MainWindow::showUncompiledModel(const QString& path, std::shared_ptr<const driver::CompiledModel> m,
                                     const QMap<QString, QString>& shapes) {
    // Drawn, not compiled: the graph view shows the imported graph with what
    // cannot compile marked, and the log lists every construct at once.
    session_->setModel(path, m, shapes);
    const QString name = QFileInfo(path).fileName();
    for (const auto& c : m->unsupported)
        session_->messages()->append(tr("%1: %2").arg(name, QString::fromStdString(c.str())), true);
    showMessage(tr("%1 cannot be compiled: %n unsupported construct(s), listed in the log; its graph is shown.",
                   nullptr, int(m->unsupported.size()))
                    .arg(name),
                true);
    // The graph is all there is to see: it asks for the room of its whole
    // drawing once laid out (the code view, with nothing to show, gives up
    // its own). Properties, not the empty schedule editor, below it.
    if (uncompiledBefore_.isEmpty()) uncompiledBefore_ = layout_->state();
    {
        const WindowLayout::Quiet quiet(layout_);
        if (auto* d = dock(QStringLiteral("GraphDock"))) {
            d->show();
            d->raise();
        }
        if (auto* d = dock(QStringLiteral("PropertiesDock")); d && !d->isFloating()) {
            d->show();
            d->raise();
        }
    }
    pendingProject_ = Project();
    emit modelReady();
}

void MainWindow::leaveUncompiledLayout() {
    if (uncompiledBefore_.isEmpty()) return;
    const QByteArray before = uncompiledBefore_;
    uncompiledBefore_.clear();
    layout_->restore(before);
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
            co.moduleTexts = false; // the views show each function's own build
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
            leaveUncompiledLayout();
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
    leaveUncompiledLayout();
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
    if (!p.windowState.isEmpty()) {
        uncompiledBefore_.clear(); // the project's layout, not the one before an uncompiled model
        layout_->restore(p.windowState);
    } else if (p.modelPath.isEmpty()) {
        leaveUncompiledLayout();
    }
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

} // namespace tessel::views
