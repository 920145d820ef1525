#include "stages/StageView.h"

#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "graph/passes/GraphPassRegistry.h"
#include "common/LineDiff.h"
#include "lower/LoweringSteps.h"
#include "tir/IRPrinter.h"
#include "tir/passes/PassRegistry.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QResizeEvent>
#include <QSplitter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tessel::views {

namespace {

const char* const kDiffJob = "stage-view-diff";
constexpr int kEntryRole = Qt::UserRole + 1;

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

/// Colours the rows of a diff side: changed rows in `changed`, filler rows in
/// StageView::fillerColor(), the others plain. Block backgrounds rather than
/// the editor's line colours: a diff can colour thousands of rows, and block
/// formats cost a fraction of as many extra selections.
void paintRows(CodeEditor* editor, const std::vector<SideBySide::RowKind>& kinds,
               const QColor& changed) {
    QTextDocument* doc = editor->document();
    doc->setUndoRedoEnabled(false);
    QTextCursor edit(doc);
    edit.beginEditBlock();
    size_t row = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next(), ++row) {
        SideBySide::RowKind kind = row < kinds.size() ? kinds[row] : SideBySide::Same;
        QTextBlockFormat f = b.blockFormat();
        bool plain = kind == SideBySide::Same;
        QColor want = kind == SideBySide::Changed ? changed : StageView::fillerColor();
        if (plain ? !f.hasProperty(QTextFormat::BackgroundBrush) : f.background().color() != want) {
            if (plain)
                f.clearBackground();
            else
                f.setBackground(want);
            QTextCursor(b).setBlockFormat(f);
        }
    }
    edit.endEditBlock();
}

} // namespace

/// One pass in the list: its documentation and where its texts are.
struct StageView::Entry {
    Group group = GraphPasses;
    QString pass;
    QString summary, description;
    double seconds = -1; ///< unknown when negative
    bool changed = false;
    /// The first stage of its group (the imported graph, the TIR straight
    /// from the schedule): nothing to compare with.
    bool first = false;
    /// The title over the left side ("Before: the IR after simplify"); for a
    /// first stage, what came before it (empty: nothing).
    QString beforeTitle;
    Language language = Language::Plain;
    /// The texts: strings owned by the model or the artifacts, or (TIR
    /// straight from the schedule) a function printed on the worker.
    const std::string* before = nullptr;
    const std::string* after = nullptr;
    const driver::LoweredFunction* scheduledBefore = nullptr;
    const driver::LoweredFunction* scheduledAfter = nullptr;
};

StageView::StageView(Session* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split_ = split;
    layout->addWidget(split);

    auto* left = new QWidget(split);
    auto* lv = new QVBoxLayout(left);
    lv->setContentsMargins(0, 0, 0, 0);
    tree_ = new QTreeWidget(left);
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({tr("Pass"), tr("Time"), tr("Changed")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(false);
    // Wide enough for the longest pass name with its time and mark.
    // (fitListToColumns widens it to the passes it lists.)
    listLeastWidth_ = fontMetrics().horizontalAdvance(QStringLiteral("common-subexpression-elimination")) +
                      fontMetrics().horizontalAdvance(QStringLiteral("000.00 ms  Changed")) + 40;
    tree_->setMinimumWidth(listLeastWidth_);
    lv->addWidget(tree_, 1);
    hideUnchanged_ = new QCheckBox(tr("Hide passes that changed nothing"), left);
    lv->addWidget(hideUnchanged_);
    split->addWidget(left);

    // Right: the pass's documentation above the diff, in a splitter so a
    // long description never squeezes the diff.
    auto* right = new QSplitter(Qt::Vertical, split);
    right->setChildrenCollapsible(false);
    auto* docs = new QScrollArea(right);
    docs->setWidgetResizable(true);
    docs->setFrameShape(QFrame::NoFrame);
    description_ = new QLabel(docs);
    description_->setWordWrap(true);
    description_->setTextFormat(Qt::RichText);
    description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    description_->setMargin(6);
    description_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    docs->setWidget(description_);
    right->addWidget(docs);

    auto* diffPane = new QWidget(right);
    auto* rv = new QVBoxLayout(diffPane);
    rv->setContentsMargins(0, 0, 0, 0);
    auto* titles = new QHBoxLayout;
    titles->setContentsMargins(6, 2, 6, 2);
    beforeTitle_ = new QLabel(diffPane);
    afterTitle_ = new QLabel(diffPane);
    stats_ = new QLabel(diffPane);
    stats_->setEnabled(false);
    titles->addWidget(beforeTitle_, 1);
    titles->addWidget(stats_);
    titles->addWidget(afterTitle_, 1);
    rv->addLayout(titles);

    auto* sides = new QSplitter(Qt::Horizontal, diffPane);
    before_ = new CodeEditor(sides);
    after_ = new CodeEditor(sides);
    sides->addWidget(before_);
    sides->addWidget(after_);
    rv->addWidget(sides, 1);
    right->addWidget(diffPane);
    right->setStretchFactor(0, 0);
    right->setStretchFactor(1, 1);
    right->setSizes({fontMetrics().height() * 5, 10 * fontMetrics().height() * 5});
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    // Both sides scroll together: rows are aligned, so equal positions match.
    auto sync = [this](QScrollBar* from, QScrollBar* to) {
        connect(from, &QScrollBar::valueChanged, this, [this, to](int v) {
            if (syncing_) return;
            syncing_ = true;
            to->setValue(v);
            syncing_ = false;
        });
    };
    sync(before_->verticalScrollBar(), after_->verticalScrollBar());
    sync(after_->verticalScrollBar(), before_->verticalScrollBar());
    sync(before_->horizontalScrollBar(), after_->horizontalScrollBar());
    sync(after_->horizontalScrollBar(), before_->horizontalScrollBar());

    connect(hideUnchanged_, &QCheckBox::toggled, this, [this] { applyHideUnchanged(); });
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this] { showSelected(); });
    connect(session_, &Session::modelChanged, this, &StageView::rebuild);
    connect(session_, &Session::scriptChanged, this, &StageView::rebuild);
    connect(session_, &Session::cleared, this, &StageView::rebuild);
    connect(session_, &Session::currentFunctionChanged, this, &StageView::rebuild);
    connect(session_, &Session::artifactsChanged, this, &StageView::rebuild);
    rebuild();
}

