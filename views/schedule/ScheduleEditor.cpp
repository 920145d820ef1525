#include "schedule/ScheduleEditor.h"

#include "common/DevicePeak.h"
#include "common/Session.h"
#include "common/TargetChoice.h"
#include "schedule/ScheduleGraphView.h"
#include "schedule/ScriptEdit.h"

#include <QAction>
#include <QHeaderView>
#include <QIcon>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QScrollBar>
#include <QResizeEvent>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <QtMath>

#include <algorithm>
#include <functional>

namespace tessel::views {

namespace {

constexpr int kStageRole = Qt::UserRole;
constexpr int kLoopRole = Qt::UserRole + 1;
/// The least width of the outline (and the pictures) beside the script: a
/// loop's name, its extent and its kind.
constexpr int kOutlineWidth = 200;
/// The script's lines where the outline is stacked under it: what it gets
/// first, and the fewest it keeps before the outline is folded away.
constexpr int kScriptLines = 12;
constexpr int kLeastScriptLines = 8;

} // namespace

ScheduleEditor::ScheduleEditor(Session* session, QWidget* parent)
    : QWidget(parent), document_(new ScheduleDocument(session, this)), edit_(new ScriptEdit), status_(new QLabel),
      outline_(new QTreeWidget), pictures_(new ScheduleGraphView(session->jobs())), outlineTabs_(new QTabWidget),
      history_(new QTableView), runSummary_(new QLabel), busy_(new QProgressBar) {
    setObjectName(QStringLiteral("ScheduleEditor"));

    undo_ = new QAction(QIcon::fromTheme(QStringLiteral("edit-undo")), tr("Undo"), this);
    undo_->setToolTip(tr("Undo (Ctrl+Z)"));
    undo_->setEnabled(false);
    redo_ = new QAction(QIcon::fromTheme(QStringLiteral("edit-redo")), tr("Redo"), this);
    redo_->setToolTip(tr("Redo (Ctrl+Shift+Z)"));
    redo_->setEnabled(false);
    run_ = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Run"), this);
    run_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    // Wherever the focus is in the window (the code view, the graph): Run
    // measures the schedule the editor shows. (Issue 21: it worked only with
    // the focus in the editor's dock.)
    run_->setShortcutContext(Qt::WindowShortcut);
    run_->setToolTip(tr("Measure this schedule and check it against the default schedule (Ctrl+R)"));
    cancel_ = new QAction(QIcon::fromTheme(QStringLiteral("process-stop")), tr("Cancel"), this);
    cancel_->setEnabled(false);
    addAction(run_);
    connect(undo_, &QAction::triggered, edit_, &QPlainTextEdit::undo);
    connect(redo_, &QAction::triggered, edit_, &QPlainTextEdit::redo);
    connect(edit_, &QPlainTextEdit::undoAvailable, undo_, &QAction::setEnabled);
    connect(edit_, &QPlainTextEdit::redoAvailable, redo_, &QAction::setEnabled);
    connect(run_, &QAction::triggered, document_, &ScheduleDocument::run);
    connect(cancel_, &QAction::triggered, document_, &ScheduleDocument::cancelRun);

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
    // The target the script is lowered for: CUDA lowers through the GPU
    // pipeline, whose verifier's errors show at the schedule line.
    toolbar->addSeparator();
    auto* targetLabel = new QLabel(tr("Target:"));
    targetLabel->setContentsMargins(4, 0, 4, 0);
    toolbar->addWidget(targetLabel);
    toolbar->addWidget(new TargetSelector(session, toolbar));

    edit_->setReadOnly(true);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(edit_, 1);
    leftLayout->addWidget(status_);
    // The last run's figures under the script, not with the history: the
    // outline and the history fold away in a short dock (arrange()).
    leftLayout->addWidget(runSummary_);
    runSummary_->setVisible(false);
    scriptPane_ = left;

    outline_->setColumnCount(3);
    outline_->setHeaderLabels({tr("Loop"), tr("Extent"), tr("Kind")});
    outline_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    outline_->setContextMenuPolicy(Qt::CustomContextMenu);
    outline_->setToolTip(tr("The loop nest of the schedule; right-click a loop to write a schedule line"));
    connect(outline_, &QWidget::customContextMenuRequested, this, &ScheduleEditor::showOutlineMenu);

    history_->setModel(document_->history());
    history_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    history_->setSelectionBehavior(QAbstractItemView::SelectRows);
    history_->verticalHeader()->setVisible(false);
    history_->horizontalHeader()->setSectionResizeMode(RunHistory::Change, QHeaderView::Stretch);
    history_->setToolTip(tr("Double-click a run to put its script back"));
    connect(history_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { restoreRun(index.row()); });
    connect(document_->history(), &QAbstractItemModel::rowsInserted, history_, &QTableView::scrollToBottom);
    runSummary_->setWordWrap(true);
    runSummary_->setToolTip(peakExplanation());

    auto* runs = new QWidget;
    auto* runsLayout = new QVBoxLayout(runs);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->addWidget(history_, 1);
    // TEDD's pictures beside the outline: the same schedule, drawn; a click
    // on a stage or loop goes to the script line that made it.
    outlineTabs_->setDocumentMode(true);
    outlineTabs_->addTab(outline_, tr("Loops"));
    outlineTabs_->addTab(pictures_, tr("Pictures"));
    outlineTabs_->setTabToolTip(1, tr("The schedule drawn as TVM's TEDD draws it: dataflow, schedule tree, itervar relations"));
    connect(pictures_, &ScheduleGraphView::lineActivated, this, [this](int line) {
        QTextCursor c(edit_->document()->findBlockByNumber(line - 1));
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        edit_->setTextCursor(c);
        edit_->revealLine(line);
    });
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(outlineTabs_);
    right->addWidget(runs);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    split->setCollapsible(1, true); // the outline folds away under a short script
    outerSplit_ = split;
    innerSplit_ = right;
    // A handle the user dragged keeps its place until the arrangement changes.
    connect(split, &QSplitter::splitterMoved, this, [this] { userSized_ = true; });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar);
    layout->addWidget(split, 1);

