// The TE script language's lexer and parser, and the exact messages of
// scripts that must fail (syntax errors first, then errors found while
// running them).

#include "te/script/Lexer.h"
#include "te/script/Parser.h"
#include "te/script/Script.h"
#include "te/Suggest.h"

#include <QtTest>

#include <random>

using namespace tessel;
using namespace tessel::te;
using namespace tessel::te::script;

namespace {

const char* kGemm = R"(k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], bn, bn)
(k,) = s[C].op.reduce_axis
ko, ki = s[C].split(k, factor=4)
s[C].reorder(xo, yo, ko, xi, ki, yi)
s[C].vectorize(yi)
)";

/// "line:col: error: message" of the first diagnostic, or "" when it parsed.
std::string firstParseError(const std::string& src) {
    ParseResult r = parseScript(src);
    return r.ok() ? std::string() : r.diagnostics.front().str();
}

/// The first error of running `src` (parse or evaluation), or "" when it ran.
std::string firstRunError(const std::string& src) {
    ScriptOptions o;
    o.intGlobals = {{"M", 64}, {"N", 64}, {"K", 64}, {"bn", 8}};
    try {
        runScript(src, o);
    } catch (const CompileError& e) {
        return e.diagnostic().str();
    }
    return {};
}

const std::string kStagePrelude = "A = te.placeholder((8,), name=\"A\")\n"
                                  "C = te.compute((8,), lambda i: A[i] * 2, name=\"C\")\n"
                                  "s = te.create_schedule(C.op)\n";

} // namespace

class TestScriptParse : public QObject {
    Q_OBJECT

private slots:
    void lexerTokens();
    void lexerColumnsCountCodePoints();
    void lexerNumbersAndStrings();
    void goodScripts_data();
    void goodScripts();
    void astShapeAndLocations();
    void syntaxErrors_data();
    void syntaxErrors();
    void runErrors_data();
    void runErrors();
    void recoversAtNextStatement();
    void suggestions();
    void deepNestingIsAnError();
    void neverCrashesOnGarbage();
};

void TestScriptParse::lexerTokens() {
    LexResult r = tokenize("xo, yo = s[C].split(k, factor=4)  # comment\n\n");
    QVERIFY(!r.error);
    std::vector<std::string> texts;
    for (auto& t : r.tokens)
        texts.push_back(t.kind == TokenKind::Newline     ? "NL"
                        : t.kind == TokenKind::EndOfFile ? "EOF"
                                                         : t.text);
    std::vector<std::string> expected = {"xo", ",", "yo",    "=",  "s",  "[", "C",
                                         "]",  ".", "split", "(",  "k",  ",", "factor",
                                         "=",  "4", ")",     "NL", "EOF"};
    QCOMPARE(texts, expected);
    QCOMPARE(r.tokens[9].loc.line, 1);
    QCOMPARE(r.tokens[9].loc.column, 15);
    QVERIFY(r.tokens[0].firstOnLine);

    // Newlines inside brackets and after a backslash do not end the statement.
    r = tokenize("x = f(1,\n      2) + \\\n    3\ny = 1\n");
    QVERIFY(!r.error);
    int newlines = 0;
    for (auto& t : r.tokens)
        newlines += t.kind == TokenKind::Newline;
    QCOMPARE(newlines, 2);

    // Comments on request, keywords marked.
    r = tokenize("lambda x: x  # hi", LexOptions{true});
    QCOMPARE(r.tokens[0].kind, TokenKind::Keyword);
    QCOMPARE(r.tokens[4].kind, TokenKind::Comment);
    QCOMPARE(r.tokens[4].text, std::string("# hi"));
}

void TestScriptParse::lexerColumnsCountCodePoints() {
    LexResult r = tokenize("x = \"\xC3\xA9\xC3\xA9\" + y  # \xC3\xBC\n");
    QVERIFY(!r.error);
    QCOMPARE(r.tokens[3].text, std::string("+"));
    QCOMPARE(r.tokens[3].loc.column, 10);
    QCOMPARE(r.tokens[4].loc.column, 12);
    QCOMPARE(r.tokens[2].value, std::string("\xC3\xA9\xC3\xA9"));
}

