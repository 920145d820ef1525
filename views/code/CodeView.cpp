#include "code/CodeView.h"

#include "code/LineLinks.h"
#include "code/SassDisassembly.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "common/TargetChoice.h"
#include "driver/FunctionArtifacts.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace tessel::views {

namespace {

const char* const kLinksJob = "code-view-links";
const char* const kSassJob = "code-view-sass";

QString paneTitle(int pane, bool gpu = false) {
    switch (pane) {
    case CodeView::Te:
        return CodeView::tr("TE script");
    case CodeView::Tir:
        return CodeView::tr("TIR");
    case CodeView::LlvmIr:
        return CodeView::tr("LLVM IR");
    case CodeView::Assembly:
        return gpu ? CodeView::tr("PTX") : CodeView::tr("Assembly");
    default:
        return gpu ? CodeView::tr("CUDA C") : CodeView::tr("C");
    }
}

Language paneLanguage(int pane) {
    switch (pane) {
    case CodeView::Te:
        return Language::Te;
    case CodeView::Tir:
        return Language::Tir;
    case CodeView::LlvmIr:
        return Language::LlvmIr;
    case CodeView::Assembly:
        return Language::Assembly;
    default:
        return Language::C;
    }
}

/// Which pane of a group is in front when none was before: the TIR (the hub
/// of the links), then the assembly, the script, the LLVM IR, the C.
constexpr std::array<int, CodeView::PaneCount> kFrontPriority = {CodeView::Tir, CodeView::Assembly, CodeView::Te,
                                                                 CodeView::LlvmIr, CodeView::C};

int frontRank(int pane) {
    return int(std::find(kFrontPriority.begin(), kFrontPriority.end(), pane) - kFrontPriority.begin());
}

/// `panes` (in order) split into `groups` runs; the later groups take the
/// extra panes, so the script keeps a group of its own longest.
std::vector<std::vector<int>> splitPanes(const std::vector<int>& panes, int groups) {
    std::vector<std::vector<int>> out;
    const int n = int(panes.size());
    if (n == 0 || groups <= 0) return out;
    groups = std::min(groups, n);
    const int base = n / groups, extra = n % groups;
    int at = 0;
    for (int g = 0; g < groups; ++g) {
        const int size = base + (g >= groups - extra ? 1 : 0);
        out.emplace_back(panes.begin() + at, panes.begin() + at + size);
        at += size;
    }
    return out;
}

/// The hover variant of a link colour: paler, so clicked links stand out.
QColor lightVariant(const QColor& c) {
    float h, s, l, a;
    c.getHslF(&h, &s, &l, &a);
    return QColor::fromHslF(h, s * 0.6f, std::min(0.95f, l + (1.0f - l) * 0.5f));
}

} // namespace