    // The widget shows the document; the document hears every edit.
    connect(edit_, &QPlainTextEdit::textChanged, this, [this] {
        if (!loading_) document_->edit(edit_->toPlainText());
    });
    connect(document_, &ScheduleDocument::loaded, this, &ScheduleEditor::onLoaded);
    connect(document_, &ScheduleDocument::statusChanged, this, &ScheduleEditor::showStatus);
    connect(document_, &ScheduleDocument::diagnosticChanged, this, &ScheduleEditor::showDiagnostic);
    connect(document_, &ScheduleDocument::outlineChanged, this, &ScheduleEditor::rebuildOutline);
    connect(document_, &ScheduleDocument::runFinished, this, &ScheduleEditor::showRun);
    connect(document_, &ScheduleDocument::busyChanged, this, [this](bool busy) {
        busy_->setVisible(busy);
        cancel_->setEnabled(busy);
        run_->setEnabled(!busy);
    });
    onLoaded();
    showStatus();
    document_->openCurrent();
}

ScheduleEditor::~ScheduleEditor() = default;

CodeEditor* ScheduleEditor::editor() const { return edit_; }

void ScheduleEditor::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange();
}

int ScheduleEditor::scriptHeightFor(int lines) const {
    // Under the script: its status line and the last run's figures, as laid out.
    const int under = scriptPane_->height() > edit_->height() ? scriptPane_->height() - edit_->height()
                                                              : status_->sizeHint().height();
    return 2 * edit_->frameWidth() + 2 * qCeil(edit_->document()->documentMargin()) +
           lines * edit_->fontMetrics().lineSpacing() + edit_->horizontalScrollBar()->sizeHint().height() + under;
}