void TestScriptParse::lexerNumbersAndStrings() {
    LexResult r =
        tokenize("0x1F 0b101 0o17 1_000 1.5 .5 2e3 1e-5 'a\\n\\'b' r'\\d' \"\"\"x\ny\"\"\"");
    QVERIFY(!r.error);
    QCOMPARE(r.tokens[0].intValue, int64_t(31));
    QCOMPARE(r.tokens[1].intValue, int64_t(5));
    QCOMPARE(r.tokens[2].intValue, int64_t(15));
    QCOMPARE(r.tokens[3].intValue, int64_t(1000));
    QCOMPARE(r.tokens[4].floatValue, 1.5);
    QCOMPARE(r.tokens[5].floatValue, 0.5);
    QCOMPARE(r.tokens[6].kind, TokenKind::Float);
    QCOMPARE(r.tokens[6].floatValue, 2000.0);
    QCOMPARE(r.tokens[7].floatValue, 1e-5);
    QCOMPARE(r.tokens[8].value, std::string("a\n'b"));
    QCOMPARE(r.tokens[9].value, std::string("\\d"));
    QCOMPARE(r.tokens[10].value, std::string("x\ny"));
    QCOMPARE(r.tokens[11].kind, TokenKind::Newline);

    r = tokenize("x = 9223372036854775807");
    QVERIFY(!r.error);
    r = tokenize("x = 9223372036854775808");
    QVERIFY(r.error);
    QCOMPARE(r.error->str(),
             std::string("1:5: error: integer literal is too large (at most 2**63 - 1)"));
}

void TestScriptParse::goodScripts_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<int>("statements");
    QTest::newRow("gemm") << QString(kGemm) << 10;
    QTest::newRow("imports")
        << "import tvm\nfrom tvm import te\nimport tessel\nimport tvm.te as T\n"
           "from tvm import te as t2, tir\nfrom __future__ import annotations\n"
        << 6;
    QTest::newRow("empty") << "" << 0;
    QTest::newRow("comments and blank lines")
        << "# a comment\n\n   \n    # indented comment\nx = 1  # trailing\n"
        << 1;
    QTest::newRow("semicolons") << "a = 1; b = 2;\nc = 3" << 3;
    QTest::newRow("chained assignment") << "M = N = K = 1024" << 1;
    QTest::newRow("unpacking forms") << "(k,) = x\na, = x\n[a, b] = x\na, (b, c) = x\n" << 4;
    QTest::newRow("continuations") << "x = (1 +\n  2)\ny = 1 + \\\n  2\nz = [\n 1,\n 2,\n]\n" << 3;
    QTest::newRow("docstring") << "\"\"\"A GEMM.\n\nSecond line.\n\"\"\"\nx = 1\n" << 2;
    QTest::newRow("expressions") << "x = -a ** 2 + b // c % d - (e / f) * g\n"
                                    "y = a if b else c if d else e\n"
                                    "z = not a and b or c\n"
                                    "w = a < b <= c != d\n"
                                    "v = f(*xs, k=1)(2)[3].y\n"
                                    "u = lambda: lambda a, b,: a\n"
                                    "t = ~a | b & c ^ d << 1 >> 2\n"
                                 << 7;
    QTest::newRow("augmented") << "bn += 1\nbn //= 2\n" << 2;
    QTest::newRow("crlf") << "a = 1\r\nb = 2\r\n" << 2;
    QTest::newRow("pass") << "pass" << 1;
}

void TestScriptParse::goodScripts() {
    QFETCH(QString, src);
    QFETCH(int, statements);
    ParseResult r = parseScript(src.toStdString());
    if (!r.ok()) QFAIL(r.diagnostics.front().str().c_str());
    QCOMPARE(int(r.module->body.size()), statements);
}

