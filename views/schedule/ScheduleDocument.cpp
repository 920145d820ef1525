#include "schedule/ScheduleDocument.h"

#include "common/DevicePeak.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/Devices.h"
#include "driver/Measure.h"
#include "driver/ModelCompiler.h"
#include "te/script/Script.h"

#include <QFileInfo>
#include <QTimer>

#include <chrono>

namespace tessel::views {

namespace {

const QString kRelower = QStringLiteral("relower");
const QString kRun = QStringLiteral("run");
const QString kAssembly = QStringLiteral("assembly");

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

/// The run history's key of a script document.
QString scriptKey(const QString& path, const QString& fileName) {
    return QStringLiteral("script:") + path + QLatin1Char(':') + fileName;
}

} // namespace

/// What a re-lowering job needs, copied off the GUI thread's state.
struct ScheduleDocument::Lowering {
    quint64 generation = 0, epoch = 0;
    QString script;
    std::string text, file, function, defaultScript;
    driver::CompileRequest request;
    Source source = Source::None;
    std::shared_ptr<const driver::CompiledModel> model;
    std::shared_ptr<driver::ArtifactCache> cache;
};

/// What a re-lowering job hands back to the GUI thread.
struct ScheduleDocument::Lowered {
    quint64 generation = 0, epoch = 0;
    QString script;
    bool ok = false;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts;
    /// What made them: withAssembly() needs the same.
    driver::ArtifactOptions options;
    ScheduleOutline outline;
    int line = 0, column = 0;
    QString message, formatted;
    double ms = 0;
};

ScheduleDocument::ScheduleDocument(Session* session, QObject* parent)
    : QObject(parent), session_(session), debounce_(new QTimer(this)),
      history_(new RunHistory(this)), references_(std::make_shared<driver::ReferenceStore>()),
      artifactCache_(std::make_shared<driver::ArtifactCache>()) {
    history_->setPeakExplanation(peakExplanation());
    debounce_->setSingleShot(true);
    connect(debounce_, &QTimer::timeout, this, &ScheduleDocument::startRelower);
    connect(session_, &Session::scriptChanged, this, &ScheduleDocument::onScriptChanged);
    connect(session_, &Session::scriptRenamed, this, [this](const QString& oldPath) {
        // Saved under another name: the same text, its history kept under the new name.
        if (source_ != Source::Script) return;
        const QString before = scriptKey(oldPath, fileName_);
        fileName_ = QFileInfo(session_->sourcePath()).fileName();
        history_->renameDocument(before, documentKey());
    });
    connect(session_, &Session::currentFunctionChanged, this, &ScheduleDocument::onFunctionChanged);
    connect(session_, &Session::cleared, this, [this] { clear(tr("Nothing is open.")); });
    connect(session_, &Session::targetChanged, this, [this] {
        if (source_ != Source::None) relowerNow();
    });
    // A failure on the device chosen before says nothing about the one now.
    connect(session_, &Session::deviceChanged, this, [this] {
        if (!runFailed_) return;
        runFailed_ = false;
        setStatus(tr("Run and Measure now use %1.").arg(session_->device().label()), false);
    });
    connect(session_->jobs(), &Jobs::finished, this,
            [this](const QString& key, bool) { onJobFinished(key); });
    clear(tr("Open a TE script or select a fused function to edit its schedule."));
}

ScheduleDocument::~ScheduleDocument() = default;

/// Starts the document from the session as it is (a document made after the
/// session opened something shows it at once).
void ScheduleDocument::openCurrent() {
    if (session_->kind() == Session::Kind::Script)
        onScriptChanged();
    else if (session_->kind() == Session::Kind::Model)
        onFunctionChanged(session_->currentFunction());
}

bool ScheduleDocument::isRelowering() const {
    return debounce_->isActive() || relowerAgain_ || session_->jobs()->isRunning(kRelower);
}

bool ScheduleDocument::isRunning() const {
    return session_->jobs()->isRunning(kRun);
}

std::optional<RunRecord> ScheduleDocument::lastRun() const {
    const auto list = runs();
    if (list.isEmpty()) return std::nullopt;
    return list.back();
}

QString ScheduleDocument::documentKey() const {
    if (source_ == Source::Script) return scriptKey(session_->sourcePath(), fileName_);
    return QStringLiteral("function:") + function_;
}

void ScheduleDocument::setStatus(const QString& text, bool error) {
    statusText_ = text;
    statusError_ = error;
    emit statusChanged();
}

void ScheduleDocument::setDiagnostic(std::optional<ScriptDiagnostic> diagnostic) {
    diagnostic_ = std::move(diagnostic);
    emit diagnosticChanged();
}

void ScheduleDocument::setBusy(bool busy) {
    if (busy == busy_) return;
    busy_ = busy;
    emit busyChanged(busy);
}

// ---------------------------------------------------------------- documents

void ScheduleDocument::onScriptChanged() {
    if (session_->kind() != Session::Kind::Script) return;
    const QString path = session_->sourcePath();
    const QString file =
        path.isEmpty() ? QStringLiteral("untitled.te") : QFileInfo(path).fileName();
    load(session_->scriptText(), Source::Script, file, session_->currentFunction(), {});
}

void ScheduleDocument::onFunctionChanged(const QString& name) {
    switch (session_->kind()) {
    case Session::Kind::Script:
        // Another function of the same script: lower that one.
        if (source_ == Source::Script && name != function_) {
            function_ = name;
            relowerNow();
        }
        return;
    case Session::Kind::Model:
        break;
    case Session::Kind::Empty:
        clear(tr("Nothing is open."));
        return;
    }
    if (name.isEmpty()) {
        clear(tr("Select a fused function to edit its schedule."), true);
        return;
    }
    const driver::CompiledModel* model = session_->model().get();
    const driver::FusedFunction* fn = model ? model->findFunction(name.toStdString()) : nullptr;
    if (!fn) {
        clear(tr("The model has no function '%1'.").arg(name), true);
        return;
    }
    QString def = q(fn->script);
    if (def.isEmpty())
        def = tr("# The schedule of this function was not printed: the model was compiled without "
                 "its trace.\n");
    const QString edited = session_->editedSchedule(name);
    if (edited.isEmpty() && def.startsWith(QLatin1Char('#')) &&
        !def.contains(QLatin1String("create_schedule")))
        load(def, Source::ReadOnly, name + QStringLiteral(".te"), name, def);
    else
        load(edited.isEmpty() ? def : edited, Source::ModelFunction, name + QStringLiteral(".te"),
             name, def);
}

void ScheduleDocument::load(const QString& text, Source source, const QString& fileName,
                            const QString& function, const QString& defaultScript) {
    ++loadEpoch_;
    debounce_->stop();
    runPending_ = false;
    setBusy(isRunning());
    source_ = source;
    fileName_ = fileName;
    function_ = function;
    defaultScript_ = defaultScript;
    text_ = text;
    emit loaded();
    setDiagnostic(std::nullopt);
    artifacts_.reset();
    outline_ = {};
    emit outlineChanged();
    history_->showDocument(documentKey());
    setStatus(tr("Lowering…"), false);
    // Another function's texts must not stand for this one's while it lowers.
    if (source != Source::Script && session_->artifacts() &&
        q(session_->artifacts()->name) != function)
        session_->setArtifacts(nullptr);
    relowerNow();
}

void ScheduleDocument::clear(const QString& status, bool dropArtifacts) {
    ++loadEpoch_;
    ++generation_;
    debounce_->stop();
    runPending_ = false;
    setBusy(isRunning());
    source_ = Source::None;
    fileName_.clear();
    function_.clear();
    defaultScript_.clear();
    text_.clear();
    emit loaded();
    setDiagnostic(std::nullopt);
    artifacts_.reset();
    outline_ = {};
    emit outlineChanged();
    history_->showDocument(documentKey());
    setStatus(status, false);
    // No function shown: the texts of the one shown before must not stay.
    if (dropArtifacts && session_->artifacts()) session_->setArtifacts(nullptr);
}

// ---------------------------------------------------------------- re-lowering

void ScheduleDocument::edit(const QString& text) {
    if (!isEditable() || text == text_) return; // nothing to edit, or formatting only
    text_ = text;
    ++generation_;
    // The session keeps the script as edited (a rebuild of the views, a saved project).
    if (source_ == Source::Script) session_->updateScriptText(text);
    // Leading edge: an edit after a pause is lowered at once, so a single edit
    // waits for nothing. Trailing edge: keys within debounceMs() of each other
    // (auto-repeat, a paste in pieces) are lowered once, when they pause.
    const bool burst = sinceEdit_.isValid() && sinceEdit_.elapsed() < debounceMs_;
    sinceEdit_.start();
    if (!burst && !debounce_->isActive()) {
        startRelower();
        return;
    }
    debounce_->start(debounceMs_);
}

void ScheduleDocument::relowerNow() {
    debounce_->stop();
    if (source_ == Source::None) return;
    ++generation_;
    startRelower();
}

void ScheduleDocument::startRelower() {
    if (source_ == Source::None) return;
    // One lowering at a time: LLVM cannot be interrupted, so a second one
    // would only queue behind it on the two workers. The newest text is
    // lowered as soon as the running one ends (onJobFinished).
    if (session_->jobs()->isRunning(kRelower)) {
        relowerAgain_ = true;
        return;
    }
    relowerAgain_ = false;
    Lowering job;
    job.generation = generation_;
    job.epoch = loadEpoch_;
    job.script = text_;
    job.text = text_.toStdString();
    job.file = fileName_.toStdString();
    job.function = function_.toStdString();
    job.defaultScript = defaultScript_.toStdString();
    // The session's target, with the editor's low-latency code generation.
    job.request = session_->request(driver::CompileMode::Interactive);
    job.source = source_;
    job.model = session_->model();
    job.cache = artifactCache_;
    emit relowerStarted(job.generation);
    session_->jobs()->run<std::shared_ptr<Lowered>>(
        kRelower, tr("Lowering %1").arg(function_.isEmpty() ? fileName_ : function_),
        [job](const CancelToken&) { return lower(job); }, this,
        [this](std::shared_ptr<Lowered> r) { applyLowered(*r); },
        [this](const QString& message) {
            setStatus(message, true);
            emit relowered(false);
        });
}

std::shared_ptr<ScheduleDocument::Lowered> ScheduleDocument::lower(const Lowering& job) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    auto r = std::make_shared<Lowered>();
    r->generation = job.generation;
    r->epoch = job.epoch;
    r->script = job.script;
    try {
        driver::ArtifactOptions options;
        options.cache = job.cache;
        options.request = job.request;
        // The assembly comes in a second step (applyLowered), so the TIR and
        // LLVM IR show as soon as they are made: instruction selection and
        // printing are half of LLVM's time. A GPU's PTX is made with its IR.
        options.emitAssembly = job.request.target.isGPU();
        r->options = options;
        const driver::FusedFunction* fn =
            job.model ? job.model->findFunction(job.function) : nullptr;
        driver::FunctionArtifacts a;
        if (job.source == Source::ReadOnly) {
            if (!fn) throw CompileError("the model has no function '" + job.function + "'");
            a = driver::artifactsOf(fn->lowered, "", options);
        } else if (job.source == Source::ModelFunction && fn && job.text == job.defaultScript) {
            // The default schedule: the model's own lowering, no need to run the script.
            const auto t = Clock::now();
            a = driver::artifactsOf(fn->lowered, job.text, options);
            a.lowerMs = 0;
            a.codegenMs = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
        } else {
            a = driver::compileScriptArtifacts(job.text, job.file, job.function, options);
        }
        r->artifacts = std::make_shared<const driver::FunctionArtifacts>(std::move(a));
        // The outline's names come from running the script once more: it is
        // cheap next to lowering and code generation.
        std::optional<te::script::ScriptResult> names;
        if (job.source != Source::ReadOnly) {
            try {
                te::script::ScriptOptions so;
                so.fileName = job.file;
                names = driver::runScript(job.text, so, job.request.target); // with topi
            } catch (const std::exception&) {
            }
        }
        r->outline = buildOutline(r->artifacts->lowered, names ? &*names : nullptr);
        r->ok = true;
    } catch (const CompileError& e) {
        const Diagnostic& d = e.diagnostic();
        r->line = d.loc.line;
        r->column = d.loc.column;
        r->message = q(d.message);
        r->formatted = q(te::script::formatDiagnostic(d, job.file));
    } catch (const std::exception& e) {
        r->message = r->formatted = q(e.what());
    }
    r->ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return r;
}

