// The code view on GEMM ladder step 7, driven offscreen: the placeholder when
// nothing is selected, the five texts, a mouse click on a TIR line lighting
// exactly the LLVM IR and assembly lines the line maps name, an assembly click
// lighting its TIR line and its siblings in one colour, the TE pane's tile line
// reaching its four loops in four colours shared by every pane, scrolling to
// the linked lines, the hover preview, the LLVM before/after switch, hiding a
// pane, and a click made before the line tables are ready. Then the panes'
// arrangement: as many groups side by side as fit with 60 columns each (the
// rest as tabs, one click away), stacked when only one fits across, what is in
// front kept across a resize, and a pane maximised and restored.
#include "code/CodeView.h"
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QTabBar>
#include <QTabWidget>
#include <QScrollBar>
#include <QTextBlock>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace tessel;
using tessel::views::CodeView;

namespace {

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The first line (1-based) whose text, without indentation, starts with `prefix`.
int lineStarting(const std::string& text, const std::string& prefix) {
    std::stringstream ss(text);
    int n = 0;
    for (std::string l; std::getline(ss, l);) {
        ++n;
        size_t i = l.find_first_not_of(" \t");
        if (i != std::string::npos && l.compare(i, prefix.size(), prefix) == 0) return n;
    }
    return 0;
}

std::set<int> keys(const QMap<int, QColor>& m) {
    std::set<int> s;
    for (auto it = m.begin(); it != m.end(); ++it)
        s.insert(it.key());
    return s;
}

std::set<int> asSet(const std::vector<int>& v) {
    return {v.begin(), v.end()};
}

/// Clicks line `line` of `editor` with the mouse, as a user would.
void clickLine(views::CodeEditor* editor, int line) {
    editor->revealLine(line);
    QRect r = editor->cursorRect(QTextCursor(editor->document()->findBlockByNumber(line - 1)));
    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {},
                      QPoint(r.left() + 30, r.center().y()));
}

/// The text columns `editor` shows, measured as a user would: its text
/// area's width in 'x' advances of its font.
int columnsShown(views::CodeEditor* editor) {
    return editor->viewport()->width() / QFontMetrics(editor->font()).horizontalAdvance(QLatin1Char('x'));
}

bool lineVisible(views::CodeEditor* editor, int line) {
    QRect r = editor->cursorRect(QTextCursor(editor->document()->findBlockByNumber(line - 1)));
    return r.top() >= 0 && r.bottom() <= editor->viewport()->height();
}

} // namespace

class TestCodeView : public QObject {
    Q_OBJECT
    std::shared_ptr<driver::FunctionArtifacts> a_;
    views::Session session_;
    std::unique_ptr<CodeView> view_;

    void waitForLinks() {
        QVERIFY(session_.jobs()->waitForIdle(30000));
        QVERIFY(view_->linksReady());
    }

private slots:
    void initTestCase() {
        auto p =
            std::filesystem::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/07_parallel.te";
        a_ = std::make_shared<driver::FunctionArtifacts>(
            driver::compileScriptArtifacts(readFile(p), "07_parallel.te"));
        view_ = std::make_unique<CodeView>(&session_);
        // Wide enough for the five panes side by side at 60 columns each: the
        // tests below see every pane (the arrangement tests narrow it).
        view_->resize(2700, 700);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }

    void placeholderWhenNothingIsSelected() {
        QVERIFY(view_->showsPlaceholder());
        auto labels = view_->findChildren<QLabel*>();
        bool found = false;
        for (auto* l : labels)
            found = found || (l->isVisible() && l->text().contains("Select a fused function"));
        QVERIFY(found);
    }

    void showsEveryText() {
        session_.setScript(QString(), QString::fromStdString(a_->script));
        session_.setArtifacts(a_);
        QVERIFY(!view_->showsPlaceholder());
        QCOMPARE(view_->pane(CodeView::Te)->toPlainText().toStdString(), a_->script);
        QCOMPARE(view_->pane(CodeView::Tir)->toPlainText(), QString::fromStdString(a_->build.tir));
        QVERIFY(view_->pane(CodeView::LlvmIr)->toPlainText().contains("define"));
        QCOMPARE(view_->pane(CodeView::LlvmIr)->toPlainText().size(),
                 QString::fromStdString(a_->build.llvmIROptimized).size());
        QVERIFY(view_->pane(CodeView::Assembly)->toPlainText().contains(".loc"));
        QVERIFY(view_->pane(CodeView::C)->toPlainText().contains("int32_t gemm("));
        QCOMPARE(view_->pane(CodeView::Assembly)->language(), views::Language::Assembly);
        waitForLinks();
        // The TE and C panes say how they are linked.
        QStringList notes;
        for (auto* l : view_->findChildren<QLabel*>())
            if (l->isVisible()) notes << l->text();
        QVERIFY(notes.contains("linked by records"));
        QVERIFY(notes.contains("linked by line table"));
    }