void TestScriptParse::astShapeAndLocations() {
    ParseResult r = parseScript(kGemm);
    QVERIFY(r.ok());
    const auto& body = r.module->body;

    // C = te.compute((M, N), lambda x, y: ..., name="C")
    const AstStmt& c = *body[3];
    QCOMPARE(c.kind, StmtKind::Assign);
    QCOMPARE(c.targets[0]->text, std::string("C"));
    const AstExpr& call = *c.value;
    QCOMPARE(call.kind, ExprKind::Call);
    QCOMPARE(call.loc.line, 4);
    QCOMPARE(call.loc.column, 8); // the function name "compute"
    QCOMPARE(call.begin.column, 5);
    QCOMPARE(call.items.size(), size_t(3)); // callee, shape, lambda
    QCOMPARE(call.keywords.size(), size_t(1));
    QCOMPARE(call.keywords[0].name, std::string("name"));
    QCOMPARE(call.keywords[0].loc.column, 72);
    const AstExpr& lam = *call.items[2];
    QCOMPARE(lam.kind, ExprKind::Lambda);
    QCOMPARE(lam.params.size(), size_t(2));
    QCOMPARE(lam.params[1].name, std::string("y"));
    QCOMPARE(lam.params[1].loc.column, 34);

    // xo, yo, xi, yi = ...
    const AstStmt& tile = *body[5];
    QCOMPARE(tile.targets[0]->kind, ExprKind::Tuple);
    QCOMPARE(tile.targets[0]->items.size(), size_t(4));
    QCOMPARE(tile.value->loc.column, 23); // "tile"

    // (k,) = ...
    const AstStmt& k = *body[6];
    QCOMPARE(k.targets[0]->kind, ExprKind::Tuple);
    QCOMPARE(k.targets[0]->items.size(), size_t(1));

    // Every node has a location.
    std::function<void(const AstExpr&)> check = [&](const AstExpr& e) {
        QVERIFY(e.loc.known());
        QVERIFY(e.begin.known());
        for (auto& i : e.items)
            check(*i);
        for (auto& kw : e.keywords)
            check(*kw.value);
    };
    for (auto& s : body) {
        QVERIFY(s->loc.known());
        if (s->value) check(*s->value);
        for (auto& t : s->targets)
            check(*t);
    }

    // Operator precedence: -a ** 2 is -(a ** 2); a + b * c.
    AstExprPtr e = parseExpression("-a ** 2 + b * c");
    QCOMPARE(e->kind, ExprKind::Binary);
    QCOMPARE(e->binaryOp, BinaryOp::Add);
    QCOMPARE(e->loc.column, 9);
    QCOMPARE(e->items[0]->kind, ExprKind::Unary);
    QCOMPARE(e->items[0]->items[0]->binaryOp, BinaryOp::Pow);
    QCOMPARE(e->items[1]->binaryOp, BinaryOp::Mul);
}

