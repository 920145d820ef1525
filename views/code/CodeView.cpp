#include "code/CodeView.h"

#include "code/LineLinks.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace tessel::views {

namespace {

const char* const kLinksJob = "code-view-links";

QString paneTitle(int pane) {
    switch (pane) {
    case CodeView::Te:
        return CodeView::tr("TE script");
    case CodeView::Tir:
        return CodeView::tr("TIR");
    case CodeView::LlvmIr:
        return CodeView::tr("LLVM IR");
    case CodeView::Assembly:
        return CodeView::tr("Assembly");
    default:
        return CodeView::tr("C");
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

/// The hover variant of a link colour: paler, so clicked links stand out.
QColor lightVariant(const QColor& c) {
    float h, s, l, a;
    c.getHslF(&h, &s, &l, &a);
    return QColor::fromHslF(h, s * 0.6f, std::min(0.95f, l + (1.0f - l) * 0.5f));
}

} // namespace

CodeView::CodeView(Session* session, QWidget* parent) : QWidget(parent), session_(session) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* bar = new QToolBar(this);
    bar->setIconSize(QSize(16, 16));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    layout->addWidget(bar);

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

    for (int p = 0; p < PaneCount; ++p) {
        auto* frame = new QWidget(splitter_);
        auto* v = new QVBoxLayout(frame);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(0);
        auto* title = new QWidget(frame);
        title->setAutoFillBackground(true);
        title->setBackgroundRole(QPalette::AlternateBase);
        auto* h = new QHBoxLayout(title);
        h->setContentsMargins(6, 2, 6, 2);
        auto* name = new QLabel(paneTitle(p), title);
        QFont f = name->font();
        f.setBold(true);
        name->setFont(f);
        h->addWidget(name);
        auto* note = new QLabel(title);
        note->setEnabled(false);
        h->addWidget(note);
        h->addStretch(1);
        notes_[size_t(p)] = note;
        if (p == LlvmIr) {
            llvmMode_ = new QComboBox(title);
            llvmMode_->addItem(tr("Before optimisation"));
            llvmMode_->addItem(tr("Optimised"));
            llvmMode_->setCurrentIndex(1);
            llvmMode_->setToolTip(
                tr("Show the LLVM IR as generated from the TIR, or after LLVM's optimisation"));
            connect(llvmMode_, &QComboBox::currentIndexChanged, this,
                    [this](int index) { setLlvmOptimized(index == 1); });
            h->addWidget(llvmMode_);
        }
        v->addWidget(title);

        auto* editor = new CodeEditor(frame);
        editor->setLanguage(paneLanguage(p));
        v->addWidget(editor, 1);
        editors_[size_t(p)] = editor;
        frames_[size_t(p)] = frame;
        splitter_->addWidget(frame);
        connect(editor, &CodeEditor::lineClicked, this,
                [this, p](int line) { activateLine(Pane(p), line); });
        connect(editor, &CodeEditor::lineHovered, this,
                [this, p](int line) { previewLine(Pane(p), line); });

        auto* action = bar->addAction(paneTitle(p));
        action->setCheckable(true);
        action->setChecked(true);
        action->setToolTip(tr("Show or hide the %1 pane").arg(paneTitle(p)));
        connect(action, &QAction::toggled, frame, &QWidget::setVisible);
        actions_[size_t(p)] = action;
    }
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

bool CodeView::isPaneVisible(Pane pane) const {
    return actions_[size_t(pane)]->isChecked();
}

bool CodeView::showsPlaceholder() const {
    return stack_->currentWidget() == placeholder_;
}

void CodeView::showArtifacts() {
    artifacts_ = session_->artifacts();
    links_.reset();
    session_->jobs()->cancel(QString::fromLatin1(kLinksJob));
    activePane_ = hoverPane_ = -1;
    activeLine_ = hoverLine_ = 0;
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
    editors_[Assembly]->setCode(QString::fromStdString(a.build.assembly));
    editors_[C]->setCode(QString::fromStdString(a.c));
    if (a.name != shownFunction_) {
        // Another function: start each generated text at the function's code,
        // not at the module header or constant pools.
        shownFunction_ = a.name;
        const QString name = QString::fromStdString(a.name);
        auto firstLine = [](const QString& text, const QRegularExpression& re) {
            const QStringList lines = text.split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i)
                if (re.match(lines[i]).hasMatch()) return i + 1;
            return 0;
        };
        const QString n = QRegularExpression::escape(name);
        if (int l = firstLine(editors_[LlvmIr]->toPlainText(), QRegularExpression(QStringLiteral("^define .*@") + n)))
            editors_[LlvmIr]->verticalScrollBar()->setValue(l - 1);
        if (int l = firstLine(editors_[Assembly]->toPlainText(), QRegularExpression(QStringLiteral("^") + n + QStringLiteral(":"))))
            editors_[Assembly]->verticalScrollBar()->setValue(l - 1);
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
            auto note = [](QLabel* label, LineLinks::Status status, const QString& linked,
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
                    why = tr("The script is not the one lowering recorded the lines of.");
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
    LineLinks::Result r = links_->linksOf(LineLinks::Pane(pane), line);
    for (int p = 0; p < PaneCount; ++p) {
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
