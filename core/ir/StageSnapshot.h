/// \file
/// One stage of a compilation as the IDE's stage view shows it: which step
/// ran, the IR it left as text with its line table, whether it changed
/// anything and how long it took — the same value for a graph pass, a
/// lowering step, a TIR pass and LLVM's optimisation.
///
/// The pass managers record them (SnapshotInstrument in ir/PassManager.h),
/// the driver keeps them in its results (CompiledModel::stages,
/// LoweredFunction::snapshots) and the views list and diff them.
#pragma once

#include "ir/LineTable.h"

#include <any>
#include <string>

namespace tessel {

/// The level of IR a stage works on, top to bottom of the pipeline.
enum class StageLevel { Graph, Lower, TIR, LLVM };

/// "graph", "lower", "tir", "llvm".
inline const char* stageLevelName(StageLevel level) {
    switch (level) {
    case StageLevel::Graph: return "graph";
    case StageLevel::Lower: return "lower";
    case StageLevel::TIR: return "tir";
    case StageLevel::LLVM: return "llvm";
    }
    return "graph";
}

struct StageSnapshot {
    /// The step's name: a pass name, "import" or "input" for what the
    /// pipeline started from, a lowering step.
    std::string pass;
    StageLevel level = StageLevel::Graph;
    /// The IR after the step, printed, with the node of every line.
    AnnotatedText text;
    /// The step changed the printed IR.
    bool changed = false;
    double seconds = 0;
    /// The IR itself (a graph::Graph, a tir::PrimFunc …): it keeps the nodes
    /// the line table points to alive, and lets a view draw it. Empty for a
    /// stage that is text only.
    std::any ir;

    /// The IR as a `T`, or null when it holds something else (or nothing).
    template <class T>
    const T* irAs() const {
        return std::any_cast<T>(&ir);
    }
};

} // namespace tessel
