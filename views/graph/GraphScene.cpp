#include "graph/GraphScene.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsSimpleTextItem>
#include <QLineF>

#include <algorithm>
#include <cmath>
#include <set>

namespace tessel::views {

namespace {

constexpr double kPadX = 10, kPadY = 6, kMinWidth = 56;
constexpr double kArrowLength = 9, kArrowHalfWidth = 4;

/// A filled arrow head from `base` to `tip`.
QPolygonF arrowHead(const QPointF& base, const QPointF& tip) {
    QLineF line(tip, base);
    if (line.length() < 0.01) return {};
    QPointF dir = (base - tip) / line.length(); // from the tip back along the edge
    QPointF normal(-dir.y(), dir.x());
    QPointF back = tip + dir * std::max(line.length(), kArrowLength);
    return QPolygonF({tip, back + normal * kArrowHalfWidth, back - normal * kArrowHalfWidth});
}

QPainterPath splinePath(const LayoutEdgeRoute& route) {
    QPainterPath path;
    const auto& p = route.points;
    if (p.empty()) return path;
    path.moveTo(p[0].x, p[0].y);
    size_t i = 1;
    for (; i + 2 < p.size(); i += 3)
        path.cubicTo(p[i].x, p[i].y, p[i + 1].x, p[i + 1].y, p[i + 2].x, p[i + 2].y);
    for (; i < p.size(); ++i)
        path.lineTo(p[i].x, p[i].y); // a malformed tail, drawn straight
    return path;
}

} // namespace

GraphFold GraphFold::of(const GraphDocument& doc, const std::vector<int>& collapsed) {
    GraphFold f;
    const size_t n = doc.nodes.size(), clusters = doc.clusters.size();
    std::vector<bool> asked(clusters, false);
    for (int c : collapsed)
        if (c >= 0 && size_t(c) < clusters && doc.clusters[size_t(c)].kind == GraphDocCluster::Kind::Subgraph)
            asked[size_t(c)] = true;
    // The outermost collapsed subgraph each cluster is inside (parents come first).
    std::vector<int> hider(clusters, -1);
    for (size_t c = 0; c < clusters; ++c) {
        const int parent = doc.clusters[c].parent;
        if (parent >= 0 && size_t(parent) < c && hider[size_t(parent)] >= 0)
            hider[c] = hider[size_t(parent)];
        else if (asked[c])
            hider[c] = int(c);
    }
    f.nodeBox.assign(n, -1);
    f.hiddenIn.assign(n, -1);
    f.clusterBox.assign(clusters, -1);
    f.summaryBox.assign(clusters, -1);
    f.operators.assign(clusters, 0);
    for (size_t c = 0; c < clusters; ++c)
        if (hider[c] < 0) {
            f.clusterBox[c] = int(f.clusterOf.size());
            f.clusterOf.push_back(int(c));
        }
    // Operators per cluster, nested ones counted in every cluster around them.
    for (const auto& node : doc.nodes)
        if (node.kind == GraphDocNode::Kind::Op)
            for (int c = node.cluster; c >= 0; c = doc.clusters[size_t(c)].parent) {
                ++f.operators[size_t(c)];
                if (doc.clusters[size_t(c)].kind != GraphDocCluster::Kind::Subgraph) break;
            }
    // Boxes in document order; a collapsed subgraph's box where its first one was.
    for (size_t i = 0; i < n; ++i) {
        const int c = doc.nodes[i].cluster;
        const int h = c >= 0 ? hider[size_t(c)] : -1;
        if (h < 0) {
            f.nodeBox[i] = int(f.nodeOf.size());
            f.nodeOf.push_back(int(i));
            f.summaryOf.push_back(-1);
            continue;
        }
        f.any = true;
        f.hiddenIn[i] = h;
        if (f.summaryBox[size_t(h)] < 0) {
            f.summaryBox[size_t(h)] = int(f.nodeOf.size());
            f.nodeOf.push_back(-1);
            f.summaryOf.push_back(h);
        }
    }
    // Edges between what is drawn; one per pair, none inside a summary.
    auto drawnAs = [&](int box) {
        return f.hiddenIn[size_t(box)] >= 0 ? f.summaryBox[size_t(f.hiddenIn[size_t(box)])] : f.nodeBox[size_t(box)];
    };
    std::set<std::pair<int, int>> seen;
    for (size_t e = 0; e < doc.edges.size(); ++e) {
        const int a = drawnAs(doc.edges[e].from), b = drawnAs(doc.edges[e].to);
        if (f.any && (a == b || !seen.insert({a, b}).second)) continue;
        f.edgeOf.push_back(int(e));
        f.edgeEnds.emplace_back(a, b);
    }
    return f;
}

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent), fonts_(GraphFonts::standard()) {
    setBackgroundBrush(Qt::white);
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene() {
    // QGraphicsScene's destructor deletes the items, and deleting a selected
    // one emits selectionChanged: nobody may look at half-deleted items.
    blockSignals(true);
    nodes_.clear();
    edges_.clear();
    clusters_.clear();
}

QStringList GraphScene::labelLines(const GraphDocNode& node) {
    QStringList lines;
    bool op = node.kind == GraphDocNode::Kind::Op;
    QString first = op ? node.op : node.name;
    lines << (first.isEmpty() ? node.op : first);
    if (!node.type.isEmpty()) lines << node.type;
    return lines;
}

QStringList GraphScene::summaryLines(const GraphDocument& doc, const GraphFold& fold, int cluster) {
    const auto& c = doc.clusters[size_t(cluster)];
    const int n = fold.operators[size_t(cluster)];
    return {c.name, n == 1 ? tr("1 node") : tr("%1 nodes").arg(n)};
}

LayoutInput GraphScene::layoutInput(const GraphDocument& doc) const { return layoutInput(doc, GraphFold::of(doc)); }

LayoutInput GraphScene::layoutInput(const GraphDocument& doc, const GraphFold& fold) const {
    LayoutInput in;
    in.name = doc.graph ? doc.graph->name() : std::string("graph");
    QFontMetricsF tm(fonts_.title), dm(fonts_.detail), cm(fonts_.cluster);
    in.clusterFontSize = cm.height() * 0.8; // dot's font size for the label strip height
    in.nodes.reserve(fold.nodeOf.size());
    for (size_t k = 0; k < fold.nodeOf.size(); ++k) {
        if (fold.nodeOf[k] < 0) {
            // A collapsed subgraph: its name and node count on a stack of sheets.
            const int c = fold.summaryOf[k];
            LayoutNode ln;
            const QStringList lines = summaryLines(doc, fold, c);
            const double w = std::max(cm.horizontalAdvance(lines[0]), dm.horizontalAdvance(lines[1]));
            ln.width = std::ceil(std::max(kMinWidth, w + 2 * kPadX) + 2 * SubgraphItem::kStack);
            ln.height = std::ceil(cm.height() + dm.height() + 2 * kPadY + 2 * SubgraphItem::kStack);
            for (const auto& l : lines)
                ln.label.push_back(l.toStdString());
            ln.color = doc.clusters[size_t(c)].color.name().toStdString();
            const int parent = doc.clusters[size_t(c)].parent;
            ln.cluster = parent >= 0 ? fold.clusterBox[size_t(parent)] : -1;
            in.nodes.push_back(std::move(ln));
            continue;
        }
        const auto& n = doc.nodes[size_t(fold.nodeOf[k])];
        LayoutNode ln;
        QStringList lines = labelLines(n);
        double w = 0;
        for (int i = 0; i < lines.size(); ++i)
            w = std::max(w, (i == 0 ? tm : dm).horizontalAdvance(lines[i]));
        ln.width = std::ceil(std::max(kMinWidth, w + 2 * kPadX));
        ln.height = std::ceil(tm.height() + (lines.size() - 1) * dm.height() + 2 * kPadY);
        if (n.kind != GraphDocNode::Kind::Op) ln.width += std::ceil(ln.height / 2); // round ends
        for (const auto& l : lines)
            ln.label.push_back(l.toStdString());
        ln.color = (n.kind == GraphDocNode::Kind::Op ? GraphDocument::patternColor(n.pattern)
                                                     : QColor(Qt::white))
                       .name()
                       .toStdString();
        ln.cluster = n.cluster >= 0 ? fold.clusterBox[size_t(n.cluster)] : -1;
        in.nodes.push_back(std::move(ln));
    }
    for (const auto& [from, to] : fold.edgeEnds)
        in.edges.push_back({from, to});
    for (int ci : fold.clusterOf) {
        const auto& c = doc.clusters[size_t(ci)];
        LayoutCluster lc{c.name.toStdString(), c.color.name().toStdString()};
        lc.parent = c.parent >= 0 ? fold.clusterBox[size_t(c.parent)] : -1;
        lc.labelWidth = std::ceil(cm.horizontalAdvance(c.name) + 14); // ClusterItem's insets
        lc.labelHeight = std::ceil(cm.height() + 2);
        in.clusters.push_back(std::move(lc));
    }
    return in;
}

void GraphScene::setGraph(std::shared_ptr<const GraphDocument> doc, LayoutInput input,
                          LayoutResult layout) {
    GraphFold fold = doc ? GraphFold::of(*doc) : GraphFold();
    setGraph(std::move(doc), std::move(input), std::move(layout), std::move(fold));
}

void GraphScene::setGraph(std::shared_ptr<const GraphDocument> doc, LayoutInput input, LayoutResult layout,
                          GraphFold fold) {
    clearSelection();
    clear();
    nodes_.clear();
    edges_.clear();
    clusters_.clear();
    summaries_.clear();
    doc_ = std::move(doc);
    input_ = std::move(input);
    layout_ = std::move(layout);
    fold_ = std::move(fold);
    if (!doc_ || fold_.nodeBox.size() != doc_->nodes.size() || layout_.nodes.size() != fold_.nodeOf.size()) {
        setSceneRect(QRectF());
        return;
    }
    const auto& L = layout_;
    nodes_.assign(doc_->nodes.size(), nullptr);
    clusters_.assign(doc_->clusters.size(), nullptr);
    summaries_.assign(doc_->clusters.size(), nullptr);
    for (size_t k = 0; k < fold_.clusterOf.size() && k < L.clusters.size(); ++k) {
        const size_t c = size_t(fold_.clusterOf[k]);
        const auto& r = L.clusters[k];
        QPointF label = k < L.clusterLabels.size()
                            ? QPointF(L.clusterLabels[k].x, L.clusterLabels[k].y)
                            : QPointF(r.x, r.y + 8);
        auto* item = new ClusterItem(int(c), QRectF(r.x, r.y, r.width, r.height), label,
                                     doc_->clusters[c].name, doc_->clusters[c].color, fonts_);
        const auto& dc = doc_->clusters[c];
        if (dc.kind == GraphDocCluster::Kind::Subgraph)
            item->setToolTip(tr("Subgraph %1 of %2 (shown, not compiled): double-click its label to collapse it")
                                 .arg(dc.attr, dc.owner >= 0 ? doc_->nodes[size_t(dc.owner)].op : QString()));
        else
            item->setToolTip(tr("Fused function %1 (%n operators)", nullptr, int(dc.members.size())).arg(dc.name));
        item->setData(kBaseToolTipKey, item->toolTip());
        addItem(item);
        clusters_[c] = item;
    }
    for (size_t k = 0; k < fold_.nodeOf.size(); ++k) {
        const auto& r = L.nodes[k];
        if (fold_.nodeOf[k] < 0) {
            const int c = fold_.summaryOf[k];
            const auto& dc = doc_->clusters[size_t(c)];
            auto* item = new SubgraphItem(c, QRectF(r.x, r.y, r.width, r.height), summaryLines(*doc_, fold_, c),
                                          dc.color, fonts_);
            item->setToolTip(tr("Subgraph %1 of %2, collapsed (%3): double-click to expand it")
                                 .arg(dc.attr, dc.owner >= 0 ? doc_->nodes[size_t(dc.owner)].op : QString(),
                                      item->lines().last()));
            addItem(item);
            summaries_[size_t(c)] = item;
            continue;
        }
        const size_t i = size_t(fold_.nodeOf[k]);
        const auto& n = doc_->nodes[i];
        bool op = n.kind == GraphDocNode::Kind::Op;
        QColor fill = op ? GraphDocument::patternColor(n.pattern) : QColor(0xf7, 0xf7, 0xf7);
        auto* item = new NodeItem(int(i), QRectF(r.x, r.y, r.width, r.height), labelLines(n), fill,
                                  op ? NodeItem::Shape::Box : NodeItem::Shape::Terminal, fonts_);
        QString tip = n.op + QLatin1Char(' ') + n.name;
        if (!n.type.isEmpty()) tip += QLatin1Char('\n') + n.type;
        if (!n.function.isEmpty()) tip += QLatin1Char('\n') + tr("in %1").arg(n.function);
        if (!n.unsupported.isEmpty()) {
            tip += QLatin1Char('\n') + tr("Cannot be compiled: %1").arg(n.unsupported);
            item->setUnsupported(true);
        }
        item->setToolTip(tip.trimmed());
        item->setData(kBaseToolTipKey, item->toolTip());
        addItem(item);
        nodes_[i] = item;
    }
    for (size_t i = 0; i < fold_.edgeOf.size() && i < L.edges.size(); ++i) {
        const auto& route = L.edges[i];
        const auto& e = doc_->edges[size_t(fold_.edgeOf[i])];
        QPainterPath path = splinePath(route);
        QPolygonF arrow;
        if (path.isEmpty()) {
            // dot routed nothing (should not happen): a straight line.
            const auto& a = L.nodes[size_t(fold_.edgeEnds[i].first)];
            const auto& b = L.nodes[size_t(fold_.edgeEnds[i].second)];
            QPointF from(a.x + a.width / 2, a.y + a.height), to(b.x + b.width / 2, b.y);
            path.moveTo(from);
            path.lineTo(to - (to - from) / std::max(1.0, QLineF(from, to).length()) * kArrowLength);
            arrow = arrowHead(path.currentPosition(), to);
        } else if (route.arrow) {
            arrow = arrowHead(path.currentPosition(), QPointF(route.arrowTip.x, route.arrowTip.y));
        } else if (path.elementCount() > 1) {
            QPointF end = path.currentPosition();
            QPointF before = path.pointAtPercent(0.95);
            arrow = arrowHead(before, end);
        }
        auto* item = new EdgeItem(fold_.edgeOf[i], path, arrow);
        item->setToolTip(e.tensor + QStringLiteral(": ") + e.type);
        addItem(item);
        edges_.push_back(item);
    }
    double m = 24;
    setSceneRect(
        QRectF(L.bounds.x, L.bounds.y, L.bounds.width, L.bounds.height).adjusted(-m, -m, m, m));
}

void GraphScene::showMessage(const QString& text) {
    clearSelection();
    clear();
    nodes_.clear();
    edges_.clear();
    clusters_.clear();
    summaries_.clear();
    auto* item = addSimpleText(text, fonts_.title);
    item->setBrush(QColor(0x6b, 0x72, 0x80));
    setSceneRect(item->boundingRect().adjusted(-40, -40, 40, 40));
}

NodeItem* GraphScene::nodeItem(int index) const {
    return index >= 0 && index < int(nodes_.size()) ? nodes_[size_t(index)] : nullptr;
}

EdgeItem* GraphScene::edgeItem(int index) const {
    return index >= 0 && index < int(edges_.size()) ? edges_[size_t(index)] : nullptr;
}

ClusterItem* GraphScene::clusterItem(int index) const {
    return index >= 0 && index < int(clusters_.size()) ? clusters_[size_t(index)] : nullptr;
}

SubgraphItem* GraphScene::summaryItem(int cluster) const {
    return cluster >= 0 && cluster < int(summaries_.size()) ? summaries_[size_t(cluster)] : nullptr;
}

QRectF GraphScene::boxRect(int index) const {
    if (auto* n = nodeItem(index)) return n->rect();
    if (index >= 0 && index < int(fold_.hiddenIn.size()))
        if (auto* s = summaryItem(fold_.hiddenIn[size_t(index)])) return s->rect();
    return {};
}

void GraphScene::setMatches(const std::vector<int>& matches, int current) {
    for (auto* n : nodes_)
        if (n) n->setMatched(false);
    for (size_t k = 0; k < matches.size(); ++k)
        if (auto* n = nodeItem(matches[k])) n->setMatched(true, int(k) == current);
}

QRectF GraphScene::highlightFunction(const QString& name) {
    QRectF area;
    for (auto* c : clusters_) {
        if (!c) continue;
        bool on = !name.isEmpty() && c->label() == name;
        c->setFunctionHighlighted(on);
        if (on) area = c->rect();
    }
    bool useNodes = area.isNull();
    for (auto* n : nodes_) {
        if (!n) continue;
        bool on =
            useNodes && doc_ && !name.isEmpty() && doc_->nodes[size_t(n->index())].function == name;
        n->setFunctionHighlighted(on);
        if (on) area = area.isNull() ? n->rect() : area.united(n->rect());
    }
    return area;
}

int GraphScene::selectedNode() const {
    for (auto* item : selectedItems())
        if (item->type() == NodeItem::Type) return static_cast<NodeItem*>(item)->index();
    return -1;
}

int GraphScene::selectedCluster() const {
    for (auto* item : selectedItems()) {
        if (item->type() == ClusterItem::Type) return static_cast<ClusterItem*>(item)->index();
        if (item->type() == SubgraphItem::Type) return static_cast<SubgraphItem*>(item)->index();
    }
    return -1;
}

void GraphScene::selectCluster(int index) {
    clearSelection();
    if (auto* c = clusterItem(index))
        c->setSelected(true);
    else if (auto* s = summaryItem(index))
        s->setSelected(true);
}

void GraphScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
    // A cluster takes clicks on its label strip only (ClusterItem::shape).
    for (QGraphicsItem* item : items(event->scenePos())) {
        if (item->type() == ClusterItem::Type || item->type() == SubgraphItem::Type) {
            const int c = item->type() == ClusterItem::Type ? static_cast<ClusterItem*>(item)->index()
                                                            : static_cast<SubgraphItem*>(item)->index();
            event->accept();
            emit clusterActivated(c);
            return;
        }
        if (item->type() == NodeItem::Type) break; // a box inside the cluster
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

void GraphScene::selectNode(int index) {
    clearSelection();
    if (auto* n = nodeItem(index)) n->setSelected(true);
}

void GraphScene::onSelectionChanged() {
    if (!doc_) return;
    int sel = selectedNode();
    for (size_t i = 0; i < edges_.size(); ++i) {
        const auto& e = doc_->edges[size_t(edges_[i]->index())];
        edges_[i]->setHighlighted(sel >= 0 && (e.from == sel || e.to == sel));
    }
}

} // namespace tessel::views
