/// \file
/// Parsing TE scripts: tokens (Lexer.h) to a syntax tree (Ast.h).
///
/// The grammar is Python's, reduced to what tensor expressions and schedules
/// need. A script is a sequence of simple statements, separated by newlines
/// or `;`:
///
///     target = target = ... = expression        (targets: names, tuples, lists)
///     name += expression                        (also -= *= /= //= %= **=)
///     expression                                (usually a call)
///     import tvm / from tvm import te / import tessel   (bound, otherwise ignored)
///     pass
///
/// Expressions: literals (int, float, string, True, False, None), names,
/// tuples, lists, `a.b`, `a[i, j]`, calls with positional, keyword and `*seq`
/// arguments, `lambda x, y: e`, `a if c else b`, `or`/`and`/`not`, chained
/// comparisons, `| ^ & << >>`, `+ - * / // % **`, unary `- + ~`.
///
/// Everything else (`def`, `for`, `while`, `if` statements, other imports,
/// slices, comprehensions, dicts ...) is rejected with a message that says
/// what to write instead. Parsing never throws: errors come back as
/// diagnostics, one per bad statement (the parser resumes at the next line).
#pragma once

#include "ir/Diagnostic.h"
#include "te/script/Ast.h"

#include <memory>
#include <string_view>
#include <vector>

namespace tessel::te::script {

struct ParseResult {
    /// Never null. With errors it holds the statements that did parse.
    std::shared_ptr<const AstModule> module;
    /// Errors in source order; empty when the script parsed.
    std::vector<Diagnostic> diagnostics;
    bool ok() const { return diagnostics.empty(); }
};

/// Parses a whole script.
ParseResult parseScript(std::string_view source);

/// Parses one expression (the whole text must be one expression). Throws
/// CompileError on a syntax error.
AstExprPtr parseExpression(std::string_view source);

/// How deeply expressions may nest (brackets, operators, lambdas); also the
/// largest AstExpr::depth the parser builds.
constexpr int kMaxExprDepth = 200;

} // namespace tessel::te::script
