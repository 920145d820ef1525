/// \file
/// Which lines of one function's texts belong together, as plain values: the
/// code view's linking without a widget in sight (and so testable alone).
///
/// The TIR text is the hub. LLVM IR and assembly link to it through the line
/// maps codegen derives from debug locations and `.loc` directives
/// (codegen/LineMap.h), the C source through the line table the C backend
/// returns with it (codegen/CodeGenC.h). The TE script links through the
/// table lowering produced (driver::LoweredFunction::scriptLines,
/// te/ScriptLines.h): the script's interpreter recorded where it made and
/// changed each stage and loop, and lowering which stage and loop each TIR
/// line comes from.
///
/// Asking what a line links to: map it to its TIR line(s), then collect every
/// line of every pane that maps to one of those TIR lines. Each TIR line is a
/// group with its own index, so a click that reaches several TIR lines keeps
/// them apart by colour (Compiler Explorer's way).
#pragma once

#include "codegen/LineMap.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace tessel::driver {
struct FunctionArtifacts;
}

namespace tessel::views {

class LineLinks {
public:
    /// The panes, in the order the code view shows them.
    enum Pane { Te, Tir, LlvmIr, Assembly, C };
    static constexpr int PaneCount = 5;

    /// Whether the TE or C pane could be linked, and if not why.
    enum class Status {
        Linked,
        NoText,   ///< the pane has no text (no script; C not printed)
        NoRecord, ///< lowering recorded no script lines (a schedule built in C++)
        Mismatch, ///< the script is not the one the lowering's table is of
        NoMatch   ///< nothing in the text matches the TIR
    };

    /// What one line links to: per pane, line (1-based) -> group index.
    struct Result {
        std::array<std::map<int, int>, PaneCount> lines;
        /// The TIR lines reached, ascending; group i is tirLines[i].
        std::vector<int> tirLines;
        bool empty() const { return tirLines.empty(); }
    };

    LineLinks() = default;

    /// Builds the tables for `artifacts` (matching the C text takes a few
    /// milliseconds: call it off the GUI thread). Never throws: a pane that
    /// cannot be linked gets no links and a status saying why (teStatus(),
    /// cStatus()).
    static LineLinks build(const driver::FunctionArtifacts& artifacts);

    /// Whether the LLVM IR pane shows the optimised IR (the default) or the IR
    /// as generated; picks the line map used for that pane.
    void setLlvmOptimized(bool optimized) { llvmOptimized_ = optimized; }
    bool llvmOptimized() const { return llvmOptimized_; }

    /// Everything line `line` (1-based) of `pane` links to; empty when it maps
    /// to no TIR line.
    Result linksOf(Pane pane, int line) const;

    /// The TIR lines line `line` of `pane` maps to (itself for the TIR pane).
    std::vector<int> tirLinesOf(Pane pane, int line) const;
    /// The lines of `pane` that map to TIR line `tirLine`, ascending.
    std::vector<int> linesOf(Pane pane, int tirLine) const;

    int tirLineCount() const { return tirLines_; }
    Status teStatus() const { return teStatus_; }
    Status cStatus() const { return cStatus_; }

    /// The TE script's links: teToTir[i] are the TIR lines that script line
    /// i+1 links to (ascending). Exposed for tests.
    const std::vector<std::vector<int>>& teToTir() const { return teToTir_; }
    /// The C text's map to the TIR (FunctionArtifacts::cLines, from the C backend).
    const codegen::LineMap& cLines() const { return cLines_; }

private:
    const codegen::LineMap* mapOf(Pane pane) const;
    void linkTe(const driver::FunctionArtifacts& a);

    int tirLines_ = 0;
    bool llvmOptimized_ = true;
    codegen::LineMap llvmIR_, llvmIROptimized_, assembly_, cLines_;
    std::vector<std::vector<int>> teToTir_;
    /// tirToTe_[t]: the script lines linked to TIR line t (index 0 unused).
    std::vector<std::vector<int>> tirToTe_;
    Status teStatus_ = Status::NoText, cStatus_ = Status::NoText;
};

} // namespace tessel::views
