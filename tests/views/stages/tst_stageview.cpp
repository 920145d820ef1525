// The stage view, driven offscreen: an empty session says what to open; a
// model compiled with its trace lists every graph pass with its registry
// summary; clicking a pass that changed the graph shows the stage before and
// after it side by side, changed rows coloured and filler rows keeping both
// sides aligned; an unchanged pass shows no colour;
// "hide passes that changed nothing" shortens the list; selecting a function
// adds its TIR passes; the lowering steps sit between the graph and TIR
// passes, shown whole; a TE script session has TIR passes and LLVM's
// optimisation (whose long sides scroll together) but no graph passes.
#include "common/CodeEditor.h"
#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelDriver.h"
#include "frontend/ModelZoo.h"
#include "graph/Graph.h"
#include "graph/passes/GraphPassRegistry.h"
#include "lower/LoweringSteps.h"
#include "stages/StageView.h"
#include "tir/IRPrinter.h"
#include "tir/passes/PassRegistry.h"

#include <QCheckBox>
#include <QLabel>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeWidget>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessel;
using tessel::views::StageView;

namespace {

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// x -> relu twice (a common subexpression), plus a constant sum (folded):
/// several graph passes change it, others do not.
std::shared_ptr<driver::CompiledModel> compileSmallModel() {
    graph::Graph g("small");
    auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 8, 6, 6]"));
    auto c1 =
        g.addConstant("c1", graph::Constant::fromFloats({8, 1, 1}, std::vector<double>(8, 0.5)));
    auto c2 =
        g.addConstant("c2", graph::Constant::fromFloats({8, 1, 1}, std::vector<double>(8, 0.25)));
    auto cs = g.addOp("Add", {c1, c2}, {}, "constsum");
    auto r1 = g.addOp("Relu", {x}, {}, "relu1");
    auto r2 = g.addOp("Relu", {x}, {}, "relu2");
    auto y = g.addOp("Add", {r1, r2}, {}, "add");
    g.setOutputs({g.addOp("Mul", {y, cs}, {}, "scale")});
    driver::CompileOptions o;
    o.trace = true;
    return std::make_shared<driver::CompiledModel>(driver::compileGraph(g, o));
}

/// The background of row `row` (0-based) of a diff side; invalid when plain.
QColor rowColor(views::CodeEditor* e, int row) {
    QTextBlockFormat f = e->document()->findBlockByNumber(row).blockFormat();
    return f.hasProperty(QTextFormat::BackgroundBrush) ? f.background().color() : QColor();
}

/// The text of an editor without the filler rows of the diff.
QString withoutFillers(views::CodeEditor* e) {
    QStringList rows = e->toPlainText().split(QLatin1Char('\n'));
    QStringList kept;
    for (int r = 0; r < rows.size(); ++r)
        if (rowColor(e, r) != StageView::fillerColor()) kept << rows[r];
    return kept.join(QLatin1Char('\n'));
}

QString normalized(const std::string& s) {
    QString q = QString::fromStdString(s);
    while (q.endsWith(QLatin1Char('\n')))
        q.chop(1);
    return q;
}

int countColor(views::CodeEditor* e, const QColor& c) {
    int n = 0;
    for (int r = 0; r < e->document()->blockCount(); ++r)
        n += rowColor(e, r) == c;
    return n;
}

int countColored(views::CodeEditor* e) {
    int n = 0;
    for (int r = 0; r < e->document()->blockCount(); ++r)
        n += rowColor(e, r).isValid();
    return n;
}

void clickItem(QTreeWidget* tree, QTreeWidgetItem* item) {
    tree->scrollToItem(item);
    QRect r = tree->visualItemRect(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
}

} // namespace

class TestStageView : public QObject {
    Q_OBJECT
    std::shared_ptr<driver::CompiledModel> model_;
    views::Session session_;
    std::unique_ptr<StageView> view_;

    /// The diff job done and its result shown (delivered to the GUI thread
    /// after the job ends: idle alone can leave the previous pass's diff).
    bool waitForDiff() {
        const bool idle = session_.jobs()->waitForIdle(30000);
        QCoreApplication::processEvents();
        return idle;
    }

    QTreeWidgetItem* item(StageView::Group g, int row) { return view_->groupItem(g)->child(row); }

private slots:
    void initTestCase() {
        model_ = compileSmallModel();
        QVERIFY(model_->graphStages.size() >= 4);
        view_ = std::make_unique<StageView>(&session_);
        view_->resize(1200, 260);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    }