    void clickingATirLineLightsItsCode() {
        int loop = lineStarting(a_->build.tir, "for k_outer in");
        QVERIFY(loop > 0);
        clickLine(view_->pane(CodeView::Tir), loop);
        QCOMPARE(keys(view_->linkedLines(CodeView::Tir)), std::set<int>{loop});
        QCOMPARE(keys(view_->linkedLines(CodeView::LlvmIr)),
                 asSet(a_->build.llvmIROptimizedLines.linesOf(loop)));
        QCOMPARE(keys(view_->linkedLines(CodeView::Assembly)),
                 asSet(a_->build.assemblyLines.linesOf(loop)));
        QVERIFY(!view_->linkedLines(CodeView::Assembly).isEmpty());
        // One TIR line, one colour everywhere; the editors show what was lit.
        QColor c = view_->linkedLines(CodeView::Tir).value(loop);
        QCOMPARE(c, views::linkColor(0));
        for (int p = 0; p < CodeView::PaneCount; ++p) {
            auto lit = view_->linkedLines(CodeView::Pane(p));
            for (auto it = lit.begin(); it != lit.end(); ++it)
                QCOMPARE(it.value(), c);
            QCOMPARE(view_->pane(CodeView::Pane(p))->lineColors(), lit);
        }
        // The other panes scrolled to their first lit line.
        int firstAsm = *keys(view_->linkedLines(CodeView::Assembly)).begin();
        QVERIFY2(lineVisible(view_->pane(CodeView::Assembly), firstAsm),
                 "assembly pane revealed its first linked line");
        // The TE pane: the split, reorder and definition lines made this loop.
        auto te = keys(view_->linkedLines(CodeView::Te));
        QVERIFY(te.count(lineStarting(a_->script, "ko, ki = s[CC].split(k")));
        QVERIFY(te.count(lineStarting(a_->script, "s[CC].reorder(ko, xc, ki, yc)")));
        QVERIFY(keys(view_->linkedLines(CodeView::C))
                    .count(lineStarting(a_->c, "for (int32_t k_outer")));
    }

    void clickingAnAssemblyLineLightsItsSourceAndSiblings() {
        int store = lineStarting(a_->build.tir, "C_global[T.Ramp(x_c * 32, 1, 32)] = C_global");
        const auto& siblings = a_->build.assemblyLines.linesOf(store);
        QVERIFY(siblings.size() >= 2);
        int clicked = siblings.back();
        clickLine(view_->pane(CodeView::Assembly), clicked);
        QCOMPARE(keys(view_->linkedLines(CodeView::Tir)), std::set<int>{store});
        QCOMPARE(keys(view_->linkedLines(CodeView::Assembly)), asSet(siblings));
        QColor c = view_->linkedLines(CodeView::Tir).value(store);
        for (int l : siblings)
            QCOMPARE(view_->linkedLines(CodeView::Assembly).value(l), c);
        QVERIFY(lineVisible(view_->pane(CodeView::Tir), store));
        // A directive links to nothing: the lights go out.
        view_->activateLine(CodeView::Assembly, lineStarting(a_->build.assembly, ".text"));
        for (int p = 0; p < CodeView::PaneCount; ++p)
            QVERIFY(view_->linkedLines(CodeView::Pane(p)).isEmpty());
    }

    void teTileLineLightsFourLoopsInFourColours() {
        int tile = lineStarting(a_->script, "xo, yo, xi, yi = s[C].tile");
        clickLine(view_->pane(CodeView::Te), tile);
        auto tir = view_->linkedLines(CodeView::Tir);
        std::set<int> loops;
        for (const char* v : {"x_outer", "y_outer", "x_inner", "y_inner"})
            loops.insert(lineStarting(a_->build.tir, std::string("for ") + v + " in"));
        QCOMPARE(keys(tir), loops);
        std::set<QRgb> colours;
        for (auto c : tir)
            colours.insert(c.rgb());
        QCOMPARE(colours.size(), size_t(4));
        // The same TIR line has the same colour in every pane.
        auto check = [&](CodeView::Pane p, const codegen::LineMap& m) {
            auto lit = view_->linkedLines(p);
            QVERIFY(!lit.isEmpty());
            for (auto it = lit.begin(); it != lit.end(); ++it)
                QCOMPARE(it.value(), tir.value(m.tirLine(it.key())));
        };
        check(CodeView::Assembly, a_->build.assemblyLines);
        check(CodeView::LlvmIr, a_->build.llvmIROptimizedLines);
        QVERIFY(view_->linkedLines(CodeView::Te).contains(tile));
    }

