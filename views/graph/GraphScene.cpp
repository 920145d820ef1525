#include "graph/GraphScene.h"

#include <QFontMetricsF>
#include <QGraphicsSimpleTextItem>
#include <QLineF>

#include <cmath>

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

LayoutInput GraphScene::layoutInput(const GraphDocument& doc) const {
    LayoutInput in;
    in.name = doc.graph ? doc.graph->name() : std::string("graph");
    QFontMetricsF tm(fonts_.title), dm(fonts_.detail), cm(fonts_.cluster);
    in.clusterFontSize = cm.height() * 0.8; // dot's font size for the label strip height
    in.nodes.reserve(doc.nodes.size());
    for (const auto& n : doc.nodes) {
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
        ln.cluster = n.cluster;
        in.nodes.push_back(std::move(ln));
    }
    for (const auto& e : doc.edges)
        in.edges.push_back({e.from, e.to});
    for (const auto& c : doc.clusters) {
        LayoutCluster lc{c.name.toStdString(), c.color.name().toStdString()};
        lc.parent = c.parent;
        lc.labelWidth = std::ceil(cm.horizontalAdvance(c.name) + 14); // ClusterItem's insets
        lc.labelHeight = std::ceil(cm.height() + 2);
        in.clusters.push_back(std::move(lc));
    }
    return in;
}

void GraphScene::setGraph(std::shared_ptr<const GraphDocument> doc, LayoutInput input,
                          LayoutResult layout) {
    clearSelection();
    clear();
    nodes_.clear();
    edges_.clear();
    clusters_.clear();
    doc_ = std::move(doc);
    input_ = std::move(input);
    layout_ = std::move(layout);
    if (!doc_ || layout_.nodes.size() != doc_->nodes.size()) {
        setSceneRect(QRectF());
        return;
    }
    const auto& L = layout_;
    for (size_t c = 0; c < doc_->clusters.size() && c < L.clusters.size(); ++c) {
        const auto& r = L.clusters[c];
        QPointF label = c < L.clusterLabels.size()
                            ? QPointF(L.clusterLabels[c].x, L.clusterLabels[c].y)
                            : QPointF(r.x, r.y + 8);
        auto* item = new ClusterItem(int(c), QRectF(r.x, r.y, r.width, r.height), label,
                                     doc_->clusters[c].name, doc_->clusters[c].color, fonts_);
        const auto& dc = doc_->clusters[c];
        if (dc.kind == GraphDocCluster::Kind::Subgraph)
            item->setToolTip(tr("Subgraph %1 of %2 (shown, not compiled)")
                                 .arg(dc.attr, dc.owner >= 0 ? doc_->nodes[size_t(dc.owner)].op : QString()));
        else
            item->setToolTip(tr("Fused function %1 (%n operators)", nullptr, int(dc.members.size())).arg(dc.name));
        item->setData(kBaseToolTipKey, item->toolTip());
        addItem(item);
        clusters_.push_back(item);
    }
    for (size_t i = 0; i < doc_->nodes.size(); ++i) {
        const auto& n = doc_->nodes[i];
        const auto& r = L.nodes[i];
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
        nodes_.push_back(item);
    }
    for (size_t i = 0; i < doc_->edges.size() && i < L.edges.size(); ++i) {
        const auto& route = L.edges[i];
        const auto& e = doc_->edges[i];
        QPainterPath path = splinePath(route);
        QPolygonF arrow;
        if (path.isEmpty()) {
            // dot routed nothing (should not happen): a straight line.
            const auto& a = L.nodes[size_t(e.from)];
            const auto& b = L.nodes[size_t(e.to)];
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
        auto* item = new EdgeItem(int(i), path, arrow);
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

void GraphScene::setMatches(const std::vector<int>& matches, int current) {
    for (auto* n : nodes_)
        n->setMatched(false);
    for (size_t k = 0; k < matches.size(); ++k)
        if (auto* n = nodeItem(matches[k])) n->setMatched(true, int(k) == current);
}

QRectF GraphScene::highlightFunction(const QString& name) {
    QRectF area;
    for (auto* c : clusters_) {
        bool on = !name.isEmpty() && c->label() == name;
        c->setFunctionHighlighted(on);
        if (on) area = c->rect();
    }
    bool useNodes = area.isNull();
    for (auto* n : nodes_) {
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
    for (auto* item : selectedItems())
        if (item->type() == ClusterItem::Type) return static_cast<ClusterItem*>(item)->index();
    return -1;
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
