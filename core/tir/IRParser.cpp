/// \file
/// The TIR text parser: a Python-like lexer (INDENT/DEDENT tokens, newlines
/// ignored inside brackets) and a recursive-descent parser over its tokens.
#include "tir/IRParser.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/ExprEquality.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>

namespace tessel::tir {

namespace {

enum class Tok { Name, Int, Float, String, Op, Newline, Indent, Dedent, End };

struct Token {
    Tok kind;
    std::string text;
    SourceLoc loc;
};

/// How a token reads in an error message.
std::string describe(const Token& t) {
    switch (t.kind) {
    case Tok::Newline: return "end of line";
    case Tok::Indent: return "an indented line";
    case Tok::Dedent: return "the end of the block";
    case Tok::End: return "the end of the text";
    case Tok::String: return "\"" + t.text + "\"";
    default: return "'" + t.text + "'";
    }
}

[[noreturn]] void fail(const std::string& msg, SourceLoc loc) { throw CompileError(msg, loc); }

/// Splits the text into tokens the way Python's tokenizer does.
std::vector<Token> lex(std::string_view src) {
    std::vector<Token> out;
    std::vector<int> indents;
    std::vector<SourceLoc> open; // unclosed brackets
    size_t i = 0, n = src.size(), lineStart = 0;
    int line = 1;
    bool atLineStart = true;
    auto loc = [&](size_t p) { return SourceLoc{line, static_cast<int>(p - lineStart) + 1}; };
    auto newLine = [&](size_t next) {
        ++line;
        lineStart = next;
    };
    while (i < n) {
        if (atLineStart && open.empty()) {
            size_t p = i;
            while (p < n && (src[p] == ' ' || src[p] == '\t')) {
                if (src[p] == '\t') fail("tabs are not allowed in indentation", loc(p));
                ++p;
            }
            if (p >= n) {
                i = p;
                break;
            }
            if (src[p] == '\n' || src[p] == '\r' || src[p] == '#') { // blank or comment line
                while (p < n && src[p] != '\n') ++p;
                i = p + 1;
                newLine(i);
                continue;
            }
            int col = static_cast<int>(p - i);
            if (indents.empty()) {
                indents.push_back(col);
            } else if (col > indents.back()) {
                indents.push_back(col);
                out.push_back({Tok::Indent, "", loc(p)});
            } else {
                while (indents.size() > 1 && col < indents.back()) {
                    indents.pop_back();
                    out.push_back({Tok::Dedent, "", loc(p)});
                }
                if (col != indents.back()) fail("unindent does not match any outer indentation level", loc(p));
            }
            i = p;
            atLineStart = false;
            continue;
        }
        char c = src[i];
        if (c == '\n') {
            if (open.empty()) {
                out.push_back({Tok::Newline, "", loc(i)});
                atLineStart = true;
            }
            ++i;
            newLine(i);
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
            continue;
        }
        if (c == '#') {
            while (i < n && src[i] != '\n') ++i;
            continue;
        }
        if (c == '\\' && i + 1 < n && src[i + 1] == '\n') {
            i += 2;
            newLine(i);
            continue;
        }
        SourceLoc at = loc(i);
        unsigned char uc = static_cast<unsigned char>(c);
        if (std::isalpha(uc) || c == '_') {
            size_t s = i;
            while (i < n && (std::isalnum(static_cast<unsigned char>(src[i])) || src[i] == '_')) ++i;
            out.push_back({Tok::Name, std::string(src.substr(s, i - s)), at});
        } else if (std::isdigit(uc) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
            size_t s = i;
            bool isFloat = false;
            while (i < n && std::isdigit(static_cast<unsigned char>(src[i]))) ++i;
            if (i < n && src[i] == '.') {
                isFloat = true;
                ++i;
                while (i < n && std::isdigit(static_cast<unsigned char>(src[i]))) ++i;
            }
            if (i < n && (src[i] == 'e' || src[i] == 'E')) {
                size_t e = i + 1;
                if (e < n && (src[e] == '+' || src[e] == '-')) ++e;
                if (e < n && std::isdigit(static_cast<unsigned char>(src[e]))) {
                    isFloat = true;
                    i = e;
                    while (i < n && std::isdigit(static_cast<unsigned char>(src[i]))) ++i;
                }
            }
            if (i < n && (std::isalpha(static_cast<unsigned char>(src[i])) || src[i] == '_'))
                fail("invalid number literal", at);
            out.push_back({isFloat ? Tok::Float : Tok::Int, std::string(src.substr(s, i - s)), at});
        } else if (c == '"' || c == '\'') {
            std::string s;
            ++i;
            while (true) {
                if (i >= n || src[i] == '\n') fail("unterminated string literal", at);
                if (src[i] == c) break;
                if (src[i] == '\\' && i + 1 < n && src[i + 1] != '\n') ++i;
                s += src[i++];
            }
            ++i;
            out.push_back({Tok::String, std::move(s), at});
        } else {
            static const char* const kTwo[] = {"==", "!=", "<=", ">=", "//", "->", "**"};
            std::string op;
            for (const char* t : kTwo)
                if (i + 1 < n && src[i] == t[0] && src[i + 1] == t[1]) op = t;
            if (op.empty()) {
                if (std::string_view("()[]{},:.=<>+-*/%@").find(c) == std::string_view::npos)
                    fail(std::string("unexpected character '") + c + "'", at);
                op = std::string(1, c);
            }
            if (op == "(" || op == "[" || op == "{") open.push_back(at);
            if (op == ")" || op == "]" || op == "}") {
                if (open.empty()) fail("unmatched '" + op + "'", at);
                open.pop_back();
            }
            i += op.size();
            out.push_back({Tok::Op, std::move(op), at});
        }
    }
    if (!open.empty()) fail("bracket is never closed", open.back());
    SourceLoc end = loc(i);
    if (!out.empty() && out.back().kind != Tok::Newline) out.push_back({Tok::Newline, "", end});
    for (size_t k = 1; k < indents.size(); ++k) out.push_back({Tok::Dedent, "", end});
    out.push_back({Tok::End, "", end});
    return out;
}

/// The message of a failed node check, without the "internal error" framing.
std::string checkMessage(const InternalError& e) {
    std::string m = e.what();
    if (m.starts_with("internal error: ")) m = m.substr(16);
    if (auto p = m.rfind(" ("); p != std::string::npos && m.ends_with(")")) m = m.substr(0, p);
    return m;
}

constexpr int kMaxDepth = 1000;

class Parser {
public:
    Parser(std::vector<Token> toks, const std::vector<Buffer>& buffers, const std::vector<Var>& vars)
        : t_(std::move(toks)) {
        scopes_.emplace_back();
        for (auto& b : buffers)
            if (b.defined()) scopes_[0].bufs[b->data.defined() ? b->data.name() : b->name] = b;
        for (auto& v : vars)
            if (v.defined()) scopes_[0].vars[v.name()] = v;
    }