    void emptySessionSaysWhatToOpen() {
        QCOMPARE(view_->passList()->topLevelItemCount(), 0);
        QVERIFY(view_->descriptionLabel()->text().contains("Open a model"));
    }

    void modelListsEveryGraphPass() {
        session_.setModel(QString(), model_);
        QTreeWidgetItem* g = view_->groupItem(StageView::GraphPasses);
        QVERIFY(g);
        QCOMPARE(g->childCount(), int(model_->graphStages.size()));
        for (int i = 0; i < g->childCount(); ++i) {
            QCOMPARE(g->child(i)->text(0).toStdString(), model_->graphStages[size_t(i)].pass);
            if (i == 0) continue;
            auto* info = graph::findGraphPass(model_->graphStages[size_t(i)].pass);
            QVERIFY(info);
            QVERIFY(g->child(i)->toolTip(0).startsWith(QString::fromStdString(info->summary)));
            QCOMPARE(!g->child(i)->text(2).isEmpty(), model_->graphStages[size_t(i)].changed);
        }
        QVERIFY(!view_->groupItem(StageView::TirPasses));
        QVERIFY(view_->descriptionLabel()->text().contains("fused function"));
    }

    // Between the graph passes and a function's TIR passes: the lowering
    // steps, each with its record's documentation, its time, and its text
    // shown whole (a new form, nothing to diff against).
    void modelListsTheLoweringSteps() {
        QTreeWidgetItem* g = view_->groupItem(StageView::LoweringSteps);
        QVERIFY(g);
        QCOMPARE(view_->passList()->indexOfTopLevelItem(g),
                 view_->passList()->indexOfTopLevelItem(view_->groupItem(StageView::GraphPasses)) + 1);
        QCOMPARE(g->childCount(), int(model_->lowerStages.size()));
        QCOMPARE(g->childCount(), 2);
        for (int i = 0; i < g->childCount(); ++i) {
            const auto& st = model_->lowerStages[size_t(i)];
            QCOMPARE(g->child(i)->text(0).toStdString(), st.pass);
            QVERIFY(!g->child(i)->text(1).isEmpty()); // its time
            auto* info = lower::findLoweringStep(st.pass);
            QVERIFY(info);
            QVERIFY(g->child(i)->toolTip(0).startsWith(QString::fromStdString(info->summary)));
            QVERIFY(view_->selectPass(StageView::LoweringSteps, QString::fromStdString(st.pass)));
            QVERIFY(waitForDiff());
            QCOMPARE(view_->afterEditor()->toPlainText(), normalized(st.text.text));
            QVERIFY(view_->beforeEditor()->toPlainText().isEmpty());
            QVERIFY(view_->descriptionLabel()->text().contains(
                QString::fromStdString(info->description).toHtmlEscaped()));
        }
        QVERIFY(view_->afterEditor()->toPlainText().contains(
            QString::fromStdString(": " + model_->functions.front().name + "(")));
    }

    void aChangedGraphPassShowsItsDiff() {
        size_t i = 1;
        while (i < model_->graphStages.size() && !model_->graphStages[i].changed)
            ++i;
        QVERIFY2(i < model_->graphStages.size(), "some graph pass changes the small model");
        const auto& before = model_->graphStages[i - 1];
        const auto& after = model_->graphStages[i];
        clickItem(view_->passList(), item(StageView::GraphPasses, int(i)));
        QVERIFY(waitForDiff());
        QCOMPARE(view_->selectedPass().toStdString(), after.pass);
        auto* l = view_->beforeEditor();
        auto* r = view_->afterEditor();
        QCOMPARE(withoutFillers(l), normalized(before.text.text));
        QCOMPARE(withoutFillers(r), normalized(after.text.text));
        // Aligned: as many rows on both sides; uncoloured rows face equal text.
        QStringList lr = l->toPlainText().split('\n'), rr = r->toPlainText().split('\n');
        QCOMPARE(lr.size(), rr.size());
        int changedRows = 0;
        for (int row = 0; row < lr.size(); ++row) {
            bool plain = !rowColor(l, row).isValid() && !rowColor(r, row).isValid();
            if (plain)
                QCOMPARE(lr[row], rr[row]);
            else
                ++changedRows;
        }
        QVERIFY(changedRows > 0);
        QVERIFY(countColor(l, StageView::removedColor()) + countColor(r, StageView::addedColor()) >
                0);
        QCOMPARE(l->language(), views::Language::Graph);
        auto* info = graph::findGraphPass(after.pass);
        QVERIFY(view_->descriptionLabel()->text().contains(
            QString::fromStdString(info->summary).toHtmlEscaped()));
    }