StageView::~StageView() = default;

QColor StageView::removedColor() {
    return QColor(255, 215, 215);
}
QColor StageView::addedColor() {
    return QColor(210, 245, 210);
}
QColor StageView::fillerColor() {
    return QColor(236, 236, 236);
}

QTreeWidgetItem* StageView::groupItem(Group group) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* g = tree_->topLevelItem(i);
        if (g->data(0, kEntryRole + 1).toInt() == int(group)) return g;
    }
    return nullptr;
}

void StageView::rebuild() {
    // Keep the selection across rebuilds: same group, same row.
    int selGroup = -1, selRow = -1;
    if (QTreeWidgetItem* cur = tree_->currentItem(); cur && cur->parent()) {
        selGroup = cur->parent()->data(0, kEntryRole + 1).toInt();
        selRow = cur->parent()->indexOfChild(cur);
    }
    session_->jobs()->cancel(QString::fromLatin1(kDiffJob));
    {
        QSignalBlocker block(tree_);
        tree_->clear();
    }
    entries_.clear();
    model_ = session_->model();
    artifacts_ = session_->artifacts();
    const QString function = session_->currentFunction();

    if (model_) addGraphGroup(*model_);
    if (model_) addLoweringGroup(*model_);
    // The selected function's TIR: the artifacts when they are this function's
    // (they follow schedule edits), else the model's trace.
    const driver::LoweredFunction* lowered = nullptr;
    QString name = function;
    if (artifacts_ && (!model_ || function.isEmpty() || fromStd(artifacts_->name) == function)) {
        lowered = &artifacts_->lowered;
        name = fromStd(artifacts_->name);
    } else if (model_ && !function.isEmpty()) {
        if (auto* f = model_->findFunction(function.toStdString())) lowered = &f->lowered;
    }
    if (lowered && (lowered->scheduled.defined() || !lowered->snapshots.empty()))
        addTirGroup(*lowered, name);
    if (artifacts_ && lowered == &artifacts_->lowered && !artifacts_->build.llvmIR.empty())
        addLlvmGroup(*artifacts_);
    tree_->expandAll();
    applyHideUnchanged();
    fitListToColumns();

    before_->setCode({});
    after_->setCode({});
    paintRows(before_, {}, removedColor());
    paintRows(after_, {}, addedColor());
    beforeTitle_->clear();
    afterTitle_->clear();
    stats_->clear();
    if (tree_->topLevelItemCount() == 0 && session_->kind() == Session::Kind::Script) {
        description_->setText(tr("The script's passes appear once it is compiled."));
    } else if (tree_->topLevelItemCount() == 0) {
        description_->setText(
            tr("Open a model to see its graph passes, or a .te script to see its TIR passes."));
    } else if (!lowered && model_) {
        description_->setText(tr("Select a fused function in the graph to see its TIR passes."));
    } else {
        description_->setText(tr("Select a pass to see the IR before and after it."));
    }
    if (selGroup >= 0)
        if (QTreeWidgetItem* g = groupItem(Group(selGroup)); g && selRow < g->childCount())
            tree_->setCurrentItem(g->child(selRow));
}