    PrimFunc func() {
        if (isOp("@")) {
            next();
            expectT("prim_func");
            expectNewline("after the decorator");
        }
        expectKeyword("def");
        SourceLoc loc = peek().loc;
        std::string name = expectName("function name");
        expectOp("(", "after the function name");
        std::vector<Buffer> params;
        pushScope();
        while (!isOp(")")) {
            SourceLoc ploc = peek().loc;
            std::string pname = expectName("parameter name");
            expectOp(":", "after the parameter name");
            expectT("Buffer");
            expectOp("(", "after T.Buffer");
            std::vector<Expr> shape = shapeTuple();
            expectOp(",", "after the buffer shape");
            DataType dtype = typeString();
            expectOp(")", "after the buffer type");
            if (scopes_.back().bufs.count(pname)) fail("duplicate parameter '" + pname + "'", ploc);
            Buffer b;
            if (const Buffer* d = findBuf(pname); d && (*d)->dtype == dtype && (*d)->shape.size() == shape.size())
                b = *d;
            else
                b = Buffer::make(pname, dtype, std::move(shape));
            scopes_.back().bufs[pname] = b;
            params.push_back(b);
            if (!isOp(",")) break;
            next();
        }
        expectOp(")", "after the parameters");
        if (isOp("->")) {
            next();
            expectKeyword("None");
        }
        expectOp(":", "after the function signature");
        Stmt body = block();
        popScope();
        expectEnd();
        return build(loc, [&] { return PrimFunc::make(name, params, body); });
    }

    Stmt topStmts() {
        if (peek().kind == Tok::End) fail("expected a statement, got an empty text", peek().loc);
        Stmt s = stmtList(false);
        expectEnd();
        return s;
    }

    Expr topExpr() {
        Expr e = expr();
        if (peek().kind == Tok::Newline) next();
        expectEnd();
        return e;
    }

private:
    struct Scope {
        std::unordered_map<std::string, Var> vars;
        std::unordered_map<std::string, Buffer> bufs;
    };

    struct DepthGuard {
        DepthGuard(Parser& p, SourceLoc loc) : p(p) {
            if (++p.depth_ > kMaxDepth) fail("nesting too deep", loc);
        }
        ~DepthGuard() { --p.depth_; }
        Parser& p;
    };

    std::vector<Token> t_;
    size_t p_ = 0;
    std::vector<Scope> scopes_;
    int depth_ = 0;

    // -- tokens -------------------------------------------------------------

    const Token& peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
    Token next() {
        Token t = peek();
        if (p_ < t_.size() - 1) ++p_;
        return t;
    }
    bool isOp(const char* s, size_t k = 0) const { return peek(k).kind == Tok::Op && peek(k).text == s; }
    bool isName(const char* s, size_t k = 0) const { return peek(k).kind == Tok::Name && peek(k).text == s; }
    bool isT(size_t k = 0) const { return isName("T", k) && isOp(".", k + 1) && peek(k + 2).kind == Tok::Name; }
    /// The name after `T.` when the next tokens are `T.name`, else "".
    std::string tName(size_t k = 0) const { return isT(k) ? peek(k + 2).text : std::string(); }

