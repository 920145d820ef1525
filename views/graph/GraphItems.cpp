#include "graph/GraphItems.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace tessel::views {

namespace {

const QColor kBorder(0x6b, 0x72, 0x80);
const QColor kText(0x1f, 0x23, 0x28);
const QColor kDetail(0x4b, 0x52, 0x5c);
const QColor kSelected(0x1e, 0x66, 0xf5);
const QColor kFunction(0x5b, 0x3c, 0xc4);
const QColor kMatch(0xf2, 0xa9, 0x00);
const QColor kCurrentMatch(0xe8, 0x4a, 0x0c);
const QColor kEdge(0x80, 0x86, 0x90);
const QColor kUnsupported(0xd0, 0x1f, 0x1f);

/// Below this zoom, text is not drawn.
constexpr double kTextLod = 0.3;
constexpr double kRadius = 5;

double lodOf(const QStyleOptionGraphicsItem* option, QPainter* painter) {
    return option->levelOfDetailFromTransform(painter->worldTransform());
}

} // namespace

GraphFonts GraphFonts::standard() {
    GraphFonts f;
    QFont base = QApplication::font();
    f.title = base;
    f.title.setPixelSize(12);
    f.title.setBold(true);
    f.detail = base;
    f.detail.setPixelSize(10);
    f.cluster = base;
    f.cluster.setPixelSize(11);
    f.cluster.setBold(true);
    return f;
}

// --- NodeItem ---------------------------------------------------------------

NodeItem::NodeItem(int index, const QRectF& rect, QStringList lines, const QColor& fill,
                   Shape shape, const GraphFonts& fonts)
    : index_(index), rect_(rect), lines_(std::move(lines)), fill_(fill), shape_(shape),
      fonts_(fonts) {
    setFlag(ItemIsSelectable);
    setZValue(2);
    setAcceptHoverEvents(false);
}

void NodeItem::setMatched(bool matched, bool current) {
    if (matched == matched_ && current == current_) return;
    matched_ = matched;
    current_ = matched && current;
    update();
}

void NodeItem::setUnsupported(bool on) {
    if (on == unsupported_) return;
    unsupported_ = on;
    update();
}

void NodeItem::setFunctionHighlighted(bool on) {
    if (on == functionHighlighted_) return;
    functionHighlighted_ = on;
    update();
}

QRectF NodeItem::boundingRect() const {
    return rect_.adjusted(-3, -3, 3, 3);
}

QPainterPath NodeItem::shape() const {
    QPainterPath p;
    p.addRect(rect_);
    return p;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    double radius = shape_ == Shape::Terminal ? rect_.height() / 2 : kRadius;
    QPen pen(kBorder, 1);
    if (unsupported_) pen = QPen(kUnsupported, 2, Qt::DashLine);
    if (functionHighlighted_) pen = QPen(kFunction, 2);
    if (matched_) pen = QPen(current_ ? kCurrentMatch : kMatch, current_ ? 3.5 : 2.5);
    if (isSelected()) pen = QPen(kSelected, 3);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(pen);
    painter->setBrush(paintedFill());
    painter->drawRoundedRect(rect_, radius, radius);
    if (lodOf(option, painter) < kTextLod || lines_.isEmpty()) return;

    // Lines centred, the first bold; the same metrics as GraphScene measured.
    QFontMetricsF tm(fonts_.title), dm(fonts_.detail);
    double total = tm.height() + (lines_.size() - 1) * dm.height();
    double y = rect_.center().y() - total / 2;
    for (int i = 0; i < lines_.size(); ++i) {
        const QFont& f = i == 0 ? fonts_.title : fonts_.detail;
        const QFontMetricsF& m = i == 0 ? tm : dm;
        painter->setFont(f);
        painter->setPen(i == 0 ? kText : kDetail);
        painter->drawText(QRectF(rect_.left(), y, rect_.width(), m.height()), Qt::AlignCenter,
                          lines_[i]);
        y += m.height();
    }
}

// --- EdgeItem ---------------------------------------------------------------

EdgeItem::EdgeItem(int index, QPainterPath path, QPolygonF arrow)
    : index_(index), path_(std::move(path)), arrow_(std::move(arrow)) {
    bounds_ = path_.boundingRect().united(arrow_.boundingRect()).adjusted(-2, -2, 2, 2);
    setZValue(1);
}

void EdgeItem::setHighlighted(bool on) {
    if (on == highlighted_) return;
    highlighted_ = on;
    setZValue(on ? 1.5 : 1);
    update();
}

QRectF EdgeItem::boundingRect() const {
    return bounds_;
}

QPainterPath EdgeItem::shape() const {
    QPainterPathStroker s;
    s.setWidth(6);
    QPainterPath p = s.createStroke(path_);
    p.addPolygon(arrow_);
    return p;
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    QColor c = highlighted_ ? kSelected : kEdge;
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(c, highlighted_ ? 2 : 1.2);
    if (pen.widthF() * lodOf(option, painter) < 1) {
        // Zoomed far out: never thinner than a device pixel, or edges vanish.
        pen.setCosmetic(true);
        pen.setWidthF(1);
    }
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    if (arrow_.isEmpty()) return;
    painter->setPen(Qt::NoPen);
    painter->setBrush(c);
    painter->drawPolygon(arrow_);
}

