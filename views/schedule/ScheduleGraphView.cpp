#include "schedule/ScheduleGraphView.h"

#include "common/Jobs.h"
#include "driver/FunctionArtifacts.h"
#include "graph/GraphItems.h"
#include "graph/GraphLayout.h"
#include "graph/GraphView.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace tessel::views {

namespace {

using Kind = te::ScheduleGraphNode::Kind;

constexpr double kPadX = 8, kPadY = 5;

QColor fillOf(const te::ScheduleGraphNode& n) {
    switch (n.kind) {
    case Kind::Root: return QColor(0xee, 0xe8, 0xd5);
    case Kind::Placeholder: return QColor(0xe8, 0xe8, 0xe8);
    case Kind::Stage: return QColor(0xd6, 0xe6, 0xf5);
    case Kind::Split:
    case Kind::Fuse: return QColor(0xfd, 0xf6, 0xe3);
    case Kind::IterVar: break;
    }
    // Loops by what runs them: the colours say parallel, vector, unrolled.
    if (n.annotation == "parallel") return QColor(0xfc, 0xe0, 0xc8);
    if (n.annotation == "vectorize") return QColor(0xd9, 0xf0, 0xd3);
    if (n.annotation == "unroll") return QColor(0xe6, 0xdc, 0xf5);
    return n.leaf ? Qt::white : QColor(0xf4, 0xf4, 0xf4);
}

struct Built {
    LayoutInput input;
    QVector<QStringList> lines; ///< per node
};

Built describe(const te::ScheduleGraph& g, const GraphFonts& fonts) {
    Built b;
    const QFontMetricsF title(fonts.title), detail(fonts.detail), cluster(fonts.cluster);
    b.input.name = g.name;
    b.input.nodeSep = 12;
    b.input.rankSep = 22;
    for (const auto& n : g.nodes) {
        QStringList lines;
        for (const auto& l : n.label) lines << QString::fromStdString(l);
        double w = 0;
        for (int i = 0; i < lines.size(); ++i) w = std::max(w, (i ? detail : title).horizontalAdvance(lines[i]));
        double h = title.height() + std::max<qsizetype>(0, lines.size() - 1) * detail.height();
        LayoutNode ln;
        const bool round = n.kind == Kind::Split || n.kind == Kind::Fuse || n.kind == Kind::Root;
        // An ellipse needs about √2 of the text's box around the text.
        ln.width = (w + 2 * kPadX) * (round ? 1.3 : 1.0);
        ln.height = (h + 2 * kPadY) * (round ? 1.2 : 1.0);
        ln.cluster = n.cluster;
        for (const auto& l : n.label) ln.label.push_back(l);
        b.input.nodes.push_back(ln);
        b.lines << lines;
    }
    for (const auto& e : g.edges) b.input.edges.push_back({e.from, e.to});
    // Stages one under the other, not side by side: dot puts disconnected
    // clusters in a row, which for a convolution's five stages is a strip too
    // wide to read. Edges (laid out, never drawn) from the deepest node of
    // each cluster to the sources of the next rank each cluster below the last.
    if (g.clusters.size() > 1) {
        const size_t n = g.nodes.size();
        std::vector<int> depth(n, 0), indegree(n, 0);
        for (const auto& e : g.edges) ++indegree[size_t(e.to)];
        // Longest path from a source (the graph is a DAG; edges run from parents to children).
        for (size_t round = 0; round < n; ++round) {
            bool changed = false;
            for (const auto& e : g.edges)
                if (depth[size_t(e.to)] < depth[size_t(e.from)] + 1) depth[size_t(e.to)] = depth[size_t(e.from)] + 1, changed = true;
            if (!changed) break;
        }
        for (size_t c = 0; c + 1 < g.clusters.size(); ++c) {
            int deepest = -1;
            for (size_t i = 0; i < n; ++i)
                if (g.nodes[i].cluster == int(c) && (deepest < 0 || depth[i] > depth[size_t(deepest)])) deepest = int(i);
            if (deepest < 0) continue;
            for (size_t i = 0; i < n; ++i)
                if (g.nodes[i].cluster == int(c + 1) && indegree[i] == 0) b.input.edges.push_back({deepest, int(i)});
        }
    }
    for (const auto& c : g.clusters) {
        LayoutCluster lc;
        lc.label = c;
        lc.labelWidth = cluster.horizontalAdvance(QString::fromStdString(c)) + 8;
        lc.labelHeight = cluster.height() + 4;
        b.input.clusters.push_back(lc);
    }
    return b;
}

QString tooltipOf(const te::ScheduleGraphNode& n) {
    QString what;
    switch (n.kind) {
    case Kind::Root: return ScheduleGraphView::tr("The schedule's root: stages computed at root hang here");
    case Kind::Placeholder: what = ScheduleGraphView::tr("Input %1").arg(QString::fromStdString(n.stage)); break;
    case Kind::Stage: what = ScheduleGraphView::tr("Stage %1").arg(QString::fromStdString(n.stage)); break;
    case Kind::IterVar:
        what = ScheduleGraphView::tr("Loop %1 of stage %2%3")
                   .arg(QString::fromStdString(n.iterVar), QString::fromStdString(n.stage),
                        n.leaf ? ScheduleGraphView::tr(" (leaf %1)").arg(n.leafIndex) : QString());
        break;
    case Kind::Split: what = ScheduleGraphView::tr("A split of stage %1").arg(QString::fromStdString(n.stage)); break;
    case Kind::Fuse: what = ScheduleGraphView::tr("A fuse of stage %1").arg(QString::fromStdString(n.stage)); break;
    }
    if (n.lines.empty()) return what;
    QStringList lines;
    for (int l : n.lines) lines << QString::number(l);
    lines.removeDuplicates();
    return ScheduleGraphView::tr("%1\nScript lines: %2 (click to go to the first)").arg(what, lines.join(QStringLiteral(", ")));
}

} // namespace