QTreeWidgetItem* StageView::addGroup(Group group, const QString& title) {
    auto* item = new QTreeWidgetItem(tree_, {title});
    item->setData(0, kEntryRole + 1, int(group));
    item->setFlags(Qt::ItemIsEnabled);
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setFirstColumnSpanned(true);
    return item;
}

void StageView::addEntry(QTreeWidgetItem* group, Entry entry) {
    auto* item = new QTreeWidgetItem(group);
    item->setText(0, entry.pass);
    item->setData(0, kEntryRole, int(entries_.size()));
    if (entry.seconds >= 0) item->setText(1, tr("%1 ms").arg(entry.seconds * 1e3, 0, 'f', 2));
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    if (entry.changed && !entry.first) {
        item->setText(2, QStringLiteral("\u25CF"));
        item->setToolTip(2, tr("This pass changed the IR"));
    } else if (!entry.first) {
        item->setForeground(0, palette().brush(QPalette::Disabled, QPalette::Text));
        item->setToolTip(2, tr("This pass changed nothing"));
    }
    item->setTextAlignment(2, Qt::AlignCenter);
    QString tip = entry.summary;
    if (!entry.description.isEmpty()) tip += QStringLiteral("\n\n") + entry.description;
    item->setToolTip(0, tip);
    entries_.push_back(std::move(entry));
}

void StageView::addGraphGroup(const driver::CompiledModel& model) {
    if (model.graphStages.empty()) return;
    QTreeWidgetItem* group = addGroup(GraphPasses, tr("Graph passes"));
    for (size_t i = 0; i < model.graphStages.size(); ++i) {
        const auto& st = model.graphStages[i];
        Entry e;
        e.group = GraphPasses;
        e.pass = fromStd(st.pass);
        e.seconds = i == 0 ? -1 : st.seconds;
        e.changed = st.changed;
        e.first = i == 0;
        e.language = Language::Graph;
        e.after = &st.text.text;
        if (i == 0) {
            e.summary = tr("The graph as imported, before any pass.");
        } else {
            e.before = &model.graphStages[i - 1].text.text;
            e.beforeTitle =
                tr("Before: the IR after %1").arg(fromStd(model.graphStages[i - 1].pass));
            if (auto* info = graph::findGraphPass(st.pass)) {
                e.summary = fromStd(info->summary);
                e.description = fromStd(info->description);
            }
        }
        addEntry(group, std::move(e));
    }
}

void StageView::addLoweringGroup(const driver::CompiledModel& model) {
    if (model.lowerStages.empty()) return;
    QTreeWidgetItem* group = addGroup(LoweringSteps, tr("Lowering"));
    for (const auto& st : model.lowerStages) {
        Entry e;
        e.group = LoweringSteps;
        e.pass = fromStd(st.pass);
        e.seconds = st.seconds;
        e.changed = st.changed;
        // Each step makes a new form (TE functions, an executor plan), shown whole.
        e.first = true;
        e.language = st.pass == lower::kLowerFusedGroups ? Language::Te : Language::Plain;
        e.after = &st.text.text;
        e.beforeTitle = tr("Before: the fused graph (the last graph pass)");
        if (auto* info = lower::findLoweringStep(st.pass)) {
            e.summary = fromStd(info->summary);
            e.description = fromStd(info->description);
        }
        addEntry(group, std::move(e));
    }
}

void StageView::addTirGroup(const driver::LoweredFunction& f, const QString& function) {
    QTreeWidgetItem* group = addGroup(TirPasses, tr("TIR passes: %1").arg(function));
    Entry start;
    start.group = TirPasses;
    start.pass = QStringLiteral("schedule");
    start.first = true;
    start.language = Language::Tir;
    start.summary = tr("The TIR straight from the schedule, before any pass.");
    start.description = tr("Lowering the schedule gives loop nests over N-d buffers, with the "
                           "schedule's annotations on the loops; the passes below turn it into "
                           "what code generation compiles.");
    start.scheduledAfter = &f;
    if (f.scheduled.defined()) addEntry(group, std::move(start));
    for (size_t i = 0; i < f.snapshots.size(); ++i) {
        const auto& s = f.snapshots[i];
        Entry e;
        e.group = TirPasses;
        e.pass = fromStd(s.pass);
        e.seconds = s.seconds;
        e.changed = s.changed;
        e.language = Language::Tir;
        e.after = &s.text.text;
        if (i > 0) {
            e.before = &f.snapshots[i - 1].text.text;
            e.beforeTitle = tr("Before: the IR after %1").arg(fromStd(f.snapshots[i - 1].pass));
        } else if (f.scheduled.defined()) {
            e.scheduledBefore = &f;
            e.beforeTitle = tr("Before: the TIR straight from the schedule");
        } else {
            e.first = true;
        }
        if (auto* info = tir::findTirPass(s.pass)) {
            e.summary = fromStd(info->summary);
            e.description = fromStd(info->description);
        }
        addEntry(group, std::move(e));
    }
}