void ScheduleDocument::onJobFinished(const QString& key) {
    if (key == kRun) setBusy(runPending_);
    if (key != kRelower || !relowerAgain_) return;
    // After the finished job's own result was applied.
    QTimer::singleShot(0, this, [this] {
        if (relowerAgain_) startRelower();
    });
}

void ScheduleDocument::applyLowered(const Lowered& r) {
    if (r.epoch != loadEpoch_ || r.generation <= applied_)
        return; // another document, or older than shown
    if (!r.ok) {
        if (r.generation != generation_) return; // the text moved on; its own result follows
        setDiagnostic(ScriptDiagnostic{r.line, r.column, r.message});
        setStatus(r.formatted, true);
        if (runPending_) {
            runPending_ = false;
            setBusy(isRunning());
        }
        emit relowered(false);
        return;
    }
    applied_ = r.generation;
    artifacts_ = r.artifacts;
    outline_ = r.outline;
    if (source_ == Source::ModelFunction)
        session_->setEditedSchedule(function_, r.script == defaultScript_ ? QString() : r.script);
    session_->setArtifacts(artifacts_);
    if (r.generation == generation_) setDiagnostic(std::nullopt);
    emit outlineChanged();
    if (source_ == Source::ReadOnly)
        setStatus(
            tr("Read-only: this schedule cannot be written as a TE script (see the comment)."),
            false);
    else
        setStatus(tr("Lowered in %1 ms (TIR %2 ms, code %3 ms)")
                      .arg(r.ms, 0, 'f', 0)
                      .arg(artifacts_->lowerMs, 0, 'f', 0)
                      .arg(artifacts_->codegenMs, 0, 'f', 0),
                  false);
    emit relowered(true);
    if (!artifacts_->hasAssembly) startAssembly(r.options, r.ms);
    if (runPending_ && r.generation == generation_) {
        runPending_ = false;
        startRun();
    }
}

