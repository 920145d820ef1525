#include "lesson/LineDiff.h"

#include <vector>

namespace tessel::views {

QString LineDiffResult::text() const {
    QString out;
    for (const auto& l : lines) {
        out += l.kind == DiffLine::Kind::Added ? QStringLiteral("+ ")
               : l.kind == DiffLine::Kind::Removed ? QStringLiteral("- ")
                                                   : QStringLiteral("  ");
        out += l.text;
        out += QLatin1Char('\n');
    }
    return out;
}

LineDiffResult lineDiff(const QStringList& a, const QStringList& b) {
    const int n = int(a.size()), m = int(b.size());
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    LineDiffResult r;
    int i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            r.lines.push_back({DiffLine::Kind::Same, a[i]});
            ++i;
            ++j;
        } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
            r.lines.push_back({DiffLine::Kind::Removed, a[i]});
            ++r.removed;
            ++i;
        } else {
            r.lines.push_back({DiffLine::Kind::Added, b[j]});
            ++r.added;
            ++j;
        }
    }
    return r;
}

LineDiffResult lineDiff(const QString& before, const QString& after) {
    auto lines = [](const QString& s) {
        QStringList l = s.split(QLatin1Char('\n'));
        if (!l.isEmpty() && l.back().isEmpty()) l.removeLast(); // the final newline ends a line, it adds none
        return l;
    };
    return lineDiff(lines(before), lines(after));
}

} // namespace tessel::views