CodeView::CodeView(Session* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("CodeView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* bar = new QToolBar(this);
    bar->setIconSize(QSize(16, 16));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* panesLabel = new QLabel(tr("Panes:"), bar);
    panesLabel->setContentsMargins(6, 0, 4, 0);
    bar->addWidget(panesLabel);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(bar, 1);
    layout->addLayout(row);
    // What the code is for, beside what is shown of it: choosing CUDA here
    // turns the assembly into PTX (and SASS).
    auto* targetBar = new QToolBar(this);
    targetBar->setIconSize(QSize(16, 16));
    auto* targetLabel = new QLabel(tr("Target:"), targetBar);
    targetLabel->setContentsMargins(6, 0, 4, 0);
    targetBar->addWidget(targetLabel);
    targetBar->addWidget(new TargetSelector(session_, targetBar));
    row->addWidget(targetBar);

    stack_ = new QStackedWidget(this);
    layout->addWidget(stack_, 1);
    placeholder_ =
        new QLabel(tr("Select a fused function in the graph, or open a .te script."), stack_);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setEnabled(false);
    stack_->addWidget(placeholder_);

    splitter_ = new QSplitter(Qt::Horizontal, stack_);
    splitter_->setChildrenCollapsible(false);
    stack_->addWidget(splitter_);
    connect(splitter_, &QSplitter::splitterMoved, this, [this] { userSized_ = true; });

    for (int p = 0; p < PaneCount; ++p) {
        // Each pane is a frame (title bar over the editor) that arrangePanes()
        // places as a tab of one of the groups.
        auto* frame = new QWidget(this);
        frame->hide();
        auto* v = new QVBoxLayout(frame);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(0);
        auto* title = new QWidget(frame);
        title->setAutoFillBackground(true);
        title->setBackgroundRole(QPalette::AlternateBase);
        titles_[size_t(p)] = title;
        auto* h = new QHBoxLayout(title);
        h->setContentsMargins(6, 2, 6, 2);
        auto* name = new QLabel(paneTitle(p), title);
        QFont f = name->font();
        f.setBold(true);
        name->setFont(f);
        h->addWidget(name);
        names_[size_t(p)] = name;
        auto* note = new QLabel(title);
        note->setEnabled(false);
        h->addWidget(note);
        h->addStretch(1);
        notes_[size_t(p)] = note;
        if (p == LlvmIr) {
            llvmMode_ = new QComboBox(title);
            llvmMode_->setObjectName(QStringLiteral("LlvmMode"));
            llvmMode_->addItem(tr("Before optimisation"));
            llvmMode_->addItem(tr("Optimised"));
            llvmMode_->setCurrentIndex(1);
            llvmMode_->setToolTip(
                tr("Show the LLVM IR as generated from the TIR, or after LLVM's optimisation"));
            connect(llvmMode_, &QComboBox::currentIndexChanged, this,
                    [this](int index) { setLlvmOptimized(index == 1); });
            h->addWidget(llvmMode_);
        }
        if (p == Assembly) {
            asmMode_ = new QComboBox(title);
            asmMode_->setObjectName(QStringLiteral("AssemblyMode"));
            asmMode_->addItem(tr("PTX"));
            asmMode_->addItem(tr("SASS"));
            asmMode_->setToolTip(tr("Show the PTX LLVM wrote, or the SASS the GPU runs (ptxas and nvdisasm "
                                    "of the CUDA toolkit)"));
            asmMode_->setVisible(false);
            connect(asmMode_, &QComboBox::currentIndexChanged, this,
                    [this](int index) { setSassShown(index == 1); });
            h->addWidget(asmMode_);
        }
        v->addWidget(title);

        auto* editor = new CodeEditor(frame);
        editor->setLanguage(paneLanguage(p));
        editor->installEventFilter(this);
        v->addWidget(editor, 1);
        editors_[size_t(p)] = editor;
        frames_[size_t(p)] = frame;
        connect(editor, &CodeEditor::lineClicked, this,
                [this, p](int line) { activateLine(Pane(p), line); });
        connect(editor, &CodeEditor::lineHovered, this,
                [this, p](int line) { previewLine(Pane(p), line); });

        auto* action = bar->addAction(paneTitle(p));
        action->setCheckable(true);
        action->setChecked(true);
        action->setToolTip(tr("Show or hide the %1 pane").arg(paneTitle(p)));
        connect(action, &QAction::toggled, this, [this, p](bool on) {
            arrangePanes();
            if (on) raisePane(Pane(p));
        });
        actions_[size_t(p)] = action;
    }
    {
        // The height of a group's tab bar, for deciding whether two groups
        // fit one above the other.
        QTabBar probe;
        probe.setDocumentMode(true);
        probe.addTab(paneTitle(Tir));
        tabBarHeight_ = probe.sizeHint().height();
    }
    arrangePanes();
    connect(session_, &Session::artifactsChanged, this, &CodeView::showArtifacts);
    showArtifacts();
}

CodeView::~CodeView() = default;

CodeEditor* CodeView::pane(Pane pane) const {
    return editors_[size_t(pane)];
}

QAction* CodeView::paneAction(Pane pane) const {
    return actions_[size_t(pane)];
}

void CodeView::setPaneVisible(Pane pane, bool visible) {
    actions_[size_t(pane)]->setChecked(visible);
}

// ---------------------------------------------------------------- arrangement

Qt::Orientation CodeView::groupOrientation() const {
    return splitter_->orientation();
}

QList<CodeView::Pane> CodeView::groupPanes(int group) const {
    QList<Pane> out;
    if (group >= 0 && group < int(arrangement_.size()))
        for (int p : arrangement_[size_t(group)]) out << Pane(p);
    return out;
}

bool CodeView::isPaneInFront(Pane pane) const {
    for (auto* g : groups_)
        if (g->currentWidget() == frames_[size_t(pane)]) return true;
    return false;
}

void CodeView::raisePane(Pane pane) {
    if (!isPaneVisible(pane)) setPaneVisible(pane, true); // arranges, then raises
    for (auto* g : groups_)
        if (int i = g->indexOf(frames_[size_t(pane)]); i >= 0) g->setCurrentIndex(i);
}

int CodeView::paneOf(const QWidget* widget) const {
    for (; widget && widget != this; widget = widget->parentWidget())
        for (int p = 0; p < PaneCount; ++p)
            if (widget == frames_[size_t(p)]) return p;
    return -1;
}

CodeView::Pane CodeView::currentPane() const {
    const int focused = paneOf(QApplication::focusWidget());
    return Pane(focused >= 0 ? focused : currentPane_);
}

void CodeView::maximisePane(Pane pane) {
    if (!isPaneVisible(pane)) setPaneVisible(pane, true);
    maximised_ = int(pane);
    currentPane_ = int(pane);
    arrangePanes();
    raisePane(pane);
}

void CodeView::restorePanes() {
    if (maximised_ < 0) return;
    maximised_ = -1;
    arrangePanes();
}

int CodeView::leastWidth() const {
    int width = 0;
    for (int p = 0; p < PaneCount; ++p)
        if (isPaneVisible(Pane(p)))
            width = std::max(width, editors_[size_t(p)]->widthForColumns(kMinimumColumns));
    // The view's own frame around its groups (nothing now, but it may grow one).
    return width + (this->width() - stack_->width());
}

std::pair<int, Qt::Orientation> CodeView::groupsThatFit(int panes) const {
    if (panes <= 1) return {panes, Qt::Horizontal};
    // The widest any shown pane needs for its columns, and the height of a
    // group of kMinimumLines lines under its tab bar and title.
    int width = 0, height = 0;
    for (int p = 0; p < PaneCount; ++p) {
        if (!isPaneVisible(Pane(p))) continue;
        const CodeEditor* e = editors_[size_t(p)];
        width = std::max(width, e->widthForColumns(kMinimumColumns));
        height = std::max(height, tabBarHeight_ + titles_[size_t(p)]->sizeHint().height() + 2 * e->frameWidth() +
                                      e->horizontalScrollBar()->sizeHint().height() +
                                      kMinimumLines * e->fontMetrics().lineSpacing());
    }
    const int handle = splitter_->handleWidth();
    const QSize room = stack_->size();
    const int across = std::max(1, (room.width() + handle) / (width + handle));
    if (across >= 2) return {std::min(across, panes), Qt::Horizontal};
    const int down = std::clamp((room.height() + handle) / (height + handle), 1, 2);
    return {std::min(down, panes), Qt::Vertical};
}

void CodeView::arrangePanes() {
    std::vector<int> shown;
    for (int p = 0; p < PaneCount; ++p)
        if (isPaneVisible(Pane(p))) shown.push_back(p);
    if (maximised_ >= 0 && !isPaneVisible(Pane(maximised_))) maximised_ = -1;
    auto [count, orientation] = maximised_ >= 0 ? std::pair{1, Qt::Horizontal} : groupsThatFit(int(shown.size()));
    std::vector<std::vector<int>> wanted = splitPanes(shown, count);
    if (wanted == arrangement_ && orientation == splitter_->orientation()) return;

    // What was in front stays in front where it can; focus stays where it was.
    std::vector<int> front;
    for (int p = 0; p < PaneCount; ++p)
        if (isPaneInFront(Pane(p))) front.push_back(p);
    QWidget* focus = QApplication::focusWidget();
    if (paneOf(focus) < 0) focus = nullptr;

    for (auto* g : groups_) {
        while (g->count() > 0) {
            QWidget* page = g->widget(0);
            g->removeTab(0);
            page->hide();
            page->setParent(this);
        }
        delete g;
    }
    groups_.clear();
    splitter_->setOrientation(orientation);
    for (const auto& members : wanted) {
        auto* g = new QTabWidget(splitter_);
        g->setDocumentMode(true);
        g->setTabBarAutoHide(true); // a group of one pane shows only the pane's own title
        int best = -1, bestRank = 1 << 20;
        for (int p : members) {
            const int i = g->addTab(frames_[size_t(p)], paneTitle(p, gpu_));
            const bool wasFront = std::find(front.begin(), front.end(), p) != front.end();
            const int rank = (p == maximised_ ? -2 : wasFront ? -1 : 0) * PaneCount + frontRank(p);
            if (rank < bestRank) {
                bestRank = rank;
                best = i;
            }
        }
        g->setCurrentIndex(best);
        splitter_->addWidget(g);
        groups_.push_back(g);
    }
    arrangement_ = std::move(wanted);
    updateTitleBars();
    userSized_ = false;
    shareEqually();
    if (focus) focus->setFocus();
    emit arrangementChanged();
}

void CodeView::updateTitleBars() {
    for (const auto& members : arrangement_)
        for (int p : members) {
            // In a group of several the tab names the pane: its title bar stays
            // only for what else it holds (how it is linked, the LLVM IR's
            // mode, the PTX/SASS choice).
            names_[size_t(p)]->setVisible(members.size() == 1);
            titles_[size_t(p)]->setVisible(members.size() == 1 || p == Te || p == LlvmIr || p == C ||
                                           (p == Assembly && gpu_));
        }
}

void CodeView::updatePaneNames() {
    for (int p = 0; p < PaneCount; ++p) {
        const QString title = paneTitle(p, gpu_);
        names_[size_t(p)]->setText(title);
        actions_[size_t(p)]->setText(title);
        actions_[size_t(p)]->setToolTip(tr("Show or hide the %1 pane").arg(title));
        for (auto* g : groups_)
            if (int i = g->indexOf(frames_[size_t(p)]); i >= 0) g->setTabText(i, title);
    }
    asmMode_->setVisible(gpu_);
    updateTitleBars();
}

QString CodeView::paneName(Pane pane) const {
    return paneTitle(pane, gpu_);
}

void CodeView::shareEqually() {
    // The stack has its new size already (the layout set it before this
    // widget's resize event); the splitter inside it may not yet.
    const int extent = splitter_->orientation() == Qt::Horizontal ? stack_->width() : stack_->height();
    const int n = int(groups_.size());
    if (n == 0) return;
    QList<int> sizes;
    for (int i = 0; i < n; ++i) sizes << std::max(1, (extent - (n - 1) * splitter_->handleWidth()) / n);
    splitter_->setSizes(sizes);
}

void CodeView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const auto before = arrangement_;
    arrangePanes();
    // Equal shares until the user drags a handle.
    if (arrangement_ == before && !userSized_) shareEqually();
}

