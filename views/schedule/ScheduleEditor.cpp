#include "schedule/ScheduleEditor.h"

#include "common/DevicePeak.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "driver/Measure.h"
#include "runtime/ReferenceStore.h"
#include "schedule/ScriptEdit.h"
#include "te/script/Script.h"

#include <QAction>
#include <QFileInfo>
#include <QHeaderView>
#include <QIcon>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QResizeEvent>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <chrono>

namespace tessel::views {

namespace {

constexpr int kStageRole = Qt::UserRole;
constexpr int kLoopRole = Qt::UserRole + 1;
constexpr int kHistoryLimit = 10;

QString q(const std::string& s) { return QString::fromStdString(s); }

/// "L31: s[CC].split(k, factor=8)": the first line that differs from the previous run's script.
QString changeLabel(const QString& before, const QString& after, int number) {
    if (before.isEmpty() || before == after) return ScheduleEditor::tr("run %1").arg(number);
    const QStringList a = before.split(QLatin1Char('\n')), b = after.split(QLatin1Char('\n'));
    int i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    // Lines added shift the rest: a line of the new script that the old lacks says what changed.
    QString line;
    if (i < b.size() && (b.size() >= a.size() || !a.mid(i).contains(b[i]))) line = b[i].trimmed();
    else if (i < a.size()) line = QStringLiteral("− ") + a[i].trimmed();
    if (line.size() > 48) line = line.left(47) + QStringLiteral("…");
    return QStringLiteral("L%1: %2").arg(i + 1).arg(line);
}

} // namespace

/// What a re-lowering job hands back to the GUI thread.
struct ScheduleEditor::Relowered {
    quint64 generation = 0, epoch = 0;
    QString script;
    bool ok = false;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts;
    ScheduleOutline outline;
    int line = 0, column = 0;
    QString message, formatted;
    double ms = 0;
};

ScheduleEditor::ScheduleEditor(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), edit_(new ScriptEdit), status_(new QLabel), outline_(new QTreeWidget),
      history_(new QTableWidget), runSummary_(new QLabel), busy_(new QProgressBar), debounce_(new QTimer(this)),
      references_(std::make_shared<runtime::ReferenceStore>()), artifactCache_(std::make_shared<driver::ArtifactCache>()) {
    qRegisterMetaType<RunRecord>();
    setObjectName(QStringLiteral("ScheduleEditor"));

    undo_ = new QAction(QIcon::fromTheme(QStringLiteral("edit-undo")), tr("Undo"), this);
    undo_->setToolTip(tr("Undo (Ctrl+Z)"));
    undo_->setEnabled(false);
    redo_ = new QAction(QIcon::fromTheme(QStringLiteral("edit-redo")), tr("Redo"), this);
    redo_->setToolTip(tr("Redo (Ctrl+Shift+Z)"));
    redo_->setEnabled(false);
    run_ = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Run"), this);
    run_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    run_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    run_->setToolTip(tr("Measure this schedule and check it against the default schedule (Ctrl+R)"));
    cancel_ = new QAction(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cancel"), this);
    cancel_->setEnabled(false);
    addAction(run_);
    connect(undo_, &QAction::triggered, edit_, &QPlainTextEdit::undo);
    connect(redo_, &QAction::triggered, edit_, &QPlainTextEdit::redo);
    connect(edit_, &QPlainTextEdit::undoAvailable, undo_, &QAction::setEnabled);
    connect(edit_, &QPlainTextEdit::redoAvailable, redo_, &QAction::setEnabled);
    connect(run_, &QAction::triggered, this, &ScheduleEditor::run);
    connect(cancel_, &QAction::triggered, this, &ScheduleEditor::cancelRun);

    auto* toolbar = new QToolBar;
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(undo_);
    toolbar->addAction(redo_);
    toolbar->addSeparator();
    toolbar->addAction(run_);
    toolbar->addAction(cancel_);
    busy_->setRange(0, 0);
    busy_->setMaximumWidth(120);
    busy_->setVisible(false);
    toolbar->addWidget(busy_);

    edit_->setReadOnly(true);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(edit_, 1);
    leftLayout->addWidget(status_);

    outline_->setColumnCount(3);
    outline_->setHeaderLabels({tr("Loop"), tr("Extent"), tr("Kind")});
    outline_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    outline_->setContextMenuPolicy(Qt::CustomContextMenu);
    outline_->setToolTip(tr("The loop nest of the schedule; right-click a loop to write a schedule line"));
    connect(outline_, &QWidget::customContextMenuRequested, this, &ScheduleEditor::showOutlineMenu);

    const QStringList headers{tr("#"),       tr("Time"),      tr("Change"), tr("Latency (ms)"),
                              tr("GFLOP/s"), tr("% of peak"), tr("Correct")};
    history_->setColumnCount(int(headers.size()));
    history_->setHorizontalHeaderLabels(headers);
    history_->horizontalHeaderItem(5)->setToolTip(peakExplanation());
    history_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    history_->setSelectionBehavior(QAbstractItemView::SelectRows);
    history_->verticalHeader()->setVisible(false);
    history_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    history_->setToolTip(tr("Double-click a run to put its script back"));
    connect(history_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { restoreRun(row); });
    runSummary_->setWordWrap(true);
    runSummary_->setToolTip(peakExplanation());

    auto* runs = new QWidget;
    auto* runsLayout = new QVBoxLayout(runs);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->addWidget(runSummary_);
    runsLayout->addWidget(history_, 1);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(outline_);
    right->addWidget(runs);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    outerSplit_ = split;
    innerSplit_ = right;

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar);
    layout->addWidget(split, 1);

    debounce_->setSingleShot(true);
    connect(debounce_, &QTimer::timeout, this, &ScheduleEditor::startRelower);
    connect(edit_, &QPlainTextEdit::textChanged, this, &ScheduleEditor::onTextChanged);

    connect(session_, &Session::scriptChanged, this, &ScheduleEditor::onScriptChanged);
    connect(session_, &Session::currentFunctionChanged, this, &ScheduleEditor::onFunctionChanged);
    connect(session_, &Session::cleared, this, [this] { clearDocument(tr("Nothing is open.")); });
    connect(session_, &Session::targetChanged, this, [this] {
        if (source_ != Source::None) relowerNow();
    });
    connect(session_->jobs(), &Jobs::finished, this, [this](const QString& key, bool) {
        if (key == QLatin1String("run")) setBusy(runPending_);
        onRelowerFinished(key);
    });

    clearDocument(tr("Open a TE script or select a fused function to edit its schedule."));
    // A session that is already open (the editor made after it) is shown at once.
    if (session_->kind() == Session::Kind::Script) onScriptChanged();
    else if (session_->kind() == Session::Kind::Model) onFunctionChanged(session_->currentFunction());
}

ScheduleEditor::~ScheduleEditor() = default;

CodeEditor* ScheduleEditor::editor() const { return edit_; }

QString ScheduleEditor::statusText() const { return statusText_; }

QString ScheduleEditor::script() const { return edit_->toPlainText(); }

void ScheduleEditor::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Narrow and tall: the script gets the full width, with the outline and
    // the run history side by side below it. Otherwise the outline and the
    // history form a column to the script's right.
    const bool narrow = width() < 760 && height() >= 420;
    const Qt::Orientation outer = narrow ? Qt::Vertical : Qt::Horizontal;
    if (outerSplit_->orientation() == outer) return;
    outerSplit_->setOrientation(outer);
    innerSplit_->setOrientation(narrow ? Qt::Horizontal : Qt::Vertical);
    const int extent = narrow ? height() : width();
    outerSplit_->setSizes({extent * 3 / 5, extent * 2 / 5});
}

