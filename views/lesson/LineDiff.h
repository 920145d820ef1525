/// \file
/// A line diff small enough for lesson steps: the longest common subsequence
/// of two short texts' lines, printed the unified way (" ", "-", "+" in front
/// of every line, the whole text as context).
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace tessel::views {

struct DiffLine {
    enum class Kind { Same, Removed, Added } kind = Kind::Same;
    QString text;
};

struct LineDiffResult {
    QVector<DiffLine> lines;
    int added = 0, removed = 0;
    /// Every line with its mark: "  same", "- removed", "+ added".
    QString text() const;
};

/// The lines of `after` against those of `before`: removed lines come before
/// the added lines that replace them. Quadratic, meant for texts of hundreds
/// of lines.
LineDiffResult lineDiff(const QStringList& before, const QStringList& after);
LineDiffResult lineDiff(const QString& before, const QString& after);

} // namespace tessel::views