    [[noreturn]] void unexpected(const std::string& what) const {
        fail("expected " + what + ", got " + describe(peek()), peek().loc);
    }
    void expectOp(const char* s, const std::string& where) {
        if (!isOp(s)) unexpected(std::string("'") + s + "' " + where);
        next();
    }
    void expectKeyword(const char* s) {
        if (!isName(s)) unexpected(std::string("'") + s + "'");
        next();
    }
    void expectT(const char* name) {
        if (tName() != name) unexpected(std::string("T.") + name);
        next(), next(), next();
    }
    std::string expectName(const std::string& what) {
        if (peek().kind != Tok::Name) unexpected(what);
        return next().text;
    }
    std::string expectString(const std::string& what) {
        if (peek().kind != Tok::String) unexpected(what + " (a string)");
        return next().text;
    }
    void expectNewline(const std::string& where) {
        if (peek().kind != Tok::Newline) unexpected("end of line " + where);
        next();
    }
    void expectEnd() {
        if (peek().kind == Tok::Indent) fail("unexpected indentation", peek().loc);
        if (peek().kind != Tok::End) unexpected("the end of the text");
    }
    DataType typeString() {
        SourceLoc loc = peek().loc;
        std::string s = expectString("a data type");
        auto t = DataType::parse(s);
        if (!t) fail("unknown data type \"" + s + "\"", loc);
        return *t;
    }

    /// Runs a node make(), turning its failed checks into located CompileErrors.
    template <class F> auto build(SourceLoc loc, F&& f) -> decltype(f()) {
        try {
            return f();
        } catch (const InternalError& e) {
            fail("invalid TIR: " + checkMessage(e), loc);
        }
    }

    // -- names --------------------------------------------------------------

    void pushScope() { scopes_.emplace_back(); }
    void popScope() { scopes_.pop_back(); }
    const Var* findVar(const std::string& n) const {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
            if (auto f = it->vars.find(n); f != it->vars.end()) return &f->second;
        return nullptr;
    }
    const Buffer* findBuf(const std::string& n) const {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
            if (auto f = it->bufs.find(n); f != it->bufs.end()) return &f->second;
        return nullptr;
    }
    Buffer useBuf(const Token& tok) const {
        if (const Buffer* b = findBuf(tok.text)) return *b;
        fail("unknown buffer '" + tok.text + "'", tok.loc);
    }
    Var useVar(const Token& tok) {
        if (const Var* v = findVar(tok.text)) return *v;
        if (findBuf(tok.text)) fail("buffer '" + tok.text + "' is not a value; index it as " + tok.text + "[...]", tok.loc);
        Var v(tok.text);
        scopes_[0].vars[tok.text] = v;
        return v;
    }

    // -- expressions --------------------------------------------------------

    Expr expr() {
        DepthGuard g(*this, peek().loc);
        return orExpr();
    }

    Expr orExpr() {
        Expr a = andExpr();
        while (isName("or")) {
            SourceLoc loc = next().loc;
            Expr b = andExpr();
            a = build(loc, [&] { return OrNode::make(a, b); });
        }
        return a;
    }

    Expr andExpr() {
        Expr a = notExpr();
        while (isName("and")) {
            SourceLoc loc = next().loc;
            Expr b = notExpr();
            a = build(loc, [&] { return AndNode::make(a, b); });
        }
        return a;
    }

    Expr notExpr() {
        if (isName("not")) {
            DepthGuard g(*this, peek().loc);
            SourceLoc loc = next().loc;
            Expr a = notExpr();
            return build(loc, [&] { return NotNode::make(a); });
        }
        return compare();
    }

    Expr compare() {
        Expr a = arith();
        while (peek().kind == Tok::Op) {
            const std::string op = peek().text;
            if (op != "==" && op != "!=" && op != "<" && op != "<=" && op != ">" && op != ">=") break;
            SourceLoc loc = next().loc;
            Expr b = arith();
            a = build(loc, [&] {
                if (op == "==") return EQNode::make(a, b);
                if (op == "!=") return NENode::make(a, b);
                if (op == "<") return LTNode::make(a, b);
                if (op == "<=") return LENode::make(a, b);
                if (op == ">") return GTNode::make(a, b);
                return GENode::make(a, b);
            });
        }
        return a;
    }

    Expr arith() {
        Expr a = term();
        while (isOp("+") || isOp("-")) {
            bool add = isOp("+");
            SourceLoc loc = next().loc;
            Expr b = term();
            a = build(loc, [&] { return add ? AddNode::make(a, b) : SubNode::make(a, b); });
        }
        return a;
    }

    Expr term() {
        Expr a = factor();
        while (isOp("*") || isOp("/") || isOp("//") || isOp("%")) {
            const std::string op = peek().text;
            SourceLoc loc = next().loc;
            Expr b = factor();
            a = build(loc, [&] {
                if (op == "*") return MulNode::make(a, b);
                if (op == "/") return DivNode::make(a, b);
                if (op == "//") return FloorDivNode::make(a, b);
                return FloorModNode::make(a, b);
            });
        }
        return a;
    }