void ScheduleEditor::arrange() {
    // The script wants kReadableColumns characters and kScriptLines lines.
    // Beside the outline it gets the columns where the outline keeps
    // kOutlineWidth; a narrower dock puts the outline and the run history side
    // by side below the script, which then gets its lines first, at least
    // kLeastScriptLines, and the outline what is left where that holds a few
    // of its rows; where it does not, the outline is folded away (its handle
    // at the bottom brings it back). Beside the outline in a narrow dock the
    // script would be cut to half its columns for the same lines. (Issue 21:
    // at 1366 x 768 the stacked outline took two fifths and left the script
    // 3 lines.)
    const int script = edit_->widthForColumns(kReadableColumns);
    const int handle = outerSplit_->handleWidth();
    const bool narrow = width() - handle - kOutlineWidth < script;
    const Qt::Orientation outer = narrow ? Qt::Vertical : Qt::Horizontal;
    if (outerSplit_->orientation() != outer) {
        outerSplit_->setOrientation(outer);
        innerSplit_->setOrientation(narrow ? Qt::Horizontal : Qt::Vertical);
        userSized_ = false;
    }
    if (userSized_) return;
    if (!narrow) {
        innerSplit_->setMinimumHeight(0);
        // The script's columns first, the rest to the outline.
        const int left = std::max(script, (width() - handle) * 3 / 5);
        outerSplit_->setSizes({left, width() - left - handle});
        return;
    }
    const int extent = outerSplit_->height() - handle;
    const int outlineLeast = outlineTabs_->tabBar()->sizeHint().height() + outline_->header()->sizeHint().height() +
                             2 * outline_->fontMetrics().height() + 12;
    int top = std::max(scriptHeightFor(kScriptLines), extent * 3 / 5);
    if (extent - top < outlineLeast) top = std::max(scriptHeightFor(kLeastScriptLines), extent - outlineLeast);
    if (extent - top < outlineLeast) top = extent; // folded: no room for a useful outline
    // Its rows, not its widgets' own minimum (which would fold it at once).
    innerSplit_->setMinimumHeight(outlineLeast);
    outerSplit_->setSizes({top, std::max(0, extent - top)});
}

// ---------------------------------------------------------------- showing the document

void ScheduleEditor::onLoaded() {
    const QString text = document_->text();
    loading_ = true;
    edit_->setPlainText(text); // a new document: its own undo history
    edit_->setReadOnly(!document_->isEditable());
    loading_ = false;
    // Open at the schedule: the computation above it is what one edits least.
    if (int at = text.left(text.indexOf(QLatin1String("create_schedule("))).count(QLatin1Char('\n'));
        text.contains(QLatin1String("create_schedule(")) && at > 0) {
        QTextCursor c(edit_->document()->findBlockByNumber(at));
        edit_->setTextCursor(c);
        edit_->revealLine(at + 1);
    }
}

void ScheduleEditor::showStatus() {
    status_->setText(document_->statusText());
    status_->setStyleSheet(document_->statusIsError() ? QStringLiteral("color: #dc322f;") : QString());
}

void ScheduleEditor::showDiagnostic() {
    const auto& d = document_->diagnostic();
    if (!d) {
        edit_->setMarks({});
        return;
    }
    // An error without a location marks the first line.
    edit_->setMarks({EditorMark{d->line > 0 ? d->line : 1, d->line > 0 ? d->column : 0, d->message, true}});
}

void ScheduleEditor::showRun(const RunRecord& r) {
    runSummary_->setVisible(true);
    // Its lines come out of the script's: the outline may have to fold.
    QTimer::singleShot(0, this, &ScheduleEditor::arrange);
    if (!r.measured) {
        runSummary_->setText(tr("%1 on %2: %3").arg(r.function, r.device, r.error));
        return;
    }
    const QString peak = r.peakShare > 0 ? tr(", %1% of peak").arg(r.peakShare * 100, 0, 'f', 1) : QString();
    const QString check = r.correct ? tr("correct (max abs error %1, max rel error %2)")
                                          .arg(r.maxAbsErr, 0, 'g', 2)
                                          .arg(r.maxRelErr, 0, 'g', 2)
                                    : tr("WRONG: %1").arg(r.error);
    runSummary_->setText(tr("%1 on %7: %2 ms, %3 GFLOP/s%4, %5 threads; %6")
                             .arg(r.function)
                             .arg(r.latencyMs, 0, 'f', 3)
                             .arg(r.gflops, 0, 'f', 1)
                             .arg(peak)
                             .arg(r.threads)
                             .arg(check, r.device));
}