bool ScheduleDocument::isMakingAssembly() const { return session_->jobs()->isRunning(kAssembly); }

void ScheduleDocument::startAssembly(const driver::ArtifactOptions& options, double loweredMs) {
    // The texts just shown, their assembly made on a worker; a newer lowering
    // supersedes it (one key), and it is shown only with the texts it belongs to.
    const auto shown = artifacts_;
    const quint64 generation = applied_, epoch = loadEpoch_;
    session_->jobs()->run<std::shared_ptr<const driver::FunctionArtifacts>>(
        kAssembly, tr("Assembly of %1").arg(QString::fromStdString(shown->name)),
        [shown, options](const CancelToken&) {
            return std::make_shared<const driver::FunctionArtifacts>(driver::withAssembly(*shown, options));
        },
        this,
        [this, shown, generation, epoch, loweredMs](std::shared_ptr<const driver::FunctionArtifacts> full) {
            if (artifacts_ != shown || applied_ != generation || loadEpoch_ != epoch) return;
            artifacts_ = full;
            session_->setArtifacts(artifacts_);
            if (source_ != Source::ReadOnly && !statusError_)
                setStatus(tr("Lowered in %1 ms (TIR %2 ms, code %3 ms, of which assembly %4 ms)")
                              .arg(loweredMs + (full->codegenMs - shown->codegenMs), 0, 'f', 0)
                              .arg(full->lowerMs, 0, 'f', 0)
                              .arg(full->codegenMs, 0, 'f', 0)
                              .arg(full->codegenMs - shown->codegenMs, 0, 'f', 0),
                          false);
            emit assemblyReady();
        },
        [this, shown](const QString& message) {
            if (artifacts_ == shown) setStatus(tr("No assembly: %1").arg(message), true);
        });
}

