#include "te/script/Lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessel::te::script {

namespace {

constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

// Longest first, so that the first match is the longest one.
constexpr std::array<std::string_view, 47> kOperators = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "==", "!=", "<=", ">=", "->",
    "+=",  "-=",  "*=",  "/=",  "%=",  "&=", "|=", "^=", "@=", "<<", ">>", ":=",
    "+",   "-",   "*",   "/",   "%",   "@",  "&",  "|",  "^",  "~",  "<",  ">",
    "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "="};

bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentChar(char c) {
    return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

/// A lexical error; caught inside tokenize().
struct LexError {
    Diagnostic diag;
};

class Lexer {
public:
    Lexer(std::string_view src, const LexOptions& opts) : src_(src), opts_(opts) {}

    LexResult run() {
        LexResult r;
        try {
            lexAll();
        } catch (const LexError& e) {
            r.error = e.diag;
            // Drop the statement the error is in.
            while (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline)
                tokens_.pop_back();
        }
        Token eof;
        eof.kind = TokenKind::EndOfFile;
        eof.loc = locAt(src_.size());
        eof.offset = static_cast<int>(src_.size());
        eof.firstOnLine = true;
        tokens_.push_back(eof);
        r.tokens = std::move(tokens_);
        return r;
    }

private:
    struct Bracket {
        char ch;
        SourceLoc loc;
    };

    [[noreturn]] void fail(size_t pos, std::string msg) {
        throw LexError{Diagnostic{Diagnostic::Severity::Error, std::move(msg), locAt(pos)}};
    }
    [[noreturn]] void fail(SourceLoc loc, std::string msg) {
        throw LexError{Diagnostic{Diagnostic::Severity::Error, std::move(msg), loc}};
    }

    SourceLoc locAt(size_t pos) const {
        // Columns count code points: skip UTF-8 continuation bytes. Positions
        // mostly increase along a line, so continue from the last one asked.
        if (colLineStart_ != lineStart_ || pos < colPos_) {
            colLineStart_ = lineStart_;
            colPos_ = lineStart_;
            col_ = 1;
        }
        for (; colPos_ < pos && colPos_ < src_.size(); ++colPos_)
            if ((static_cast<unsigned char>(src_[colPos_]) & 0xC0) != 0x80) ++col_;
        return {line_, col_};
    }

    char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
    bool atEnd() const { return pos_ >= src_.size(); }

    /// Consumes a newline sequence at pos_ ("\n", "\r\n" or "\r").
    bool eatNewline() {
        if (peek() == '\r') {
            ++pos_;
            if (peek() == '\n') ++pos_;
        } else if (peek() == '\n') {
            ++pos_;
        } else {
            return false;
        }
        ++line_;
        lineStart_ = pos_;
        atLineStart_ = true;
        return true;
    }

    void push(Token t, size_t start) {
        t.offset = static_cast<int>(start);
        t.length = static_cast<int>(pos_ - start);
        if (t.text.empty()) t.text = std::string(src_.substr(start, pos_ - start));
        t.firstOnLine = firstOnPhysicalLine_;
        firstOnPhysicalLine_ = false;
        if (t.kind != TokenKind::Comment) lineHasTokens_ = true;
        tokens_.push_back(std::move(t));
    }

    void endLogicalLine() {
        if (lineHasTokens_) {
            Token nl;
            nl.kind = TokenKind::Newline;
            nl.text = "";
            nl.loc = locAt(pos_);
            nl.offset = static_cast<int>(pos_);
            tokens_.push_back(nl);
        }
        lineHasTokens_ = false;
    }

    void lexAll() {
        while (true) {
            if (atLineStart_) {
                atLineStart_ = false;
                firstOnPhysicalLine_ = true;
                if (brackets_.empty() && !continuation_) {
                    // Indentation only matters for the first line of a statement.
                    size_t p = pos_;
                    while (p < src_.size() &&
                           (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\f'))
                        ++p;
                    bool blank =
                        p >= src_.size() || src_[p] == '\n' || src_[p] == '\r' || src_[p] == '#';
                    if (!blank && p > pos_)
                        fail(p, "unexpected indent (TE scripts are a flat list of statements)");
                }
                continuation_ = false;
            }
            if (atEnd()) break;
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\f') {
                ++pos_;
                continue;
            }
            if (c == '\n' || c == '\r') {
                if (brackets_.empty()) endLogicalLine();
                eatNewline();
                continue;
            }
            if (c == '#') {
                size_t start = pos_;
                SourceLoc loc = locAt(pos_);
                while (!atEnd() && peek() != '\n' && peek() != '\r')
                    ++pos_;
                if (opts_.keepComments) {
                    Token t;
                    t.kind = TokenKind::Comment;
                    t.loc = loc;
                    bool first = firstOnPhysicalLine_;
                    push(t, start);
                    firstOnPhysicalLine_ = first;
                }
                continue;
            }
            if (c == '\\') {
                size_t at = pos_;
                ++pos_;
                if (atEnd()) fail(at, "unexpected end of file after line continuation character");
                if (!eatNewline())
                    fail(at, "unexpected character after line continuation character");
                continuation_ = true;
                continue;
            }
            lexToken();
        }
        if (!brackets_.empty()) {
            const Bracket& b = brackets_.back();
            fail(b.loc, std::string("'") + b.ch + "' was never closed");
        }
        endLogicalLine();
    }

    void lexToken() {
        size_t start = pos_;
        SourceLoc loc = locAt(pos_);
        char c = peek();
        if (isIdentStart(c)) {
            while (isIdentChar(peek()))
                ++pos_;
            std::string_view word = src_.substr(start, pos_ - start);
            if ((peek() == '\'' || peek() == '"') && word.size() <= 2) {
                std::string lower(word);
                std::transform(lower.begin(), lower.end(), lower.begin(),
                               [](char ch) { return char(std::tolower(ch)); });
                if (lower == "r" || lower == "u") return lexString(start, loc, lower == "r");
                if (lower == "f" || lower == "rf" || lower == "fr")
                    fail(loc, "f-strings are not supported in TE scripts");
                if (lower == "b" || lower == "rb" || lower == "br")
                    fail(loc, "bytes literals are not supported in TE scripts");
            }
            Token t;
            t.kind = isPythonKeyword(word) ? TokenKind::Keyword : TokenKind::Name;
            t.loc = loc;
            push(t, start);
            return;
        }
        if (isDigit(c) || (c == '.' && isDigit(peek(1)))) return lexNumber(start, loc);
        if (c == '\'' || c == '"') return lexString(start, loc, false);
        if (static_cast<unsigned char>(c) >= 0x80) {
            // Decode one UTF-8 character for the message.
            size_t n = 1;
            while (pos_ + n < src_.size() &&
                   (static_cast<unsigned char>(src_[pos_ + n]) & 0xC0) == 0x80)
                ++n;
            fail(loc,
                 "invalid character '" + std::string(src_.substr(pos_, n)) + "' in the script");
        }
        for (std::string_view op : kOperators) {
            if (src_.substr(pos_, op.size()) == op) {
                pos_ += op.size();
                Token t;
                t.kind = TokenKind::Op;
                t.loc = loc;
                if (op == "(" || op == "[" || op == "{") {
                    if (brackets_.size() >= 200) fail(loc, "too many nested brackets");
                    brackets_.push_back({op[0], loc});
                } else if (op == ")" || op == "]" || op == "}") {
                    if (brackets_.empty()) fail(loc, "unmatched '" + std::string(op) + "'");
                    char open = brackets_.back().ch;
                    char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
                    if (op[0] != expected) {
                        SourceLoc ol = brackets_.back().loc;
                        fail(loc, "closing '" + std::string(op) + "' does not match '" +
                                      std::string(1, open) + "' opened at " +
                                      std::to_string(ol.line) + ":" + std::to_string(ol.column));
                    }
                    brackets_.pop_back();
                }
                push(t, start);
                return;
            }
        }
        if (c == '!') fail(loc, "unexpected character '!'; use 'not' or '!='");
        if (c == '$' || c == '?' || c == '`')
            fail(loc, std::string("unexpected character '") + c + "'");
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            fail(loc, "unexpected control character (code " +
                          std::to_string(int(static_cast<unsigned char>(c))) + ")");
        fail(loc, std::string("unexpected character '") + c + "'");
    }

    void lexNumber(size_t start, SourceLoc loc) {
        Token t;
        t.loc = loc;
        std::string digits;
        auto readDigits = [&](auto isValid) {
            bool lastUnderscore = false, any = false;
            while (isValid(peek()) || (peek() == '_' && any)) {
                if (peek() == '_') {
                    if (lastUnderscore) fail(pos_, "invalid number: two underscores in a row");
                    lastUnderscore = true;
                } else {
                    digits += peek();
                    lastUnderscore = false;
                    any = true;
                }
                ++pos_;
            }
            if (lastUnderscore) fail(pos_ - 1, "invalid number: it ends with an underscore");
            return any;
        };
        auto checkEnd = [&] {
            if (isIdentChar(peek())) {
                if (peek() == 'j' || peek() == 'J')
                    fail(loc, "complex numbers are not supported in TE scripts");
                fail(loc, "invalid number literal '" +
                              std::string(src_.substr(start, pos_ - start + 1)) + "'");
            }
        };
        if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' ||
                              peek(1) == 'O' || peek(1) == 'b' || peek(1) == 'B')) {
            char base = static_cast<char>(std::tolower(peek(1)));
            pos_ += 2;
            int radix = base == 'x' ? 16 : base == 'o' ? 8 : 2;
            bool any = readDigits([&](char ch) {
                int v = isDigit(ch)                ? ch - '0'
                        : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10
                        : (ch >= 'A' && ch <= 'F') ? ch - 'A' + 10
                                                   : 99;
                return v < radix;
            });
            if (!any)
                fail(loc,
                     "invalid number literal: no digits after '0" + std::string(1, base) + "'");
            checkEnd();
            uint64_t v = 0;
            for (char ch : digits) {
                int d = isDigit(ch) ? ch - '0' : std::tolower(ch) - 'a' + 10;
                if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - d) / radix)
                    fail(loc, "integer literal is too large (at most 2**63 - 1)");
                v = v * radix + d;
            }
            t.kind = TokenKind::Int;
            t.intValue = static_cast<int64_t>(v);
            push(t, start);
            return;
        }
        bool isFloat = false;
        readDigits(isDigit);
        std::string intPart = digits;
        if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
            isFloat = true;
            digits += '.';
            ++pos_;
            readDigits(isDigit);
        }
        if ((peek() == 'e' || peek() == 'E') &&
            (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
            isFloat = true;
            digits += 'e';
            ++pos_;
            if (peek() == '+' || peek() == '-') digits += src_[pos_++];
            readDigits(isDigit);
        }
        checkEnd();
        if (isFloat) {
            t.kind = TokenKind::Float;
            t.floatValue = std::strtod(digits.c_str(), nullptr);
            if (!std::isfinite(t.floatValue)) fail(loc, "float literal is too large");
        } else {
            if (intPart.size() > 1 && intPart[0] == '0' &&
                intPart.find_first_not_of('0') != std::string::npos)
                fail(loc, "leading zeros in decimal integer literals are not permitted; use 0o for "
                          "octal");
            uint64_t v = 0;
            for (char ch : intPart) {
                int d = ch - '0';
                if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - d) / 10)
                    fail(loc, "integer literal is too large (at most 2**63 - 1)");
                v = v * 10 + d;
            }
            t.kind = TokenKind::Int;
            t.intValue = static_cast<int64_t>(v);
        }
        push(t, start);
    }

    void lexString(size_t start, SourceLoc loc, bool raw) {
        // pos_ is at the opening quote (after a prefix, if any).
        char q = peek();
        bool triple = peek(1) == q && peek(2) == q;
        pos_ += triple ? 3 : 1;
        std::string value;
        while (true) {
            if (atEnd())
                fail(loc, triple ? "unterminated triple-quoted string literal"
                                 : "unterminated string literal");
            char c = peek();
            if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
                pos_ += triple ? 3 : 1;
                break;
            }
            if (c == '\n' || c == '\r') {
                if (!triple) fail(loc, "unterminated string literal");
                value += '\n';
                eatNewline();
                atLineStart_ = false;
                continue;
            }
            if (c == '\\' && !raw) {
                ++pos_;
                char e = peek();
                if (e == '\n' || e == '\r') {
                    eatNewline();
                    atLineStart_ = false;
                    continue;
                }
                if (atEnd()) continue;
                ++pos_;
                switch (e) {
                case 'n':
                    value += '\n';
                    break;
                case 't':
                    value += '\t';
                    break;
                case 'r':
                    value += '\r';
                    break;
                case '0':
                    value += '\0';
                    break;
                case 'a':
                    value += '\a';
                    break;
                case 'b':
                    value += '\b';
                    break;
                case 'f':
                    value += '\f';
                    break;
                case 'v':
                    value += '\v';
                    break;
                case '\\':
                    value += '\\';
                    break;
                case '\'':
                    value += '\'';
                    break;
                case '"':
                    value += '"';
                    break;
                default:
                    value += '\\';
                    value += e;
                }
                continue;
            }
            if (c == '\\' && raw && (peek(1) == q || peek(1) == '\\')) {
                value += c;
                value += peek(1);
                pos_ += 2;
                continue;
            }
            value += c;
            ++pos_;
        }
        Token t;
        t.kind = TokenKind::String;
        t.loc = loc;
        t.value = std::move(value);
        push(t, start);
    }

    std::string_view src_;
    LexOptions opts_;
    size_t pos_ = 0;
    size_t lineStart_ = 0;
    int line_ = 1;
    bool atLineStart_ = true;
    bool firstOnPhysicalLine_ = true;
    bool continuation_ = false;
    bool lineHasTokens_ = false;
    std::vector<Bracket> brackets_;
    std::vector<Token> tokens_;
    mutable size_t colLineStart_ = size_t(-1), colPos_ = 0;
    mutable int col_ = 1;
};

} // namespace

bool isPythonKeyword(std::string_view word) {
    return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

LexResult tokenize(std::string_view source, const LexOptions& opts) {
    return Lexer(source, opts).run();
}

std::string describeToken(const Token& t) {
    switch (t.kind) {
    case TokenKind::Newline:
        return "end of line";
    case TokenKind::EndOfFile:
        return "end of file";
    case TokenKind::String: {
        std::string s = t.text.size() > 20 ? t.text.substr(0, 17) + "..." : t.text;
        return "string " + s;
    }
    case TokenKind::Comment:
        return "comment";
    default:
        return "'" + t.text + "'";
    }
}

} // namespace tessel::te::script
