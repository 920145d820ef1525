#include "graph/GraphView.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessel::views {

namespace {
constexpr double kMinZoom = 0.02, kMaxZoom = 8.0;
}

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorViewCenter);
    setResizeAnchor(AnchorViewCenter);
    setViewportUpdateMode(SmartViewportUpdate);
    setFocusPolicy(Qt::StrongFocus);
    // Scrolled by the user (not by centerOn): no longer the fit.
    for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()})
        connect(bar, &QAbstractSlider::actionTriggered, this, [this](int) { fit_ = Fit::None; });
}

double GraphView::zoom() const {
    return transform().m11();
}

void GraphView::setZoom(double z) {
    z = std::clamp(z, kMinZoom, kMaxZoom);
    double now = zoom();
    if (now <= 0 || std::abs(z - now) < 1e-9) return;
    scale(z / now, z / now);
    emit zoomChanged(zoom());
}

void GraphView::zoomBy(double factor) {
    fit_ = Fit::None;
    ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    setZoom(zoom() * factor);
    setTransformationAnchor(anchor);
}

void GraphView::fitAll() {
    QRectF r = sceneRect();
    if (r.isEmpty()) return;
    QRectF vp = viewport()->rect();
    double z = std::min({vp.width() / r.width(), vp.height() / r.height(), 1.0});
    resetTransform();
    setZoom(std::max(z, kMinZoom));
    centerOn(r.center());
    fit_ = Fit::All;
}

void GraphView::fitReadable() {
    constexpr double kReadable = 0.7;
    QRectF r = sceneRect();
    if (r.isEmpty()) return;
    QRectF vp = viewport()->rect();
    double z = std::min({vp.width() / r.width(), vp.height() / r.height(), 1.0});
    if (z >= kReadable) {
        fitAll();
        fit_ = Fit::Readable;
        return;
    }
    resetTransform();
    setZoom(kReadable);
    centerOn(QPointF(r.center().x(), r.top() + vp.height() / (2 * kReadable)));
    fit_ = Fit::Readable;
}

void GraphView::reveal(const QRectF& rect) {
    if (rect.isNull()) return;
    fit_ = Fit::None;
    QRectF vp = viewport()->rect();
    double need = std::min(vp.width() / (rect.width() + 40), vp.height() / (rect.height() + 40));
    if (need < zoom()) {
        ViewportAnchor anchor = transformationAnchor();
        setTransformationAnchor(AnchorViewCenter);
        setZoom(need);
        setTransformationAnchor(anchor);
    }
    centerOn(rect.center());
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    fit_ = Fit::None; // a click or the start of a pan
    QGraphicsView::mousePressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (fit_ == Fit::All)
        fitAll();
    else if (fit_ == Fit::Readable)
        fitReadable();
}

void GraphView::wheelEvent(QWheelEvent* event) {
    fit_ = Fit::None;
    double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    // The scene point under the cursor stays put. (AnchorUnderMouse would
    // use the last mouse move, not this event's position.)
    QPoint at = event->position().toPoint();
    QPointF anchor = mapToScene(at);
    ViewportAnchor saved = transformationAnchor();
    setTransformationAnchor(NoAnchor);
    setZoom(zoom() * std::pow(1.2, steps));
    setTransformationAnchor(saved);
    QPointF off = mapFromScene(anchor) - QPointF(at);
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(std::lround(off.x())));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + int(std::lround(off.y())));
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_0:
        fitAll();
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

} // namespace tessel::views
