/// \file
/// Graph layout with Graphviz `dot`, as plain values in and out.
///
/// The caller describes the drawing it wants (boxes of a known size, edges
/// between them, clusters of boxes with a label) and gets back where
/// everything goes: box rectangles, each edge as cubic Bézier control points
/// with its arrow head, cluster rectangles and the bounding box. Sizes and
/// coordinates are in points (1/72 inch) with y pointing *down*, as a
/// QGraphicsScene draws them; Graphviz's y-up coordinates and its inch sizes
/// stay inside GraphLayout.cpp.
///
/// Graphviz (cgraph and gvc) is not thread-safe: every call into it holds one
/// process-wide mutex, so layouts may run on any worker thread but one at a
/// time. The `dot` layout is registered as a built-in plugin
/// (gvContextPlugins), so no Graphviz plugin configuration is needed at run
/// time (DEPENDENCIES.md). Nothing here uses Qt: the benchmark and tests can
/// call it directly.
#pragma once

#include <string>
#include <vector>

namespace tessel::views {

/// One box. Its size is fixed by the caller (measured with the font that
/// will draw it), so the drawing matches the layout exactly.
struct LayoutNode {
    double width = 54;  ///< points
    double height = 36; ///< points
    /// Label lines, for the DOT export only (the layout ignores them).
    std::vector<std::string> label;
    /// Fill colour for the DOT export, "#rrggbb"; empty for none.
    std::string color;
    /// Index into LayoutInput::clusters, or -1.
    int cluster = -1;
};

/// A directed edge between two boxes (indices into LayoutInput::nodes).
struct LayoutEdge {
    int from = 0;
    int to = 0;
};

/// A cluster: its member boxes are kept together inside one rectangle with a
/// label at the top.
struct LayoutCluster {
    std::string label;
    /// Fill colour for the DOT export, "#rrggbb"; empty for none.
    std::string color;
    /// The label's measured size in points: dot reserves exactly this room
    /// (a fixed-size HTML label) instead of guessing from its own font
    /// tables. 0: let dot size the text itself.
    double labelWidth = 0;
    double labelHeight = 0;
    /// The cluster this one is nested in (an index below its own), or -1.
    int parent = -1;
};

struct LayoutInput {
    std::string name = "graph";
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    std::vector<LayoutCluster> clusters;
    /// Font size (points) dot uses to reserve room for cluster labels
    /// without a measured size.
    double clusterFontSize = 9;
    /// Gaps between boxes of one rank and between ranks, in points.
    double nodeSep = 14;
    double rankSep = 26;
    /// Above 300 boxes, cap dot's crossing minimisation and network simplex
    /// (mclimit, nslimit, remincross, searchsize) so wide graphs with many
    /// crossings cannot take seconds.
    bool fast = true;
};

struct LayoutPoint {
    double x = 0, y = 0;
};

struct LayoutRect {
    double x = 0, y = 0, width = 0, height = 0; ///< top-left corner and size
    bool contains(const LayoutPoint& p) const {
        return p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height;
    }
};

/// An edge's route: a cubic Bézier spline (points[0], then three control
/// points per segment) and, when `arrow`, an arrow head from the spline's
/// last point to `arrowTip` (the border of the target box).
struct LayoutEdgeRoute {
    std::vector<LayoutPoint> points;
    bool arrow = false;
    LayoutPoint arrowTip;
};

struct LayoutResult {
    std::vector<LayoutRect> nodes;      ///< one per input node
    std::vector<LayoutEdgeRoute> edges; ///< one per input edge (empty points if dot routed none)
    std::vector<LayoutRect> clusters;   ///< one per input cluster
    std::vector<LayoutPoint> clusterLabels; ///< centre of each cluster's label
    LayoutRect bounds;                      ///< the whole drawing, at (0, 0)
    double seconds = 0;                     ///< time spent in Graphviz
    /// Graphviz's warnings and errors, if it printed any.
    std::string messages;
};

/// Lays `input` out with dot (rankdir TB, splines). Throws std::runtime_error
/// when Graphviz fails; an empty input gives an empty result.
LayoutResult computeLayout(const LayoutInput& input);

/// The DOT text of `input` (boxes with their labels and colours, clusters,
/// edges); with `layout`, each box also gets its position (`pos`, in
/// Graphviz's y-up points), so `neato -n` redraws it as laid out.
std::string toDot(const LayoutInput& input, const LayoutResult* layout = nullptr);

/// The Graphviz version the layout runs on ("2.43.0").
std::string graphvizVersion();

} // namespace tessel::views