// ---------------------------------------------------------------- measuring

void ScheduleDocument::run() {
    if (source_ == Source::None) {
        setStatus(tr("Nothing to run: open a TE script or select a fused function."), true);
        return;
    }
    if (isRelowering()) {
        // Measure what is typed, not the previous lowering.
        runPending_ = true;
        setBusy(true);
        if (debounce_->isActive()) relowerNow();
        return;
    }
    if (!artifacts_ || applied_ != generation_) {
        setStatus(tr("Fix the script before running it."), true);
        return;
    }
    startRun();
}

driver::RunReport ScheduleDocument::measure(const driver::LoweredFunction& f,
                                            const driver::CompileRequest& request,
                                            driver::ReferenceStore& references,
                                            const std::function<bool()>& cancelled,
                                            const DeviceChoice& device) {
    // On the device panel's device, or in a session of the IDE's warm
    // tessel-rpc server: a schedule that crashes or hangs ends that
    // measurement, not the IDE.
    driver::RunOptions options;
    options.request = request;
    options.references = &references;
    options.cancelled = cancelled;
    return driver::runAndCheckOn(device.spec(), f, options);
}

void ScheduleDocument::startRun() {
    if (!artifacts_) return;
    const driver::LoweredFunction f = artifacts_->lowered;
    const QString script = source_ == Source::ReadOnly ? QString() : text_;
    const QString function = q(f.name);
    const QString key =
        documentKey(); // the history it belongs to, even if another document opens meanwhile
    auto references = references_;
    setBusy(true);
    setStatus(tr("Measuring %1…").arg(function), false);
    const DeviceChoice device = session_->device();
    runFailed_ = false;
    session_->jobs()->run<std::shared_ptr<driver::RunReport>>(
        kRun, tr("Measuring %1").arg(function),
        [f, references, request = session_->request(), device](const CancelToken& token) {
            return std::make_shared<driver::RunReport>(
                measure(f, request, *references, [token] { return token.cancelled(); }, device));
        },
        this,
        [this, script, function, key, device](std::shared_ptr<driver::RunReport> report) {
            finishRun(*report, script, function, key, device);
        },
        [this, device](const QString& message) {
            runFailed_ = true;
            setStatus(tr("The run on %1 failed: %2").arg(device.label(), message), true);
            session_->report(tr("The run on %1 failed: %2").arg(device.label(), message), true);
        });
}