    void linkingStaysFast() {
        // The line that lights the most, clicked and hovered: what a user waits for.
        int worst = 0, most = 0;
        std::stringstream ss(a_->script);
        int n = 0;
        for (std::string l; std::getline(ss, l);) {
            ++n;
            view_->activateLine(CodeView::Te, n);
            int lit = 0;
            for (int p = 0; p < CodeView::PaneCount; ++p)
                lit += view_->linkedLines(CodeView::Pane(p)).size();
            if (lit > most) most = lit, worst = n;
        }
        QElapsedTimer t;
        t.start();
        view_->activateLine(CodeView::Te, worst);
        qint64 click = t.elapsed();
        t.restart();
        emit view_->pane(CodeView::Te)->lineHovered(worst);
        emit view_->pane(CodeView::Te)->lineHovered(0);
        qint64 hover = t.elapsed();
        qInfo("TE line %d lights %d lines: click %lld ms, hover in and out %lld ms", worst, most,
              click, hover);
        QVERIFY2(click < 500, "a click answers at once");
    }

    void hoverPreviewsWithoutForgettingTheClick() {
        int loop = lineStarting(a_->build.tir, "for x_outer in");
        view_->activateLine(CodeView::Tir, loop);
        auto clicked = view_->linkedLines(CodeView::Assembly);
        int other = lineStarting(a_->build.tir, "for bigN in");
        emit view_->pane(CodeView::Tir)->lineHovered(other);
        auto shown = view_->pane(CodeView::Assembly)->lineColors();
        for (int l : a_->build.assemblyLines.linesOf(other)) {
            QVERIFY(shown.contains(l));
            if (!clicked.contains(l)) QVERIFY(shown.value(l) != views::linkColor(0));
        }
        for (auto it = clicked.begin(); it != clicked.end(); ++it)
            QCOMPARE(shown.value(it.key()), it.value());
        QCOMPARE(view_->linkedLines(CodeView::Assembly), clicked);
        emit view_->pane(CodeView::Tir)->lineHovered(0);
        QCOMPARE(view_->pane(CodeView::Assembly)->lineColors(), clicked);
    }

    void llvmPaneSwitchesBetweenBeforeAndAfter() {
        auto* combo = view_->findChild<QComboBox*>(QStringLiteral("LlvmMode")); // not the target selector
        QVERIFY(combo);
        combo->setCurrentIndex(0);
        QVERIFY(!view_->llvmOptimized());
        QCOMPARE(view_->pane(CodeView::LlvmIr)->toPlainText().size(),
                 QString::fromStdString(a_->build.llvmIR).size());
        int loop = lineStarting(a_->build.tir, "for k_outer in");
        view_->activateLine(CodeView::Tir, loop);
        QCOMPARE(keys(view_->linkedLines(CodeView::LlvmIr)),
                 asSet(a_->build.llvmIRLines.linesOf(loop)));
        view_->setLlvmOptimized(true);
        QCOMPARE(combo->currentIndex(), 1);
        QCOMPARE(keys(view_->linkedLines(CodeView::LlvmIr)),
                 asSet(a_->build.llvmIROptimizedLines.linesOf(loop)));
    }

    void panesHideAndShow() {
        QAction* c = view_->paneAction(CodeView::C);
        QVERIFY(view_->pane(CodeView::C)->isVisible());
        c->trigger();
        QVERIFY(!view_->isPaneVisible(CodeView::C));
        QVERIFY(!view_->pane(CodeView::C)->isVisible());
        QVERIFY(view_->pane(CodeView::Tir)->isVisible());
        view_->setPaneVisible(CodeView::C, true);
        QVERIFY(view_->pane(CodeView::C)->isVisible());
    }

    void aClickBeforeTheTablesIsKept() {
        auto copy = std::make_shared<driver::FunctionArtifacts>(*a_);
        session_.setArtifacts(copy);
        int loop = lineStarting(a_->build.tir, "for y_outer in");
        view_->activateLine(CodeView::Tir, loop);
        waitForLinks();
        QCOMPARE(keys(view_->linkedLines(CodeView::Assembly)),
                 asSet(a_->build.assemblyLines.linesOf(loop)));
    }