bool ScheduleEditor::isRelowering() const {
    return debounce_->isActive() || relowerAgain_ || session_->jobs()->isRunning(QStringLiteral("relower"));
}

void ScheduleEditor::onRelowerFinished(const QString& key) {
    if (key != QLatin1String("relower") || !relowerAgain_) return;
    // After the finished job's own result was applied.
    QTimer::singleShot(0, this, [this] {
        if (relowerAgain_) startRelower();
    });
}

bool ScheduleEditor::isRunning() const { return session_->jobs()->isRunning(QStringLiteral("run")); }

const driver::CompiledModel* ScheduleEditor::modelOf() const { return session_->model().get(); }

QString ScheduleEditor::documentKey() const {
    if (source_ == Source::Script) return QStringLiteral("script:") + session_->sourcePath() + QLatin1Char(':') + fileName_;
    return QStringLiteral("function:") + function_;
}

// ---------------------------------------------------------------- documents

void ScheduleEditor::onScriptChanged() {
    if (session_->kind() != Session::Kind::Script) return;
    const QString path = session_->sourcePath();
    const QString file = path.isEmpty() ? QStringLiteral("untitled.te") : QFileInfo(path).fileName();
    load(session_->scriptText(), Source::Script, file, session_->currentFunction(), {});
}