bool CodeView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::FocusIn)
        for (int p = 0; p < PaneCount; ++p)
            if (watched == editors_[size_t(p)]) currentPane_ = p;
    return QWidget::eventFilter(watched, event);
}

bool CodeView::isPaneVisible(Pane pane) const {
    return actions_[size_t(pane)]->isChecked();
}

bool CodeView::showsPlaceholder() const {
    return stack_->currentWidget() == placeholder_;
}

void CodeView::showArtifacts() {
    const auto before = artifacts_;
    artifacts_ = session_->artifacts();
    // The assembly of the texts shown (the schedule editor's second step): the
    // line the user clicked lights up again once the new links are made.
    const bool assemblyOfShown = before && artifacts_ && !before->hasAssembly && artifacts_->hasAssembly &&
                                 before->name == artifacts_->name && before->build.tir == artifacts_->build.tir;
    const int keepPane = assemblyOfShown ? activePane_ : -1, keepLine = activeLine_;
    links_.reset();
    session_->jobs()->cancel(QString::fromLatin1(kLinksJob));
    activePane_ = hoverPane_ = -1;
    activeLine_ = hoverLine_ = 0;
    if (keepPane >= 0) {
        activePane_ = keepPane;
        activeLine_ = keepLine;
    }
    for (auto& m : active_)
        m.clear();
    for (auto& m : hover_)
        m.clear();
    for (auto* e : editors_)
        e->clearLineColors();
    for (auto* n : notes_) {
        n->clear();
        n->setToolTip({});
    }
    if (!artifacts_) {
        for (auto* e : editors_)
            e->setCode({});
        stack_->setCurrentWidget(placeholder_);
        return;
    }
    stack_->setCurrentWidget(splitter_);
    const auto& a = *artifacts_;
    editors_[Te]->setCode(a.script.empty() ? tr("# This function has no TE script.")
                                           : QString::fromStdString(a.script));
    editors_[Tir]->setCode(QString::fromStdString(a.build.tir));
    setLlvmText();
    if (a.target.isGPU() != gpu_) {
        gpu_ = a.target.isGPU();
        updatePaneNames();
    }
    sass_.clear();
    session_->jobs()->cancel(QString::fromLatin1(kSassJob));
    setAssemblyText();
    editors_[C]->setCode(QString::fromStdString(a.c));
    arrangePanes(); // a longer text's line numbers may take columns away
    if (a.name != shownFunction_) {
        // Another function: start each generated text at the function's code,
        // not at the module header or constant pools.
        shownFunction_ = a.name;
        const QString n = QRegularExpression::escape(QString::fromStdString(a.name));
        revealFirst(LlvmIr, QRegularExpression(QStringLiteral("^define .*@") + n));
        // The assembly where it is shown: now, or when it comes (setAssemblyText).
        assemblyScroll_ = -1;
        if (a.hasAssembly) revealFunctionInAssembly();
    }

    auto artifacts = artifacts_;
    session_->jobs()->run<std::shared_ptr<LineLinks>>(
        QString::fromLatin1(kLinksJob),
        tr("Linking the lines of %1").arg(QString::fromStdString(a.name)),
        [artifacts](const CancelToken&) {
            return std::make_shared<LineLinks>(LineLinks::build(*artifacts));
        },
        this,
        [this, artifacts](std::shared_ptr<LineLinks> links) {
            if (artifacts != artifacts_) return;
            links_ = std::move(links);
            links_->setLlvmOptimized(llvmOptimized_);
            auto note = [gpu = gpu_](QLabel* label, LineLinks::Status status, const QString& linked,
                           const QString& how) {
                QString why;
                switch (status) {
                case LineLinks::Status::Linked:
                    label->setText(linked);
                    label->setToolTip(how);
                    return;
                case LineLinks::Status::NoText:
                    why = tr("There is no text to link.");
                    break;
                case LineLinks::Status::NoRecord:
                    why = tr("Lowering recorded no script lines for this function.");
                    break;
                case LineLinks::Status::Mismatch:
                    why = gpu ? tr("For a GPU the TIR pane shows the kernels split from the function; the "
                                   "script's lines are recorded for the function's TIR before the split.")
                              : tr("The script is not the one lowering recorded the lines of.");
                    break;
                case LineLinks::Status::NoMatch:
                    why = tr("Nothing in it matches a line of the TIR.");
                    break;
                }
                label->setText(tr("not linked"));
                label->setToolTip(why);
            };
            note(notes_[Te], links_->teStatus(), tr("linked by records"),
                 tr("Lowering recorded where the script made and changed every stage and loop: "
                    "each script line links to the TIR it made."));
            note(notes_[C], links_->cStatus(), tr("linked by line table"),
                 tr("The C backend records, for every line it prints, the TIR statement it "
                    "came from."));
            if (activePane_ >= 0) activateLine(Pane(activePane_), activeLine_);
            emit linksUpdated();
        },
        [this](const QString& error) {
            session_->report(tr("Could not link the code view's lines: %1").arg(error), true);
        });
}

