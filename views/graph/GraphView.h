/// \file
/// The graph's viewport: zoom with the wheel around the cursor, +/- and 0
/// (fit) on the keyboard, drag the background to pan.
#pragma once

#include <QGraphicsView>

namespace tessel::views {

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    /// The current scale (1 = one scene point per pixel).
    double zoom() const;
    /// Scales by `factor` around the view's centre (clamped to 2% ... 800%).
    void zoomBy(double factor);
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(1 / 1.25); }
    /// Shows the whole scene, never magnified past 100%.
    void fitAll();
    /// Like fitAll(), but never smaller than a readable zoom: a tall graph
    /// (a ResNet) is shown from its top at that zoom instead of as a sliver.
    void fitReadable();
    /// Whether the view still shows the last fit (no zoom, pan or reveal
    /// since): it fits again when it is resized (a dock given room).
    bool isFitted() const { return fit_ != Fit::None; }
    /// Centres on `rect`, zooming out just enough to show it when it does not fit.
    void reveal(const QRectF& rect);

signals:
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void setZoom(double z);
    enum class Fit { None, All, Readable };
    Fit fit_ = Fit::None;
};

} // namespace tessel::views