    // The schedule editor's first step has no assembly yet: the pane says it
    // is being made (never the last function's), and when the same texts
    // come with it, the line the user clicked meanwhile lights up in it.
    void theAssemblyFollowsItsTexts() {
        auto first = std::make_shared<driver::FunctionArtifacts>(*a_);
        first->build.assembly.clear();
        first->build.assemblyLines = {};
        first->hasAssembly = false;
        session_.setArtifacts(first);
        QVERIFY(view_->pane(CodeView::Assembly)->toPlainText().contains("being made"));
        QVERIFY(!view_->pane(CodeView::Assembly)->toPlainText().contains(".loc"));
        QCOMPARE(view_->pane(CodeView::Tir)->toPlainText(), QString::fromStdString(a_->build.tir));
        waitForLinks();
        const int loop = lineStarting(a_->build.tir, "for k_outer in");
        clickLine(view_->pane(CodeView::Tir), loop);
        QVERIFY(view_->linkedLines(CodeView::Assembly).isEmpty());
        session_.setArtifacts(std::make_shared<driver::FunctionArtifacts>(*a_));
        waitForLinks();
        QVERIFY(view_->pane(CodeView::Assembly)->toPlainText().contains(".loc"));
        QCOMPARE(keys(view_->linkedLines(CodeView::Tir)), std::set<int>{loop});
        QCOMPARE(keys(view_->linkedLines(CodeView::Assembly)), asSet(a_->build.assemblyLines.linesOf(loop)));
    }

    void closingShowsThePlaceholderAgain() {
        session_.clear();
        QVERIFY(view_->showsPlaceholder());
        for (int p = 0; p < CodeView::PaneCount; ++p)
            QVERIFY(view_->linkedLines(CodeView::Pane(p)).isEmpty());
        view_->activateLine(CodeView::Tir, 3); // harmless
    }

    void panesArrangeForTheWidth() {
        session_.setArtifacts(a_);
        waitForLinks();
        for (int p = 0; p < CodeView::PaneCount; ++p)
            view_->setPaneVisible(CodeView::Pane(p), true);
        const int pane = view_->pane(CodeView::Assembly)->widthForColumns(CodeView::kMinimumColumns);
        int lastGroups = CodeView::PaneCount + 1;
        for (int width : {2700, 2000, 1400, 1100, 900, 600, 400}) {
            view_->resize(width, 700);
            QCoreApplication::processEvents();
            const int groups = view_->groupCount();
            QVERIFY(groups >= 1 && groups <= lastGroups); // narrower: never more side by side
            lastGroups = groups;
            // Every shown pane is in one group, in order.
            QList<CodeView::Pane> all;
            for (int g = 0; g < groups; ++g)
                all += view_->groupPanes(g);
            QCOMPARE(all, (QList<CodeView::Pane>{CodeView::Te, CodeView::Tir, CodeView::LlvmIr,
                                                 CodeView::Assembly, CodeView::C}));
            // The panes in front are at least 60 columns wide wherever the
            // view has room for one such pane.
            int inFront = 0;
            for (int p = 0; p < CodeView::PaneCount; ++p) {
                auto* e = view_->pane(CodeView::Pane(p));
                if (!view_->isPaneInFront(CodeView::Pane(p))) {
                    QVERIFY(!e->isVisible());
                    continue;
                }
                ++inFront;
                QVERIFY(e->isVisible());
                if (width < pane) continue; // not even one pane fits: it takes the whole width
                QVERIFY2(columnsShown(e) >= CodeView::kMinimumColumns,
                         qPrintable(QStringLiteral("%1 px: pane %2 shows %3 columns")
                                        .arg(width)
                                        .arg(p)
                                        .arg(columnsShown(e))));
            }
            QCOMPARE(inFront, groups);
            // As many groups side by side as fit; one across only when two do not.
            if (view_->groupOrientation() == Qt::Horizontal && groups > 1)
                QVERIFY(width / (groups + 1) < pane);
            if (width >= 2 * pane + 20) QCOMPARE(view_->groupOrientation(), Qt::Horizontal);
            if (width < 2 * pane) QVERIFY(view_->groupOrientation() == Qt::Vertical || groups == 1);
            qInfo("%d px (a pane of 60 columns: %d px): %d group(s) %s", width, pane, groups,
                  view_->groupOrientation() == Qt::Horizontal ? "side by side" : "stacked");
        }
        // The widest showed all five, side by side; a narrow view stacks two,
        // the TIR over the assembly; a low one shows one group.
        view_->resize(2700, 700);
        QCoreApplication::processEvents();
        QCOMPARE(view_->groupCount(), CodeView::PaneCount);
        view_->resize(600, 700);
        QCoreApplication::processEvents();
        QCOMPARE(view_->groupCount(), 2);
        QCOMPARE(view_->groupOrientation(), Qt::Vertical);
        QVERIFY(view_->isPaneInFront(CodeView::Tir) && view_->isPaneInFront(CodeView::Assembly));
        view_->resize(600, 250);
        QCoreApplication::processEvents();
        QCOMPARE(view_->groupCount(), 1);
        QVERIFY(view_->isPaneInFront(CodeView::Tir));
    }

