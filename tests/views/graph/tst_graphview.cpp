// The graph view (views/graph) on real compiled models, offscreen: Graphviz
// layout geometry, the scene's items, clicks selecting fused functions in the
// session, search, stage switching, zoom, the properties panel and exports.

#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelDriver.h"
#include "driver/ModelRunner.h"
#include "frontend/ModelZoo.h"
#include "graph/GraphDocument.h"
#include "graph/GraphLayout.h"
#include "graph/GraphPanel.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"
#include "graph/NodeProperties.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <map>
#include <random>

using namespace tessel;
using namespace tessel::views;

namespace {

graph::TensorType type(const char* text) {
    return *graph::TensorType::parse(text);
}

std::vector<double> values(size_t n, unsigned seed, double lo = -0.5, double hi = 0.5) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (auto& x : v)
        x = u(rng);
    return v;
}

/// x -> Conv -> BatchNormalization -> Relu -> Conv -> Add(residual) -> Relu
///   -> GlobalAveragePool -> Flatten -> Gemm: the batch norm folds away, and
/// two fused groups of two and three operators remain.
graph::Graph smallNet() {
    graph::Graph g("small");
    auto x = g.addInput("x", type("float32[1, 8, 10, 10]"));
    auto w1 =
        g.addConstant("w1", graph::Constant::fromFloats({16, 8, 3, 3}, values(16 * 8 * 9, 1)));
    auto b1 = g.addConstant("b1", graph::Constant::fromFloats({16}, values(16, 2)));
    auto scale =
        g.addConstant("bn.scale", graph::Constant::fromFloats({16}, values(16, 3, 0.5, 1.5)));
    auto bias = g.addConstant("bn.bias", graph::Constant::fromFloats({16}, values(16, 4)));
    auto mean = g.addConstant("bn.mean", graph::Constant::fromFloats({16}, values(16, 5)));
    auto var = g.addConstant("bn.var", graph::Constant::fromFloats({16}, values(16, 6, 0.5, 2)));
    auto w2 = g.addConstant("w2", graph::Constant::fromFloats({16, 16, 1, 1}, values(16 * 16, 7)));
    auto fw = g.addConstant("fc.weight", graph::Constant::fromFloats({10, 16}, values(160, 8)));
    auto fb = g.addConstant("fc.bias", graph::Constant::fromFloats({10}, values(10, 9)));
    graph::Attributes pads;
    pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    auto c1 = g.addOp("Conv", {x, w1, b1}, pads, "conv1");
    auto bn = g.addOp("BatchNormalization", {c1, scale, bias, mean, var}, {}, "bn1");
    auto r1 = g.addOp("Relu", {bn}, {}, "relu1");
    auto c2 = g.addOp("Conv", {r1, w2}, {}, "conv2");
    auto r2 = g.addOp("Relu", {g.addOp("Add", {c2, r1}, {}, "add")}, {}, "relu2");
    auto pool = g.addOp("GlobalAveragePool", {r2}, {}, "pool");
    auto flat = g.addOp("Flatten", {pool}, {}, "flatten");
    graph::Attributes transB;
    transB.set("transB", int64_t(1));
    g.setOutputs({g.addOp("Gemm", {flat, fw, fb}, transB, "fc")});
    return g;
}

bool overlaps(const QRectF& a, const QRectF& b) {
    // Touching is fine; a real overlap is more than a rounding error.
    return a.adjusted(0.5, 0.5, -0.5, -0.5).intersects(b.adjusted(0.5, 0.5, -0.5, -0.5));
}

/// Every box inside the bounds and no two boxes overlapping.
void checkGeometry(const LayoutInput& in, const LayoutResult& out) {
    QCOMPARE(out.nodes.size(), in.nodes.size());
    QCOMPARE(out.edges.size(), in.edges.size());
    QRectF bounds(out.bounds.x, out.bounds.y, out.bounds.width, out.bounds.height);
    std::vector<QRectF> boxes;
    for (size_t i = 0; i < out.nodes.size(); ++i) {
        const auto& r = out.nodes[i];
        QRectF box(r.x, r.y, r.width, r.height);
        QVERIFY2(bounds.adjusted(-1, -1, 1, 1).contains(box),
                 qPrintable(QString("box %1 is outside").arg(i)));
        QCOMPARE(r.width, in.nodes[i].width);
        QCOMPARE(r.height, in.nodes[i].height);
        for (size_t j = 0; j < boxes.size(); ++j)
            QVERIFY2(!overlaps(box, boxes[j]),
                     qPrintable(QString("boxes %1 and %2 overlap").arg(i).arg(j)));
        boxes.push_back(box);
    }
    for (size_t c = 0; c < out.clusters.size(); ++c) {
        const auto& r = out.clusters[c];
        QRectF rect(r.x, r.y, r.width, r.height);
        for (size_t i = 0; i < in.nodes.size(); ++i)
            if (in.nodes[i].cluster == int(c))
                QVERIFY2(rect.contains(boxes[i]),
                         qPrintable(QString("box %1 is outside its cluster").arg(i)));
            else
                QVERIFY2(!rect.contains(boxes[i].center()),
                         qPrintable(QString("box %1 is inside cluster %2").arg(i).arg(c)));
    }
}

} // namespace

class TestGraphView : public QObject {
    Q_OBJECT

    std::shared_ptr<const driver::CompiledModel> model_;

    /// A panel over a fresh session with the small compiled model, laid out.
    struct Fixture {
        Session session;
        GraphPanel panel{&session};
        NodeProperties properties{&session};
        explicit Fixture(std::shared_ptr<const driver::CompiledModel> m) {
            properties.follow(&panel);
            panel.resize(900, 700);
            panel.show();
            properties.resize(400, 600);
            properties.show();
            session.setModel(QStringLiteral("small.onnx"), std::move(m));
            session.jobs()->waitForIdle();
        }
    };

    static int indexOfOp(const GraphDocument& doc, const QString& name) {
        for (size_t i = 0; i < doc.nodes.size(); ++i)
            if (doc.nodes[i].name == name) return int(i);
        return -1;
    }

    static QPoint viewPos(GraphPanel& panel, const QPointF& scenePoint) {
        return panel.view()->mapFromScene(scenePoint);
    }

private slots:
    void initTestCase() {
        driver::CompileOptions o;
        o.trace = true;
        model_ = std::make_shared<const driver::CompiledModel>(driver::compileGraph(smallNet(), o));
        QVERIFY(model_->functions.size() >= 3);
    }