void TestScriptParse::syntaxErrors_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("error");
    auto row = [](const char* name, const char* src, const char* err) {
        QTest::newRow(name) << src << err;
    };
    row("unterminated string", "x = 'abc", "1:5: error: unterminated string literal");
    row("unterminated triple string", "x = \"\"\"abc\n",
        "1:5: error: unterminated triple-quoted string literal");
    row("missing close paren at end", "x = f(1, 2\n", "1:6: error: '(' was never closed");
    row("missing close paren before next statement",
        "C = te.compute((4,), lambda i: A[i]\ns = f(1))\n", "1:15: error: '(' was never closed");
    row("unmatched close", "f(x)]", "1:5: error: unmatched ']'");
    row("mismatched close", "f(x]", "1:4: error: closing ']' does not match '(' opened at 1:2");
    row("bad indent", "a = 1\n  b = 2",
        "2:3: error: unexpected indent (TE scripts are a flat list of statements)");
    row("for", "a = 1\nfor i in range(3): pass",
        "2:1: error: 'for' statements are not supported in TE scripts; write loops as te.compute");
    row("while", "while True: pass",
        "1:1: error: 'while' statements are not supported in TE scripts; write loops as "
        "te.compute");
    row("def", "def f(x): return x",
        "1:1: error: 'def' statements are not supported in TE scripts; use a lambda");
    row("class", "class A: pass", "1:1: error: 'class' statements are not supported in TE scripts");
    row("if", "if x: pass",
        "1:1: error: 'if' statements are not supported in TE scripts; use te.if_then_else(cond, a, "
        "b) or 'a if cond "
        "else b'");
    row("return", "return 5", "1:1: error: 'return' statements are not supported in TE scripts");
    row("bad token", "x = 3 $ 4", "1:7: error: unexpected character '$'");
    row("bang", "x = !a", "1:5: error: unexpected character '!'; use 'not' or '!='");
    row("other import", "import numpy as np",
        "1:8: error: importing 'numpy' is not supported in TE scripts; only 'tvm' and 'tessel' can "
        "be imported");
    row("import star", "from tvm.te import *",
        "1:20: error: 'from ... import *' is not supported in TE scripts; import names one by one");
    row("lambda without keyword", "C = te.compute((M, N), x, y: A[x, y])",
        "1:28: error: expected ')' but found ':'");
    row("missing operand", "x = 1 +", "1:8: error: expected an expression but found end of line");
    row("missing operator", "x = a b", "1:7: error: expected end of statement but found 'b'");
    row("comprehension", "x = [i for i in range(3)]",
        "1:8: error: comprehensions are not supported in TE scripts");
    row("dict", "x = {1: 2}", "1:5: error: dict and set literals are not supported in TE scripts");
    row("slice", "B = A[1:2]", "1:8: error: slices are not supported in TE scripts");
    row("duplicate lambda parameter", "x = lambda x, x: 1",
        "1:15: error: duplicate parameter 'x' in lambda");
    row("lambda default", "f = lambda x=1: x",
        "1:13: error: default parameter values are not supported in TE lambdas");
    row("positional after keyword", "x = f(a=1, 2)",
        "1:12: error: positional argument follows keyword argument");
    row("repeated keyword", "x = f(a=1, a=2)", "1:12: error: keyword argument repeated: 'a'");
    row("assignment in argument", "x = f(a.b=1)",
        "1:10: error: expression cannot contain assignment; perhaps you meant '=='?");
    row("assign to literal", "x = True = 3", "1:5: error: cannot assign to a literal");
    row("assign to element", "C.op.axis[0] = 3",
        "1:1: error: cannot assign to an element; tensors are defined by te.compute, not by "
        "assignment");
    row("assign to call", "f() = 3", "1:1: error: cannot assign to a function call");
    row("leading zeros", "x = 0777",
        "1:5: error: leading zeros in decimal integer literals are not permitted; use 0o for "
        "octal");
    row("complex", "x = 5j", "1:5: error: complex numbers are not supported in TE scripts");
    row("bad number", "x = 1e", "1:5: error: invalid number literal '1e'");
    row("f-string", "x = f\"{a}\"", "1:5: error: f-strings are not supported in TE scripts");
    row("bytes", "x = b'ab'", "1:5: error: bytes literals are not supported in TE scripts");
    row("name before string", "x = ab'c'",
        "1:7: error: expected end of statement but found string 'c'");
    row("backslash", "x = 1 \\ y",
        "1:7: error: unexpected character after line continuation character");
    row("conditional without else", "x = a if b",
        "1:11: error: expected 'else' in the conditional expression but found end of line");
    row("in", "x = a in b", "1:7: error: 'in' is not supported in TE scripts");
    row("matmul", "x = a @ b",
        "1:7: error: '@' is not supported in TE scripts; write a matrix product as te.compute with "
        "te.sum");
    row("walrus", "x := 1",
        "1:3: error: ':=' is not supported in TE scripts; use a separate assignment");
    row("star expression", "x = *a", "1:5: error: expected an expression but found '*'");
    row("missing attribute name", "x = a.",
        "1:7: error: expected an attribute name after '.' but found end of line");
    row("empty index", "x = A[]", "1:7: error: expected an index but found ']'");
    row("non-ascii identifier", "\xC3\xA9 = 1",
        "1:1: error: invalid character '\xC3\xA9' in the script");
}

