/// \file
/// Line links between a generated text (LLVM IR, assembly) and the TIR text
/// it came from, as plain data the IDE can use without LLVM.
///
/// Codegen gives every LLVM instruction a debug location whose line is the TIR
/// printer's line of the statement it was generated for. Those locations
/// survive optimisation (`!dbg !N` / `!N = !DILocation(line: L, ...)` in the IR
/// text) and become `.loc <file> <line> <col>` directives in the assembly; the
/// parsers here turn them back into per-line links. Line 0 means "no TIR
/// line" (LLVM uses it for code it made up, e.g. after merging blocks at O3).
#pragma once

#include <string_view>
#include <vector>

namespace tessel::codegen {

struct LineMap {
    /// toTir[i]: the TIR line (1-based) that line i+1 of the text came from; 0 = none.
    std::vector<int> toTir;
    /// fromTir[l]: the lines (1-based, ascending) of the text that TIR line l
    /// became; fromTir[0] is unused. Its size is one past the largest TIR line seen.
    std::vector<std::vector<int>> fromTir;

    /// The TIR line of a line (1-based) of the text; 0 when none or out of range.
    int tirLine(int line) const;
    /// The lines of the text that TIR line `tirLine` became (empty when none).
    const std::vector<int>& linesOf(int tirLine) const;
    /// Whether any line of the text maps to a TIR line.
    bool empty() const { return fromTir.size() <= 1; }

    /// Builds the reverse table `fromTir` from `toTir`.
    void buildReverse();

    /// Reads an LLVM IR text: an instruction line with `!dbg !N` maps to the line
    /// of `!N = !DILocation(line: L, ...)`; a `define` line with `!dbg !N` maps to
    /// the line of its `!DISubprogram`.
    static LineMap fromLLVMIR(std::string_view ir);
    /// Reads an assembly text: a `.loc <file> <line> ...` directive applies to the
    /// instruction lines after it, until the next `.loc` or the function's end.
    /// Directives, labels, comments and `.loc` line 0 map to none.
    static LineMap fromAssembly(std::string_view assembly);
};

} // namespace tessel::codegen