void StageView::addLlvmGroup(const driver::FunctionArtifacts& a) {
    QTreeWidgetItem* group = addGroup(LlvmPasses, tr("LLVM optimisation"));
    Entry e;
    e.group = LlvmPasses;
    e.pass = QStringLiteral("llvm-opt");
    e.changed = a.build.llvmIR != a.build.llvmIROptimized;
    e.language = Language::LlvmIr;
    e.before = &a.build.llvmIR;
    e.after = &a.build.llvmIROptimized;
    e.beforeTitle = tr("Before: the LLVM IR as generated");
    e.summary = tr("LLVM's optimisation pipeline on the IR generated from the TIR.");
    e.description = tr("Instruction combining, loop unrolling and vectorisation, inlining and "
                       "the rest of LLVM's pipeline at the chosen level. Debug locations "
                       "survive it, so the code view still links each line to the TIR.");
    addEntry(group, std::move(e));
}

void StageView::applyHideUnchanged() {
    bool hide = hideUnchanged_->isChecked();
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree_->topLevelItem(g);
        for (int c = 0; c < group->childCount(); ++c) {
            const Entry& e = entries_[size_t(group->child(c)->data(0, kEntryRole).toInt())];
            group->child(c)->setHidden(hide && !e.changed && !e.first);
        }
    }
}

void StageView::setHideUnchanged(bool hide) {
    hideUnchanged_->setChecked(hide);
}

bool StageView::hideUnchanged() const {
    return hideUnchanged_->isChecked();
}

int StageView::visiblePassCount() const {
    int n = 0;
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree_->topLevelItem(g);
        for (int c = 0; c < group->childCount(); ++c)
            n += !group->child(c)->isHidden();
    }
    return n;
}

bool StageView::selectPass(Group group, const QString& name, int occurrence) {
    QTreeWidgetItem* g = groupItem(group);
    if (!g) return false;
    for (int c = 0; c < g->childCount(); ++c)
        if (g->child(c)->text(0) == name && occurrence-- == 0) {
            tree_->setCurrentItem(g->child(c));
            return true;
        }
    return false;
}

QString StageView::selectedPass() const {
    QTreeWidgetItem* cur = tree_->currentItem();
    return cur && cur->parent() ? cur->text(0) : QString();
}

void StageView::showSelected() {
    QTreeWidgetItem* cur = tree_->currentItem();
    if (!cur || !cur->parent()) return;
    int index = cur->data(0, kEntryRole).toInt();
    const Entry& e = entries_[size_t(index)];

    QString html = QStringLiteral("<b>%1</b>").arg(e.pass.toHtmlEscaped());
    if (!e.summary.isEmpty()) html += QStringLiteral(": ") + e.summary.toHtmlEscaped();
    QStringList facts;
    if (e.seconds >= 0) facts << tr("%1 ms").arg(e.seconds * 1e3, 0, 'f', 2);
    if (!e.first) facts << (e.changed ? tr("changed the IR") : tr("changed nothing"));
    if (!facts.isEmpty())
        html += QStringLiteral(" <i>(") + facts.join(QStringLiteral(", ")).toHtmlEscaped() +
                QStringLiteral(")</i>");
    if (!e.description.isEmpty()) html += QStringLiteral("<br>") + e.description.toHtmlEscaped();
    description_->setText(html);
    before_->setLanguage(e.language);
    after_->setLanguage(e.language);

    // The texts stay alive with the model and artifacts captured here.
    auto model = model_;
    auto artifacts = artifacts_;
    Entry entry = e;
    struct Result {
        SideBySide diff;
        bool hasBefore = false;
    };
    session_->jobs()->run<std::shared_ptr<Result>>(
        QString::fromLatin1(kDiffJob), tr("Comparing the IR before and after %1").arg(e.pass),
        [entry, model, artifacts](const CancelToken&) {
            auto text = [](const std::string* s, const driver::LoweredFunction* f) {
                if (s) return *s;
                return f && f->scheduled.defined() ? tir::toString(f->scheduled) : std::string();
            };
            auto r = std::make_shared<Result>();
            std::string after = text(entry.after, entry.scheduledAfter);
            r->hasBefore = !entry.first;
            r->diff = r->hasBefore ? sideBySide(text(entry.before, entry.scheduledBefore), after)
                                   : sideBySide(after, after);
            return r;
        },
        this,
        [this, index](std::shared_ptr<Result> r) {
            QTreeWidgetItem* now = tree_->currentItem();
            if (!now || !now->parent() || now->data(0, kEntryRole).toInt() != index) return;
            showDiff(index, r->diff, r->hasBefore);
        },
        [this](const QString& error) {
            session_->report(tr("Could not compare the IR: %1").arg(error), true);
        });
}