void TestScriptParse::syntaxErrors() {
    QFETCH(QString, src);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(firstParseError(src.toStdString())), error);
    // runScript reports the same first error.
    QCOMPARE(QString::fromStdString(firstRunError(src.toStdString())), error);
}

void TestScriptParse::runErrors_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<QString>("error");
    auto row = [](const char* name, const std::string& src, const char* err) {
        QTest::newRow(name) << QString::fromStdString(src) << err;
    };
    row("unknown name", "y = tle.compute",
        "1:5: error: name 'tle' is not defined; did you mean 'te'?");
    row("unknown name, nothing close", "y = zzzzzz + 1",
        "1:5: error: name 'zzzzzz' is not defined");
    row("te function without te", "A = placeholder((4,))",
        "1:5: error: name 'placeholder' is not defined; did you mean 'te.placeholder'?");
    row("unknown method", kStagePrelude + "s[C].tiel(C.op.axis[0], C.op.axis[0], 2, 2)",
        "4:6: error: Stage has no method 'tiel'; did you mean 'tile'?");
    row("unknown attribute", kStagePrelude + "x = C.shap",
        "4:7: error: Tensor has no attribute 'shap'; did you mean 'shape'?");
    row("unknown module function", "x = te.comput((4,), lambda i: i)",
        "1:8: error: module 'te' has no function 'comput'; did you mean 'compute'?");
    row("wrong keyword", "A = te.placeholder((4,), nme=\"A\")",
        "1:26: error: te.placeholder() got an unexpected keyword argument 'nme'; did you mean "
        "'name'?");
    row("wrong method keyword", kStagePrelude + "xo, xi = s[C].split(C.op.axis[0], factr=2)",
        "4:35: error: split() got an unexpected keyword argument 'factr'; did you mean 'factor'?");
    row("too many arguments", "A = te.placeholder((4,), \"float32\", \"A\", 5)",
        "1:42: error: te.placeholder() takes at most 3 arguments but 4 were given");
    row("missing argument", "x = te.sum(1)",
        "1:8: error: te.sum() missing required argument 'axis'");
    row("split needs factor", kStagePrelude + "s[C].split(C.op.axis[0])",
        "4:6: error: split() needs exactly one of 'factor' and 'nparts'");
    row("wrong argument type", kStagePrelude + "s[C].vectorize(3)",
        "4:16: error: vectorize(): argument 'var' must be an IterVar (a loop such as "
        "C.op.axis[0]), not int");
    row("too many values to unpack", "a, b = 1, 2, 3",
        "1:1: error: too many values to unpack (expected 2, got 3)");
    row("not enough values to unpack",
        kStagePrelude + "xo, yo, xi, yi = s[C].split(C.op.axis[0], 2)",
        "4:1: error: not enough values to unpack (expected 4, got 2)");
    row("unpack a non-sequence", "(k,) = 3",
        "1:1: error: cannot unpack int into 1 name; expected a tuple or list");
    row("indexing an IterVar", "k = te.reduce_axis((0, 4), \"k\")\nx = k[0]",
        "2:6: error: IterVar cannot be indexed; only tensors, schedules, tuples, lists and strings "
        "can");
    row("indexing an int", "x = 1 if 2 else 3; y = x[0]",
        "1:25: error: int cannot be indexed; only tensors, schedules, tuples, lists and strings "
        "can");
    row("tensor rank", "A = te.placeholder((4, 4), name=\"A\")\nB = A[1]",
        "2:6: error: tensor 'A' has 2 dimensions but is indexed with 1");
    row("float index", "A = te.placeholder((4,), name=\"A\")\nB = A[1.5]",
        "2:7: error: tensor 'A' must be indexed with integers or loop variables, not float");
    row("index out of range", "x = (1, 2)[5]",
        "1:12: error: index 5 is out of range for a tuple of 2 elements");
    row("division by zero", "x = 1 // 0", "1:7: error: integer division by zero");
    row("float division by zero", "x = 1 / 0.0", "1:7: error: float division by zero");
    row("symbolic division by zero", "C = te.compute((4,), lambda i: i // 0)",
        "1:34: error: division by zero");
    row("ambiguous division", "B = te.compute((4,), lambda i: i / 2)",
        "1:34: error: '/' between integer expressions is ambiguous; use '//' (floor division) or "
        "te.truncdiv");
    row("overflow", "x = 2 ** 64",
        "1:7: error: integer overflow (the result does not fit in 64 bits)");
    row("overflow by multiplication", "x = 3037000500 * 3037000500",
        "1:16: error: integer overflow (the result does not fit in 64 bits)");
    row("recursion", "f = lambda n: f(n)\nf(1)",
        "1:15: error: maximum recursion depth exceeded (50 nested lambda calls)");
    row("exec", "x = exec(\"1\")", "1:5: error: 'exec' is not available in TE scripts");
    row("bad dtype", "x = te.placeholder((4,), name=\"A\", dtype=\"flaot32\")",
        "1:36: error: unknown dtype 'flaot32'; did you mean 'float32'?");
    row("operand types", "print(\"a\" + 1)",
        "1:11: error: unsupported operand types for +: 'str' and 'int'");
    row("lambda arity", "C = te.compute((4, 4), lambda i: i)",
        "1:24: error: te.compute(): the lambda takes 1 argument but the shape has 2 dimensions");
    row("compute returns a string", "C = te.compute((4,), lambda i: \"s\")",
        "1:32: error: te.compute(): the function must return an expression, not str");
    row("not callable", "x = 1\nx()", "2:1: error: 'int' object is not callable");
    row("build of a non-schedule", "x = tvm.build(1)",
        "1:15: error: tvm.build(): argument 'inputs' must be a Schedule (from te.create_schedule), "
        "not int");
    row("import of a missing name", "from tvm import topy",
        "1:17: error: cannot import name 'topy' from 'tvm'");
    row("schedule API error", kStagePrelude + "s[A].compute_inline()",
        "4:6: error: compute_inline: 'A' is an input");
    row("symbolic truth value",
        "C = te.compute((4,), lambda i: 1 if i else 2)\nx = bool(C.op.axis[0])",
        "2:10: error: a symbolic expression has no truth value here; use te.if_then_else, te.all "
        "or te.any");
}