void CodeView::setLlvmText() {
    if (!artifacts_) return;
    const auto& b = artifacts_->build;
    editors_[LlvmIr]->setCode(
        QString::fromStdString(llvmOptimized_ ? b.llvmIROptimized : b.llvmIR));
}

namespace {
/// `text` as `//` comment lines of about `width` characters (the editors do not wrap).
QString commentBlock(const QString& text, int width = 76) {
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
                lines << QStringLiteral("// ") + line;
                line.clear();
            }
            line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        lines << (line.isEmpty() ? QStringLiteral("//") : QStringLiteral("// ") + line);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}
} // namespace

void CodeView::setCudaToolFolders(const QStringList& folders) {
    toolFolders_ = folders;
    sass_.clear();
    if (sassShown_) setAssemblyText();
}

void CodeView::revealFirst(Pane pane, const QRegularExpression& re) {
    const QStringList lines = editors_[pane]->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (re.match(lines[i]).hasMatch()) {
            editors_[pane]->verticalScrollBar()->setValue(i);
            return;
        }
}

void CodeView::revealFunctionInAssembly() {
    // A CPU's function label, or a GPU's first kernel entry.
    const QString n = QRegularExpression::escape(QString::fromStdString(shownFunction_));
    revealFirst(Assembly, QRegularExpression(QStringLiteral("^") + n + QStringLiteral(":|\\.entry ") + n));
}

