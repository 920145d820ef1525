#include "code/LineLinks.h"

#include "common/LineDiff.h"
#include "driver/FunctionArtifacts.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace tessel::views {

namespace {

void sortUnique(std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

LineLinks LineLinks::build(const driver::FunctionArtifacts& a) {
    LineLinks links;
    links.llvmIR_ = a.build.llvmIRLines;
    links.llvmIROptimized_ = a.build.llvmIROptimizedLines;
    links.assembly_ = a.build.assemblyLines;
    links.tirLines_ = int(splitLines(a.build.tir).size());

    // The C backend's own line table (codegen/CodeGenC.h).
    links.cLines_ = a.cLines;
    links.cStatus_ = a.c.empty()             ? Status::NoText
                     : links.cLines_.empty() ? Status::NoMatch
                                             : Status::Linked;

    links.linkTe(a);
    return links;
}

// The TE script's links come from lowering (driver::LoweredFunction::
// scriptLines, te/ScriptLines.h): the interpreter recorded where the script
// made and changed each stage and loop, and lowering which stage and loop
// each TIR line comes from.
void LineLinks::linkTe(const driver::FunctionArtifacts& a) {
    tirToTe_.assign(size_t(tirLines_) + 1, {});
    teToTir_.clear();
    const te::ScriptLineTable& table = a.lowered.scriptLines;
    if (a.script.find_first_not_of(" \t\r\n") == std::string::npos) {
        teStatus_ = Status::NoText;
        return;
    }
    if (table.empty()) {
        teStatus_ = Status::NoRecord;
        return;
    }
    // The table is of the printed lowered function, which is the TIR pane's text.
    const int scriptLines = int(splitLines(a.script).size());
    if (table.tirLineCount() != tirLines_ || int(table.scriptToTir().size()) > scriptLines) {
        teStatus_ = Status::Mismatch;
        return;
    }
    teToTir_ = table.scriptToTir();
    for (size_t i = 0; i < teToTir_.size(); ++i)
        for (int t : teToTir_[i])
            if (t > 0 && t <= tirLines_) tirToTe_[size_t(t)].push_back(int(i) + 1);
    bool any = std::any_of(teToTir_.begin(), teToTir_.end(), [](auto& v) { return !v.empty(); });
    teStatus_ = any ? Status::Linked : Status::NoMatch;
}

const codegen::LineMap* LineLinks::mapOf(Pane pane) const {
    switch (pane) {
    case LlvmIr:
        return llvmOptimized_ ? &llvmIROptimized_ : &llvmIR_;
    case Assembly:
        return &assembly_;
    case C:
        return &cLines_;
    default:
        return nullptr;
    }
}

std::vector<int> LineLinks::tirLinesOf(Pane pane, int line) const {
    if (line < 1) return {};
    switch (pane) {
    case Tir:
        return line <= tirLines_ ? std::vector<int>{line} : std::vector<int>{};
    case Te:
        return line <= int(teToTir_.size()) ? teToTir_[size_t(line - 1)] : std::vector<int>{};
    default: {
        int t = mapOf(pane)->tirLine(line);
        return t > 0 && t <= tirLines_ ? std::vector<int>{t} : std::vector<int>{};
    }
    }
}

std::vector<int> LineLinks::linesOf(Pane pane, int tirLine) const {
    if (tirLine < 1 || tirLine > tirLines_) return {};
    switch (pane) {
    case Tir:
        return {tirLine};
    case Te:
        return tirToTe_[size_t(tirLine)];
    default:
        return mapOf(pane)->linesOf(tirLine);
    }
}

LineLinks::Result LineLinks::linksOf(Pane pane, int line) const {
    Result r;
    r.tirLines = tirLinesOf(pane, line);
    sortUnique(r.tirLines);
    for (size_t g = 0; g < r.tirLines.size(); ++g)
        for (int p = 0; p < PaneCount; ++p)
            for (int l : linesOf(Pane(p), r.tirLines[g]))
                r.lines[size_t(p)].emplace(l, int(g));
    if (!r.empty()) r.lines[size_t(pane)].emplace(line, 0);
    return r;
}

} // namespace tessel::views
