#include "common/LineDiff.h"

#include <algorithm>
#include <unordered_map>

namespace tessel::views {

namespace {

/// Myers' diff over line ids, marking removed lines of `a` and added lines of
/// `b`. Divide and conquer on the middle snake keeps memory linear.
class Myers {
public:
    Myers(const std::vector<int>& a, const std::vector<int>& b)
        : a_(a), b_(b), removed_(a.size(), false), added_(b.size(), false) {}

    void run() { compare(0, int(a_.size()), 0, int(b_.size())); }
    const std::vector<bool>& removed() const { return removed_; }
    const std::vector<bool>& added() const { return added_; }

private:
    void compare(int aLo, int aHi, int bLo, int bHi) {
        while (aLo < aHi && bLo < bHi && a_[size_t(aLo)] == b_[size_t(bLo)])
            ++aLo, ++bLo;
        while (aLo < aHi && bLo < bHi && a_[size_t(aHi - 1)] == b_[size_t(bHi - 1)])
            --aHi, --bHi;
        if (aLo == aHi) {
            for (int j = bLo; j < bHi; ++j)
                added_[size_t(j)] = true;
            return;
        }
        if (bLo == bHi) {
            for (int i = aLo; i < aHi; ++i)
                removed_[size_t(i)] = true;
            return;
        }
        int x = 0, y = 0;
        if (!middleSnake(aLo, aHi, bLo, bHi, x, y)) {
            for (int i = aLo; i < aHi; ++i)
                removed_[size_t(i)] = true;
            for (int j = bLo; j < bHi; ++j)
                added_[size_t(j)] = true;
            return;
        }
        compare(aLo, aLo + x, bLo, bLo + y);
        compare(aLo + x, aHi, bLo + y, bHi);
    }