void CodeView::setAssemblyText() {
    if (!artifacts_) return;
    CodeEditor* editor = editors_[Assembly];
    const bool sass = gpu_ && sassShown_;
    notes_[Assembly]->setText(sass ? tr("not linked") : QString());
    notes_[Assembly]->setToolTip(sass ? tr("SASS has no line table back to the PTX here: click the PTX for links.")
                                      : QString());
    if (!sass && !artifacts_->hasAssembly) {
        // Made after the other texts (ScheduleDocument): never the last
        // function's, stale. Where the reader was in it comes back with it.
        if (!assemblyWaits_) assemblyScroll_ = editor->verticalScrollBar()->value();
        assemblyWaits_ = true;
        editor->setCode(tr("# The assembly is being made: it follows the LLVM IR in a moment."));
        notes_[Assembly]->setText(tr("being made"));
        return;
    }
    if (!sass) {
        editor->setCode(QString::fromStdString(artifacts_->build.assembly));
        if (assemblyWaits_) {
            assemblyWaits_ = false;
            if (assemblyScroll_ < 0) revealFunctionInAssembly(); // another function's, shown meanwhile
            else editor->verticalScrollBar()->setValue(assemblyScroll_);
        }
        return;
    }
    if (!sass_.isEmpty()) {
        editor->setCode(sass_);
        return;
    }
    const CudaTools tools = findCudaTools(toolFolders_.isEmpty() ? cudaToolFolders() : toolFolders_);
    if (!tools.canDisassemble()) {
        sass_ = commentBlock(tools.missing());
        editor->setCode(sass_);
        emit sassReady();
        return;
    }
    editor->setCode(commentBlock(tr("Assembling the PTX with ptxas and disassembling it with nvdisasm…")));
    auto artifacts = artifacts_;
    const QString arch = QString::fromStdString(artifacts->target.cpu.empty() ? "sm_80" : artifacts->target.cpu);
    session_->jobs()->run<QString>(
        QString::fromLatin1(kSassJob), tr("Disassembling the SASS of %1").arg(QString::fromStdString(artifacts->name)),
        [artifacts, arch, tools](const CancelToken& token) {
            return disassembleSass(QString::fromStdString(artifacts->build.assembly), arch, tools, token);
        },
        this,
        [this, artifacts](QString text) {
            if (artifacts != artifacts_) return;
            sass_ = text.isEmpty() ? commentBlock(tr("nvdisasm printed nothing.")) : text;
            if (gpu_ && sassShown_) editors_[Assembly]->setCode(sass_);
            emit sassReady();
        },
        [this, artifacts](const QString& error) {
            if (artifacts != artifacts_) return;
            sass_ = commentBlock(tr("No SASS: %1").arg(error));
            if (gpu_ && sassShown_) editors_[Assembly]->setCode(sass_);
            emit sassReady();
        });
}