    Expr factor() {
        if (isOp("-") || isOp("+")) {
            DepthGuard g(*this, peek().loc);
            bool neg = isOp("-");
            SourceLoc loc = next().loc;
            Expr a = factor();
            return neg ? negate(a, loc) : a;
        }
        if (isOp("**")) fail("'**' is not supported", peek().loc);
        return atom();
    }

    Expr negate(const Expr& a, SourceLoc loc) {
        return build(loc, [&]() -> Expr {
            if (auto* i = a.as<IntImmNode>()) return IntImmNode::make(i->type, -i->value);
            if (auto* f = a.as<FloatImmNode>()) return FloatImmNode::make(f->type, -f->value);
            DataType t = a.type();
            if (!t.isScalar()) fail("cannot negate a vector; write 0 - x with a broadcast zero", loc);
            Expr zero = t.isFloat() ? FloatImmNode::make(t, 0.0) : IntImmNode::make(t, 0);
            return SubNode::make(zero, a);
        });
    }

    int64_t intValue(const Token& tok) const {
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(tok.text.c_str(), &end, 10);
        if (errno == ERANGE) fail("integer literal out of range", tok.loc);
        return v;
    }
    double floatValue(const Token& tok) const { return std::strtod(tok.text.c_str(), nullptr); }

    /// An integer literal with an optional minus sign (lanes, counts).
    int64_t intLiteral(const std::string& what) {
        bool neg = false;
        if (isOp("-") && peek(1).kind == Tok::Int) {
            next();
            neg = true;
        }
        if (peek().kind != Tok::Int) unexpected(what + " (an integer literal)");
        int64_t v = intValue(next());
        return neg ? -v : v;
    }

    Expr atom() {
        const Token tok = peek();
        switch (tok.kind) {
        case Tok::Int: next(); return IntImmNode::make(DataType::int32(), intValue(tok));
        case Tok::Float: next(); return FloatImmNode::make(DataType::float32(), floatValue(tok));
        case Tok::String: next(); return StringImmNode::make(tok.text);
        case Tok::Op:
            if (tok.text == "(") {
                DepthGuard g(*this, tok.loc);
                next();
                Expr e = expr();
                expectOp(")", "to close '('");
                return e;
            }
            break;
        case Tok::Name: {
            if (tok.text == "True" || tok.text == "False") {
                next();
                return IntImmNode::make(DataType::boolean(), tok.text == "True");
            }
            if (isT()) return tCall();
            static const char* const kKeywords[] = {"and", "or", "not", "if", "else", "elif", "for", "in",
                                                    "with", "def", "None", "lambda", "return"};
            for (const char* k : kKeywords)
                if (tok.text == k) fail("unexpected keyword '" + tok.text + "' in an expression", tok.loc);
            if (isOp("[", 1)) {
                Buffer b = useBuf(tok);
                next();
                std::vector<Expr> idx = indices();
                return build(tok.loc, [&] { return BufferLoadNode::make(b, idx); });
            }
            if (isOp("(", 1))
                fail("unknown function '" + tok.text + "'; TIR functions are written T." + tok.text + "(...)", tok.loc);
            next();
            return useVar(tok);
        }
        default: break;
        }
        unexpected("an expression");
    }

    /// `[i, j]` after a buffer name.
    std::vector<Expr> indices() {
        expectOp("[", "before the indices");
        std::vector<Expr> idx;
        while (!isOp("]")) {
            idx.push_back(expr());
            if (!isOp(",")) break;
            next();
        }
        expectOp("]", "after the indices");
        if (idx.empty()) fail("a buffer access needs at least one index", peek().loc);
        return idx;
    }

    /// `(a, b, ...)` of a call, the '(' not yet consumed.
    std::vector<Expr> callArgs(const std::string& fname) {
        expectOp("(", "after T." + fname);
        std::vector<Expr> args;
        while (!isOp(")")) {
            args.push_back(expr());
            if (!isOp(",")) break;
            next();
        }
        expectOp(")", "to close the arguments of T." + fname);
        return args;
    }

    void arity(const std::vector<Expr>& args, size_t n, const std::string& fname, SourceLoc loc) {
        if (args.size() != n)
            fail("T." + fname + " takes " + std::to_string(n) + " arguments, got " + std::to_string(args.size()), loc);
    }