    void anUnchangedPassShowsNoColour() {
        size_t i = 1;
        while (i < model_->graphStages.size() && model_->graphStages[i].changed)
            ++i;
        if (i == model_->graphStages.size()) QSKIP("every graph pass changed the small model");
        QSignalSpy shown(view_.get(), &StageView::diffShown);
        QVERIFY(view_->selectPass(StageView::GraphPasses,
                                  QString::fromStdString(model_->graphStages[i].pass)));
        QVERIFY(waitForDiff());
        QCOMPARE(shown.count(), 1);
        QCOMPARE(countColored(view_->beforeEditor()), 0);
        QCOMPARE(countColored(view_->afterEditor()), 0);
        QCOMPARE(view_->afterEditor()->toPlainText(), normalized(model_->graphStages[i].text.text));
    }

    void selectingAFunctionAddsItsTirPasses() {
        const auto& f = model_->functions.front();
        session_.selectFunction(QString::fromStdString(f.name));
        QTreeWidgetItem* g = view_->groupItem(StageView::TirPasses);
        QVERIFY(g);
        QVERIFY(g->text(0).contains(QString::fromStdString(f.name)));
        QCOMPARE(g->childCount(), int(f.lowered.snapshots.size()) + 1);
        QVERIFY(!view_->groupItem(StageView::LlvmPasses)); // no artifacts yet
        // The first pass compares with the TIR straight from the schedule.
        QVERIFY(view_->selectPass(StageView::TirPasses,
                                  QString::fromStdString(f.lowered.snapshots[0].pass)));
        QVERIFY(waitForDiff());
        QCOMPARE(withoutFillers(view_->beforeEditor()),
                 normalized(tir::toString(f.lowered.scheduled)));
        QCOMPARE(withoutFillers(view_->afterEditor()), normalized(f.lowered.snapshots[0].text.text));
        QCOMPARE(view_->afterEditor()->language(), views::Language::Tir);
        auto* info = tir::findTirPass(f.lowered.snapshots[0].pass);
        QVERIFY(info);
        QVERIFY(view_->descriptionLabel()->text().contains(
            QString::fromStdString(info->summary).toHtmlEscaped()));
    }

    void hidingUnchangedPassesShortensTheList() {
        int all = view_->visiblePassCount();
        int expected = 0;
        for (size_t i = 0; i < model_->graphStages.size(); ++i)
            expected += i == 0 || model_->graphStages[i].changed;
        expected += int(model_->lowerStages.size()); // each a new form, never hidden
        const auto& f = model_->functions.front();
        expected += 1;
        for (auto& s : f.lowered.snapshots)
            expected += s.changed;
        QVERIFY2(expected < all, "some pass changed nothing");
        QTest::mouseClick(view_->hideUnchangedBox(), Qt::LeftButton, {},
                          QPoint(8, view_->hideUnchangedBox()->height() / 2));
        QVERIFY(view_->hideUnchanged());
        QCOMPARE(view_->visiblePassCount(), expected);
        view_->setHideUnchanged(false);
        QCOMPARE(view_->visiblePassCount(), all);
    }