void CodeView::setSassShown(bool shown) {
    if (shown == sassShown_) return;
    sassShown_ = shown;
    {
        QSignalBlocker block(asmMode_);
        asmMode_->setCurrentIndex(shown ? 1 : 0);
    }
    setAssemblyText();
    // The pane's lines changed meaning (SASS has no links): light the click again.
    if (activePane_ == Assembly)
        activateLine(Tir, 0);
    else if (activePane_ >= 0)
        activateLine(Pane(activePane_), activeLine_);
}

void CodeView::setLlvmOptimized(bool optimized) {
    if (optimized == llvmOptimized_) return;
    llvmOptimized_ = optimized;
    {
        QSignalBlocker block(llvmMode_);
        llvmMode_->setCurrentIndex(optimized ? 1 : 0);
    }
    setLlvmText();
    if (links_) links_->setLlvmOptimized(optimized);
    // The LLVM pane's lines changed meaning: light the same click again.
    if (activePane_ == LlvmIr)
        activateLine(Tir, 0);
    else if (activePane_ >= 0)
        activateLine(Pane(activePane_), activeLine_);
}

QMap<int, QColor> CodeView::colorsFor(int pane, int line, bool light, bool reveal) {
    std::array<QMap<int, QColor>, PaneCount>& out = light ? hover_ : active_;
    for (auto& m : out)
        m.clear();
    if (!links_ || line <= 0) return {};
    const bool sass = gpu_ && sassShown_; // SASS lines are not the PTX's
    if (sass && pane == Assembly) return {};
    LineLinks::Result r = links_->linksOf(LineLinks::Pane(pane), line);
    for (int p = 0; p < PaneCount; ++p) {
        if (sass && p == Assembly) continue;
        for (auto [l, group] : r.lines[size_t(p)]) {
            QColor c = linkColor(group);
            out[size_t(p)].insert(l, light ? lightVariant(c) : c);
        }
        if (reveal && p != pane && !r.lines[size_t(p)].empty())
            editors_[size_t(p)]->revealLine(r.lines[size_t(p)].begin()->first);
    }
    return out[size_t(pane)];
}

void CodeView::activateLine(Pane pane, int line) {
    activePane_ = line > 0 ? int(pane) : -1;
    activeLine_ = line;
    colorsFor(pane, line, false, true);
    refreshColors();
    if (line > 0) emit lineActivated(pane, line);
}

void CodeView::previewLine(Pane pane, int line) {
    hoverPane_ = line > 0 ? int(pane) : -1;
    hoverLine_ = line;
    colorsFor(pane, line, true, false);
    refreshColors();
}

void CodeView::refreshColors() {
    for (int p = 0; p < PaneCount; ++p) {
        // Clicked links over the hover preview.
        QMap<int, QColor> shown = hover_[size_t(p)];
        for (auto it = active_[size_t(p)].begin(); it != active_[size_t(p)].end(); ++it)
            shown.insert(it.key(), it.value());
        if (shown != editors_[size_t(p)]->lineColors()) editors_[size_t(p)]->setLineColors(shown);
    }
}

QMap<int, QColor> CodeView::linkedLines(Pane pane) const {
    return active_[size_t(pane)];
}

} // namespace tessel::views