// --- ClusterItem ------------------------------------------------------------

ClusterItem::ClusterItem(int index, const QRectF& rect, const QPointF& labelCentre, QString label,
                         const QColor& fill, const GraphFonts& fonts)
    : index_(index), rect_(rect), labelCentre_(labelCentre), label_(std::move(label)), fill_(fill),
      fonts_(fonts) {
    setFlag(ItemIsSelectable);
    setZValue(0);
}

QRectF ClusterItem::labelRect() const {
    QFontMetricsF m(fonts_.cluster);
    // dot reserves the label's room at the top; the strip spans the cluster.
    double h = std::max(m.height() + 4, labelCentre_.y() - rect_.top() + m.height() / 2 + 2);
    return QRectF(rect_.left(), rect_.top(), rect_.width(), std::min(h, rect_.height()));
}

void ClusterItem::setFunctionHighlighted(bool on) {
    if (on == highlighted_) return;
    highlighted_ = on;
    update();
}

QRectF ClusterItem::boundingRect() const {
    return rect_.adjusted(-3, -3, 3, 3);
}

QPainterPath ClusterItem::shape() const {
    QPainterPath p;
    p.addRect(labelRect());
    return p;
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(fill_.darker(150), 1);
    if (highlighted_) pen = QPen(kFunction, 2.5);
    if (isSelected()) pen = QPen(kSelected, 3);
    painter->setPen(pen);
    painter->setBrush(paintedFill());
    painter->drawRoundedRect(rect_, 8, 8);
    if (lodOf(option, painter) < kTextLod) return;
    QFontMetricsF m(fonts_.cluster);
    QRectF text(rect_.left() + 6, labelCentre_.y() - m.height() / 2, rect_.width() - 12,
                m.height());
    painter->setFont(fonts_.cluster);
    const QColor back = paintedFill();
    painter->setPen(back.lightnessF() < 0.55 ? QColor(Qt::white) : back.darker(260));
    // The time joins the name where the strip has room for both (the tooltip always has it).
    QString label = label_;
    if (const QString both = label_ + QStringLiteral("  ·  ") + timeText_;
        !timeText_.isEmpty() && m.horizontalAdvance(both) <= text.width())
        label = both;
    painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, m.elidedText(label, Qt::ElideRight, text.width()));
}

// --- SubgraphItem -----------------------------------------------------------

SubgraphItem::SubgraphItem(int cluster, const QRectF& rect, QStringList lines, const QColor& fill,
                           const GraphFonts& fonts)
    : index_(cluster), rect_(rect), lines_(std::move(lines)), fill_(fill), fonts_(fonts) {
    setFlag(ItemIsSelectable);
    setZValue(2);
}

QRectF SubgraphItem::boundingRect() const { return rect_.adjusted(-3, -3, 3, 3); }

QPainterPath SubgraphItem::shape() const {
    QPainterPath p;
    p.addRect(rect_);
    return p;
}

void SubgraphItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    painter->setRenderHint(QPainter::Antialiasing);
    const QColor border = fill_.darker(150);
    // Two sheets behind the front one: more than one box in there.
    const QRectF front = rect_.adjusted(0, 0, -2 * kStack, -2 * kStack);
    for (int k = 2; k >= 1; --k) {
        painter->setPen(QPen(border, 1));
        painter->setBrush(fill_);
        painter->drawRoundedRect(front.translated(k * kStack, k * kStack), 8, 8);
    }
    painter->setPen(isSelected() ? QPen(kSelected, 3) : QPen(border, 1.2));
    painter->setBrush(fill_);
    painter->drawRoundedRect(front, 8, 8);
    if (lodOf(option, painter) < kTextLod || lines_.isEmpty()) return;
    QFontMetricsF cm(fonts_.cluster), dm(fonts_.detail);
    double y = front.center().y() - (cm.height() + (lines_.size() - 1) * dm.height()) / 2;
    for (int i = 0; i < lines_.size(); ++i) {
        const QFontMetricsF& m = i == 0 ? cm : dm;
        painter->setFont(i == 0 ? fonts_.cluster : fonts_.detail);
        painter->setPen(i == 0 ? fill_.darker(260) : kDetail);
        painter->drawText(QRectF(front.left(), y, front.width(), m.height()), Qt::AlignCenter, lines_[i]);
        y += m.height();
    }
}

void ClusterItem::setHeat(double share, const QString& timeText) {
    heat_ = share < 0 ? -1 : std::min(share, 1.0);
    timeText_ = heat_ < 0 ? QString() : timeText;
    update();
}

QColor ClusterItem::paintedFill() const { return heatColor(fill_, heat_); }

void NodeItem::setHeat(double share) {
    heat_ = share < 0 ? -1 : std::min(share, 1.0);
    update();
}

QColor NodeItem::paintedFill() const { return heatColor(fill_, heat_); }

QColor heatColor(const QColor& base, double share) {
    if (share < 0) return base;
    const double t = 0.85 * std::sqrt(std::min(1.0, share));
    static const QColor hot(226, 74, 51);
    auto mix = [t](int a, int b) { return int(a + (b - a) * t); };
    return QColor(mix(base.red(), hot.red()), mix(base.green(), hot.green()), mix(base.blue(), hot.blue()));
}

} // namespace tessel::views
