/// \file
/// The pieces the graph scene is drawn with: a box per node, a spline with an
/// arrow per edge, a labelled rounded rectangle per fused group or subgraph,
/// and a stacked box for a collapsed subgraph.
///
/// Items only paint and report what they are (their index into the
/// GraphDocument); the scene decides their state (selected, matched by a
/// search, part of the highlighted function). Text is skipped when zoomed far
/// out, where it would be unreadable anyway and costs most of the paint time.
#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <QStringList>

namespace tessel::views {

/// The fonts boxes are measured and drawn with (pixel sizes, so a layout
/// done once fits on every paint device).
struct GraphFonts {
    QFont title;   ///< the operator, bold
    QFont detail;  ///< the shape line
    QFont cluster; ///< cluster labels, bold
    static GraphFonts standard();
};

/// QGraphicsItem::data key of the tooltip the scene gave a box or cluster,
/// which a profile's tooltip replaces and gives back.
inline constexpr int kBaseToolTipKey = 1;

class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 401 };
    enum class Shape { Box, Terminal }; ///< operators; graph inputs and outputs

    NodeItem(int index, const QRectF& rect, QStringList lines, const QColor& fill, Shape shape,
             const GraphFonts& fonts);

    int type() const override { return Type; }
    int index() const { return index_; }
    QRectF rect() const { return rect_; }
    const QStringList& lines() const { return lines_; }

    /// A search match (amber outline); `current` is the one the view is on.
    void setMatched(bool matched, bool current = false);
    bool isMatched() const { return matched_; }
    bool isCurrentMatch() const { return current_; }
    /// Part of the function selected in the session (accent outline).
    void setFunctionHighlighted(bool on);
    bool isFunctionHighlighted() const { return functionHighlighted_; }
    /// A node that cannot be compiled: drawn with a red dashed border.
    void setUnsupported(bool on);
    bool isUnsupported() const { return unsupported_; }
    /// A fused function of one operator (no cluster): tinted by `share` of
    /// the model's time as ClusterItem::setHeat does; negative: no tint.
    void setHeat(double share);
    double heat() const { return heat_; }
    QColor paintedFill() const;

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int index_;
    QRectF rect_;
    QStringList lines_;
    QColor fill_;
    Shape shape_;
    const GraphFonts& fonts_;
    bool matched_ = false, current_ = false, functionHighlighted_ = false, unsupported_ = false;
    double heat_ = -1;
};

/// `base` mixed towards red by `share` of a model's time (0..1); `base`
/// itself for a negative share. A square root spreads the small shares most
/// kernels have.
QColor heatColor(const QColor& base, double share);

class EdgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 402 };

    EdgeItem(int index, QPainterPath path, QPolygonF arrow);

    int type() const override { return Type; }
    int index() const { return index_; }
    const QPainterPath& path() const { return path_; }
    const QPolygonF& arrow() const { return arrow_; }
    /// Drawn in the accent colour (an edge of the selected node).
    void setHighlighted(bool on);

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int index_;
    QPainterPath path_;
    QPolygonF arrow_;
    QRectF bounds_;
    bool highlighted_ = false;
};

class ClusterItem : public QGraphicsItem {
public:
    enum { Type = UserType + 403 };

    /// `labelCentre` is where dot put the label (top of the cluster).
    ClusterItem(int index, const QRectF& rect, const QPointF& labelCentre, QString label,
                const QColor& fill, const GraphFonts& fonts);

    int type() const override { return Type; }
    int index() const { return index_; }
    QRectF rect() const { return rect_; }
    QString label() const { return label_; }
    /// The label strip: the part of the cluster that takes clicks (the rest
    /// lets the view pan and the boxes inside take their own clicks).
    QRectF labelRect() const;
    void setFunctionHighlighted(bool on);
    bool isFunctionHighlighted() const { return highlighted_; }
    /// Colours the cluster by `share` of the model's time (0..1: from its
    /// pastel towards red) and adds `timeText` ("1.23 ms · 12 %") to its
    /// label; a negative share removes both.
    void setHeat(double share, const QString& timeText);
    double heat() const { return heat_; }
    /// The fill it paints with now.
    QColor paintedFill() const;

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int index_;
    QRectF rect_;
    QPointF labelCentre_;
    QString label_;
    QColor fill_;
    const GraphFonts& fonts_;
    bool highlighted_ = false;
    double heat_ = -1;
    QString timeText_;
};

/// A collapsed subgraph (If's branch, a Loop's body): one box in its place,
/// labelled with the subgraph's name and its node count, drawn as a stack.
class SubgraphItem : public QGraphicsItem {
public:
    enum { Type = UserType + 404 };

    /// `cluster` is the subgraph's index into GraphDocument::clusters.
    SubgraphItem(int cluster, const QRectF& rect, QStringList lines, const QColor& fill, const GraphFonts& fonts);

    int type() const override { return Type; }
    int index() const { return index_; }
    QRectF rect() const { return rect_; }
    const QStringList& lines() const { return lines_; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// The offset of the stacked sheets behind the box (points).
    static constexpr double kStack = 4;

private:
    int index_;
    QRectF rect_;
    QStringList lines_;
    QColor fill_;
    const GraphFonts& fonts_;
};

} // namespace tessel::views
