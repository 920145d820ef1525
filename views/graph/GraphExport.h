/// \file
/// Writing a graph drawing to a file: SVG and PNG as shown on screen, DOT as
/// the Graphviz input with the computed positions.
#pragma once

#include <QString>

namespace tessel::views {

class GraphScene;

/// Each returns false and sets `error` (a sentence for the user) on failure.
bool writeGraphSvg(GraphScene& scene, const QString& path, QString* error = nullptr);
/// At twice the screen size, less for graphs too large for a 64-megapixel image.
bool writeGraphPng(GraphScene& scene, const QString& path, QString* error = nullptr);
bool writeGraphDot(const GraphScene& scene, const QString& path, QString* error = nullptr);

} // namespace tessel::views