    void aPaneBehindATabIsOneClickAway() {
        view_->resize(1100, 700);
        QCoreApplication::processEvents();
        QCOMPARE(view_->groupCount(), 2);
        QCOMPARE(view_->groupPanes(0), (QList<CodeView::Pane>{CodeView::Te, CodeView::Tir}));
        QVERIFY(view_->isPaneInFront(CodeView::Tir));
        QVERIFY(!view_->isPaneInFront(CodeView::Te));
        // One click on its tab.
        auto* group = view_->pane(CodeView::Te)->parentWidget();
        while (group && !qobject_cast<QTabWidget*>(group)) group = group->parentWidget();
        QVERIFY(group);
        auto* tabs = static_cast<QTabWidget*>(group);
        QVERIFY(tabs->tabBar()->isVisible());
        const int te = tabs->indexOf(view_->pane(CodeView::Te)->parentWidget());
        QVERIFY(te >= 0);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(te).center());
        QVERIFY(view_->isPaneInFront(CodeView::Te));
        QVERIFY(view_->pane(CodeView::Te)->isVisible());
        QVERIFY(columnsShown(view_->pane(CodeView::Te)) >= CodeView::kMinimumColumns);
        // What the user put in front stays there when the view is resized.
        view_->resize(1400, 700);
        QCoreApplication::processEvents();
        view_->resize(600, 700);
        QCoreApplication::processEvents();
        QVERIFY(view_->isPaneInFront(CodeView::Te));
        // Showing a hidden pane brings it to the front.
        view_->resize(1100, 700);
        QCoreApplication::processEvents();
        view_->setPaneVisible(CodeView::C, false);
        QVERIFY(!view_->isPaneInFront(CodeView::C));
        view_->setPaneVisible(CodeView::C, true);
        QVERIFY(view_->isPaneInFront(CodeView::C));
        QVERIFY(view_->pane(CodeView::C)->isVisible());
    }

    void aPaneMaximisesAndRestores() {
        view_->resize(1400, 700);
        QCoreApplication::processEvents();
        const int groups = view_->groupCount();
        QVERIFY(groups >= 2);
        QList<QList<CodeView::Pane>> before;
        for (int g = 0; g < groups; ++g)
            before << view_->groupPanes(g);
        view_->pane(CodeView::LlvmIr)->setFocus();
        QCOMPARE(view_->currentPane(), CodeView::LlvmIr);
        view_->maximisePane(view_->currentPane());
        QCoreApplication::processEvents();
        QCOMPARE(view_->maximisedPane(), int(CodeView::LlvmIr));
        QCOMPARE(view_->groupCount(), 1);
        QVERIFY(view_->isPaneInFront(CodeView::LlvmIr));
        // The whole view's width, the other panes a tab away.
        QVERIFY(view_->pane(CodeView::LlvmIr)->width() > 1400 - 40);
        QCOMPARE(view_->groupPanes(0).size(), CodeView::PaneCount);
        view_->restorePanes();
        QCoreApplication::processEvents();
        QCOMPARE(view_->maximisedPane(), -1);
        QCOMPARE(view_->groupCount(), groups);
        for (int g = 0; g < groups; ++g)
            QCOMPARE(view_->groupPanes(g), before[g]);
        QVERIFY(view_->isPaneInFront(CodeView::LlvmIr)); // where the user was
        view_->resize(2700, 700);
        QCoreApplication::processEvents();
    }

    void cleanupTestCase() { view_.reset(); }
};

QTEST_MAIN(TestCodeView)
#include "tst_codeview.moc"