void ScheduleEditor::onFunctionChanged(const QString& name) {
    switch (session_->kind()) {
    case Session::Kind::Script:
        // Another function of the same script: lower that one.
        if (source_ == Source::Script && name != function_) {
            function_ = name;
            relowerNow();
        }
        return;
    case Session::Kind::Model: break;
    case Session::Kind::Empty:
        clearDocument(tr("Nothing is open."));
        return;
    }
    if (name.isEmpty()) {
        clearDocument(tr("Select a fused function to edit its schedule."), true);
        return;
    }
    const driver::CompiledModel* model = modelOf();
    const driver::FusedFunction* fn = model ? model->findFunction(name.toStdString()) : nullptr;
    if (!fn) {
        clearDocument(tr("The model has no function '%1'.").arg(name), true);
        return;
    }
    QString def = q(fn->script);
    if (def.isEmpty())
        def = tr("# The schedule of this function was not printed: the model was compiled without its trace.\n");
    const QString edited = session_->editedSchedule(name);
    if (edited.isEmpty() && def.startsWith(QLatin1Char('#')) && !def.contains(QLatin1String("create_schedule")))
        load(def, Source::ReadOnly, name + QStringLiteral(".te"), name, def);
    else
        load(edited.isEmpty() ? def : edited, Source::ModelFunction, name + QStringLiteral(".te"), name, def);
}

void ScheduleEditor::load(const QString& text, Source source, const QString& fileName, const QString& function,
                          const QString& defaultScript) {
    ++loadEpoch_;
    debounce_->stop();
    runPending_ = false;
    source_ = source;
    fileName_ = fileName;
    function_ = function;
    defaultScript_ = defaultScript;
    loading_ = true;
    edit_->setPlainText(text); // a new document: its own undo history
    edit_->setReadOnly(source == Source::ReadOnly);
    loading_ = false;
    lastText_ = text;
    // Open at the schedule: the computation above it is what one edits least.
    if (int at = text.left(text.indexOf(QLatin1String("create_schedule("))).count(QLatin1Char('\n'));
        text.contains(QLatin1String("create_schedule(")) && at > 0) {
        QTextCursor c(edit_->document()->findBlockByNumber(at));
        edit_->setTextCursor(c);
        edit_->revealLine(at + 1);
    }
    edit_->setMarks({});
    artifacts_.reset();
    outlineModel_ = {};
    rebuildOutline();
    refreshHistory();
    setStatus(tr("Lowering…"), false);
    // Another function's texts must not stand for this one's while it lowers.
    if (source != Source::Script && session_->artifacts() && q(session_->artifacts()->name) != function)
        session_->setArtifacts(nullptr);
    relowerNow();
}

void ScheduleEditor::clearDocument(const QString& status, bool dropArtifacts) {
    ++loadEpoch_;
    ++generation_;
    debounce_->stop();
    runPending_ = false;
    source_ = Source::None;
    fileName_.clear();
    function_.clear();
    defaultScript_.clear();
    loading_ = true;
    edit_->clear();
    edit_->setReadOnly(true);
    loading_ = false;
    lastText_.clear();
    edit_->setMarks({});
    artifacts_.reset();
    outlineModel_ = {};
    rebuildOutline();
    refreshHistory();
    setStatus(status, false);
    // No function shown: the texts of the one shown before must not stay.
    if (dropArtifacts && session_->artifacts()) session_->setArtifacts(nullptr);
}

