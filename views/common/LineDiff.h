/// \file
/// Line diffs for the stage view: a shortest edit script between two texts
/// (Myers' O(ND) algorithm in its linear-space form, after trimming the
/// common prefix and suffix), and the two texts laid out side by side with
/// filler rows so that unchanged lines face each other.
///
/// Plain values, no Qt: IR texts of thousands of lines (a ResNet graph, an
/// unrolled kernel) diff in milliseconds when they differ in a few places,
/// which is what a pass usually does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::views {

/// One step of an edit script.
struct DiffLine {
    enum Kind : uint8_t { Equal, Removed, Added };
    Kind kind = Equal;
    /// 0-based line of the left text (Equal, Removed), else -1.
    int left = -1;
    /// 0-based line of the right text (Equal, Added), else -1.
    int right = -1;
    bool operator==(const DiffLine&) const = default;
};

/// The lines of `text`; a final newline ends the last line rather than
/// starting an empty one.
std::vector<std::string_view> splitLines(std::string_view text);

/// A shortest edit script turning `a` into `b`: every line of `a` appears once
/// as Equal or Removed and every line of `b` once as Equal or Added, both in
/// order; within a change, removals come before additions.
std::vector<DiffLine> diffLines(const std::vector<std::string_view>& a,
                                const std::vector<std::string_view>& b);

/// Two texts as side-by-side rows: an unchanged line faces its copy, a change
/// shows its removed lines (left) facing its added lines (right), and the
/// shorter side gets empty filler rows.
struct SideBySide {
    enum RowKind : uint8_t { Same, Changed, Filler };
    /// The rows of each side joined by '\n' (filler rows are empty lines).
    std::string left, right;
    /// Per row: Same, Changed (removed on the left, added on the right) or Filler.
    std::vector<RowKind> leftKind, rightKind;
    /// Per row: the 1-based line of the original text, 0 for filler.
    std::vector<int> leftLine, rightLine;
    int removed = 0, added = 0;

    int rows() const { return static_cast<int>(leftKind.size()); }
    bool identical() const { return removed == 0 && added == 0; }
};

SideBySide sideBySide(std::string_view a, std::string_view b);

} // namespace tessel::views