    Expr tCall() {
        DepthGuard g(*this, peek().loc);
        SourceLoc loc = peek().loc;
        next(), next();
        std::string fname = next().text;
        if (auto t = DataType::parse(fname); t && !t->isHandle() && !t->isVoid()) return typedLiteral(*t, fname, loc);
        if (fname == "Cast") {
            expectOp("(", "after T.Cast");
            DataType t = typeString();
            expectOp(",", "after the type of T.Cast");
            Expr v = expr();
            expectOp(")", "to close T.Cast");
            return build(loc, [&] { return CastNode::make(t, v); });
        }
        if (fname == "Let") return letExpr(loc);
        if (fname == "call_extern") {
            expectOp("(", "after T.call_extern");
            DataType t = typeString();
            expectOp(",", "after the return type of T.call_extern");
            std::string sym = expectString("the extern function's name");
            std::vector<Expr> args;
            while (isOp(",")) {
                next();
                if (isOp(")")) break;
                args.push_back(expr());
            }
            expectOp(")", "to close T.call_extern");
            return build(loc, [&] { return CallNode::makeExtern(t, sym, args); });
        }
        if (fname == "Ramp" || fname == "Broadcast") {
            expectOp("(", "after T." + fname);
            Expr base = expr();
            Expr stride;
            if (fname == "Ramp") {
                expectOp(",", "after the base of T.Ramp");
                stride = expr();
            }
            expectOp(",", "before the lane count");
            SourceLoc lloc = peek().loc;
            int64_t lanes = intLiteral("the lane count");
            if (lanes < 2 || lanes > 65535) fail("lane count must be between 2 and 65535", lloc);
            expectOp(")", "to close T." + fname);
            return build(loc, [&] {
                return fname == "Ramp" ? RampNode::make(base, stride, int(lanes)) : BroadcastNode::make(base, int(lanes));
            });
        }
        if (fname == "sum" || fname == "prod")
            fail("reductions (T." + fname + ") cannot be parsed; they only occur in TE computes", loc);
        Intrinsic op;
        bool intrinsic = intrinsicFromName(fname, op);
        bool binary = fname == "truncdiv" || fname == "truncmod" || fname == "min" || fname == "max" ||
                      fname == "floordiv" || fname == "floormod";
        if (!intrinsic && !binary && fname != "Select") fail("unknown function T." + fname, loc);
        if (intrinsic && op == Intrinsic::StorageSync) {
            // TVM's spelling names the scope; only shared memory is synchronised.
            expectOp("(", "after T." + fname);
            SourceLoc sloc = peek().loc;
            if (expectString("the scope \"shared\"") != "shared") fail("T.tvm_storage_sync synchronises \"shared\" only", sloc);
            expectOp(")", "to close T." + fname);
            return build(loc, [&] { return CallNode::make(DataType::int32(), op, {}); });
        }
        std::vector<Expr> args = callArgs(fname);
        if (binary) {
            arity(args, 2, fname, loc);
            return build(loc, [&]() -> Expr {
                if (fname == "truncdiv") return DivNode::make(args[0], args[1]);
                if (fname == "truncmod") return ModNode::make(args[0], args[1]);
                if (fname == "min") return MinNode::make(args[0], args[1]);
                if (fname == "max") return MaxNode::make(args[0], args[1]);
                if (fname == "floordiv") return FloorDivNode::make(args[0], args[1]);
                return FloorModNode::make(args[0], args[1]);
            });
        }
        if (fname == "Select") {
            arity(args, 3, fname, loc);
            return build(loc, [&] { return SelectNode::make(args[0], args[1], args[2]); });
        }
        if (args.empty()) fail("T." + fname + " needs arguments", loc);
        // The result type rule of IROperators' call().
        DataType t = args[0].type();
        if (op == Intrinsic::Prefetch)
            t = DataType::int32();
        else if (op == Intrinsic::PairDotI16)
            t = DataType::int32(t.lanes());
        else if (t.isIntOrUInt() && op != Intrinsic::Abs && op != Intrinsic::Likely)
            t = DataType::float32(t.lanes());
        return build(loc, [&] { return CallNode::make(t, op, args); });
    }

    /// `T.int64(5)`, `T.float32(1.5)`, `T.float32("inf")`; a non-literal is a cast.
    Expr typedLiteral(DataType t, const std::string& fname, SourceLoc loc) {
        expectOp("(", "after T." + fname);
        Expr e;
        bool neg = isOp("-") && (peek(1).kind == Tok::Int || peek(1).kind == Tok::Float);
        const Token& lit = peek(neg ? 1 : 0);
        bool closes = isOp(")", neg ? 2 : 1);
        if (closes && lit.kind == Tok::String) {
            if (!t.isFloat()) fail("T." + fname + " of a string needs a float type", lit.loc);
            double v;
            if (lit.text == "inf" || lit.text == "+inf") v = std::numeric_limits<double>::infinity();
            else if (lit.text == "-inf") v = -std::numeric_limits<double>::infinity();
            else if (lit.text == "nan") v = std::numeric_limits<double>::quiet_NaN();
            else fail("unknown float constant \"" + lit.text + "\"", lit.loc);
            next();
            e = build(loc, [&] { return FloatImmNode::make(t, v); });
        } else if (closes && lit.kind == Tok::Name && lit.text == "nan" && t.isFloat()) {
            next();
            e = build(loc, [&] { return FloatImmNode::make(t, std::numeric_limits<double>::quiet_NaN()); });
        } else if (closes && (lit.kind == Tok::Int || lit.kind == Tok::Float)) {
            if (neg) next();
            Token tok = next();
            if (t.isFloat()) {
                double v = tok.kind == Tok::Int ? double(intValue(tok)) : floatValue(tok);
                e = build(loc, [&] { return FloatImmNode::make(t, neg ? -v : v); });
            } else {
                if (tok.kind == Tok::Float) fail("T." + fname + " needs an integer literal", tok.loc);
                int64_t v = intValue(tok);
                e = build(loc, [&] { return IntImmNode::make(t, neg ? -v : v); });
            }
        } else if (closes && lit.kind == Tok::Name && (lit.text == "True" || lit.text == "False")) {
            next();
            e = build(loc, [&] { return IntImmNode::make(t, lit.text == "True" ? 1 : 0); });
        } else {
            Expr v = expr();
            e = build(loc, [&] { return CastNode::make(t, v); });
        }
        expectOp(")", "to close T." + fname);
        return e;
    }

