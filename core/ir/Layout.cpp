#include "ir/Layout.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"

#include <cctype>

namespace tessel {

namespace {

bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isLower(char c) { return c >= 'a' && c <= 'z'; }
char upper(char c) { return char(c - 'a' + 'A'); }

} // namespace

std::optional<Layout> Layout::parse(std::string_view text) {
    Layout l;
    size_t i = 0;
    while (i < text.size()) {
        int64_t factor = 0;
        bool digits = false;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            factor = factor * 10 + (text[i] - '0');
            if (factor > (int64_t(1) << 40)) return std::nullopt;
            digits = true;
            ++i;
        }
        if (i == text.size()) return std::nullopt;
        const char c = text[i++];
        if (isUpper(c)) {
            if (digits) return std::nullopt;
            l.axes_.push_back({c, 0});
        } else if (isLower(c)) {
            if (!digits || factor < 1) return std::nullopt;
            l.axes_.push_back({c, factor});
        } else {
            return std::nullopt;
        }
    }
    // Every axis once; every block of a primal axis that is there.
    for (size_t a = 0; a < l.axes_.size(); ++a) {
        for (size_t b = a + 1; b < l.axes_.size(); ++b)
            if (l.axes_[a].name == l.axes_[b].name) return std::nullopt;
        if (!l.axes_[a].primal() && l.storedIndexOf(upper(l.axes_[a].name)) < 0) return std::nullopt;
    }
    return l;
}

Layout Layout::of(std::string_view text) {
    auto l = parse(text);
    if (!l) throw CompileError("malformed layout \"" + std::string(text) + "\"");
    return *l;
}

Layout Layout::nchwc(int64_t block) {
    return of(block > 1 ? "NCHW" + std::to_string(block) + "c" : "NCHW");
}

bool Layout::plain() const {
    for (auto& a : axes_)
        if (!a.primal()) return false;
    return true;
}

int Layout::logicalRank() const {
    int n = 0;
    for (auto& a : axes_) n += a.primal();
    return n;
}

Layout Layout::primal() const {
    Layout l;
    for (auto& a : axes_)
        if (a.primal()) l.axes_.push_back(a);
    return l;
}

int64_t Layout::blockOf(char axis) const {
    for (auto& a : axes_)
        if (!a.primal() && upper(a.name) == axis) return a.factor;
    return 0;
}

int Layout::logicalIndexOf(char axis) const {
    int n = 0;
    for (auto& a : axes_) {
        if (!a.primal()) continue;
        if (a.name == axis) return n;
        ++n;
    }
    return -1;
}

int Layout::storedIndexOf(char name) const {
    for (size_t i = 0; i < axes_.size(); ++i)
        if (axes_[i].name == name) return int(i);
    return -1;
}

std::optional<std::vector<int64_t>> Layout::storedShape(const std::vector<int64_t>& logical) const {
    if (int(logical.size()) != logicalRank()) return std::nullopt;
    std::vector<int64_t> out;
    for (auto& a : axes_) {
        if (!a.primal()) {
            out.push_back(a.factor);
            continue;
        }
        int64_t extent = logical[size_t(logicalIndexOf(a.name))];
        const int64_t block = blockOf(a.name);
        if (block > 0 && extent >= 0) {
            if (extent % block != 0) return std::nullopt;
            extent /= block;
        }
        out.push_back(extent);
    }
    return out;
}

std::optional<std::vector<int64_t>> Layout::logicalShape(const std::vector<int64_t>& stored) const {
    if (int(stored.size()) != storedRank()) return std::nullopt;
    std::vector<int64_t> out;
    for (size_t i = 0; i < axes_.size(); ++i) {
        if (!axes_[i].primal()) continue;
        int64_t extent = stored[i];
        const int64_t block = blockOf(axes_[i].name);
        if (block > 0 && extent >= 0) extent *= block;
        out.push_back(extent);
    }
    return out;
}

std::vector<int64_t> Layout::storedIndex(const std::vector<int64_t>& logical) const {
    TESSEL_CHECK(int(logical.size()) == logicalRank(), "storedIndex: rank differs from " + str());
    std::vector<int64_t> out;
    for (auto& a : axes_) {
        const char p = a.primal() ? a.name : upper(a.name);
        const int64_t v = logical[size_t(logicalIndexOf(p))];
        const int64_t block = blockOf(p);
        out.push_back(a.primal() ? (block > 0 ? v / block : v) : v % a.factor);
    }
    return out;
}

std::vector<int64_t> Layout::logicalIndex(const std::vector<int64_t>& stored) const {
    TESSEL_CHECK(int(stored.size()) == storedRank(), "logicalIndex: rank differs from " + str());
    std::vector<int64_t> out(size_t(logicalRank()), 0);
    for (size_t i = 0; i < axes_.size(); ++i) {
        const auto& a = axes_[i];
        const char p = a.primal() ? a.name : upper(a.name);
        int64_t& v = out[size_t(logicalIndexOf(p))];
        if (a.primal()) {
            const int64_t block = blockOf(p);
            v += block > 0 ? stored[i] * block : stored[i];
        } else {
            v += stored[i];
        }
    }
    return out;
}

bool Layout::convertibleTo(const Layout& other) const {
    return primal().str() == other.primal().str();
}

std::string Layout::str() const {
    std::string s;
    for (auto& a : axes_) {
        if (!a.primal()) s += std::to_string(a.factor);
        s += a.name;
    }
    return s;
}

} // namespace tessel
