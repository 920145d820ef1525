#include "te/Suggest.h"

#include <algorithm>
#include <cctype>

namespace tessel::te {

int editDistance(std::string_view a, std::string_view b) {
    // Optimal string alignment distance, three rows.
    const size_t n = a.size(), m = b.size();
    std::vector<int> prev2(m + 1), prev(m + 1), row(m + 1);
    for (size_t j = 0; j <= m; ++j)
        prev[j] = static_cast<int>(j);
    for (size_t i = 1; i <= n; ++i) {
        row[0] = static_cast<int>(i);
        for (size_t j = 1; j <= m; ++j) {
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], prev2[j - 2] + 1);
        }
        std::swap(prev2, prev);
        std::swap(prev, row);
    }
    return prev[m];
}

std::string closestName(std::string_view name, const std::vector<std::string>& candidates) {
    if (name.empty() || name.size() > 64) return {};
    // One edit in three characters; a one-letter name only matches up to case.
    int limit = static_cast<int>(name.size() + 1) / 3;
    std::string best;
    int bestDist = limit + 1;
    auto lower = [](std::string_view s) {
        std::string r(s);
        for (auto& c : r)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return r;
    };
    std::string lname = lower(name);
    for (const auto& c : candidates) {
        if (c == name || c.empty() || c.size() > 64) continue;
        // A difference in case only is always a likely typo.
        int d = lower(c) == lname ? 0 : editDistance(name, c);
        if (d < bestDist || (d == bestDist && !best.empty() && c < best)) {
            best = c;
            bestDist = d;
        }
    }
    if (bestDist <= limit) return best;
    // A unique candidate the name is the start of ("placeh" -> "placeholder").
    if (name.size() >= 3) {
        std::string prefixMatch;
        for (const auto& c : candidates) {
            if (c.size() <= name.size() || c.compare(0, name.size(), name) != 0) continue;
            if (!prefixMatch.empty() && prefixMatch != c) return {};
            prefixMatch = c;
        }
        return prefixMatch;
    }
    return {};
}

std::string didYouMean(std::string_view name, const std::vector<std::string>& candidates) {
    std::string c = closestName(name, candidates);
    return c.empty() ? std::string() : "; did you mean '" + c + "'?";
}

} // namespace tessel::te