    void layoutOfNothingDoesNotCrash() {
        LayoutResult empty = computeLayout({});
        QVERIFY(empty.nodes.empty());
        QCOMPARE(empty.bounds.width, 0.0);
        QVERIFY(toDot({}).find("digraph") != std::string::npos);
        // A bad edge is an exception, not a crash.
        LayoutInput bad;
        bad.nodes.resize(1);
        bad.edges.push_back({0, 3});
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, computeLayout(bad));

        // No model, then a model whose graph is empty.
        Session session;
        GraphPanel panel(&session);
        QVERIFY(!panel.layoutPending());
        QVERIFY(panel.scene()->items().size() == 1); // the "open a model" message
        auto empty_model = std::make_shared<driver::CompiledModel>();
        session.setModel(QStringLiteral("empty.onnx"), empty_model);
        QVERIFY(session.jobs()->waitForIdle());
        QVERIFY(panel.document());
        QVERIFY(panel.document()->nodes.empty());
        QCOMPARE(panel.scene()->nodeItemCount(), 0);
        QCOMPARE(panel.search("Conv"), 0);
    }

    void drawsEveryNodeEdgeAndCluster() {
        Fixture f(model_);
        auto doc = f.panel.document();
        QVERIFY(doc);
        QVERIFY(doc->stage.fused);
        GraphScene* scene = f.panel.scene();
        QCOMPARE(scene->nodeItemCount(), int(doc->nodes.size()));
        QCOMPARE(scene->edgeItemCount(), int(doc->edges.size()));
        // Inputs, the 8 operators left after folding the batch norm, the output.
        QCOMPARE(int(doc->nodes.size()), 1 + int(model_->graph.nodes().size()) + 1);
        QVERIFY(indexOfOp(*doc, "bn1") < 0);

        // One cluster per fused group of two or more operators, named after it.
        int multi = 0;
        for (const auto& g : model_->fusion.groups)
            if (g.members.size() >= 2) {
                ++multi;
                int c = doc->clusterOfFunction(QString::fromStdString(g.name));
                QVERIFY2(c >= 0, g.name.c_str());
                QCOMPARE(scene->clusterItem(c)->label(), QString::fromStdString(g.name));
                QCOMPARE(doc->clusters[size_t(c)].members.size(), g.members.size());
            }
        // conv1 + relu1, conv2 + add + relu2, and the transform back to NCHW
        // (alter-layout's) with the Flatten.
        QCOMPARE(multi, 3);
        QCOMPARE(scene->clusterItemCount(), multi);
        QVERIFY(doc->clusters[0].color != doc->clusters[1].color);

        checkGeometry(scene->layoutInputUsed(), scene->layout());
        for (int i = 0; i < scene->nodeItemCount(); ++i) {
            const auto& r = scene->layout().nodes[size_t(i)];
            QCOMPARE(scene->nodeItem(i)->rect(), QRectF(r.x, r.y, r.width, r.height));
        }
        // Edges: real splines ending in an arrow that touches the target box.
        for (int i = 0; i < scene->edgeItemCount(); ++i) {
            EdgeItem* e = scene->edgeItem(i);
            QVERIFY(e->path().elementCount() >= 4); // a move and at least one cubic
            QCOMPARE(e->arrow().size(), 3);
            QRectF target = scene->nodeItem(doc->edges[size_t(i)].to)->rect();
            QVERIFY2(target.adjusted(-2, -2, 2, 2).contains(e->arrow().first()),
                     qPrintable(QString("edge %1's arrow misses its target").arg(i)));
            QRectF source = scene->nodeItem(doc->edges[size_t(i)].from)->rect();
            QPointF start = e->path().elementAt(0);
            QVERIFY2(source.adjusted(-2, -2, 2, 2).contains(start),
                     qPrintable(QString("edge %1 starts off its source").arg(i)));
        }
        // Top to bottom: the input above the first conv, which is above the Gemm.
        QVERIFY(scene->nodeItem(0)->rect().bottom() <
                scene->nodeItem(indexOfOp(*doc, "conv1"))->rect().top());
        QVERIFY(scene->nodeItem(indexOfOp(*doc, "conv1"))->rect().bottom() <
                scene->nodeItem(indexOfOp(*doc, "fc"))->rect().top());
    }

    void clickingAFusedNodeSelectsItsFunction() {
        Fixture f(model_);
        auto doc = f.panel.document();
        int relu = indexOfOp(*doc, "relu2");
        QVERIFY(relu >= 0);
        QString function = doc->nodes[size_t(relu)].function;
        QVERIFY(function.startsWith("fused_conv_add_relu"));
        QVERIFY(model_->findFunction(function.toStdString()));
        QSignalSpy selected(&f.session, &Session::currentFunctionChanged);

        NodeItem* item = f.panel.scene()->nodeItem(relu);
        f.panel.view()->reveal(item->rect());
        QTest::mouseClick(f.panel.view()->viewport(), Qt::LeftButton, {},
                          viewPos(f.panel, item->rect().center()));
        QVERIFY(item->isSelected());
        QCOMPARE(f.session.currentFunction(), function);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(f.panel.selection().node, relu);

        // The properties panel followed the click.
        QCOMPARE(f.properties.value("Operator"), QString("Relu"));
        QCOMPARE(f.properties.value("Fused function"), function);
        QCOMPARE(f.properties.value("Pattern"), QString("element-wise"));
        QVERIFY2(f.properties.text().contains("follows"), qPrintable(f.properties.text()));
        // Its edges are drawn highlighted; clicking the background clears the selection.
        QPointF empty = f.panel.scene()->sceneRect().topLeft() + QPointF(3, 3);
        f.panel.view()->centerOn(empty);
        QTest::mouseClick(f.panel.view()->viewport(), Qt::LeftButton, {}, viewPos(f.panel, empty));
        QCOMPARE(f.panel.selection().node, -1);
        QCOMPARE(f.properties.value("Operator"), QString());

        // A cluster's label selects its function too.
        int other = doc->clusterOfFunction(doc->nodes[size_t(indexOfOp(*doc, "relu1"))].function);
        QVERIFY(other >= 0);
        ClusterItem* cluster = f.panel.scene()->clusterItem(other);
        f.panel.view()->reveal(cluster->rect());
        QTest::mouseClick(f.panel.view()->viewport(), Qt::LeftButton, {},
                          viewPos(f.panel, cluster->labelRect().center()));
        QCOMPARE(f.session.currentFunction(), cluster->label());
        QCOMPARE(f.panel.selection().cluster, other);
        QVERIFY(f.properties.text().contains(cluster->label()));
        QVERIFY(f.properties.value("Operators") == "2");
        QVERIFY(cluster->isFunctionHighlighted());
    }

    void functionSelectedElsewhereIsHighlightedAndCentred() {
        Fixture f(model_);
        auto doc = f.panel.document();
        f.panel.view()->zoomBy(4); // so centring has to move
        f.panel.view()->centerOn(f.panel.scene()->sceneRect().topLeft());
        const auto& cluster = doc->clusters.back();
        f.session.selectFunction(cluster.name);
        ClusterItem* item = f.panel.scene()->clusterItem(int(doc->clusters.size()) - 1);
        QVERIFY(item->isFunctionHighlighted());
        QVERIFY(!f.panel.scene()->clusterItem(0)->isFunctionHighlighted());
        QPointF centre = f.panel.view()->mapToScene(f.panel.view()->viewport()->rect().center());
        QVERIFY2(QLineF(centre, item->rect().center()).length() < 30,
                 qPrintable(QString("view centre is %1 px away")
                                .arg(QLineF(centre, item->rect().center()).length())));

        // A singleton function has no cluster: its box is outlined instead.
        int gemm = indexOfOp(*doc, "fc");
        QString fn = doc->nodes[size_t(gemm)].function;
        QVERIFY(!fn.isEmpty());
        QCOMPARE(doc->clusterOfFunction(fn), -1);
        f.session.selectFunction(fn);
        QVERIFY(f.panel.scene()->nodeItem(gemm)->isFunctionHighlighted());
        QVERIFY(!item->isFunctionHighlighted());
    }

    void searchFindsNodesByNameOrOperator() {
        Fixture f(model_);
        auto doc = f.panel.document();
        QCOMPARE(f.panel.search("gemm"), 1);
        int gemm = f.panel.matches().front();
        QCOMPARE(doc->nodes[size_t(gemm)].op, QString("Gemm"));
        QVERIFY(f.panel.scene()->nodeItem(gemm)->isMatched());
        QVERIFY(f.panel.scene()->nodeItem(gemm)->isCurrentMatch());
        QPointF centre = f.panel.view()->mapToScene(f.panel.view()->viewport()->rect().center());
        QVERIFY(
            f.panel.view()->mapFromScene(f.panel.scene()->nodeItem(gemm)->rect().center()).y() >=
            0);
        Q_UNUSED(centre);

        // By typing: two convolutions, Enter cycles through them.
        auto* edit = f.panel.findChild<QLineEdit*>();
        QVERIFY(edit);
        edit->clear();
        QTest::keyClicks(edit, "Conv");
        QCOMPARE(f.panel.matches().size(), size_t(2));
        int first = f.panel.matches()[0], second = f.panel.matches()[1];
        QVERIFY(f.panel.scene()->nodeItem(first)->isCurrentMatch());
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(f.panel.scene()->nodeItem(second)->isCurrentMatch());
        QVERIFY(!f.panel.scene()->nodeItem(first)->isCurrentMatch());
        QVERIFY(f.panel.scene()->nodeItem(first)->isMatched());
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(f.panel.scene()->nodeItem(first)->isCurrentMatch());
        // By node name, and nothing for nonsense.
        QCOMPARE(f.panel.search("relu1"), 1);
        QCOMPARE(f.panel.search("no-such-node"), 0);
        QVERIFY(!f.panel.scene()->nodeItem(first)->isMatched());
    }

    void switchesBetweenStages() {
        Fixture f(model_);
        const auto& stages = f.panel.stages();
        QCOMPARE(stages.size(), model_->graphStages.size() + 1);
        QCOMPARE(stages.front().pass, QString("import"));
        QVERIFY(stages.back().fused);
        auto* box = f.panel.findChild<QComboBox*>();
        QVERIFY(box);
        QCOMPARE(box->count(), int(stages.size()));
        QCOMPARE(box->currentIndex(), box->count() - 1);
        bool someUnchanged = false;
        for (size_t i = 0; i < stages.size(); ++i) {
            QCOMPARE(box->itemText(int(i)), stages[i].title);
            if (!stages[i].changed) {
                someUnchanged = true;
                QVERIFY(stages[i].title.contains("(unchanged)"));
            }
        }
        QVERIFY(someUnchanged); // nothing to eliminate in this graph

        // The imported graph still has the batch norm and no clusters.
        box->setCurrentIndex(0);
        QVERIFY(f.panel.layoutPending());
        QVERIFY(f.session.jobs()->waitForIdle());
        QVERIFY(!f.panel.layoutPending());
        auto doc = f.panel.document();
        QCOMPARE(doc->stage.pass, QString("import"));
        QVERIFY(indexOfOp(*doc, "bn1") >= 0);
        QCOMPARE(f.panel.scene()->clusterItemCount(), 0);
        QCOMPARE(f.panel.scene()->nodeItemCount(), int(doc->nodes.size()));
        checkGeometry(f.panel.scene()->layoutInputUsed(), f.panel.scene()->layout());
        // Fusion membership still shows by node id, and the batch norm says which pass removed it.
        QVERIFY(!doc->nodes[size_t(indexOfOp(*doc, "conv1"))].function.isEmpty());
        QString why = doc->fusionReason(indexOfOp(*doc, "bn1"));
        bool namesPass = false;
        for (const auto& s : model_->graphStages)
            namesPass |= why.contains(QString::fromStdString(s.pass));
        QVERIFY2(why.startsWith("Removed by") && namesPass, qPrintable(why));

        // A selected node stays selected across a stage switch.
        f.panel.selectNode(indexOfOp(*doc, "conv2"));
        QVERIFY(f.panel.setStageByPass("simplify-inference"));
        QVERIFY(f.session.jobs()->waitForIdle());
        doc = f.panel.document();
        QCOMPARE(doc->stage.pass, QString("simplify-inference"));
        for (const auto& n : doc->nodes)
            QVERIFY(n.op != "BatchNormalization");
        QCOMPARE(f.panel.selection().node, indexOfOp(*doc, "conv2"));

        // A stale layout is dropped: switch twice quickly, the last one wins.
        f.panel.setStage(1);
        f.panel.setStage(int(stages.size()) - 1);
        QVERIFY(f.session.jobs()->waitForIdle());
        QVERIFY(f.panel.document()->stage.fused);
        QCOMPARE(f.panel.scene()->clusterItemCount(), 3);
    }

    void zoomsAndPans() {
        Fixture f(model_);
        GraphView* view = f.panel.view();
        view->resetTransform();
        QCOMPARE(view->zoom(), 1.0);
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(view->zoom() > 1.2);
        QTest::keyClick(view, Qt::Key_Minus);
        QTest::keyClick(view, Qt::Key_Minus);
        QVERIFY(view->zoom() < 1.0);

        // The wheel zooms around the cursor: the scene point under it stays put
        // (zoomed in first, so the scene is larger than the view both ways).
        view->resetTransform();
        view->zoomBy(6);
        view->centerOn(f.panel.scene()->sceneRect().center());
        double z0 = view->zoom();
        QVERIFY(f.panel.scene()->sceneRect().width() * z0 > view->viewport()->width() * 1.3);
        QPoint cursor(200, 150);
        QPointF before = view->mapToScene(cursor);
        QWheelEvent wheel(cursor, view->viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY(view->zoom() > z0 * 1.1);
        QPointF after = view->mapToScene(cursor);
        QVERIFY2(QLineF(before, after).length() < 1,
                 qPrintable(QString("moved %1").arg(QLineF(before, after).length())));

        // Fit shows the whole graph.
        f.panel.fitToView();
        QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY(visible.adjusted(-2, -2, 2, 2).contains(f.panel.scene()->sceneRect()) ||
                view->zoom() <= 0.0201);

        // Dragging the background pans.
        view->resetTransform();
        view->zoomBy(3);
        view->centerOn(f.panel.scene()->sceneRect().center());
        int v0 = view->verticalScrollBar()->value();
        QPoint start = view->viewport()->rect().center();
        // Find a background point (no item under it) near the centre.
        for (int dx = 0; dx < 400 && view->itemAt(start); dx += 7)
            start.setX(view->viewport()->rect().center().x() + dx);
        QVERIFY(!view->itemAt(start));
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, start);
        QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(0, -80)),
                         QPointF(view->viewport()->mapToGlobal(start + QPoint(0, -80))),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, start + QPoint(0, -80));
        QVERIFY2(view->verticalScrollBar()->value() > v0 + 40,
                 qPrintable(QString("%1 -> %2").arg(v0).arg(view->verticalScrollBar()->value())));
    }

    void propertiesShowAttributesShapesAndReasons() {
        Fixture f(model_);
        auto doc = f.panel.document();
        int conv = indexOfOp(*doc, "conv1");
        f.panel.selectNode(conv);
        QCOMPARE(f.properties.value("Operator"), QString("Conv"));
        QCOMPARE(f.properties.value("Pattern"), QString("out-element-wise-fusable"));
        QCOMPARE(f.properties.value("Fused function"), doc->nodes[size_t(conv)].function);
        QString text = f.properties.text();
        QVERIFY2(text.contains("pads: [1, 1, 1, 1]"), qPrintable(text));
        QVERIFY2(text.contains("x: float32[1, 8, 10, 10]  (graph input)"), qPrintable(text));
        QVERIFY2(text.contains("constant"), qPrintable(text));
        // The output stored in channel blocks (alter-layout), read by the Relu.
        QVERIFY2(text.contains("out_layout: \"NCHW"), qPrintable(text));
        QVERIFY2(text.contains("float32<NCHW") && text.contains("  → Relu"), qPrintable(text));
        // Which implementation its function's anchor got, and why.
        QVERIFY2(text.contains("Strategy") && text.contains("conv2d_nchwc") && text.contains("Why"), qPrintable(text));
        QVERIFY2(text.contains("master"), qPrintable(text)); // "Conv is ...: master of group ..."
        QVERIFY(!text.contains("fuse.group"));

        // Clicking the function row selects it in the session.
        QTreeWidget* tree = f.properties.tree();
        int row = -1;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            if (tree->topLevelItem(i)->text(0) == "Fused function") row = i;
        QVERIFY(row >= 0);
        f.session.selectFunction(QString());
        QRect cell = tree->visualRect(tree->model()->index(row, 1));
        QVERIFY(cell.isValid());
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(f.session.currentFunction(), doc->nodes[size_t(conv)].function);

        // An explanation from the pattern kind when there is no plan.
        auto bare = GraphDocument::fromGraph(std::make_shared<const graph::Graph>(model_->graph));
        int opaque = -1;
        for (size_t i = 0; i < bare->nodes.size(); ++i)
            if (bare->nodes[i].op == "Relu") opaque = int(i);
        QVERIFY(bare->fusionReason(opaque).contains("element-wise"));
    }

    void aProfiledRunColoursEveryCluster() {
        Fixture f(model_);
        driver::ModelRunOptions ro;
        ro.repeat = 3;
        ro.profile = true;
        auto rep = driver::runModel(*model_, {}, {}, ro);
        QVERIFY2(rep.ok, rep.error.c_str());
        const auto times = Session::kernelTimes(*model_, rep.profile);
        QCOMPARE(times.size(), qsizetype(model_->functions.size()));
        f.session.setProfile(times, QStringLiteral("this machine"));
        auto doc = f.panel.document();
        QVERIFY(f.panel.scene()->clusterItemCount() > 0);
        // The heat of each cluster is its function's share; the largest is the most coloured.
        double hottest = -1;
        QString hottestName;
        for (auto it = times.begin(); it != times.end(); ++it)
            if (it->ms / f.session.profileTotalMs() > hottest) {
                hottest = it->ms / f.session.profileTotalMs();
                hottestName = it.key();
            }
        for (int i = 0; i < f.panel.scene()->clusterItemCount(); ++i) {
            ClusterItem* c = f.panel.scene()->clusterItem(i);
            const QString name = doc->clusters[size_t(i)].name;
            QVERIFY2(times.contains(name), qPrintable(name));
            QCOMPARE(c->heat(), times[name].ms / f.session.profileTotalMs());
            QVERIFY2(c->toolTip().contains(" ms") && c->toolTip().contains("GFLOP/s"), qPrintable(c->toolTip()));
            if (name == hottestName) {
                const QColor fill = c->paintedFill();
                QVERIFY(fill.red() > fill.blue()); // towards red
            }
        }
        // A function of one operator (the Gemm) is a box, tinted by its share.
        const int gemm = indexOfOp(*doc, "fc");
        QVERIFY(gemm >= 0 && doc->nodes[size_t(gemm)].cluster < 0);
        {
            const QString fn = doc->nodes[size_t(gemm)].function;
            QCOMPARE(f.panel.scene()->nodeItem(gemm)->heat(), times[fn].ms / f.session.profileTotalMs());
            QVERIFY(f.panel.scene()->nodeItem(gemm)->toolTip().contains(fn));
        }
        // Properties show the time of the selected node's function.
        int conv = indexOfOp(*doc, "conv1");
        f.panel.selectNode(conv);
        QVERIFY2(f.properties.value("Time").contains("ms ("), qPrintable(f.properties.text()));
        QVERIFY(f.properties.value("Throughput").contains("GFLOP/s"));
        // The Colour box is there with a profile (it has nothing to colour before).
        QComboBox* colour = nullptr;
        for (QComboBox* c : f.panel.findChildren<QComboBox*>())
            if (c->itemText(0) == "Colour: time") colour = c;
        QVERIFY(colour);
        QTRY_VERIFY(colour->isVisible() && colour->width() >= colour->minimumSizeHint().width());
        if (const QByteArray dir = qgetenv("TESSEL_SCREENSHOT_DIR"); !dir.isEmpty())
            f.panel.grab().save(QString::fromLocal8Bit(dir) + "/graph-profile.png");
        // Another model: the times are gone.
        f.session.setModel(QStringLiteral("small.onnx"), model_);
        f.session.jobs()->waitForIdle();
        QVERIFY(f.session.profile().isEmpty());
        QTRY_VERIFY(!colour->isVisible());
        for (int i = 0; i < f.panel.scene()->clusterItemCount(); ++i) QCOMPARE(f.panel.scene()->clusterItem(i)->heat(), -1.0);
    }

    // A model Tessel cannot compile (tests/frontend/models) is drawn as
    // imported: every node a box, opaque ones marked with a red dashed
    // border and their reason in Properties, an If's branches as clusters.
    void uncompilableModelsAreDrawnAndMarked() {
        const std::string models = TESSEL_SOURCE_DIR "/tests/frontend/models/";
        auto shown = driver::importModelToShow(models + "if.onnx", {});
        auto model = std::make_shared<const driver::CompiledModel>(driver::uncompiledModel(shown.graph));
        QCOMPARE(model->unsupported.size(), size_t(1)); // the custom operator in the else branch
        Fixture f(model);
        auto doc = f.panel.document();
        QVERIFY(doc);
        QVERIFY(!doc->stage.fused); // nothing fused: only the imported graph
        QCOMPARE(f.panel.findChild<QComboBox*>()->count(), 1);
        GraphScene* scene = f.panel.scene();
        QCOMPARE(scene->nodeItemCount(), int(doc->nodes.size()));
        QCOMPARE(scene->edgeItemCount(), int(doc->edges.size()));
        // Every operator of the graph and of both branches is a box; exactly
        // the opaque ones are marked.
        for (const char* name : {"sigmoid", "choose", "add", "then_relu", "else_neg", "else_custom"})
            QVERIFY2(indexOfOp(*doc, name) >= 0, name);
        int marked = 0;
        for (int i = 0; i < scene->nodeItemCount(); ++i) {
            const auto& n = doc->nodes[size_t(i)];
            const bool opaque = n.node && n.node->opaque();
            QCOMPARE(scene->nodeItem(i)->isUnsupported(), opaque);
            QCOMPARE(n.unsupported.isEmpty(), !opaque);
            marked += opaque;
        }
        QCOMPARE(marked, 1); // the custom operator in the else branch (an If compiles)
        QVERIFY(scene->nodeItem(indexOfOp(*doc, "else_custom"))->toolTip().contains("Cannot be compiled: operator domain"));
        QVERIFY(!scene->nodeItem(indexOfOp(*doc, "choose"))->isUnsupported());
        // The branches: one cluster each, holding their boxes, labelled by the node and attribute.
        QCOMPARE(scene->clusterItemCount(), 2);
        std::map<QString, int> clusterOf;
        for (size_t c = 0; c < doc->clusters.size(); ++c) {
            QCOMPARE(doc->clusters[c].kind, GraphDocCluster::Kind::Subgraph);
            QCOMPARE(doc->clusters[c].owner, indexOfOp(*doc, "choose"));
            clusterOf[doc->clusters[c].attr] = int(c);
            QCOMPARE(scene->clusterItem(int(c))->label(), "choose / " + doc->clusters[c].attr);
        }
        QCOMPARE(doc->nodes[size_t(indexOfOp(*doc, "then_relu"))].cluster, clusterOf["then_branch"]);
        QCOMPARE(doc->nodes[size_t(indexOfOp(*doc, "else_custom"))].cluster, clusterOf["else_branch"]);
        QCOMPARE(doc->nodes[size_t(indexOfOp(*doc, "sigmoid"))].cluster, -1);
        // The outer x the branches read: an edge from its box into each cluster.
        int outerEdges = 0;
        for (const auto& e : doc->edges)
            outerEdges += doc->nodes[size_t(e.from)].kind == GraphDocNode::Kind::Input &&
                          doc->nodes[size_t(e.from)].subgraph < 0 && doc->nodes[size_t(e.to)].subgraph >= 0;
        QCOMPARE(outerEdges, 2);
        checkGeometry(scene->layoutInputUsed(), scene->layout());
        // The branch outputs lead into the If, so the clusters sit above it.
        const QRectF choose = scene->nodeItem(indexOfOp(*doc, "choose"))->rect();
        for (int c = 0; c < 2; ++c) QVERIFY(scene->clusterItem(c)->rect().bottom() < choose.top());

        // Properties say why a node cannot compile.
        f.panel.selectNode(indexOfOp(*doc, "else_custom"));
        QCOMPARE(f.properties.value("Cannot compile"),
                 QString("operator domain 'com.example' is not supported (only the default ONNX domain is)"));
        QCOMPARE(f.properties.value("Domain"), QString("com.example"));
        f.panel.selectNode(indexOfOp(*doc, "choose"));
        QVERIFY2(f.properties.text().contains("Subgraphs: 2") && !f.properties.text().contains("Cannot be compiled"),
                 qPrintable(f.properties.text()));
        f.panel.selectNode(indexOfOp(*doc, "sigmoid"));
        QCOMPARE(f.properties.value("Cannot compile"), QString());
        QCOMPARE(f.properties.value("Fused function"), QString("none (the model cannot be compiled)"));
        if (const QByteArray dir = qgetenv("TESSEL_SCREENSHOT_DIR"); !dir.isEmpty()) {
            f.panel.fitToView();
            f.panel.grab().save(QString::fromLocal8Bit(dir) + "/graph-unsupported-if.png");
        }

        // Dynamic quantization: the operators the registry lacks are marked.
        auto dq = driver::importModelToShow(models + "dynquant.onnx", {});
        f.session.setModel(QStringLiteral("dynquant.onnx"),
                           std::make_shared<const driver::CompiledModel>(driver::uncompiledModel(dq.graph)));
        f.session.jobs()->waitForIdle();
        doc = f.panel.document();
        QCOMPARE(f.panel.scene()->nodeItemCount(), int(doc->nodes.size()));
        const auto& ops = graph::defaultOpRegistry();
        for (const char* name : {"quantize", "matmul_int", "custom", "relu"}) {
            const int i = indexOfOp(*doc, name);
            QVERIFY2(i >= 0, name);
            const bool lacking = std::string(name) == "custom" || !ops.find(doc->nodes[size_t(i)].node->op);
            QCOMPARE(f.panel.scene()->nodeItem(i)->isUnsupported(), lacking);
        }
        QCOMPARE(doc->nodes[size_t(indexOfOp(*doc, "custom"))].op, QString("com.example.FancyScale"));
        if (const QByteArray dir = qgetenv("TESSEL_SCREENSHOT_DIR"); !dir.isEmpty()) {
            f.panel.fitToView();
            f.panel.grab().save(QString::fromLocal8Bit(dir) + "/graph-unsupported-dynquant.png");
        }
    }

    // A model with a data-dependent output shape (NonMaxSuppression) compiles
    // and is drawn: the node is a box like any other, not marked, and says
    // where it runs; the regions around it are fused functions.
    void dataDependentNodesAreDrawn() {
        driver::CompileOptions o;
        o.trace = true;
        auto model = std::make_shared<const driver::CompiledModel>(
            driver::compileModel(TESSEL_SOURCE_DIR "/tests/frontend/models/dynshape/detector.onnx", {}, o));
        QVERIFY(model->program && model->unsupported.empty());
        Fixture f(model);
        auto doc = f.panel.document();
        QVERIFY(doc);
        GraphScene* scene = f.panel.scene();
        QCOMPARE(scene->nodeItemCount(), int(doc->nodes.size()));
        const int nms = indexOfOp(*doc, "nms");
        QVERIFY(nms >= 0);
        for (int i = 0; i < scene->nodeItemCount(); ++i) QVERIFY(!scene->nodeItem(i)->isUnsupported());
        QVERIFY2(doc->fusionReason(nms).contains("host executor"), qPrintable(doc->fusionReason(nms)));
        QVERIFY(!doc->nodes[size_t(indexOfOp(*doc, "topk"))].function.isEmpty()); // compiled with the model
        checkGeometry(scene->layoutInputUsed(), scene->layout());
    }

    // If's branches collapse to one box each (its node count) and expand
    // again: by double-clicking the cluster's label or the box, or all at
    // once; the layout is Graphviz's again and the selection is kept.
    void subgraphsCollapseAndExpand() {
        auto shown = driver::importModelToShow(TESSEL_SOURCE_DIR "/tests/frontend/models/if.onnx", {});
        Fixture f(std::make_shared<const driver::CompiledModel>(driver::uncompiledModel(shown.graph)));
        auto doc = f.panel.document();
        QVERIFY(doc && f.panel.hasSubgraphs());
        GraphScene* scene = f.panel.scene();
        int then = -1, other = -1;
        for (size_t c = 0; c < doc->clusters.size(); ++c)
            (doc->clusters[c].attr == "then_branch" ? then : other) = int(c);
        QVERIFY(then >= 0 && other >= 0);
        const int relu = indexOfOp(*doc, "then_relu"), choose = indexOfOp(*doc, "choose");
        const std::vector<int> members = doc->clusters[size_t(then)].members; // x, Relu, t
        QCOMPARE(members.size(), size_t(3));
        auto settle = [&] {
            QVERIFY(f.session.jobs()->waitForIdle());
            QCoreApplication::processEvents();
        };
        auto inScene = [&](QGraphicsItem* item) { return item && scene->items().contains(item); };
        f.panel.selectNode(relu);

        // Collapsed by a double-click on its label: its boxes, edges and
        // cluster are gone, one box with its node count stands in its place,
        // the selection moves to that box.
        ClusterItem* cluster = scene->clusterItem(then);
        QTest::mouseDClick(f.panel.view()->viewport(), Qt::LeftButton, {},
                           viewPos(f.panel, cluster->labelRect().center()));
        settle();
        QVERIFY(f.panel.isCollapsed(then));
        for (int m : members) QVERIFY2(!scene->nodeItem(m), qPrintable(doc->nodes[size_t(m)].name));
        int nodeItems = 0;
        for (QGraphicsItem* item : scene->items()) nodeItems += item->type() == NodeItem::Type;
        QCOMPARE(nodeItems, int(doc->nodes.size() - members.size()));
        QVERIFY(!scene->clusterItem(then));
        QVERIFY(inScene(scene->clusterItem(other)));
        SubgraphItem* box = scene->summaryItem(then);
        QVERIFY(inScene(box));
        QCOMPARE(box->lines(), QStringList({"choose / then_branch", "1 node"}));
        QCOMPARE(scene->selectedCluster(), then);
        QCOMPARE(scene->selectedNode(), -1);
        checkGeometry(scene->layoutInputUsed(), scene->layout()); // laid out by dot again, nothing overlapping
        // Its edges meet the box: the outer x in, its output into the If.
        const GraphFold& fold = scene->fold();
        bool intoIf = false, fromX = false;
        for (int e = 0; e < scene->edgeItemCount(); ++e) {
            const auto [a, b] = fold.edgeEnds[size_t(e)];
            intoIf = intoIf || (a == fold.summaryBox[size_t(then)] && b == fold.nodeBox[size_t(choose)]);
            fromX = fromX || (b == fold.summaryBox[size_t(then)] && fold.nodeOf[size_t(a)] >= 0 &&
                              doc->nodes[size_t(fold.nodeOf[size_t(a)])].name == "x");
        }
        QVERIFY(intoIf && fromX);
        QVERIFY(box->rect().bottom() < scene->nodeItem(choose)->rect().top());
        // In view, where the view put it (centred on the box).
        QVERIFY(f.panel.view()->mapToScene(f.panel.view()->viewport()->rect()).boundingRect().contains(box->rect()));
        // Search still finds a box inside: its subgraph's box is shown.
        QCOMPARE(f.panel.search("then_relu"), 1);
        QVERIFY(f.panel.view()->mapToScene(f.panel.view()->viewport()->rect()).boundingRect().intersects(box->rect()));
        f.panel.search(QString());
        if (const QByteArray dir = qgetenv("TESSEL_SCREENSHOT_DIR"); !dir.isEmpty())
            f.panel.grab().save(QString::fromLocal8Bit(dir) + "/graph-if-collapsed.png");

        // Expanded by a double-click on the box: all back, the box selected before selected again.
        QTest::mouseDClick(f.panel.view()->viewport(), Qt::LeftButton, {}, viewPos(f.panel, box->rect().center()));
        settle();
        QVERIFY(!f.panel.isCollapsed(then));
        QVERIFY(!scene->summaryItem(then));
        for (int m : members) QVERIFY(inScene(scene->nodeItem(m)));
        QVERIFY(inScene(scene->clusterItem(then)));
        QCOMPARE(scene->edgeItemCount(), int(doc->edges.size()));
        QCOMPARE(scene->selectedNode(), relu);

        // All at once (the toolbar's and the context menu's action), and back.
        f.panel.setAllCollapsed(true);
        settle();
        QVERIFY(f.panel.isCollapsed(then) && f.panel.isCollapsed(other));
        QCOMPARE(scene->layout().clusters.size(), size_t(0));
        QVERIFY(inScene(scene->summaryItem(other)));
        QCOMPARE(scene->summaryItem(other)->lines().last(), QString("2 nodes"));
        QCOMPARE(scene->selectedCluster(), then);
        checkGeometry(scene->layoutInputUsed(), scene->layout());
        f.panel.setAllCollapsed(false);
        settle();
        for (int i = 0; i < scene->nodeItemCount(); ++i) QVERIFY(inScene(scene->nodeItem(i)));
        QCOMPARE(scene->selectedNode(), relu);
    }

    // Two unnamed Ifs have subgraphs of the same name ("If / then_branch"):
    // collapsing one collapses that one alone, and an If's subgraph nested in
    // a branch of the other is yet another (issue 21: they were remembered by
    // name and collapsed together).
    void unnamedIfsCollapseOneByOne() {
        const auto f32 = *graph::TensorType::parse("float32[4]");
        // A branch: its input -> `op` -> out (a nested unnamed If inside when given).
        auto branch = [&](const std::string& op, std::vector<graph::Subgraph> nested = {}) {
            auto g = std::make_shared<graph::Graph>("branch");
            graph::Value in = g->addInput("b", f32);
            graph::Value v = g->addOp(op, {in});
            if (!nested.empty()) {
                auto inner = graph::Node::makeOpaque(g->newId(), "If", "", {v}, {}, std::move(nested),
                                                     "operator 'If' is not supported here", "", {f32}, {"n"});
                g->append(inner);
                v = inner->output(0);
            }
            g->setOutputs({v});
            return std::shared_ptr<const graph::Graph>(g);
        };
        graph::Graph g("main");
        graph::Value x = g.addInput("x", f32);
        auto first = graph::Node::makeOpaque(g.newId(), "If", "", {x}, {},
                                             {{"then_branch", branch("Relu")}, {"else_branch", branch("Neg")}},
                                             "operator 'If' is not supported here", "", {f32}, {"a"});
        g.append(first);
        auto second = graph::Node::makeOpaque(
            g.newId(), "If", "", {first->output(0)}, {},
            {{"then_branch", branch("Sigmoid", {{"then_branch", branch("Abs")}})}, {"else_branch", branch("Neg")}},
            "operator 'If' is not supported here", "", {f32}, {"y"});
        g.append(second);
        g.setOutputs({second->output(0)});
        Fixture f(std::make_shared<const driver::CompiledModel>(driver::uncompiledModel(g)));
        auto doc = f.panel.document();
        QVERIFY(doc && f.panel.hasSubgraphs());
        QCOMPARE(doc->clusters.size(), size_t(5));
        std::vector<int> thens; // by owner: the first If's, the second's, the one nested in it
        QSet<QString> keys;
        for (size_t c = 0; c < doc->clusters.size(); ++c) {
            keys.insert(doc->clusters[c].key);
            if (doc->clusters[c].name == QLatin1String("If / then_branch")) thens.push_back(int(c));
        }
        QCOMPARE(keys.size(), 5); // unique, where the names are not
        QCOMPARE(thens.size(), size_t(3));
        auto settle = [&] {
            QVERIFY(f.session.jobs()->waitForIdle());
            QCoreApplication::processEvents();
        };
        auto collapsed = [&] {
            std::vector<int> out;
            for (int c : thens) out.push_back(f.panel.isCollapsed(c));
            return out;
        };
        for (size_t i = 0; i < thens.size(); ++i) {
            f.panel.setCollapsed(thens[i], true);
            settle();
            std::vector<int> want(thens.size(), 0);
            want[i] = 1;
            QCOMPARE(collapsed(), want);
            QVERIFY(f.panel.scene()->summaryItem(thens[i]));
            f.panel.setCollapsed(thens[i], false);
            settle();
            QCOMPARE(collapsed(), std::vector<int>(thens.size(), 0));
        }
    }

    // The fold itself, on a hand-made document with a subgraph nested in
    // another: collapsing the inner one puts its box in the outer cluster;
    // collapsing the outer one hides both behind one box; edges are merged.
    void foldsNestedSubgraphs() {
        GraphDocument doc;
        auto box = [&](GraphDocNode::Kind kind, int cluster) {
            GraphDocNode n;
            n.kind = kind;
            n.cluster = cluster;
            doc.nodes.push_back(n);
            return int(doc.nodes.size()) - 1;
        };
        auto cluster = [&](int parent, int owner) {
            GraphDocCluster c;
            c.kind = GraphDocCluster::Kind::Subgraph;
            c.parent = parent;
            c.owner = owner;
            c.name = QString("c%1").arg(doc.clusters.size());
            doc.clusters.push_back(c);
            return int(doc.clusters.size()) - 1;
        };
        const int in = box(GraphDocNode::Kind::Input, -1), loop = box(GraphDocNode::Kind::Op, -1);
        const int body = cluster(-1, loop), branch = cluster(body, loop);
        const int a = box(GraphDocNode::Kind::Op, body), b = box(GraphDocNode::Kind::Op, body);
        const int c = box(GraphDocNode::Kind::Op, branch), d = box(GraphDocNode::Kind::Op, branch);
        doc.edges = {{in, loop}, {in, a}, {a, b}, {b, loop}, {a, c}, {c, d}, {d, b}, {in, c}};
        GraphFold all = GraphFold::of(doc);
        QVERIFY(!all.any);
        QCOMPARE(all.edgeOf.size(), doc.edges.size());
        QCOMPARE(all.operators, (std::vector<int>{4, 2}));

        GraphFold inner = GraphFold::of(doc, {branch});
        QVERIFY(inner.isCollapsed(branch) && !inner.isCollapsed(body));
        QCOMPARE(inner.nodeOf.size(), size_t(5)); // in, loop, a, b, the branch's box
        QCOMPARE(inner.hiddenIn[size_t(c)], branch);
        QCOMPARE(inner.clusterOf, std::vector<int>{body});
        // a -> c and in -> c meet the box; c -> d is inside it; d -> b leaves it.
        QCOMPARE(inner.edgeOf.size(), size_t(7));
        GraphScene scene;
        const LayoutInput li = scene.layoutInput(doc, inner);
        QCOMPARE(li.nodes[size_t(inner.summaryBox[size_t(branch)])].cluster, inner.clusterBox[size_t(body)]);
        checkGeometry(li, computeLayout(li));

        GraphFold outer = GraphFold::of(doc, {body, branch});
        QVERIFY(outer.isCollapsed(body) && !outer.isCollapsed(branch)); // inside the collapsed one
        QCOMPARE(outer.nodeOf.size(), size_t(3)); // in, loop, the body's box
        QCOMPARE(outer.hiddenIn[size_t(d)], body);
        QVERIFY(outer.clusterOf.empty());
        // in -> loop, in -> box (twice in the document), box -> loop.
        QCOMPARE(outer.edgeOf.size(), size_t(3));
    }

    void exportsWriteValidFiles() {
        Fixture f(model_);
        QTemporaryDir dir;
        QString svg = dir.filePath("g.svg"), png = dir.filePath("g.png"),
                dot = dir.filePath("g.dot");
        QVERIFY(f.panel.exportSvg(svg));
        QVERIFY(f.panel.exportPng(png));
        QVERIFY(f.panel.exportDot(dot));
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        QByteArray svgText = s.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("</svg>"));
        QVERIFY(svgText.contains("Gemm"));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= int(f.panel.scene()->sceneRect().width() * 1.9));
        // Not blank: the boxes' colours are in it.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);
        QFile d(dot);
        QVERIFY(d.open(QIODevice::ReadOnly));
        QByteArray dotText = d.readAll();
        QVERIFY(dotText.contains("digraph"));
        QVERIFY(dotText.contains("subgraph cluster_0"));
        QVERIFY(dotText.contains("fused_conv_add_relu"));
        QVERIFY(dotText.contains("->"));
        QVERIFY(dotText.contains("pos="));
        QCOMPARE(dotText.count("->"), qsizetype(f.panel.scene()->edgeItemCount()));
        // Graphviz itself reads it back, when its command-line tools are installed.
        QString dotTool = QStandardPaths::findExecutable("dot");
        if (!dotTool.isEmpty()) {
            QProcess p;
            p.start(dotTool, {"-Tplain", dot});
            QVERIFY(p.waitForFinished(20000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QVERIFY(p.readAllStandardOutput().startsWith("graph "));
        }
        // A directory that does not exist is reported, not a crash.
        QSignalSpy messages(&f.session, &Session::message);
        QVERIFY(!f.panel.exportDot(dir.filePath("missing/dir/g.dot")));
        QCOMPARE(messages.count(), 1);
        QVERIFY(messages.front().at(1).toBool());
    }

    void largeGraphsLayOutWithCappedIterations() {
        // 420 boxes (over the 300 where LayoutInput::fast caps dot's
        // iterations): a chain of blocks with skip edges, every third block a cluster.
        LayoutInput in;
        const int blocks = 140;
        for (int b = 0; b < blocks; ++b) {
            int cluster = b % 3 == 0 ? int(in.clusters.size()) : -1;
            if (cluster >= 0)
                in.clusters.push_back({"block" + std::to_string(b), "#eeeeff", 60, 14});
            for (int k = 0; k < 3; ++k) {
                LayoutNode n;
                n.width = 60 + (b * 7 + k * 13) % 50;
                n.height = 30;
                n.cluster = cluster;
                in.nodes.push_back(n);
            }
            int first = b * 3;
            in.edges.push_back({first, first + 1});
            in.edges.push_back({first + 1, first + 2});
            if (b > 0) {
                in.edges.push_back({first - 1, first});
                in.edges.push_back({first - 3, first + 2}); // a skip connection
            }
        }
        QVERIFY(in.fast);
        LayoutResult out = computeLayout(in);
        checkGeometry(in, out);
        QVERIFY2(out.messages.empty(), out.messages.c_str());
        QVERIFY2(out.seconds < 5.0, qPrintable(QString("%1 s").arg(out.seconds)));
        for (const auto& e : out.edges)
            QVERIFY(e.points.size() >= 4 && e.arrow);
    }

    void resnet18LaysOutCleanly() {
        QTemporaryDir dir;
        std::string path = dir.filePath("resnet18.onnx").toStdString();
        frontend::writeZooModel("resnet18", path, 1);
        auto trace = driver::optimizeModel(path, {});
        auto model = std::make_shared<driver::CompiledModel>();
        model->graph = trace.optimized;
        model->fusion = trace.fusion;
        model->graphStages = trace.stages;
        GraphScene scene;
        for (const auto& stage : graphStagesOf(model)) {
            if (stage.pass != "import" && !stage.fused) continue;
            auto doc = GraphDocument::build(stage, model);
            LayoutInput in = scene.layoutInput(*doc);
            LayoutResult out = computeLayout(in);
            checkGeometry(in, out);
            scene.setGraph(doc, in, out);
            QCOMPARE(scene.nodeItemCount(), int(doc->nodes.size()));
            if (stage.fused)
                QVERIFY(scene.clusterItemCount() >= 8); // conv+relu and conv+add+relu blocks
            QVERIFY2(out.seconds < 2.0, qPrintable(QString("%1 s").arg(out.seconds)));
        }
    }
};

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