    /// `T.Let(body, where={x: value})`: the value is parsed first, so that x
    /// has its type while the body is parsed.
    Expr letExpr(SourceLoc loc) {
        expectOp("(", "after T.Let");
        size_t bodyStart = p_;
        int depth = 0;
        while (true) {
            const Token& tk = peek();
            if (tk.kind == Tok::End || tk.kind == Tok::Newline) unexpected("', where={...}' in T.Let");
            if (tk.kind == Tok::Op) {
                if (tk.text == "(" || tk.text == "[" || tk.text == "{") ++depth;
                if (tk.text == ")" || tk.text == "]" || tk.text == "}") {
                    if (depth == 0) unexpected("', where={...}' in T.Let");
                    --depth;
                }
                if (tk.text == "," && depth == 0) break;
            }
            next();
        }
        next();
        expectKeyword("where");
        expectOp("=", "after 'where'");
        expectOp("{", "after 'where='");
        std::string name = expectName("the let variable");
        expectOp(":", "after the let variable");
        Expr value = expr();
        expectOp("}", "to close the where clause");
        expectOp(")", "to close T.Let");
        size_t end = p_;
        Var v(name, value.type());
        pushScope();
        scopes_.back().vars[name] = v;
        p_ = bodyStart;
        Expr body = expr();
        if (!isOp(",")) unexpected("',' after the body of T.Let");
        popScope();
        p_ = end;
        return build(loc, [&] { return LetNode::make(v, value, body); });
    }

    /// `(16, 8)` or `[16, 8]`, a trailing comma allowed.
    std::vector<Expr> shapeTuple() {
        bool paren = isOp("(");
        if (!paren && !isOp("[")) unexpected("a shape tuple");
        next();
        std::vector<Expr> shape;
        while (!isOp(paren ? ")" : "]")) {
            shape.push_back(expr());
            if (!isOp(",")) break;
            next();
        }
        expectOp(paren ? ")" : "]", "to close the shape");
        return shape;
    }

    /// The extent of [min, maxExclusive) as the printer wrote `min + extent`.
    Expr extentOf(const Expr& min, const Expr& max, SourceLoc loc) {
        auto* a = min.as<IntImmNode>();
        auto* b = max.as<IntImmNode>();
        if (a && b && a->type == b->type) return build(loc, [&] { return IntImmNode::make(a->type, b->value - a->value); });
        if (structuralEqual(min, max) && min.type().isScalar() && min.type().isIntOrUInt())
            return build(loc, [&] { return IntImmNode::make(min.type(), 0); });
        if (auto* add = max.as<AddNode>(); add && structuralEqual(add->a, min)) return add->b;
        return build(loc, [&] { return SubNode::make(max, min); });
    }

    // -- statements ---------------------------------------------------------

    /// `NEWLINE INDENT statements DEDENT` after a ':'.
    Stmt block() {
        DepthGuard g(*this, peek().loc);
        if (peek().kind != Tok::Newline) unexpected("a new line after ':'");
        next();
        if (peek().kind != Tok::Indent) unexpected("an indented block");
        next();
        Stmt s = stmtList(false);
        if (peek().kind != Tok::Dedent) unexpected("the end of the block");
        next();
        return s;
    }

    /// Statements up to the end of the block. Lets and allocations take the
    /// rest of the block as their body; an empty rest is a no-op.
    Stmt stmtList(bool allowEmpty) {
        std::vector<Stmt> seq;
        while (peek().kind != Tok::Dedent && peek().kind != Tok::End) {
            const Token& tk = peek();
            if (tk.kind == Tok::Indent) fail("unexpected indentation", tk.loc);
            if (isName("for")) seq.push_back(forStmt());
            else if (isName("with")) seq.push_back(withStmt());
            else if (isName("if")) seq.push_back(ifStmt());
            else if (isName("else") || isName("elif")) fail("'" + tk.text + "' without a matching 'if'", tk.loc);
            else if (tName() == "evaluate") seq.push_back(evaluateStmt());
            else if (tk.kind == Tok::Name && isOp(":", 1)) {
                seq.push_back(letStmt());
                break;
            } else if (tk.kind == Tok::Name && isOp("=", 1)) {
                seq.push_back(allocateStmt());
                break;
            } else if (tk.kind == Tok::Name && isOp("[", 1)) seq.push_back(storeStmt());
            else unexpected("a statement");
        }
        if (seq.empty()) {
            if (!allowEmpty) unexpected("a statement");
            return noOp();
        }
        if (seq.size() == 1) return seq[0];
        // Built directly (not SeqStmtNode::make) so that written no-ops stay.
        auto* n = new SeqStmtNode;
        n->seq = std::move(seq);
        return Stmt(n);
    }