void ScheduleEditor::replaceText(const QString& text) {
    QTextCursor c(edit_->document());
    c.beginEditBlock(); // one undoable edit
    c.select(QTextCursor::Document);
    c.insertText(text);
    c.endEditBlock();
    edit_->endUndoStep();
}

void ScheduleEditor::restoreRun(int row) {
    const auto list = document_->runs();
    if (row < 0 || row >= list.size() || list[row].script.isEmpty() || !document_->isEditable()) return;
    replaceText(list[row].script);
    document_->relowerNow();
}

// ---------------------------------------------------------------- outline

void ScheduleEditor::rebuildOutline() {
    const ScheduleOutline& model = document_->outline();
    edit_->setNames(model.names);
    pictures_->setArtifacts(document_->artifacts());
    outline_->clear();
    const auto& stages = model.stages;
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
    const ScheduleOutline& model = document_->outline();
    const int s = model.findStage(stage);
    if (s < 0) return nullptr;
    const int l = loop.isEmpty() ? -1 : model.findLoop(s, loop);
    if (!loop.isEmpty() && l < 0) return nullptr;
    for (QTreeWidgetItemIterator it(outline_); *it; ++it)
        if ((*it)->data(0, kStageRole).toInt() == s && (*it)->data(0, kLoopRole).toInt() == l) return *it;
    return nullptr;
}

void ScheduleEditor::showOutlineMenu(const QPoint& pos) {
    QTreeWidgetItem* item = outline_->itemAt(pos);
    if (!item) return;
    const bool editable = document_->isEditable();
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

bool ScheduleEditor::askActionArgs(int s, int l, LoopAction action, LoopActionArgs& args) {
    const ScheduleOutline model = document_->outline(); // a copy: a lowering may land while a dialog is open
    const OutlineStage& st = model.stages[s];
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
            for (int t = 0; t < model.stages.size(); ++t) {
                if (t == s) continue;
                const auto& ts = model.stages[t];
                for (int k = 0; k < ts.loops.size(); ++k) {
                    if (ts.loops[k].ref.isEmpty()) continue;
                    choices << QStringLiteral("%1 · %2").arg(ts.name, ts.loops[k].label());
                    targets.append({t, k});
                }
            }
            if (choices.isEmpty()) {
                document_->setStatus(tr("There is no other stage to compute '%1' at.").arg(st.name), true);
                return false;
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
    return ok;
}

QString ScheduleEditor::applyOutlineAction(QTreeWidgetItem* item, LoopAction action, const LoopActionArgs& given) {
    if (!item || !document_->isEditable()) {
        document_->setStatus(tr("This schedule cannot be edited."), true);
        return {};
    }
    const int s = item->data(0, kStageRole).toInt(), l = item->data(0, kLoopRole).toInt();
    if (s < 0 || s >= document_->outline().stages.size()) return {};
    LoopActionArgs args = given;
    if (!askActionArgs(s, l, action, args)) return {};
    const ScheduleOutline& model = document_->outline();
    if (s >= model.stages.size()) return {};
    const QString text = edit_->toPlainText();
    QSet<QString> taken = identifiersIn(text);
    for (const auto& n : model.names) taken.insert(n);
    QString error;
    const QString line = actionLine(model, s, l, action, args, taken, &error);
    if (line.isEmpty()) {
        document_->setStatus(tr("Cannot write that line: %1").arg(error), true);
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
    edit_->endUndoStep(); // typing after it is a step of its own
    QTextCursor shown(edit_->document()->findBlockByNumber(qMin(at, edit_->document()->blockCount() - 1)));
    shown.movePosition(QTextCursor::EndOfBlock);
    edit_->setTextCursor(shown);
    edit_->revealLine(at + 1);
    document_->relowerNow();
    return line;
}

} // namespace tessel::views
