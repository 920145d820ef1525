#include "ir/AxisMath.h"

#include <algorithm>
#include <cctype>

namespace tessel {

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
    if (axis < -rank || axis >= rank) return std::nullopt;
    return axis < 0 ? axis + rank : axis;
}

SliceRange sliceRange(int64_t dim, int64_t start, int64_t end, int64_t step) {
    SliceRange r;
    r.step = step;
    if (dim <= 0) return r;
    // Adding dim to a negative value cannot overflow; INT64_MAX ("to the end") is never shifted.
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    // A step longer than the axis takes at most one element: clamping it keeps
    // the count and keeps -step from overflowing.
    const int64_t s = std::clamp(step, -dim - 1, dim + 1);
    if (step > 0) {
        r.start = std::clamp(start, int64_t(0), dim);
        end = std::clamp(end, int64_t(0), dim);
        r.count = end > r.start ? (end - r.start + s - 1) / s : 0;
    } else {
        r.start = std::clamp(start, int64_t(0), dim - 1);
        end = std::clamp(end, int64_t(-1), dim - 1);
        r.count = r.start > end ? (r.start - end - s - 1) / -s : 0;
    }
    return r;
}

EinsumTerms parseEinsum(const std::string& equation, const std::vector<int64_t>& ranks) {
    EinsumTerms t;
    std::string eq;
    for (char c : equation)
        if (c != ' ') eq += c;
    const size_t arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::vector<std::string> terms(1);
    for (char c : lhs) {
        if (c == ',')
            terms.emplace_back();
        else
            terms.back() += c;
    }
    if (terms.size() != ranks.size()) {
        t.error = "the equation names " + std::to_string(terms.size()) + " operands, there are " +
                  std::to_string(ranks.size());
        return t;
    }
    // Letters per term, the ellipsis counted as the axes left over.
    int64_t ellipsis = 0;
    std::vector<int64_t> spans(terms.size(), 0);
    for (size_t k = 0; k < terms.size(); ++k) {
        const std::string& s = terms[k];
        const size_t dots = s.find("...");
        int64_t letters = 0;
        for (char c : s)
            if (c != '.') {
                if (!std::islower(static_cast<unsigned char>(c)) && !std::isupper(static_cast<unsigned char>(c))) {
                    t.error = std::string("'") + c + "' is not an axis letter";
                    return t;
                }
                ++letters;
            }
        if (dots == std::string::npos ? letters != ranks[k] : letters > ranks[k]) {
            t.error = "term '" + s + "' does not fit an operand of rank " + std::to_string(ranks[k]);
            return t;
        }
        if (dots != std::string::npos) spans[k] = ranks[k] - letters;
        ellipsis = std::max(ellipsis, spans[k]);
    }
    if (ellipsis > 26) {
        t.error = "the ellipsis spans too many axes";
        return t;
    }
    // Upper-case letters stand for the ellipsis; an equation using its own
    // upper-case letters together with an ellipsis would clash.
    auto spell = [&](int64_t n) {
        std::string e;
        for (int64_t j = ellipsis - n; j < ellipsis; ++j)
            e += static_cast<char>('A' + j);
        return e;
    };
    for (size_t k = 0; k < terms.size(); ++k) {
        std::string s = terms[k];
        const size_t dots = s.find("...");
        if (dots != std::string::npos) s.replace(dots, 3, spell(spans[k]));
        t.inputs.push_back(s);
    }
    if (arrow != std::string::npos) {
        std::string out = eq.substr(arrow + 2);
        const size_t dots = out.find("...");
        if (dots != std::string::npos) out.replace(dots, 3, spell(ellipsis));
        t.output = out;
    } else {
        std::string once;
        for (char c = 'a'; c <= 'z'; ++c) {
            int n = 0;
            for (auto& s : t.inputs)
                n += static_cast<int>(std::count(s.begin(), s.end(), c));
            if (n == 1) once += c;
        }
        t.output = spell(ellipsis) + once;
    }
    for (char c : t.output)
        if (std::count(t.output.begin(), t.output.end(), c) != 1 ||
            std::none_of(t.inputs.begin(), t.inputs.end(),
                         [&](const std::string& s) { return s.find(c) != std::string::npos; })) {
            t.error = std::string("output axis '") + c + "' is repeated or names no input axis";
            return t;
        }
    return t;
}

} // namespace tessel