    Stmt forStmt() {
        SourceLoc loc = next().loc;
        std::string name = expectName("the loop variable");
        expectKeyword("in");
        ForKind kind = ForKind::Serial;
        SourceLoc iloc = peek().loc;
        bool isRange = isName("range");
        std::string fname = "range";
        if (isRange) {
            next();
        } else {
            fname = tName();
            if (fname == "serial") kind = ForKind::Serial;
            else if (fname == "parallel") kind = ForKind::Parallel;
            else if (fname == "vectorized") kind = ForKind::Vectorized;
            else if (fname == "unroll") kind = ForKind::Unrolled;
            else if (fname == "thread_binding") kind = ForKind::ThreadBinding;
            else unexpected("range(...), T.serial, T.parallel, T.vectorized, T.unroll or T.thread_binding");
            next(), next(), next();
        }
        expectOp("(", "after " + fname);
        std::vector<Expr> args;
        std::vector<std::pair<std::string, Expr>> annotations;
        std::string thread;
        bool sawAnnotations = false;
        while (!isOp(")")) {
            if (peek().kind == Tok::Name && peek().text == "thread" && isOp("=", 1)) {
                if (kind != ForKind::ThreadBinding) fail("only T.thread_binding takes thread=", peek().loc);
                next(), next();
                thread = expectString("a thread tag (\"threadIdx.x\", \"blockIdx.y\", \"vthread\" ...)");
                sawAnnotations = true;
            } else if (peek().kind == Tok::Name && isOp("=", 1)) {
                if (peek().text != "annotations") fail("unknown keyword argument '" + peek().text + "'", peek().loc);
                if (isRange) fail("range() takes no annotations; use T.serial(..., annotations={...})", peek().loc);
                next(), next();
                expectOp("{", "after 'annotations='");
                while (!isOp("}")) {
                    std::string key = expectString("an annotation key");
                    expectOp(":", "after the annotation key");
                    annotations.emplace_back(std::move(key), expr());
                    if (!isOp(",")) break;
                    next();
                }
                expectOp("}", "to close the annotations");
                sawAnnotations = true;
            } else {
                if (sawAnnotations) fail("positional argument after annotations", peek().loc);
                args.push_back(expr());
            }
            if (!isOp(",")) break;
            next();
        }
        expectOp(")", "to close " + fname);
        if (args.size() != 1 && args.size() != 2)
            fail(fname + " takes an extent or a min and an end, got " + std::to_string(args.size()) + " arguments", iloc);
        for (auto& a : args)
            if (!a.type().isScalar() || !a.type().isIntOrUInt() || a.type().isBool())
                fail("loop bounds must be integers, got " + a.type().str(), iloc);
        Expr min, extent;
        if (args.size() == 1) {
            extent = args[0];
            min = IntImmNode::make(extent.type(), 0);
        } else {
            min = args[0];
            extent = extentOf(args[0], args[1], iloc);
        }
        if (kind == ForKind::ThreadBinding && thread.empty())
            fail("T.thread_binding needs thread=\"threadIdx.x\" (or blockIdx.*, vthread)", iloc);
        expectOp(":", "after the loop header");
        Var v(name, min.type());
        pushScope();
        scopes_.back().vars[name] = v;
        Stmt body = block();
        popScope();
        return build(loc, [&] { return ForNode::make(v, min, extent, kind, body, annotations, thread); });
    }

    Stmt withStmt() {
        SourceLoc loc = next().loc;
        std::string fname = tName();
        if (fname == "attr") {
            next(), next(), next();
            expectOp("(", "after T.attr");
            std::string key = expectString("the attribute key");
            expectOp(",", "after the attribute key");
            Expr value = expr();
            expectOp(")", "to close T.attr");
            expectOp(":", "after T.attr(...)");
            Stmt body = block();
            return build(loc, [&] { return AttrStmtNode::make(key, value, body); });
        }
        if (fname == "realize") {
            next(), next(), next();
            expectOp("(", "after T.realize");
            Token btok = peek();
            std::string bname = expectName("the realized buffer");
            expectOp("[", "after the realized buffer");
            std::vector<Range> bounds;
            while (!isOp("]")) {
                Expr lo = expr();
                expectOp(":", "in the realized range");
                SourceLoc hloc = peek().loc;
                Expr hi = expr();
                bounds.emplace_back(lo, extentOf(lo, hi, hloc));
                if (!isOp(",")) break;
                next();
            }
            expectOp("]", "after the realized region");
            expectOp(",", "after the realized region");
            std::string scope = expectString("the storage scope");
            expectOp(")", "to close T.realize");
            expectOp(":", "after T.realize(...)");
            Buffer b;
            if (const Buffer* d = findBuf(bname)) {
                b = *d;
                if (b->scope != scope)
                    fail("buffer '" + bname + "' has scope \"" + b->scope + "\", not \"" + scope + "\"", btok.loc);
                if (b->shape.size() != bounds.size())
                    fail("buffer '" + bname + "' has " + std::to_string(b->shape.size()) + " dimensions, the region " +
                             std::to_string(bounds.size()), btok.loc);
            } else {
                std::vector<Expr> shape;
                for (auto& r : bounds) shape.push_back(r.extent);
                b = Buffer::make(bname, DataType::float32(), std::move(shape), scope);
            }
            pushScope();
            scopes_.back().bufs[bname] = b;
            Stmt body = block();
            popScope();
            return build(loc, [&] { return BufferRealizeNode::make(b, bounds, body); });
        }
        unexpected("T.attr(...) or T.realize(...) after 'with'");
    }