void TestScriptParse::runErrors() {
    QFETCH(QString, src);
    QFETCH(QString, error);
    // These scripts parse; they fail when they run.
    QVERIFY(parseScript(src.toStdString()).ok());
    QCOMPARE(QString::fromStdString(firstRunError(src.toStdString())), error);
}

void TestScriptParse::recoversAtNextStatement() {
    ParseResult r = parseScript("a = 1 +\nb = 2\nfor x in y: pass\nc = 3\nd = f(,)\ne = 5\n");
    // The parser resumes after each bad statement.
    QCOMPARE(int(r.diagnostics.size()), 3);
    QCOMPARE(r.diagnostics[0].loc.line, 1);
    QCOMPARE(r.diagnostics[1].loc.line, 3);
    QCOMPARE(r.diagnostics[2].str(),
             std::string("5:7: error: expected an expression but found ','"));
    // The good statements are kept for the IDE (completion, outline).
    QCOMPARE(int(r.module->body.size()), 3);

    // A lexical error keeps the statements before it.
    r = parseScript("a = 1\nb = 2\nc = 'oops\n");
    QCOMPARE(int(r.diagnostics.size()), 1);
    QCOMPARE(int(r.module->body.size()), 2);
}

void TestScriptParse::suggestions() {
    QCOMPARE(editDistance("tiel", "tile"), 1);
    QCOMPARE(editDistance("", "abc"), 3);
    QCOMPARE(editDistance("kitten", "sitting"), 3);
    QCOMPARE(closestName("vectorise", {"vectorize", "unroll", "parallel"}),
             std::string("vectorize"));
    QCOMPARE(closestName("reordr", {"reorder", "split"}), std::string("reorder"));
    QCOMPARE(closestName("x", {"te", "tvm"}), std::string());
    QCOMPARE(closestName("Split", {"split"}), std::string("split"));
    QCOMPARE(closestName("e", {"A", "B"}), std::string());
    QCOMPARE(closestName("n", {"N", "M"}), std::string("N"));
    QCOMPARE(closestName("placeh", {"placeholder", "compute"}), std::string("placeholder"));
    QCOMPARE(closestName("com", {"compute", "compute_at"}), std::string());
    QCOMPARE(didYouMean("factr", {"factor", "nparts"}), std::string("; did you mean 'factor'?"));
}