void ScheduleDocument::cancelRun() {
    runPending_ = false;
    session_->jobs()->cancel(kRun);
    setBusy(false);
    setStatus(tr("Run cancelled."), false);
}

void ScheduleDocument::finishRun(const driver::RunReport& report, const QString& script,
                                 const QString& function, const QString& key, const DeviceChoice& device) {
    RunRecord r;
    r.time = QDateTime::currentDateTime();
    r.script = script;
    r.function = function;
    const bool wrongResult = report.errorKind == runtime::MeasureError::WrongResult;
    // A kernel that ran, right or wrong, has a time; one that crashed, hung,
    // did not build or never reached its device has none (never "0 ms").
    r.measured = report.ok || wrongResult;
    r.latencyMs = report.latencyMs;
    r.gflops = report.gflops;
    // The share of this CPU's peak; another device's peak is not known here.
    const double peak = device.isLocal() ? runtime::DeviceInfo::local().peakGflops() : 0;
    r.peakShare = peak > 0 ? report.gflops / peak : 0;
    r.maxAbsErr = report.maxAbsErr;
    r.maxRelErr = report.maxRelErr;
    r.correct = report.ok;
    r.threads = report.threads;
    r.device = device.label();
    r.failure = report.ok ? QString()
                          : measureFailureName(report.errorKind == runtime::MeasureError::None
                                                   ? runtime::MeasureError::Runtime
                                                   : report.errorKind);
    r.error = report.ok || wrongResult ? q(report.error)
                                       : explainMeasureFailure(device, report.errorKind, q(report.error));
    r = history_->add(key, r);
    runFailed_ = !r.measured;
    if (r.measured)
        setStatus(
            tr("Measured on %3: %1 ms, %2 GFLOP/s").arg(r.latencyMs, 0, 'f', 3).arg(r.gflops, 0, 'f', 1).arg(r.device),
            !r.correct);
    else // it crashed, hung, did not build or found no device: say so, not "0 ms"
        setStatus(tr("The run on %1 failed: %2").arg(r.device, r.error), true);
    if (wrongResult)
        session_->report(
            tr("%1 computes something else than its default schedule: %2").arg(r.function, r.error),
            true);
    else if (!r.correct)
        session_->report(tr("The run of %1 on %2 failed: %3").arg(r.function, r.device, r.error), true);
    emit runFinished(r);
}

} // namespace tessel::views