    Stmt ifStmt() {
        SourceLoc loc = next().loc; // 'if' or 'elif'
        Expr cond = expr();
        expectOp(":", "after the condition");
        Stmt thenCase = block();
        Stmt elseCase;
        if (isName("else")) {
            next();
            expectOp(":", "after 'else'");
            elseCase = block();
        } else if (isName("elif")) {
            elseCase = ifStmt();
        }
        return build(loc, [&] { return IfThenElseNode::make(cond, thenCase, elseCase); });
    }

    Stmt evaluateStmt() {
        SourceLoc loc = peek().loc;
        next(), next(), next();
        expectOp("(", "after T.evaluate");
        Expr v = expr();
        expectOp(")", "to close T.evaluate");
        expectNewline("after the statement");
        return build(loc, [&] { return EvaluateNode::make(v); });
    }

    Stmt letStmt() {
        DepthGuard g(*this, peek().loc);
        Token name = next();
        next(); // ':'
        if (!isT()) unexpected("a type T.<dtype> after '" + name.text + ":'");
        SourceLoc tloc = peek(2).loc;
        std::string tname = peek(2).text;
        next(), next(), next();
        auto t = DataType::parse(tname);
        if (!t) fail("unknown data type T." + tname, tloc);
        expectOp("=", "after the let type");
        Expr value = expr();
        expectNewline("after the statement");
        if (value.type() != *t)
            fail("let value has type " + value.type().str() + ", not " + t->str(), name.loc);
        Var v(name.text, *t);
        pushScope();
        scopes_.back().vars[name.text] = v;
        Stmt body = stmtList(true);
        popScope();
        return build(name.loc, [&] { return LetStmtNode::make(v, value, body); });
    }

    Stmt allocateStmt() {
        DepthGuard g(*this, peek().loc);
        Token name = next();
        next(); // '='
        expectT("allocate");
        expectOp("(", "after T.allocate");
        if (!isOp("[")) unexpected("'[' before the allocated extents");
        std::vector<Expr> shape = shapeTuple();
        expectOp(",", "after the allocated extents");
        DataType dtype = typeString();
        expectOp(",", "after the allocated type");
        std::string scope = expectString("the storage scope");
        expectOp(")", "to close T.allocate");
        expectNewline("after the statement");
        // A declared buffer of this name and kind keeps its identity.
        Buffer b;
        if (const Buffer* d = findBuf(name.text); d && (*d)->dtype == dtype && (*d)->scope == scope &&
                                                   (*d)->shape.size() == shape.size()) {
            bool same = true;
            for (size_t i = 0; i < shape.size(); ++i) same = same && structuralEqual((*d)->shape[i], shape[i]);
            if (same) b = *d;
        }
        if (!b.defined()) b = Buffer::make(name.text, dtype, std::move(shape), scope);
        pushScope();
        scopes_.back().bufs[name.text] = b;
        Stmt body = stmtList(true);
        popScope();
        return build(name.loc, [&] { return AllocateNode::make(b, body); });
    }

    Stmt storeStmt() {
        Token name = peek();
        Buffer b = useBuf(name);
        next();
        std::vector<Expr> idx = indices();
        if (!isOp("=")) unexpected("'=' after the stored location");
        SourceLoc eq = next().loc;
        Expr value = expr();
        expectNewline("after the statement");
        return build(eq, [&] { return BufferStoreNode::make(b, value, idx); });
    }
};

} // namespace

PrimFunc parsePrimFunc(std::string_view text, const std::vector<Buffer>& buffers, const std::vector<Var>& vars) {
    Parser p(lex(text), buffers, vars);
    return p.func();
}

Stmt parseStmt(std::string_view text, const std::vector<Buffer>& buffers, const std::vector<Var>& vars) {
    Parser p(lex(text), buffers, vars);
    return p.topStmts();
}

Expr parseExpr(std::string_view text, const std::vector<Buffer>& buffers, const std::vector<Var>& vars) {
    Parser p(lex(text), buffers, vars);
    return p.topExpr();
}

} // namespace tessel::tir
