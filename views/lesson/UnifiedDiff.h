/// \file
/// What changed from one lesson step to the next, printed the unified way
/// (" ", "-", "+" in front of every line, the whole text as context). The
/// edit script is the shared line diff (common/LineDiff.h).
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace tessel::views {

struct UnifiedLine {
    enum class Kind { Same, Removed, Added } kind = Kind::Same;
    QString text;
};

struct LineDiffResult {
    QVector<UnifiedLine> lines;
    int added = 0, removed = 0;
    /// Every line with its mark: "  same", "- removed", "+ added".
    QString text() const;
};

/// The lines of `after` against those of `before`: removed lines come before
/// the added lines that replace them.
LineDiffResult lineDiff(const QString& before, const QString& after);

} // namespace tessel::views
