#include "codegen/LineMap.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

namespace tessel::codegen {

namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view s) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/// Parses the decimal number at s[pos...]; -1 when there is none.
long long numberAt(std::string_view s, size_t pos) {
    long long v = -1;
    if (pos >= s.size()) return -1;
    auto r = std::from_chars(s.data() + pos, s.data() + s.size(), v);
    return r.ec == std::errc() ? v : -1;
}

/// The value of `key` (e.g. "line: ") inside a metadata line, or -1.
long long fieldValue(std::string_view s, std::string_view key) {
    size_t p = s.find(key);
    return p == std::string_view::npos ? -1 : numberAt(s, p + key.size());
}

} // namespace

int LineMap::tirLine(int line) const {
    return line >= 1 && line <= static_cast<int>(toTir.size()) ? toTir[line - 1] : 0;
}

const std::vector<int>& LineMap::linesOf(int line) const {
    static const std::vector<int> none;
    return line >= 1 && line < static_cast<int>(fromTir.size()) ? fromTir[line] : none;
}

void LineMap::buildReverse() {
    int maxLine = 0;
    for (int l : toTir)
        maxLine = std::max(maxLine, l);
    fromTir.assign(maxLine + 1, {});
    for (size_t i = 0; i < toTir.size(); ++i)
        if (toTir[i] > 0) fromTir[toTir[i]].push_back(static_cast<int>(i) + 1);
}

LineMap LineMap::fromLLVMIR(std::string_view ir) {
    auto lines = splitLines(ir);
    // Pass 1: metadata node number -> line.
    std::unordered_map<long long, int> mdLine;
    for (auto raw : lines) {
        std::string_view s = trim(raw);
        if (!s.starts_with("!") || s.size() < 2 || s[1] < '0' || s[1] > '9') continue;
        long long id = numberAt(s, 1);
        size_t eq = s.find(" = ");
        if (id < 0 || eq == std::string_view::npos) continue;
        std::string_view rhs = s.substr(eq + 3);
        if (rhs.find("!DILocation(") != std::string_view::npos ||
            rhs.find("!DISubprogram(") != std::string_view::npos) {
            long long l = fieldValue(rhs, "line: ");
            mdLine[id] = l > 0 ? static_cast<int>(l) : 0;
        }
    }
    // Pass 2: instruction and define lines.
    LineMap m;
    m.toTir.assign(lines.size(), 0);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string_view s = lines[i];
        if (trim(s).starts_with("!")) continue;
        size_t p = s.rfind("!dbg !");
        if (p == std::string_view::npos) continue;
        long long id = numberAt(s, p + 6);
        auto it = mdLine.find(id);
        if (it != mdLine.end()) m.toTir[i] = it->second;
    }
    m.buildReverse();
    return m;
}

LineMap LineMap::fromAssembly(std::string_view assembly) {
    auto lines = splitLines(assembly);
    LineMap m;
    m.toTir.assign(lines.size(), 0);
    int current = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string_view s = trim(lines[i]);
        if (s.empty()) continue;
        if (s.starts_with(".loc")) {
            // .loc <file> <line> [<column>] [flags...]
            size_t p = s.find_first_of(" \t");
            if (p == std::string_view::npos) continue;
            p = s.find_first_not_of(" \t", p);
            size_t q = p == std::string_view::npos ? p : s.find_first_of(" \t", p);
            q = q == std::string_view::npos ? q : s.find_first_not_of(" \t", q);
            long long l = q == std::string_view::npos ? -1 : numberAt(s, q);
            current = l > 0 ? static_cast<int>(l) : 0;
            continue;
        }
        if (s.starts_with(".Lfunc_end") || s.starts_with(".size") ||
            s.starts_with(".cfi_endproc")) {
            current = 0;
            continue;
        }
        // Directives, labels and comment lines carry no code.
        if (s.front() == '.' || s.front() == '#' || s.front() == ';' || s.front() == '@' ||
            s.starts_with("//") || s.back() == ':')
            continue;
        m.toTir[i] = current;
    }
    m.buildReverse();
    return m;
}

} // namespace tessel::codegen