// ---------------------------------------------------------------- re-lowering

void ScheduleEditor::onTextChanged() {
    if (loading_ || source_ == Source::None || source_ == Source::ReadOnly) return;
    const QString text = edit_->toPlainText();
    if (text == lastText_) return; // formatting only
    lastText_ = text;
    ++generation_;
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

void ScheduleEditor::relowerNow() {
    debounce_->stop();
    if (source_ == Source::None) return;
    ++generation_;
    startRelower();
}

void ScheduleEditor::startRelower() {
    if (source_ == Source::None) return;
    // One lowering at a time: LLVM cannot be interrupted, so a second one
    // would only queue behind it on the two workers. The newest text is
    // lowered as soon as the running one ends (onRelowerFinished).
    if (session_->jobs()->isRunning(QStringLiteral("relower"))) {
        relowerAgain_ = true;
        return;
    }
    relowerAgain_ = false;
    const quint64 gen = generation_, epoch = loadEpoch_;
    emit relowerStarted(gen);
    const QString scriptText = lastText_;
    const std::string text = scriptText.toStdString(), file = fileName_.toStdString(),
                      function = function_.toStdString(), def = defaultScript_.toStdString();
    const driver::CompileRequest request = session_->request(driver::CompileMode::Interactive);
    const Source source = source_;
    std::shared_ptr<const driver::CompiledModel> model = session_->model();
    std::shared_ptr<driver::ArtifactCache> artifactCache = artifactCache_;
    auto work = [=](const CancelToken&) {
        using Clock = std::chrono::steady_clock;
        auto t0 = Clock::now();
        auto r = std::make_shared<Relowered>();
        r->generation = gen;
        r->epoch = epoch;
        r->script = scriptText;
        try {
            driver::ArtifactOptions options;
            options.cache = artifactCache;
            options.request = request;
            const driver::FusedFunction* fn = model ? model->findFunction(function) : nullptr;
            driver::FunctionArtifacts a;
            if (source == Source::ReadOnly) {
                if (!fn) throw CompileError("the model has no function '" + function + "'");
                a = driver::artifactsOf(fn->lowered, "", options);
            } else if (source == Source::ModelFunction && fn && text == def) {
                // The default schedule: the model's own lowering, no need to run the script.
                auto t = Clock::now();
                a = driver::artifactsOf(fn->lowered, text, options);
                a.lowerMs = 0;
                a.codegenMs = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
            } else {
                a = driver::compileScriptArtifacts(text, file, function, options);
            }
            r->artifacts = std::make_shared<const driver::FunctionArtifacts>(std::move(a));
            // The outline's names come from running the script once more: it is
            // cheap next to lowering and code generation.
            std::optional<te::script::ScriptResult> names;
            if (source != Source::ReadOnly) {
                try {
                    te::script::ScriptOptions so;
                    so.fileName = file;
                    names = te::script::runScript(text, so);
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
            r->formatted = q(te::script::formatDiagnostic(d, file));
        } catch (const std::exception& e) {
            r->message = r->formatted = q(e.what());
        }
        r->ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        return r;
    };
    session_->jobs()->run<std::shared_ptr<Relowered>>(
        QStringLiteral("relower"), tr("Lowering %1").arg(function_.isEmpty() ? fileName_ : function_), work, this,
        [this](std::shared_ptr<Relowered> r) { applyRelowered(*r); },
        [this](const QString& message) {
            setStatus(message, true);
            emit relowered(false);
        });
}

void ScheduleEditor::applyRelowered(const Relowered& r) {
    if (r.epoch != loadEpoch_ || r.generation <= applied_) return; // another document, or older than shown
    if (!r.ok) {
        if (r.generation != generation_) return; // the text moved on; its own result follows
        const int line = r.line > 0 ? r.line : 1;
        edit_->setMarks({EditorMark{line, r.line > 0 ? r.column : 0, r.message, true}});
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
    outlineModel_ = r.outline;
    if (source_ == Source::ModelFunction)
        session_->setEditedSchedule(function_, r.script == defaultScript_ ? QString() : r.script);
    session_->setArtifacts(artifacts_);
    if (r.generation == generation_) edit_->setMarks({});
    edit_->setNames(outlineModel_.names);
    rebuildOutline();
    if (source_ == Source::ReadOnly)
        setStatus(tr("Read-only: this schedule cannot be written as a TE script (see the comment)."), false);
    else
        setStatus(tr("Lowered in %1 ms (TIR %2 ms, code %3 ms)")
                      .arg(r.ms, 0, 'f', 0)
                      .arg(artifacts_->lowerMs, 0, 'f', 0)
                      .arg(artifacts_->codegenMs, 0, 'f', 0),
                  false);
    emit relowered(true);
    if (runPending_ && r.generation == generation_) {
        runPending_ = false;
        startRun();
    }
}

// ---------------------------------------------------------------- outline

void ScheduleEditor::rebuildOutline() {
    outline_->clear();
    const auto& stages = outlineModel_.stages;
    std::function<void(int, QTreeWidgetItem*)> addStage = [&](int s, QTreeWidgetItem* parent) {
        const OutlineStage& st = stages[s];
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(outline_);
        QString name = st.name;
        if (!st.tensorRef.isEmpty() && st.tensorRef != st.name) name += QStringLiteral(" (%1)").arg(st.tensorRef);
        item->setText(0, name);
        item->setText(2, st.attach == OutlineStage::Attach::Inline ? tr("inline")
                         : st.attach == OutlineStage::Attach::At  ? tr("computed here")
                                                                   : QString());
        item->setData(0, kStageRole, s);
        item->setData(0, kLoopRole, -1);
        QFont f = item->font(0);
        f.setBold(true);
        item->setFont(0, f);
        QTreeWidgetItem* at = item;
        for (int l = 0; l < st.loops.size(); ++l) {
            const OutlineLoop& loop = st.loops[l];
            auto* li = new QTreeWidgetItem(at);
            li->setText(0, loop.label());
            li->setText(1, loop.extent);
            QStringList kind;
            if (loop.reduce) kind << tr("reduce");
            if (!loop.kind.isEmpty()) kind << loop.kind;
            li->setText(2, kind.join(QStringLiteral(", ")));
            li->setToolTip(0, tr("TIR: %1\nScript: %2").arg(loop.var, loop.ref.isEmpty() ? tr("(no name)") : loop.ref));
            li->setData(0, kStageRole, s);
            li->setData(0, kLoopRole, l);
            for (int child : loop.attached) addStage(child, li);
            at = li;
        }
    };
    for (int s = 0; s < stages.size(); ++s)
        if (stages[s].attach != OutlineStage::Attach::At || stages[s].parentStage < 0) addStage(s, nullptr);
    outline_->expandAll();
    outline_->resizeColumnToContents(0);
}

QTreeWidgetItem* ScheduleEditor::findItem(const QString& stage, const QString& loop) const {
    const int s = outlineModel_.findStage(stage);
    if (s < 0) return nullptr;
    const int l = loop.isEmpty() ? -1 : outlineModel_.findLoop(s, loop);
    if (!loop.isEmpty() && l < 0) return nullptr;
    for (QTreeWidgetItemIterator it(outline_); *it; ++it)
        if ((*it)->data(0, kStageRole).toInt() == s && (*it)->data(0, kLoopRole).toInt() == l) return *it;
    return nullptr;
}

void ScheduleEditor::showOutlineMenu(const QPoint& pos) {
    QTreeWidgetItem* item = outline_->itemAt(pos);
    if (!item) return;
    const bool editable = source_ == Source::Script || source_ == Source::ModelFunction;
    const bool isLoop = item->data(0, kLoopRole).toInt() >= 0;
    QMenu menu(this);
    auto add = [&](const QString& text, LoopAction action) {
        QAction* a = menu.addAction(text);
        a->setEnabled(editable);
        connect(a, &QAction::triggered, this, [this, item, action] { applyOutlineAction(item, action); });
    };
    if (isLoop) {
        add(tr("Split…"), LoopAction::Split);
        add(tr("Tile with the next loop…"), LoopAction::Tile);
        add(tr("Reorder…"), LoopAction::Reorder);
        add(tr("Fuse with the next loop"), LoopAction::Fuse);
        menu.addSeparator();
        add(tr("Vectorize"), LoopAction::Vectorize);
        add(tr("Unroll"), LoopAction::Unroll);
        add(tr("Parallel"), LoopAction::Parallel);
        menu.addSeparator();
    }
    add(tr("Compute at…"), LoopAction::ComputeAt);
    add(tr("Compute inline"), LoopAction::ComputeInline);
    add(tr("Compute at root"), LoopAction::ComputeRoot);
    add(tr("Cache write"), LoopAction::CacheWrite);
    menu.exec(outline_->viewport()->mapToGlobal(pos));
}

QString ScheduleEditor::applyOutlineAction(QTreeWidgetItem* item, LoopAction action, const LoopActionArgs& given) {
    if (!item || (source_ != Source::Script && source_ != Source::ModelFunction)) {
        setStatus(tr("This schedule cannot be edited."), true);
        return {};
    }
    const int s = item->data(0, kStageRole).toInt(), l = item->data(0, kLoopRole).toInt();
    if (s < 0 || s >= outlineModel_.stages.size()) return {};
    const OutlineStage& st = outlineModel_.stages[s];
    LoopActionArgs args = given;
    bool ok = true;
    const QString loopName = l >= 0 && l < st.loops.size() ? st.loops[l].label() : QString();
    auto suggested = [&](int loop) {
        bool known = false;
        int extent = loop >= 0 && loop < st.loops.size() ? st.loops[loop].extent.toInt(&known) : 0;
        return known && extent >= 16 ? 8 : qMax(1, extent / 2);
    };
    switch (action) {
    case LoopAction::Split:
        if (args.factor < 1)
            args.factor = QInputDialog::getInt(this, tr("Split"), tr("Extent of the inner loop of '%1':").arg(loopName),
                                               suggested(l), 1, 1 << 24, 1, &ok);
        break;
    case LoopAction::Tile:
        if (args.factor < 1 && ok)
            args.factor = QInputDialog::getInt(this, tr("Tile"), tr("Tile size along '%1':").arg(loopName), suggested(l),
                                               1, 1 << 24, 1, &ok);
        if (args.factor2 < 1 && ok && l + 1 < st.loops.size())
            args.factor2 = QInputDialog::getInt(this, tr("Tile"),
                                                tr("Tile size along '%1':").arg(st.loops[l + 1].label()),
                                                suggested(l + 1), 1, 1 << 24, 1, &ok);
        break;
    case LoopAction::Reorder:
        if (args.order.isEmpty()) {
            // The selected loops of this stage in their current order, or all of them.
            QStringList current;
            for (const auto& loop : st.loops)
                for (auto* sel : outline_->selectedItems())
                    if (sel->data(0, kStageRole).toInt() == s && sel->data(0, kLoopRole).toInt() >= 0 &&
                        st.loops[sel->data(0, kLoopRole).toInt()].ref == loop.ref)
                        current << loop.ref;
            if (current.size() < 2) {
                current.clear();
                for (const auto& loop : st.loops) current << loop.ref;
            }
            const QString text = QInputDialog::getText(this, tr("Reorder"), tr("The loops of '%1' in their new order:").arg(st.name),
                                                       QLineEdit::Normal, current.join(QStringLiteral(", ")), &ok);
            for (const auto& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) args.order << part.trimmed();
        }
        break;
    case LoopAction::ComputeAt:
        if (args.targetStage < 0) {
            QStringList choices;
            QList<QPair<int, int>> targets;
            for (int t = 0; t < outlineModel_.stages.size(); ++t) {
                if (t == s) continue;
                const auto& ts = outlineModel_.stages[t];
                for (int k = 0; k < ts.loops.size(); ++k) {
                    if (ts.loops[k].ref.isEmpty()) continue;
                    choices << QStringLiteral("%1 · %2").arg(ts.name, ts.loops[k].label());
                    targets.append({t, k});
                }
            }
            if (choices.isEmpty()) {
                setStatus(tr("There is no other stage to compute '%1' at.").arg(st.name), true);
                return {};
            }
            const QString choice = QInputDialog::getItem(this, tr("Compute at"),
                                                         tr("Compute '%1' inside the loop:").arg(st.name), choices, 0,
                                                         false, &ok);
            const auto i = choices.indexOf(choice);
            if (ok && i >= 0) {
                args.targetStage = targets[i].first;
                args.targetLoop = targets[i].second;
            }
        }
        break;
    default: break;
    }
    if (!ok) return {};
    const QString text = edit_->toPlainText();
    QSet<QString> taken = identifiersIn(text);
    for (const auto& n : outlineModel_.names) taken.insert(n);
    QString error;
    const QString line = actionLine(outlineModel_, s, l, action, args, taken, &error);
    if (line.isEmpty()) {
        setStatus(tr("Cannot write that line: %1").arg(error), true);
        return {};
    }
    // One edit block: a single Ctrl+Z takes the line back out.
    const int at = insertionLine(text, action);
    QTextCursor c(edit_->document());
    c.beginEditBlock();
    if (at < edit_->document()->blockCount()) {
        c.setPosition(edit_->document()->findBlockByNumber(at).position());
        c.insertText(line + QLatin1Char('\n'));
    } else {
        c.movePosition(QTextCursor::End);
        c.insertText((text.isEmpty() || text.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) + line);
    }
    c.endEditBlock();
    QTextCursor shown(edit_->document()->findBlockByNumber(qMin(at, edit_->document()->blockCount() - 1)));
    shown.movePosition(QTextCursor::EndOfBlock);
    edit_->setTextCursor(shown);
    edit_->revealLine(at + 1);
    relowerNow();
    return line;
}

// ---------------------------------------------------------------- running

void ScheduleEditor::run() {
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

void ScheduleEditor::startRun() {
    if (!artifacts_) return;
    const driver::LoweredFunction f = artifacts_->lowered;
    const QString script = source_ == Source::ReadOnly ? QString() : lastText_;
    const QString function = q(f.name);
    const QString key = documentKey(); // the history it belongs to, even if another document opens meanwhile
    auto cache = references_;
    setBusy(true);
    setStatus(tr("Measuring %1…").arg(function), false);
    session_->jobs()->run<std::shared_ptr<driver::RunReport>>(
        QStringLiteral("run"), tr("Measuring %1").arg(function),
        [f, cache, request = session_->request()](const CancelToken& token) {
            driver::RunOptions options;
            options.request = request;
            options.references = cache.get();
            options.cancelled = [token] { return token.cancelled(); };
            return std::make_shared<driver::RunReport>(driver::runAndCheck(f, options));
        },
        this,
        [this, script, function, key](std::shared_ptr<driver::RunReport> rep) {
            RunRecord r;
            r.time = QDateTime::currentDateTime();
            r.script = script;
            r.function = function;
            r.latencyMs = rep->latencyMs;
            r.gflops = rep->gflops;
            const double peak = runtime::DeviceInfo::local().peakGflops();
            r.peakShare = peak > 0 ? rep->gflops / peak : 0;
            r.maxAbsErr = rep->maxAbsErr;
            r.maxRelErr = rep->maxRelErr;
            r.correct = rep->ok;
            r.threads = rep->threads;
            r.error = q(rep->error);
            finishRun(r, key);
        },
        [this](const QString& message) {
            setStatus(tr("Run failed: %1").arg(message), true);
            session_->report(tr("Run failed: %1").arg(message), true);
        });
}

void ScheduleEditor::cancelRun() {
    runPending_ = false;
    session_->jobs()->cancel(QStringLiteral("run"));
    setBusy(false);
    setStatus(tr("Run cancelled."), false);
}

void ScheduleEditor::finishRun(RunRecord r, const QString& key) {
    QList<RunRecord>& list = runs_[key];
    r.number = ++runCount_[key];
    r.label = changeLabel(list.isEmpty() ? QString() : list.back().script, r.script, r.number);
    list.append(r);
    while (list.size() > kHistoryLimit) list.removeFirst();
    refreshHistory();
    const QString peak = r.peakShare > 0 ? tr(", %1% of peak").arg(r.peakShare * 100, 0, 'f', 1) : QString();
    const QString check = r.correct ? tr("correct (max abs error %1, max rel error %2)")
                                          .arg(r.maxAbsErr, 0, 'g', 2)
                                          .arg(r.maxRelErr, 0, 'g', 2)
                                    : tr("WRONG: %1").arg(r.error);
    runSummary_->setText(tr("%1: %2 ms, %3 GFLOP/s%4, %5 threads; %6")
                             .arg(r.function)
                             .arg(r.latencyMs, 0, 'f', 3)
                             .arg(r.gflops, 0, 'f', 1)
                             .arg(peak)
                             .arg(r.threads)
                             .arg(check));
    setStatus(tr("Measured: %1 ms, %2 GFLOP/s").arg(r.latencyMs, 0, 'f', 3).arg(r.gflops, 0, 'f', 1), !r.correct);
    if (!r.correct) session_->report(tr("%1 computes something else than its default schedule: %2").arg(r.function, r.error), true);
    emit runFinished(r);
}

QList<RunRecord> ScheduleEditor::runs() const { return runs_.value(documentKey()); }

std::optional<RunRecord> ScheduleEditor::lastRun() const {
    const auto list = runs();
    if (list.isEmpty()) return std::nullopt;
    return list.back();
}

void ScheduleEditor::refreshHistory() {
    history_->setRowCount(0);
    for (const auto& r : runs()) addHistoryRow(r);
}

void ScheduleEditor::addHistoryRow(const RunRecord& r) {
    const int row = history_->rowCount();
    history_->insertRow(row);
    auto cell = [&](int col, const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(align);
        history_->setItem(row, col, item);
        return item;
    };
    cell(0, QString::number(r.number));
    cell(1, r.time.toString(QStringLiteral("HH:mm:ss")))->setToolTip(r.time.toString(Qt::ISODate));
    cell(2, r.label, Qt::AlignLeft | Qt::AlignVCenter)->setToolTip(tr("%1 threads").arg(r.threads));
    cell(3, QString::number(r.latencyMs, 'f', 3));
    cell(4, QString::number(r.gflops, 'f', 1));
    cell(5, r.peakShare > 0 ? QString::number(r.peakShare * 100, 'f', 1) : QStringLiteral("—"));
    auto* ok = cell(6, r.correct ? tr("ok") : tr("FAIL"), Qt::AlignCenter);
    ok->setToolTip(r.correct ? tr("max abs error %1, max rel error %2").arg(r.maxAbsErr).arg(r.maxRelErr) : r.error);
    ok->setForeground(r.correct ? QColor(56, 142, 60) : QColor(220, 50, 47));
    history_->scrollToBottom();
}

void ScheduleEditor::restoreRun(int row) {
    const auto list = runs();
    if (row < 0 || row >= list.size() || list[row].script.isEmpty() || edit_->isReadOnly()) return;
    QTextCursor c(edit_->document());
    c.beginEditBlock();
    c.select(QTextCursor::Document);
    c.insertText(list[row].script);
    c.endEditBlock();
    relowerNow();
}

void ScheduleEditor::setBusy(bool busy) {
    busy_->setVisible(busy);
    cancel_->setEnabled(busy);
    run_->setEnabled(!busy);
}

void ScheduleEditor::setStatus(const QString& text, bool error) {
    statusText_ = text;
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #dc322f;") : QString());
}

} // namespace tessel::views
