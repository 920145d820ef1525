/// \file
/// Which lines of a TE script each line of the lowered TIR comes from: the
/// table the IDE's code view links the TE pane to the TIR pane with.
///
/// It is built from records, not guessed from names. A script's interpreter
/// records where it made, changed or named each stage and loop
/// (StageData::sources); lowering records which stage and iteration variable
/// each loop variable and buffer of the TIR comes from (LoweringRecord); TIR
/// passes keep loop variables and buffer data variables. So a TIR line
/// links to:
/// - a `for` line: the script lines of its iteration variable and of the
///   variables it was split or fused from (a reduction's init nest too);
/// - a store, allocation or realize: the lines of its stage (the compute or
///   cache_write that defines it, compute_inline ...);
/// - the statements nested in the innermost surviving loop of a stage, when
///   a loop left no loop of its own (vectorized, unrolled away): that loop's
///   script lines.
#pragma once

#include "ir/LineTable.h"
#include "te/Lower.h"

#include <vector>

namespace tessel::tir {
class PrimFunc;
}

namespace tessel::te {

/// TIR line <-> script lines of one lowered function (all lines 1-based).
class ScriptLineTable {
public:
    ScriptLineTable() = default;

    /// True when no TIR line links to the script (a schedule built in C++).
    bool empty() const { return scriptToTir_.empty(); }
    /// The number of lines of the TIR text the table is for.
    int tirLineCount() const { return int(tirToScript_.size()); }
    /// The script lines TIR line `tirLine` comes from, ascending.
    const std::vector<int>& scriptLinesOf(int tirLine) const;
    /// The TIR lines script line `scriptLine` made, ascending.
    const std::vector<int>& tirLinesOf(int scriptLine) const;
    /// scriptToTir()[i]: the TIR lines of script line i+1 (up to the last
    /// script line that links anything).
    const std::vector<std::vector<int>>& scriptToTir() const { return scriptToTir_; }

    /// Links `text` (the printed lowered function, tir::printPrimFunc) to the
    /// script through `record` and the sources of the stages it names.
    static ScriptLineTable build(const AnnotatedText& text, const tir::PrimFunc& lowered,
                                 const LoweringRecord& record);

private:
    std::vector<std::vector<int>> tirToScript_;
    std::vector<std::vector<int>> scriptToTir_;
};

} // namespace tessel::te
