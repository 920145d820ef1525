#include "codegen/IdenticalFunctions.h"

#include "tir/IRVisitor.h"

#include <cctype>
#include <cstring>
#include <unordered_map>

namespace tessel::codegen {

namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool keyword(const std::string& s) {
    static const char* const kWords[] = {"def", "for", "in", "range", "if", "else", "elif", "and", "or", "not",
                                         "True", "False", "None", "return", "while", "with", "as", "T"};
    for (const char* w : kWords)
        if (s == w) return true;
    return false;
}

/// The bits of every float literal of `f`, in visiting order, and its
/// parameters' scope and alignment: what canonicalNames() does not see.
std::string unprintedFacts(const tir::PrimFunc& f) {
    std::string s;
    for (const auto& p : f->params) s += p->scope + "/" + std::to_string(p->alignment) + ";";
    tir::postOrderVisit(f->body, [&](const Object* o) {
        auto* n = dynamic_cast<const tir::BaseExprNode*>(o);
        if (!n || n->kind != tir::NodeKind::FloatImm) return;
        const double v = static_cast<const tir::FloatImmNode*>(n)->value;
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        s += std::to_string(bits) + ",";
    });
    return s;
}

} // namespace

std::string canonicalNames(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    std::unordered_map<std::string, size_t> ids;
    const size_t n = text.size();
    for (size_t i = 0; i < n;) {
        const char c = text[i];
        if (c == '"') { // a string literal: a dtype, a scope, an annotation's key
            size_t j = text.find('"', i + 1);
            j = j == std::string::npos ? n : j + 1;
            out.append(text, i, j - i);
            i = j;
        } else if (identStart(c)) {
            size_t j = i;
            while (j < n && identChar(text[j])) ++j;
            std::string word = text.substr(i, j - i);
            // `T.Ramp`, `T.float32`, `T.parallel`: the language's own names.
            const bool member = i >= 2 && text[i - 1] == '.' && text[i - 2] == 'T' && (i < 3 || !identChar(text[i - 3]));
            if (member || keyword(word)) {
                out += word;
            } else {
                auto [it, inserted] = ids.emplace(std::move(word), ids.size());
                out += '%';
                out += std::to_string(it->second);
            }
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c))) { // 12, 0.5, 1e-05: kept whole
            size_t j = i + 1;
            while (j < n && (identChar(text[j]) || text[j] == '.' ||
                             ((text[j] == '-' || text[j] == '+') && (text[j - 1] == 'e' || text[j - 1] == 'E'))))
                ++j;
            out.append(text, i, j - i);
            i = j;
        } else {
            out += c;
            ++i;
        }
    }
    return out;
}

std::vector<size_t> identicalFunctions(const std::vector<tir::PrimFunc>& funcs,
                                       const std::vector<std::string>& printed) {
    std::vector<size_t> first(funcs.size());
    std::unordered_map<std::string, size_t> seen;
    for (size_t i = 0; i < funcs.size(); ++i) {
        std::string key = canonicalNames(printed.at(i)) + "\n" + unprintedFacts(funcs[i]);
        first[i] = seen.emplace(std::move(key), i).first->second;
    }
    return first;
}

} // namespace tessel::codegen
