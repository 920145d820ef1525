#include "ir/Target.h"

#include "ir/DataType.h"
#include "ir/Diagnostic.h"

#include <charconv>
#include <vector>

namespace tessel {

namespace {

constexpr TargetKind kKinds[] = {TargetKind::LLVM, TargetKind::C, TargetKind::CUDA, TargetKind::NVPTX};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Splits `text` into words at spaces, keeping a `{...}` group (a nested
/// target) inside one word.
std::vector<std::string> words(std::string_view text) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : text) {
        if (c == '{') ++depth;
        if (c == '}' && --depth < 0) throw CompileError("unbalanced '}' in target '" + std::string(text) + "'");
        if (isSpace(c) && depth == 0) {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (depth != 0) throw CompileError("unbalanced '{' in target '" + std::string(text) + "'");
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

int parseCount(const std::string& option, const std::string& value, std::string_view text) {
    int v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || v < 0)
        throw CompileError("target option " + option + " needs a count, not '" + value + "' (in '" +
                           std::string(text) + "')");
    return v;
}

} // namespace

const char* targetKindName(TargetKind kind) {
    switch (kind) {
    case TargetKind::LLVM: return "llvm";
    case TargetKind::C: return "c";
    case TargetKind::CUDA: return "cuda";
    case TargetKind::NVPTX: return "nvptx";
    }
    return "llvm";
}

Target Target::parse(std::string_view text) {
    std::vector<std::string> tokens = words(text);
    Target t;
    size_t i = 0;
    bool kindGiven = false;
    if (!tokens.empty())
        for (TargetKind k : kKinds)
            if (tokens[0] == targetKindName(k)) {
                t.kind = k;
                kindGiven = true;
                i = 1;
            }
    for (; i < tokens.size(); ++i) {
        const std::string& tok = tokens[i];
        if (!tok.starts_with("-")) {
            // The older "<triple> -mcpu=... -mattr=..." form: a bare first word names the triple.
            if (i == 0 && !kindGiven) {
                t.triple = tok;
                continue;
            }
            throw CompileError("unexpected '" + tok + "' in target '" + std::string(text) + "'");
        }
        size_t eq = tok.find('=');
        std::string key = tok.substr(0, eq), value = eq == std::string::npos ? std::string() : tok.substr(eq + 1);
        if (eq == std::string::npos) throw CompileError("target option " + key + " needs a value (" + key + "=...)");
        if (key == "-mtriple") t.triple = value;
        else if (key == "-mcpu") t.cpu = value;
        else if (key == "-mattr") t.features = value;
        else if (key == "-vector-bits") t.vectorBits = parseCount(key, value, text);
        else if (key == "-max-threads") t.maxThreads = parseCount(key, value, text);
        else if (key == "-host") {
            if (value.size() < 2 || value.front() != '{' || value.back() != '}')
                throw CompileError("target option -host takes a target in braces: -host={llvm -mtriple=...}");
            t.host = std::make_shared<const Target>(parse(std::string_view(value).substr(1, value.size() - 2)));
        } else
            throw CompileError("unknown target option '" + key + "' in '" + std::string(text) +
                               "' (known: -mtriple -mcpu -mattr -vector-bits -max-threads -host)");
    }
    return t;
}

std::string Target::str() const {
    std::string s = targetKindName(kind);
    if (!triple.empty()) s += " -mtriple=" + triple;
    if (!cpu.empty()) s += " -mcpu=" + cpu;
    if (!features.empty()) s += " -mattr=" + features;
    if (vectorBits > 0) s += " -vector-bits=" + std::to_string(vectorBits);
    if (maxThreads > 0) s += " -max-threads=" + std::to_string(maxThreads);
    if (host) s += " -host={" + host->str() + "}";
    return s;
}

std::string Target::arch() const { return triple.substr(0, triple.find('-')); }

int Target::vectorLanes(const DataType& t) const {
    const int bits = t.bits() > 0 ? t.bits() : 32;
    return vectorBits >= bits ? vectorBits / bits : 1;
}

bool Target::hasFeature(std::string_view name) const {
    size_t start = 0;
    while (start <= features.size()) {
        size_t end = features.find(',', start);
        if (end == std::string::npos) end = features.size();
        std::string_view f(features.data() + start, end - start);
        if (f.size() == name.size() + 1 && f[0] == '+' && f.substr(1) == name) return true;
        start = end + 1;
    }
    return false;
}

bool Target::operator==(const Target& o) const {
    if (kind != o.kind || triple != o.triple || cpu != o.cpu || features != o.features ||
        vectorBits != o.vectorBits || maxThreads != o.maxThreads)
        return false;
    if (!host || !o.host) return !host && !o.host;
    return *host == *o.host;
}

} // namespace tessel
