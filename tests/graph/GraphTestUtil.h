/// \file
/// Small helpers shared by the graph tests: types from text and printed graphs.
#pragma once

#include "graph/Graph.h"
#include "graph/GraphPrinter.h"

#include <QtGlobal>

#include <string>

namespace tessel::graph::test {

/// A TensorType written as text ("float32[1, 3, 224, 224]"); a bad one ends the test.
inline TensorType type(const std::string& text) {
    auto t = TensorType::parse(text);
    if (!t) qFatal("bad type in test: %s", text.c_str());
    return *t;
}

/// The printed graph without constant values (they are checked numerically).
inline std::string text(const Graph& g) {
    GraphPrintOptions o;
    o.maxConstantElements = 0;
    return printGraph(g, o).text;
}

} // namespace tessel::graph::test