void TestScriptParse::deepNestingIsAnError() {
    const std::vector<std::string> sources = {
        "x = " + std::string(5000, '(') + "1" + std::string(5000, ')'),
        "x = " + std::string(100000, '-') + "1",
        "x = " + std::string(300, '(') + "1" + std::string(300, ')'),
        [] {
            std::string s = "x = 1";
            for (int i = 0; i < 100000; ++i)
                s += " + 1";
            return s;
        }(),
        [] {
            std::string s = "x = ";
            for (int i = 0; i < 20000; ++i)
                s += "not ";
            return s + "1";
        }(),
        [] {
            std::string s = "x = ";
            for (int i = 0; i < 20000; ++i)
                s += "lambda: ";
            return s + "1";
        }(),
        [] {
            std::string s = "x = f";
            for (int i = 0; i < 100000; ++i)
                s += "()";
            return s;
        }(),
        [] {
            std::string s = "x = a";
            for (int i = 0; i < 100000; ++i)
                s += ".b";
            return s;
        }(),
    };
    for (auto& src : sources) {
        ParseResult r = parseScript(src);
        QVERIFY(!r.ok());
        const std::string& msg = r.diagnostics.front().message;
        QVERIFY2(msg.find("nested") != std::string::npos ||
                     msg.find("too complex") != std::string::npos ||
                     msg.find("too many nested brackets") != std::string::npos,
                 msg.c_str());
    }
    // Wide but shallow is fine.
    std::string wide = "x = [";
    for (int i = 0; i < 100000; ++i)
        wide += "1, ";
    wide += "]\ny = len(x)";
    ScriptResult res = runScript(wide);
    QCOMPARE(res.global("y")->asInt(), int64_t(100000));
}

void TestScriptParse::neverCrashesOnGarbage() {
    std::mt19937 rng(12345);
    const std::vector<std::string> pieces = {
        "te",
        ".",
        "compute",
        "placeholder",
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "lambda",
        "x",
        "y",
        "=",
        "==",
        "+",
        "-",
        "*",
        "**",
        "/",
        "//",
        "%",
        "1",
        "0",
        "2.5",
        "'s'",
        "\"",
        "\n",
        " ",
        "\\",
        "#",
        "if",
        "else",
        "not",
        "and",
        "or",
        "s",
        "A",
        "C",
        "op",
        "axis",
        "reduce_axis",
        "split",
        "tile",
        "fuse",
        "k",
        "None",
        "True",
        "{",
        "}",
        "@",
        "$",
        "\t",
        "    ",
        "9999999999999999999",
        "1e400",
        "for",
        "def",
        "import",
        "tvm",
        "from",
        "print",
        "range",
        "len",
        "min",
        "max",
        "create_schedule",
        ";",
        "sum",
        "-1",
        "0x",
    };
    const std::string prelude = kStagePrelude + "k = te.reduce_axis((0, 8), 'k')\n";
    for (int iter = 0; iter < 3000; ++iter) {
        std::string src;
        int n = 1 + int(rng() % 24);
        for (int i = 0; i < n; ++i)
            src += pieces[rng() % pieces.size()];
        if (iter % 2) src = prelude + src;
        if (iter % 7 == 0)
            for (int i = 0; i < 8; ++i)
                src += char(rng() % 256);
        try {
            ParseResult p = parseScript(src);
            (void)p;
            runScript(src);
        } catch (const CompileError&) {
        }
    }
}

QTEST_APPLESS_MAIN(TestScriptParse)
#include "tst_script_parse.moc"
