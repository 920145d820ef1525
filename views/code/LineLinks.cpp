#include "code/LineLinks.h"

#include "common/LineDiff.h"
#include "driver/FunctionArtifacts.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace tessel::views {

namespace {

int indentOf(std::string_view line) {
    int n = 0;
    while (n < int(line.size()) && line[size_t(n)] == ' ')
        ++n;
    return n;
}

std::string_view trimmed(std::string_view line) {
    return line.substr(size_t(indentOf(line)));
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The identifier at the start of `s` (empty when none).
std::string_view leadingIdent(std::string_view s) {
    size_t n = 0;
    while (n < s.size() && identChar(s[n]))
        ++n;
    if (n && std::isdigit(static_cast<unsigned char>(s[0]))) return {};
    return s.substr(0, n);
}

void sortUnique(std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

// ---------------------------------------------------------------------------
// The TIR text, line by line.

struct TirText {
    std::vector<std::string_view> lines;

    std::string_view line(int l) const { return lines[size_t(l - 1)]; }
    int count() const { return int(lines.size()); }
};

TirText readTir(const driver::FunctionArtifacts& a) {
    TirText t;
    t.lines = splitLines(a.build.tir);
    return t;
}

bool pythonKeyword(const std::string& s) {
    static const std::unordered_set<std::string> kw = {
        "for", "in",  "if",   "else", "elif",  "lambda", "def", "return", "and",
        "or",  "not", "None", "True", "False", "while",  "is",  "pass",   "import"};
    return kw.count(s) != 0;
}

// ---------------------------------------------------------------------------
// C -> TIR (heuristic): the C backend prints the TIR's statements in the same
// order, adding lane loops for vector statements, null checks and frees. Both
// texts are reduced to keys (a loop over `v`, a store to / allocation of `b`,
// the function) and matched in order; a C loop the TIR does not have (a lane
// loop) links with the statement inside it.

std::string tirKey(std::string_view line) {
    std::string_view t = trimmed(line);
    if (startsWith(t, "for ")) {
        std::string_view v = leadingIdent(t.substr(4));
        return v.empty() ? std::string() : "for:" + std::string(v);
    }
    if (startsWith(line, "def ")) return "def:" + std::string(leadingIdent(line.substr(4)));
    std::string_view id = leadingIdent(t);
    if (id.empty() || pythonKeyword(std::string(id))) return {};
    std::string_view rest = t.substr(id.size());
    if (startsWith(rest, " = T.allocate(")) return "alloc:" + std::string(id);
    if (startsWith(rest, "[") && rest.find("] = ") != std::string_view::npos)
        return "store:" + std::string(id);
    return {};
}

std::string cKey(std::string_view line) {
    static const std::regex forLoop(R"(^\s*for \((?:\w+ )+(\w+) = )");
    static const std::regex alloc(R"(^\s*[\w ]+\*\s*(\w+) = \([\w ]+\*\)tessel_alloc\()");
    static const std::regex def(R"(^[A-Za-z_][\w ]*\b(\w+)\(void\* const\* args\))");
    // Cheap tests first: std::regex is slow, and kernels can print thousands of lines.
    std::string_view t = trimmed(line);
    std::match_results<std::string_view::const_iterator> m;
    if (startsWith(t, "for (") && std::regex_search(line.begin(), line.end(), m, forLoop))
        return "for:" + m[1].str();
    if (t.find("tessel_alloc(") != std::string_view::npos &&
        std::regex_search(line.begin(), line.end(), m, alloc))
        return "alloc:" + m[1].str();
    if (t.size() == line.size() && line.find("(void* const* args)") != std::string_view::npos &&
        std::regex_search(line.begin(), line.end(), m, def))
        return "def:" + m[1].str();
    std::string_view id = leadingIdent(t);
    if (!id.empty() && startsWith(t.substr(id.size()), "[") &&
        t.find("] = ") != std::string_view::npos)
        return "store:" + std::string(id);
    return {};
}

codegen::LineMap linkC(const std::string& c, const TirText& tir) {
    std::vector<std::string_view> lines = splitLines(c);
    codegen::LineMap m;
    m.toTir.assign(lines.size(), 0);
    std::vector<std::string> tirKeys(size_t(tir.count()));
    std::unordered_set<std::string> tirLoops;
    for (int l = 1; l <= tir.count(); ++l) {
        tirKeys[size_t(l - 1)] = tirKey(tir.line(l));
        if (startsWith(tirKeys[size_t(l - 1)], "for:")) tirLoops.insert(tirKeys[size_t(l - 1)]);
    }
    // In order, each C key takes the next equal TIR key within a window, so a
    // statement one side lacks costs no more than that statement.
    constexpr size_t window = 400;
    size_t next = 0;
    std::vector<bool> extraLoop(lines.size(), false);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string key = cKey(lines[i]);
        if (key.empty()) continue;
        if (startsWith(key, "for:") && !tirLoops.count(key)) {
            extraLoop[i] = true;
            continue;
        }
        for (size_t j = next; j < tirKeys.size() && j < next + window; ++j)
            if (tirKeys[j] == key) {
                m.toTir[i] = int(j) + 1;
                next = j + 1;
                break;
            }
    }
    for (size_t i = lines.size(); i-- > 0;)
        if (extraLoop[i] && i + 1 < lines.size()) m.toTir[i] = m.toTir[i + 1];
    m.buildReverse();
    return m;
}

} // namespace

LineLinks LineLinks::build(const driver::FunctionArtifacts& a) {
    LineLinks links;
    links.llvmIR_ = a.build.llvmIRLines;
    links.llvmIROptimized_ = a.build.llvmIROptimizedLines;
    links.assembly_ = a.build.assemblyLines;
    TirText tir = readTir(a);
    links.tirLines_ = tir.count();

    links.cLines_ = linkC(a.c, tir);
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