ScheduleGraphView::ScheduleGraphView(Jobs* jobs, QWidget* parent)
    : QWidget(parent), jobs_(jobs), chooser_(new QComboBox), view_(new GraphView), scene_(new QGraphicsScene(this)),
      note_(new QLabel) {
    setObjectName(QStringLiteral("ScheduleGraphView"));
    chooser_->addItem(tr("Dataflow"), Dataflow);
    chooser_->addItem(tr("Schedule Tree"), ScheduleTree);
    chooser_->addItem(tr("Itervar Relations"), IterVars);
    chooser_->setCurrentIndex(chooser_->findData(int(picture_)));
    chooser_->setToolTip(tr("TEDD's pictures of the schedule: the stages and the tensors they read; the loop nest with "
                            "where each stage is computed; how splits and fuses made each stage's loops"));
    connect(chooser_, &QComboBox::activated, this,
            [this](int i) { setPicture(Picture(chooser_->itemData(i).toInt())); });
    note_->setWordWrap(true);
    note_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    view_->setScene(scene_);
    view_->setDragMode(QGraphicsView::ScrollHandDrag);
    connect(scene_, &QGraphicsScene::selectionChanged, this, &ScheduleGraphView::onSelection);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(2, 2, 2, 2);
    top->addWidget(chooser_);
    top->addWidget(note_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(view_, 1);
}

ScheduleGraphView::~ScheduleGraphView() {
    // The scene, a child, clears its items in ~QObject, after this object is
    // no longer a ScheduleGraphView: its selectionChanged must not reach
    // onSelection then (UBSan: a call through a downcast of a dying object).
    disconnect(scene_, nullptr, this, nullptr);
}

void ScheduleGraphView::setArtifacts(std::shared_ptr<const driver::FunctionArtifacts> artifacts) {
    artifacts_ = std::move(artifacts);
    ++epoch_;
    stale_ = true;
    refresh();
}

void ScheduleGraphView::setPicture(Picture p) {
    if (p == picture_ && !stale_) return;
    picture_ = p;
    chooser_->setCurrentIndex(chooser_->findData(int(p)));
    ++epoch_;
    stale_ = true;
    refresh();
}

void ScheduleGraphView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) refresh();
}

QGraphicsItem* ScheduleGraphView::nodeItem(int index) const { return nodeItems_.value(index); }