    void scriptSessionsHaveTirAndLlvmPasses() {
        auto p =
            std::filesystem::path(TESSEL_SOURCE_DIR) / "resources/examples/gemm/07_parallel.te";
        std::string script = readFile(p);
        auto a = std::make_shared<driver::FunctionArtifacts>(
            driver::compileScriptArtifacts(script, "07_parallel.te"));
        session_.setScript(QString::fromStdString(p.string()), QString::fromStdString(script));
        session_.setArtifacts(a);
        QVERIFY(!view_->groupItem(StageView::GraphPasses));
        QTreeWidgetItem* tirGroup = view_->groupItem(StageView::TirPasses);
        QVERIFY(tirGroup);
        QCOMPARE(tirGroup->childCount(), int(a->lowered.snapshots.size()) + 1);
        QVERIFY(view_->groupItem(StageView::LlvmPasses));

        QVERIFY(view_->selectPass(StageView::LlvmPasses, "llvm-opt"));
        QVERIFY(waitForDiff());
        QCOMPARE(withoutFillers(view_->beforeEditor()), normalized(a->build.llvmIR));
        QCOMPARE(withoutFillers(view_->afterEditor()), normalized(a->build.llvmIROptimized));
        QVERIFY(countColor(view_->afterEditor(), StageView::addedColor()) > 0);
        QCOMPARE(view_->afterEditor()->language(), views::Language::LlvmIr);
        // Hundreds of rows: both sides scroll together.
        auto* lbar = view_->beforeEditor()->verticalScrollBar();
        auto* rbar = view_->afterEditor()->verticalScrollBar();
        QVERIFY(lbar->maximum() > 100);
        lbar->setValue(100);
        QCOMPARE(rbar->value(), 100);
        rbar->setValue(40);
        QCOMPARE(lbar->value(), 40);
        view_->afterEditor()->horizontalScrollBar()->setValue(
            view_->afterEditor()->horizontalScrollBar()->maximum() / 2);
        QCOMPARE(view_->beforeEditor()->horizontalScrollBar()->value(),
                 view_->afterEditor()->horizontalScrollBar()->value());

        // storage-flatten turns N-d buffers flat: a real change.
        QVERIFY(view_->selectPass(StageView::TirPasses, "storage-flatten"));
        QVERIFY(waitForDiff());
        QVERIFY(countColor(view_->beforeEditor(), StageView::removedColor()) > 0);
        QVERIFY(countColor(view_->afterEditor(), StageView::addedColor()) > 0);
        QVERIFY(view_->beforeEditor()->toPlainText().contains("T.realize"));

        // The selection survives new artifacts for the same function.
        session_.setArtifacts(std::make_shared<driver::FunctionArtifacts>(*a));
        QCOMPARE(view_->selectedPass(), QString("storage-flatten"));
        QVERIFY(waitForDiff());
        QVERIFY(countColor(view_->afterEditor(), StageView::addedColor()) > 0);

        session_.clear();
        QCOMPARE(view_->passList()->topLevelItemCount(), 0);
        QVERIFY(view_->beforeEditor()->toPlainText().isEmpty());
    }

    void resnetGraphStaysResponsive() {
        // ResNet-18's graph stages (thousands of lines each) from the model
        // zoo, through the graph pipeline only. The diff runs on a worker;
        // the GUI thread only lays out the result.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string path = dir.filePath("resnet18.onnx").toStdString();
        frontend::writeZooModel("resnet18", path, 1);
        driver::ModelTrace trace = driver::optimizeModel(path, {});
        auto m = std::make_shared<driver::CompiledModel>();
        m->graphStages = trace.stages;
        session_.setModel(QString::fromStdString(path), m);
        size_t biggest = 1, lines = 0;
        for (size_t i = 1; i < m->graphStages.size(); ++i) {
            if (!m->graphStages[i].changed) continue;
            size_t n = size_t(
                std::count(m->graphStages[i].text.text.begin(), m->graphStages[i].text.text.end(), '\n'));
            if (n > lines) biggest = i, lines = n;
        }
        QElapsedTimer t;
        qint64 finished = -1, shown = -1;
        connect(session_.jobs(), &views::Jobs::finished, view_.get(),
                [&] { finished = t.elapsed(); });
        connect(view_.get(), &StageView::diffShown, view_.get(), [&] { shown = t.elapsed(); });
        t.start();
        QVERIFY(view_->selectPass(StageView::GraphPasses,
                                  QString::fromStdString(m->graphStages[biggest].pass)));
        qint64 selected = t.elapsed();
        QVERIFY(waitForDiff());
        QVERIFY(shown >= 0 && finished >= 0);
        qInfo("%s on ResNet-18 (%zu lines): select %lld ms, diff ready %lld ms, shown %lld ms (GUI "
              "thread %lld ms)",
              m->graphStages[biggest].pass.c_str(), lines, selected, finished, shown,
              selected + shown - finished);
        QVERIFY(countColor(view_->afterEditor(), StageView::addedColor()) > 0);
        QVERIFY2(selected < 50, "selecting a pass does not wait for its diff");
        QVERIFY2(shown - finished < 1000, "showing a graph-sized diff stays interactive");
        disconnect(session_.jobs(), nullptr, view_.get(), nullptr);
        disconnect(view_.get(), &StageView::diffShown, view_.get(), nullptr);
    }

    void cleanupTestCase() { view_.reset(); }
};

QTEST_MAIN(TestStageView)
#include "tst_stageview.moc"
