#include "lesson/UnifiedDiff.h"

#include "common/LineDiff.h"

#include <string>

namespace tessel::views {

QString LineDiffResult::text() const {
    QString out;
    for (const auto& l : lines) {
        out += l.kind == UnifiedLine::Kind::Added     ? QStringLiteral("+ ")
               : l.kind == UnifiedLine::Kind::Removed ? QStringLiteral("- ")
                                                      : QStringLiteral("  ");
        out += l.text;
        out += QLatin1Char('\n');
    }
    return out;
}

LineDiffResult lineDiff(const QString& before, const QString& after) {
    const std::string a = before.toStdString(), b = after.toStdString();
    const auto la = splitLines(a), lb = splitLines(b);
    auto line = [](std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); };
    LineDiffResult r;
    for (const DiffLine& d : diffLines(la, lb)) {
        switch (d.kind) {
        case DiffLine::Equal:
            r.lines.push_back({UnifiedLine::Kind::Same, line(la[size_t(d.left)])});
            break;
        case DiffLine::Removed:
            r.lines.push_back({UnifiedLine::Kind::Removed, line(la[size_t(d.left)])});
            ++r.removed;
            break;
        case DiffLine::Added:
            r.lines.push_back({UnifiedLine::Kind::Added, line(lb[size_t(d.right)])});
            ++r.added;
            break;
        }
    }
    return r;
}

} // namespace tessel::views