void StageView::showDiff(int index, const SideBySide& diff, bool hasBefore) {
    const Entry& e = entries_[size_t(index)];
    if (hasBefore) {
        before_->setCode({});
        before_->setCode(QString::fromStdString(diff.left));
        before_->setLineNumbers(QVector<int>(diff.leftLine.begin(), diff.leftLine.end()));
        beforeTitle_->setText(e.beforeTitle);
        stats_->setText(diff.identical()
                            ? tr("no change")
                            : tr("%1 removed, %2 added").arg(diff.removed).arg(diff.added));
    } else {
        before_->setCode({});
        before_->setLineNumbers({});
        beforeTitle_->setText(e.beforeTitle.isEmpty() ? tr("Before: nothing, this is the first stage")
                                                      : e.beforeTitle);
        stats_->clear();
    }
    // A new document, not the old one kept because its text is equal (the
    // pass before an unchanged one prints the same): its rows kept the
    // previous diff's colours.
    after_->setCode({});
    after_->setCode(QString::fromStdString(diff.right));
    // Original line numbers; filler rows stay unnumbered.
    after_->setLineNumbers(hasBefore ? QVector<int>(diff.rightLine.begin(), diff.rightLine.end()) : QVector<int>{});
    afterTitle_->setText(tr("After: %1").arg(e.pass));
    paintRows(before_, hasBefore ? diff.leftKind : std::vector<SideBySide::RowKind>{},
              removedColor());
    paintRows(after_, hasBefore ? diff.rightKind : std::vector<SideBySide::RowKind>{},
              addedColor());
    // Start at the first change, with both sides on the same rows.
    int firstChange = 0;
    for (int r = 0; r < diff.rows() && hasBefore && !firstChange; ++r)
        if (diff.leftKind[size_t(r)] != SideBySide::Same) firstChange = r + 1;
    if (firstChange) {
        before_->revealLine(firstChange);
    } else {
        before_->verticalScrollBar()->setValue(0);
    }
    after_->verticalScrollBar()->setValue(before_->verticalScrollBar()->value());
    emit diffShown();
}

void StageView::fitListToColumns() {
    // Every column shown whole (issue 21: at 1920 x 1080 "Changed" was cut):
    // the list is as wide as its columns are for the passes it lists (the
    // longest name at its indentation, the time, the mark) and its scroll bar.
    QHeaderView* header = tree_->header();
    int columns = 0;
    for (int c = 0; c < header->count(); ++c)
        columns += std::max(header->sectionSizeHint(c), static_cast<QAbstractItemView*>(tree_)->sizeHintForColumn(c));
    const int width = columns + 2 * tree_->frameWidth() + tree_->verticalScrollBar()->sizeHint().width();
    const int least = std::max(listLeastWidth_, width);
    if (least == tree_->minimumWidth()) return;
    tree_->setMinimumWidth(least);
    arrange();
}

void StageView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange();
}

void StageView::arrange() {
    // The diff's two panes want kReadableColumns each: where the pass list
    // beside them would cut them and there is height for both, the list goes
    // above the diff (the schedule editor does the same with its outline).
    const int handle = split_->handleWidth() * 3;
    const int beside = tree_->minimumWidth() + 2 * before_->widthForColumns(kReadableColumns) + handle;
    const int lines = fontMetrics().lineSpacing();
    const bool tall = height() >= 10 * lines + 14 * lines; // the diff's lines and a list of passes above
    const Qt::Orientation o = width() < beside && tall ? Qt::Vertical : Qt::Horizontal;
    // (Beside the diff, the splitter keeps the list at its minimum width itself.)
    if (split_->orientation() == o) return;
    split_->setOrientation(o);
    const int extent = o == Qt::Vertical ? height() : width();
    split_->setSizes({extent * (o == Qt::Vertical ? 35 : 25) / 100, extent * (o == Qt::Vertical ? 65 : 75) / 100});
}

} // namespace tessel::views
