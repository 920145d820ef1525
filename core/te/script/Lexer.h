/// \file
/// Splitting TE script text into tokens (Python's lexical rules, reduced).
///
/// A script is a sequence of top-level simple statements, so indentation has
/// no meaning: an indented line is an error ("unexpected indent"). Newlines
/// end a statement except inside brackets or after a backslash. Columns are
/// 1-based and count Unicode code points, so they match what an editor shows.
#pragma once

#include "ir/Diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::te::script {

enum class TokenKind : uint8_t {
    Name,    ///< an identifier that is not a keyword
    Keyword, ///< `lambda`, `if`, `for`, `True` ... (every Python keyword)
    Int,     ///< intValue
    Float,   ///< floatValue
    String,  ///< value = the decoded string (adjacent literals stay separate tokens)
    Op,      ///< punctuation and operators: `(`, `**`, `//=`, `:` ...
    Newline, ///< the end of a logical line
    Comment, ///< `# ...` (only with LexOptions::keepComments)
    EndOfFile,
};

struct Token {
    TokenKind kind = TokenKind::EndOfFile;
    /// The source text of the token (for strings: with quotes and prefix).
    std::string text;
    /// The decoded value of a string literal.
    std::string value;
    int64_t intValue = 0;
    double floatValue = 0;
    SourceLoc loc;
    /// Byte offset and length in the source (for syntax colouring).
    int offset = 0;
    int length = 0;
    /// True for the first token of a physical line.
    bool firstOnLine = false;

    bool is(TokenKind k, std::string_view t) const { return kind == k && text == t; }
    bool isOp(std::string_view t) const { return is(TokenKind::Op, t); }
    bool isKeyword(std::string_view t) const { return is(TokenKind::Keyword, t); }
};

struct LexOptions {
    bool keepComments = false;
};

struct LexResult {
    /// The tokens, always ending with EndOfFile. After an error they stop at
    /// the end of the last complete statement before it.
    std::vector<Token> tokens;
    /// The first lexical error, if any.
    std::optional<Diagnostic> error;
};

/// Splits `source` into tokens. Never throws for bad input.
LexResult tokenize(std::string_view source, const LexOptions& opts = {});

/// True for every Python keyword (`lambda`, `for`, `True` ...).
bool isPythonKeyword(std::string_view word);

/// How a message names a token: "':'", "'foo'", "end of line", "string '...'".
std::string describeToken(const Token& t);

} // namespace tessel::te::script