void ScheduleGraphView::refresh() {
    // Out of sight, a new schedule only marks the picture stale: it is laid
    // out when shown (showEvent), so re-lowering while typing costs nothing here.
    if (!isVisible() || !stale_) return;
    stale_ = false;
    const te::Schedule s = artifacts_ ? artifacts_->lowered.schedule : te::Schedule();
    if (!s.defined()) {
        graph_ = {};
        nodeItems_.clear();
        scene_->clear();
        note_->setText(tr("No schedule: open a TE script or choose a fused function."));
        pending_ = false;
        emit pictureReady();
        return;
    }
    graph_ = picture_ == Dataflow ? te::dataflowGraph(s) : picture_ == ScheduleTree ? te::scheduleTree(s) : te::itervarGraph(s);
    static const GraphFonts fonts = GraphFonts::standard();
    auto built = std::make_shared<Built>(describe(graph_, fonts));
    pending_ = true;
    const quint64 epoch = epoch_;
    jobs_->run<std::shared_ptr<LayoutResult>>(
        QStringLiteral("schedule-pictures"), tr("Laying out the schedule picture"),
        [built](const CancelToken&) { return std::make_shared<LayoutResult>(computeLayout(built->input)); }, this,
        [this, built, epoch](std::shared_ptr<LayoutResult> r) {
            if (epoch != epoch_) return; // a newer schedule or picture is on its way
            pending_ = false;
            scene_->clear();
            nodeItems_.clear();
            const QPen line(QColor(0x58, 0x6e, 0x75), 1.0);
            for (size_t c = 0; c < r->clusters.size(); ++c) {
                const LayoutRect& cr = r->clusters[c];
                QPainterPath p;
                p.addRoundedRect(QRectF(cr.x, cr.y, cr.width, cr.height), 6, 6);
                auto* box = scene_->addPath(p, QPen(QColor(0x93, 0xa1, 0xa1), 1, Qt::DashLine), QColor(0xfa, 0xfa, 0xf7));
                box->setZValue(-2);
                auto* label = scene_->addSimpleText(QString::fromStdString(graph_.clusters[c]), fonts.cluster);
                const QRectF lr = label->boundingRect();
                label->setPos(r->clusterLabels[c].x - lr.width() / 2, r->clusterLabels[c].y - lr.height() / 2);
                label->setZValue(-1);
            }
            // Only the graph's own edges: the rest only stack the clusters.
            for (size_t i = 0; i < graph_.edges.size() && i < r->edges.size(); ++i) {
                const LayoutEdgeRoute& e = r->edges[i];
                if (e.points.empty()) continue;
                QPainterPath p(QPointF(e.points[0].x, e.points[0].y));
                for (size_t k = 1; k + 2 < e.points.size(); k += 3)
                    p.cubicTo(e.points[k].x, e.points[k].y, e.points[k + 1].x, e.points[k + 1].y, e.points[k + 2].x,
                              e.points[k + 2].y);
                scene_->addPath(p, line)->setZValue(0);
                if (e.arrow) {
                    const QPointF from(e.points.back().x, e.points.back().y), tip(e.arrowTip.x, e.arrowTip.y);
                    const QLineF axis(from, tip);
                    QLineF n = axis.normalVector();
                    n.setLength(3.5);
                    const QPointF d = n.p2() - n.p1();
                    scene_->addPolygon(QPolygonF({tip, from + d, from - d}), line, line.color())->setZValue(0);
                }
                const std::string& text = graph_.edges[i].label;
                if (!text.empty()) {
                    // dot routes no labels here: the text sits beside the spline's middle.
                    const LayoutPoint& mid = e.points[e.points.size() / 2];
                    auto* t = scene_->addSimpleText(QString::fromStdString(text), fonts.detail);
                    t->setBrush(QColor(0x65, 0x7b, 0x83));
                    t->setPos(mid.x + 3, mid.y - t->boundingRect().height() / 2);
                    t->setZValue(1);
                }
            }
            for (size_t i = 0; i < r->nodes.size(); ++i) {
                const te::ScheduleGraphNode& n = graph_.nodes[i];
                const LayoutRect& nr = r->nodes[i];
                const QRectF rect(nr.x, nr.y, nr.width, nr.height);
                QPainterPath p;
                if (n.kind == Kind::Split || n.kind == Kind::Fuse || n.kind == Kind::Root) p.addEllipse(rect);
                else p.addRoundedRect(rect, 4, 4);
                QPen pen(QColor(0x07, 0x36, 0x42), n.kind == Kind::IterVar && n.leaf ? 1.8 : 1.0);
                auto* item = scene_->addPath(p, pen, fillOf(n));
                item->setFlag(QGraphicsItem::ItemIsSelectable, !n.lines.empty());
                item->setData(0, int(i));
                item->setToolTip(tooltipOf(n));
                item->setZValue(2);
                const QStringList& lines = built->lines[int(i)];
                double y = rect.center().y() -
                           (QFontMetricsF(fonts.title).height() +
                            std::max<qsizetype>(0, lines.size() - 1) * QFontMetricsF(fonts.detail).height()) / 2;
                for (int k = 0; k < lines.size(); ++k) {
                    auto* t = new QGraphicsSimpleTextItem(lines[k], item);
                    t->setFont(k ? fonts.detail : fonts.title);
                    const QRectF tr = t->boundingRect();
                    t->setPos(rect.center().x() - tr.width() / 2, y);
                    y += tr.height();
                }
                nodeItems_ << item;
            }
            const LayoutRect& b = r->bounds;
            scene_->setSceneRect(QRectF(b.x, b.y, b.width, b.height).adjusted(-8, -8, 8, 8));
            // Readable first (a large schedule from its top), the whole
            // picture a zoom or a maximised pane away.
            view_->fitReadable();
            note_->setText(picture_ == ScheduleTree
                               ? tr("Loops outermost first; a stage hangs under the loop it is computed at.")
                           : picture_ == IterVars ? tr("Bold: the loops each stage runs (its leaves).")
                                                  : tr("Producer → consumer, labelled with the tensor read."));
            emit pictureReady();
        },
        [this, epoch](const QString& err) {
            if (epoch != epoch_) return;
            pending_ = false;
            note_->setText(tr("Cannot lay out the picture: %1").arg(err));
            emit pictureReady();
        });
}

void ScheduleGraphView::onSelection() {
    for (QGraphicsItem* item : scene_->selectedItems()) {
        const int i = item->data(0).toInt();
        if (i >= 0 && i < int(graph_.nodes.size()) && !graph_.nodes[size_t(i)].lines.empty()) {
            emit lineActivated(graph_.nodes[size_t(i)].lines.front());
            return;
        }
    }
}

QImage ScheduleGraphView::render() const {
    const QRectF r = scene_->sceneRect();
    QImage img(r.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    scene_->render(&p, QRectF(QPointF(), r.size()), r);
    return img;
}

} // namespace tessel::views