    /// Runs the forward and the backward search until their paths overlap;
    /// (x, y), relative to (aLo, bLo), is a point on a shortest edit path.
    /// Both ranges are non-empty and differ at both ends.
    bool middleSnake(int aLo, int aHi, int bLo, int bHi, int& xOut, int& yOut) {
        const int n = aHi - aLo, m = bHi - bLo;
        const int maxD = (n + m + 1) / 2;
        const int off = maxD, len = 2 * maxD + 2;
        vf_.assign(size_t(len), -1);
        vb_.assign(size_t(len), -1);
        vf_[size_t(off + 1)] = 0;
        vb_[size_t(off + 1)] = 0;
        const int delta = n - m;
        const bool front = (delta % 2) != 0; // which search can detect the overlap
        int kfStart = 0, kfEnd = 0, kbStart = 0, kbEnd = 0;
        const int* A = a_.data() + aLo;
        const int* B = b_.data() + bLo;
        for (int d = 0; d < maxD; ++d) {
            for (int k = -d + kfStart; k <= d - kfEnd; k += 2) {
                int ko = off + k;
                int x = (k == -d || (k != d && vf_[size_t(ko - 1)] < vf_[size_t(ko + 1)]))
                            ? vf_[size_t(ko + 1)]
                            : vf_[size_t(ko - 1)] + 1;
                int y = x - k;
                while (x < n && y < m && A[x] == B[y])
                    ++x, ++y;
                vf_[size_t(ko)] = x;
                if (x > n) {
                    kfEnd += 2;
                } else if (y > m) {
                    kfStart += 2;
                } else if (front) {
                    int kb = off + delta - k;
                    if (kb >= 0 && kb < len && vb_[size_t(kb)] != -1 && x >= n - vb_[size_t(kb)]) {
                        xOut = x;
                        yOut = y;
                        return true;
                    }
                }
            }
            for (int k = -d + kbStart; k <= d - kbEnd; k += 2) {
                int ko = off + k;
                int x = (k == -d || (k != d && vb_[size_t(ko - 1)] < vb_[size_t(ko + 1)]))
                            ? vb_[size_t(ko + 1)]
                            : vb_[size_t(ko - 1)] + 1;
                int y = x - k;
                while (x < n && y < m && A[n - x - 1] == B[m - y - 1])
                    ++x, ++y;
                vb_[size_t(ko)] = x;
                if (x > n) {
                    kbEnd += 2;
                } else if (y > m) {
                    kbStart += 2;
                } else if (!front) {
                    int kf = off + delta - k;
                    if (kf >= 0 && kf < len && vf_[size_t(kf)] != -1) {
                        int xf = vf_[size_t(kf)];
                        int yf = off + xf - kf;
                        if (xf >= n - x) {
                            xOut = xf;
                            yOut = yf;
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    const std::vector<int>& a_;
    const std::vector<int>& b_;
    std::vector<bool> removed_, added_;
    std::vector<int> vf_, vb_;
};

} // namespace

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

std::vector<DiffLine> diffLines(const std::vector<std::string_view>& a,
                                const std::vector<std::string_view>& b) {
    // Lines become small integers: the search compares ids, not strings.
    std::unordered_map<std::string_view, int> ids;
    ids.reserve(a.size() + b.size());
    auto idsOf = [&](const std::vector<std::string_view>& lines) {
        std::vector<int> out;
        out.reserve(lines.size());
        for (auto l : lines)
            out.push_back(ids.emplace(l, int(ids.size())).first->second);
        return out;
    };
    std::vector<int> ia = idsOf(a), ib = idsOf(b);
    Myers m(ia, ib);
    m.run();
    std::vector<DiffLine> out;
    out.reserve(std::max(a.size(), b.size()));
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (i < a.size() && m.removed()[i]) {
            out.push_back({DiffLine::Removed, int(i++), -1});
        } else if (j < b.size() && m.added()[j]) {
            out.push_back({DiffLine::Added, -1, int(j++)});
        } else {
            out.push_back({DiffLine::Equal, int(i++), int(j++)});
        }
    }
    return out;
}

SideBySide sideBySide(std::string_view a, std::string_view b) {
    std::vector<std::string_view> la = splitLines(a), lb = splitLines(b);
    std::vector<DiffLine> script = diffLines(la, lb);
    SideBySide s;
    s.left.reserve(a.size() + 64);
    s.right.reserve(b.size() + 64);
    auto row = [&](std::string& text, std::vector<SideBySide::RowKind>& kinds,
                   std::vector<int>& lines, SideBySide::RowKind kind, std::string_view line,
                   int number) {
        if (!kinds.empty()) text += '\n';
        text += line;
        kinds.push_back(kind);
        lines.push_back(number);
    };
    for (size_t k = 0; k < script.size();) {
        if (script[k].kind == DiffLine::Equal) {
            row(s.left, s.leftKind, s.leftLine, SideBySide::Same, la[size_t(script[k].left)],
                script[k].left + 1);
            row(s.right, s.rightKind, s.rightLine, SideBySide::Same, lb[size_t(script[k].right)],
                script[k].right + 1);
            ++k;
            continue;
        }
        // A change: its removals face its additions, the shorter side padded.
        std::vector<int> removed, added;
        for (; k < script.size() && script[k].kind != DiffLine::Equal; ++k)
            (script[k].kind == DiffLine::Removed ? removed : added)
                .push_back(script[k].kind == DiffLine::Removed ? script[k].left : script[k].right);
        size_t n = std::max(removed.size(), added.size());
        for (size_t r = 0; r < n; ++r) {
            if (r < removed.size())
                row(s.left, s.leftKind, s.leftLine, SideBySide::Changed, la[size_t(removed[r])],
                    removed[r] + 1);
            else
                row(s.left, s.leftKind, s.leftLine, SideBySide::Filler, {}, 0);
            if (r < added.size())
                row(s.right, s.rightKind, s.rightLine, SideBySide::Changed, lb[size_t(added[r])],
                    added[r] + 1);
            else
                row(s.right, s.rightKind, s.rightLine, SideBySide::Filler, {}, 0);
        }
        s.removed += int(removed.size());
        s.added += int(added.size());
    }
    return s;
}

} // namespace tessel::views
