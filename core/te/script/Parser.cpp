#include "te/script/Parser.h"

#include "te/script/Lexer.h"

#include <algorithm>
#include <set>

namespace tessel::te::script {

const char* opSpelling(UnaryOp op) {
    switch (op) {
    case UnaryOp::Neg:
        return "-";
    case UnaryOp::Pos:
        return "+";
    case UnaryOp::Not:
        return "not";
    case UnaryOp::Invert:
        return "~";
    }
    return "?";
}

const char* opSpelling(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add:
        return "+";
    case BinaryOp::Sub:
        return "-";
    case BinaryOp::Mul:
        return "*";
    case BinaryOp::Div:
        return "/";
    case BinaryOp::FloorDiv:
        return "//";
    case BinaryOp::Mod:
        return "%";
    case BinaryOp::Pow:
        return "**";
    case BinaryOp::BitAnd:
        return "&";
    case BinaryOp::BitOr:
        return "|";
    case BinaryOp::BitXor:
        return "^";
    case BinaryOp::LShift:
        return "<<";
    case BinaryOp::RShift:
        return ">>";
    }
    return "?";
}

const char* opSpelling(BoolOpKind op) {
    return op == BoolOpKind::And ? "and" : "or";
}

const char* opSpelling(CompareOp op) {
    switch (op) {
    case CompareOp::Eq:
        return "==";
    case CompareOp::Ne:
        return "!=";
    case CompareOp::Lt:
        return "<";
    case CompareOp::Le:
        return "<=";
    case CompareOp::Gt:
        return ">";
    case CompareOp::Ge:
        return ">=";
    }
    return "?";
}

namespace {

using Node = std::shared_ptr<AstExpr>;

class Parser {
public:
    explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

    std::shared_ptr<AstModule> parseModule(std::vector<Diagnostic>& diags) {
        auto mod = std::make_shared<AstModule>();
        while (!at(TokenKind::EndOfFile)) {
            if (at(TokenKind::Newline)) {
                ++i_;
                continue;
            }
            size_t before = mod->body.size();
            try {
                open_.clear();
                depth_ = 0;
                parseStatementLine(mod->body);
            } catch (const CompileError& e) {
                mod->body.resize(before);
                diags.push_back(e.diagnostic());
                if (diags.size() >= 50) break;
                while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile))
                    ++i_;
            }
        }
        return mod;
    }

    AstExprPtr parseSingleExpression() {
        while (at(TokenKind::Newline))
            ++i_;
        AstExprPtr e = parseTestList();
        while (at(TokenKind::Newline))
            ++i_;
        if (!at(TokenKind::EndOfFile))
            fail(cur(), "expected end of expression but found " + describeToken(cur()));
        return e;
    }

private:
    // ----------------------------------------------------------------- tokens

    const Token& cur() const { return toks_[i_]; }
    const Token& peekTok(size_t k = 1) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
    bool at(TokenKind k) const { return cur().kind == k; }
    bool atOp(std::string_view op) const { return cur().isOp(op); }
    bool atKeyword(std::string_view kw) const { return cur().isKeyword(kw); }
    const Token& take() {
        const Token& t = toks_[i_];
        if (i_ + 1 < toks_.size()) ++i_;
        return t;
    }
    bool acceptOp(std::string_view op) {
        if (!atOp(op)) return false;
        take();
        return true;
    }

    [[noreturn]] void fail(const Token& t, std::string msg) {
        // An unclosed bracket swallows the following lines; when the parser
        // stumbles at the start of a later line, blame the bracket.
        if (!open_.empty() && t.firstOnLine && t.loc.column == 1 &&
            t.loc.line > open_.back().loc.line) {
            const Token& b = open_.back();
            throw CompileError("'" + b.text + "' was never closed", b.loc);
        }
        throw CompileError(std::move(msg), t.loc);
    }
    [[noreturn]] void fail(SourceLoc loc, std::string msg) {
        throw CompileError(std::move(msg), loc);
    }

    void openBracket() { open_.push_back(take()); }
    void closeBracket(std::string_view close) {
        if (!atOp(close))
            fail(cur(), "expected '" + std::string(close) + "' but found " + describeToken(cur()));
        take();
        if (!open_.empty()) open_.pop_back();
    }

    struct DepthGuard {
        Parser& p;
        DepthGuard(Parser& parser, const Token& t) : p(parser) {
            if (++p.depth_ > kMaxExprDepth)
                p.fail(t.loc, "expression is nested too deeply (more than " +
                                  std::to_string(kMaxExprDepth) + " levels)");
        }
        ~DepthGuard() { --p.depth_; }
    };

    // ------------------------------------------------------------------ nodes

    Node node(ExprKind k, SourceLoc loc, SourceLoc begin) {
        auto n = std::make_shared<AstExpr>();
        n->kind = k;
        n->loc = loc;
        n->begin = begin;
        return n;
    }
    Node node(ExprKind k, const Token& t) { return node(k, t.loc, t.loc); }

    /// Computes the node's depth and bounds it.
    AstExprPtr finish(Node n) {
        int d = 0;
        for (auto& c : n->items)
            d = std::max(d, c->depth);
        for (auto& k : n->keywords)
            d = std::max(d, k.value->depth);
        n->depth = d + 1;
        if (n->depth > kMaxExprDepth)
            fail(n->loc, "expression is too complex (nested more than " +
                             std::to_string(kMaxExprDepth) + " levels)");
        return n;
    }

    // ------------------------------------------------------------- statements

    void parseStatementLine(std::vector<AstStmtPtr>& out) {
        out.push_back(withEnd(parseSimpleStatement()));
        while (acceptOp(";")) {
            if (at(TokenKind::Newline) || at(TokenKind::EndOfFile)) break;
            out.push_back(withEnd(parseSimpleStatement()));
        }
        if (at(TokenKind::Newline)) {
            take();
        } else if (!at(TokenKind::EndOfFile)) {
            fail(cur(), "expected end of statement but found " + describeToken(cur()));
        }
    }

    /// `s` with the line of its last token (the one just taken).
    AstStmtPtr withEnd(AstStmtPtr s) {
        auto m = std::const_pointer_cast<AstStmt>(s);
        m->endLine = std::max(s->loc.line, toks_[i_ > 0 ? i_ - 1 : 0].loc.line);
        return s;
    }

    AstStmtPtr parseSimpleStatement() {
        const Token& t = cur();
        if (t.kind == TokenKind::Keyword) {
            const std::string& kw = t.text;
            if (kw == "import" || kw == "from") return parseImport();
            if (kw == "pass") {
                take();
                auto s = std::make_shared<AstStmt>();
                s->kind = StmtKind::Pass;
                s->loc = t.loc;
                return s;
            }
            if (kw == "for" || kw == "while")
                fail(t,
                     "'" + kw +
                         "' statements are not supported in TE scripts; write loops as te.compute");
            if (kw == "def")
                fail(t, "'def' statements are not supported in TE scripts; use a lambda");
            if (kw == "if" || kw == "elif" || kw == "else")
                fail(t, "'" + kw +
                            "' statements are not supported in TE scripts; use "
                            "te.if_then_else(cond, a, b) or "
                            "'a if cond else b'");
            static const std::set<std::string> kStatements = {
                "class", "with",   "try",      "except", "finally", "raise", "assert", "return",
                "del",   "global", "nonlocal", "yield",  "async",   "await", "break",  "continue"};
            if (kStatements.count(kw))
                fail(t, "'" + kw + "' statements are not supported in TE scripts");
        }
        SourceLoc loc = t.loc;
        AstExprPtr first = parseTestList();
        auto s = std::make_shared<AstStmt>();
        s->loc = loc;
        if (atOp("=")) {
            s->kind = StmtKind::Assign;
            s->targets.push_back(first);
            AstExprPtr value;
            while (acceptOp("=")) {
                value = parseTestList();
                if (atOp("=")) s->targets.push_back(value);
            }
            for (auto& target : s->targets)
                checkTarget(*target);
            s->value = value;
            return s;
        }
        static const std::pair<const char*, BinaryOp> kAug[] = {
            {"+=", BinaryOp::Add},    {"-=", BinaryOp::Sub},       {"*=", BinaryOp::Mul},
            {"/=", BinaryOp::Div},    {"//=", BinaryOp::FloorDiv}, {"%=", BinaryOp::Mod},
            {"**=", BinaryOp::Pow},   {"&=", BinaryOp::BitAnd},    {"|=", BinaryOp::BitOr},
            {"^=", BinaryOp::BitXor}, {"<<=", BinaryOp::LShift},   {">>=", BinaryOp::RShift}};
        for (auto& [op, bop] : kAug) {
            if (atOp(op)) {
                if (first->kind != ExprKind::Name)
                    fail(first->begin, std::string("'") + op + "' can only update a name");
                take();
                s->kind = StmtKind::AugAssign;
                s->augOp = bop;
                s->targets.push_back(first);
                s->value = parseTestList();
                return s;
            }
        }
        if (atOp(":="))
            fail(cur(), "':=' is not supported in TE scripts; use a separate assignment");
        if (atOp(":") && first->kind == ExprKind::Name)
            fail(cur(), "type annotations are not supported in TE scripts");
        s->kind = StmtKind::Expr;
        s->value = first;
        return s;
    }

    void checkTarget(const AstExpr& e) {
        switch (e.kind) {
        case ExprKind::Name:
            return;
        case ExprKind::Tuple:
        case ExprKind::List:
            if (e.items.empty())
                fail(e.begin, "cannot assign to an empty " +
                                  std::string(e.kind == ExprKind::Tuple ? "tuple" : "list"));
            for (auto& i : e.items)
                checkTarget(*i);
            return;
        case ExprKind::Starred:
            fail(e.begin, "starred assignment targets are not supported in TE scripts");
        case ExprKind::Attribute:
            fail(e.loc, "cannot assign to an attribute in TE scripts");
        case ExprKind::Subscript:
            fail(e.begin, "cannot assign to an element; tensors are defined by te.compute, not by "
                          "assignment");
        case ExprKind::Call:
            fail(e.begin, "cannot assign to a function call");
        case ExprKind::Int:
        case ExprKind::Float:
        case ExprKind::String:
        case ExprKind::Bool:
        case ExprKind::None:
            fail(e.begin, "cannot assign to a literal");
        case ExprKind::Lambda:
            fail(e.begin, "cannot assign to a lambda");
        default:
            fail(e.begin, "cannot assign to an expression");
        }
    }

    std::vector<std::string> parseDottedName(SourceLoc& loc) {
        std::vector<std::string> path;
        if (!at(TokenKind::Name))
            fail(cur(), "expected a module name but found " + describeToken(cur()));
        loc = cur().loc;
        path.push_back(take().text);
        while (acceptOp(".")) {
            if (!at(TokenKind::Name))
                fail(cur(), "expected a name after '.' but found " + describeToken(cur()));
            path.push_back(take().text);
        }
        return path;
    }

    static std::string joinPath(const std::vector<std::string>& p) {
        std::string s;
        for (auto& x : p)
            s += (s.empty() ? "" : ".") + x;
        return s;
    }

    void checkImportable(const std::vector<std::string>& path, SourceLoc loc) {
        if (path[0] != "tvm" && path[0] != "tessel")
            fail(loc,
                 "importing '" + joinPath(path) +
                     "' is not supported in TE scripts; only 'tvm' and 'tessel' can be imported");
    }

    AstStmtPtr parseImport() {
        auto s = std::make_shared<AstStmt>();
        s->kind = StmtKind::Import;
        s->loc = cur().loc;
        if (take().text == "import") {
            do {
                AstImport imp;
                imp.path = parseDottedName(imp.loc);
                checkImportable(imp.path, imp.loc);
                if (atKeyword("as")) {
                    take();
                    if (!at(TokenKind::Name))
                        fail(cur(), "expected a name after 'as' but found " + describeToken(cur()));
                    imp.asName = take().text;
                }
                s->imports.push_back(std::move(imp));
            } while (acceptOp(","));
            return s;
        }
        if (atOp(".") || atOp("..."))
            fail(cur(), "relative imports are not supported in TE scripts");
        SourceLoc modLoc;
        s->fromModule = parseDottedName(modLoc);
        bool future = s->fromModule.size() == 1 && s->fromModule[0] == "__future__";
        if (!future) checkImportable(s->fromModule, modLoc);
        if (!atKeyword("import"))
            fail(cur(), "expected 'import' but found " + describeToken(cur()));
        take();
        if (atOp("*"))
            fail(cur(),
                 "'from ... import *' is not supported in TE scripts; import names one by one");
        bool paren = atOp("(");
        if (paren) openBracket();
        do {
            if (paren && atOp(")")) break;
            AstImport imp;
            if (!at(TokenKind::Name))
                fail(cur(), "expected a name to import but found " + describeToken(cur()));
            imp.loc = cur().loc;
            imp.path.push_back(take().text);
            if (atKeyword("as")) {
                take();
                if (!at(TokenKind::Name))
                    fail(cur(), "expected a name after 'as' but found " + describeToken(cur()));
                imp.asName = take().text;
            }
            s->imports.push_back(std::move(imp));
        } while (acceptOp(","));
        if (paren) closeBracket(")");
        if (future) {
            s->kind = StmtKind::Pass;
            s->imports.clear();
        }
        return s;
    }

    // ------------------------------------------------------------ expressions

    bool startsExpression() const {
        const Token& t = cur();
        switch (t.kind) {
        case TokenKind::Name:
        case TokenKind::Int:
        case TokenKind::Float:
        case TokenKind::String:
            return true;
        case TokenKind::Keyword:
            return t.text == "lambda" || t.text == "not" || t.text == "True" || t.text == "False" ||
                   t.text == "None";
        case TokenKind::Op:
            return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" ||
                   t.text == "+" || t.text == "~" || t.text == "...";
        default:
            return false;
        }
    }

    /// test (',' test)* [','] — a tuple when there is a comma.
    AstExprPtr parseTestList() {
        AstExprPtr first = parseTest();
        if (!atOp(",")) return first;
        Node t = node(ExprKind::Tuple, first->begin, first->begin);
        t->items.push_back(first);
        while (acceptOp(",")) {
            if (!startsExpression()) break;
            t->items.push_back(parseTest());
        }
        return finish(t);
    }

    AstExprPtr parseTest() {
        DepthGuard g(*this, cur());
        if (atKeyword("lambda")) return parseLambda();
        AstExprPtr body = parseOrTest();
        if (!atKeyword("if")) return body;
        const Token& ifTok = take();
        AstExprPtr cond = parseOrTest();
        if (!atKeyword("else"))
            fail(cur(),
                 "expected 'else' in the conditional expression but found " + describeToken(cur()));
        take();
        AstExprPtr orElse = parseTest();
        Node n = node(ExprKind::IfExp, ifTok.loc, body->begin);
        n->items = {body, cond, orElse};
        return finish(n);
    }

    AstExprPtr parseLambda() {
        const Token& lt = take();
        Node n = node(ExprKind::Lambda, lt);
        std::set<std::string> seen;
        while (!atOp(":")) {
            if (atOp("*") || atOp("**"))
                fail(cur(), "'*' parameters are not supported in TE lambdas");
            if (!at(TokenKind::Name))
                fail(cur(), "expected a parameter name or ':' but found " + describeToken(cur()));
            const Token& p = take();
            if (!seen.insert(p.text).second)
                fail(p, "duplicate parameter '" + p.text + "' in lambda");
            n->params.push_back({p.text, p.loc});
            if (atOp("=")) fail(cur(), "default parameter values are not supported in TE lambdas");
            if (!acceptOp(",")) {
                if (!atOp(":"))
                    fail(cur(), "expected ',' or ':' but found " + describeToken(cur()));
            }
        }
        take(); // ':'
        n->items.push_back(parseTest());
        return finish(n);
    }

    AstExprPtr parseOrTest() { return parseBoolOp(BoolOpKind::Or); }

    AstExprPtr parseBoolOp(BoolOpKind kind) {
        const char* kw = opSpelling(kind);
        AstExprPtr first = kind == BoolOpKind::Or ? parseBoolOp(BoolOpKind::And) : parseNotTest();
        if (!atKeyword(kw)) return first;
        Node n = node(ExprKind::BoolOp, cur().loc, first->begin);
        n->boolOp = kind;
        n->items.push_back(first);
        while (atKeyword(kw)) {
            take();
            n->items.push_back(kind == BoolOpKind::Or ? parseBoolOp(BoolOpKind::And)
                                                      : parseNotTest());
        }
        return finish(n);
    }

    AstExprPtr parseNotTest() {
        if (!atKeyword("not")) return parseComparison();
        DepthGuard g(*this, cur());
        const Token& t = take();
        Node n = node(ExprKind::Unary, t);
        n->unaryOp = UnaryOp::Not;
        n->items.push_back(parseNotTest());
        return finish(n);
    }

    std::optional<CompareOp> compareOpAt() {
        static const std::pair<const char*, CompareOp> kOps[] = {
            {"==", CompareOp::Eq}, {"!=", CompareOp::Ne}, {"<", CompareOp::Lt},
            {"<=", CompareOp::Le}, {">", CompareOp::Gt},  {">=", CompareOp::Ge}};
        for (auto& [s, op] : kOps)
            if (atOp(s)) return op;
        if (atKeyword("in") || atKeyword("is") || (atKeyword("not") && peekTok().isKeyword("in")))
            fail(cur(), "'" + cur().text + "' is not supported in TE scripts");
        return std::nullopt;
    }

    AstExprPtr parseComparison() {
        AstExprPtr first = parseBinary(0);
        auto op = compareOpAt();
        if (!op) return first;
        Node n = node(ExprKind::Compare, cur().loc, first->begin);
        n->items.push_back(first);
        while ((op = compareOpAt())) {
            take();
            n->compareOps.push_back(*op);
            n->items.push_back(parseBinary(0));
        }
        return finish(n);
    }

    /// Binary operator levels, loosest first: | ^ & shifts additive multiplicative.
    AstExprPtr parseBinary(int level) {
        static const std::vector<std::vector<std::pair<const char*, BinaryOp>>> kLevels = {
            {{"|", BinaryOp::BitOr}},
            {{"^", BinaryOp::BitXor}},
            {{"&", BinaryOp::BitAnd}},
            {{"<<", BinaryOp::LShift}, {">>", BinaryOp::RShift}},
            {{"+", BinaryOp::Add}, {"-", BinaryOp::Sub}},
            {{"*", BinaryOp::Mul},
             {"/", BinaryOp::Div},
             {"//", BinaryOp::FloorDiv},
             {"%", BinaryOp::Mod}},
        };
        if (level == static_cast<int>(kLevels.size())) return parseFactor();
        AstExprPtr lhs = parseBinary(level + 1);
        while (true) {
            if (atOp("@"))
                fail(cur(), "'@' is not supported in TE scripts; write a matrix product as "
                            "te.compute with te.sum");
            const std::pair<const char*, BinaryOp>* found = nullptr;
            for (auto& p : kLevels[level])
                if (atOp(p.first)) found = &p;
            if (!found) return lhs;
            const Token& opTok = take();
            AstExprPtr rhs = parseBinary(level + 1);
            Node n = node(ExprKind::Binary, opTok.loc, lhs->begin);
            n->binaryOp = found->second;
            n->items = {lhs, rhs};
            lhs = finish(n);
        }
    }

    AstExprPtr parseFactor() {
        if (atOp("-") || atOp("+") || atOp("~")) {
            DepthGuard g(*this, cur());
            const Token& t = take();
            Node n = node(ExprKind::Unary, t);
            n->unaryOp = t.text == "-"   ? UnaryOp::Neg
                         : t.text == "+" ? UnaryOp::Pos
                                         : UnaryOp::Invert;
            n->items.push_back(parseFactor());
            return finish(n);
        }
        AstExprPtr base = parseAtomExpr();
        if (!atOp("**")) return base;
        const Token& opTok = take();
        AstExprPtr exp = parseFactor();
        Node n = node(ExprKind::Binary, opTok.loc, base->begin);
        n->binaryOp = BinaryOp::Pow;
        n->items = {base, exp};
        return finish(n);
    }

    AstExprPtr parseAtomExpr() {
        AstExprPtr e = parseAtom();
        while (true) {
            if (atOp("(")) {
                e = parseCall(e);
            } else if (atOp("[")) {
                const Token& lb = cur();
                Node n = node(ExprKind::Subscript, lb.loc, e->begin);
                openBracket();
                AstExprPtr index = parseSubscriptIndex(lb);
                closeBracket("]");
                n->items = {e, index};
                e = finish(n);
            } else if (atOp(".")) {
                take();
                if (!at(TokenKind::Name))
                    fail(cur(),
                         "expected an attribute name after '.' but found " + describeToken(cur()));
                const Token& name = take();
                Node n = node(ExprKind::Attribute, name.loc, e->begin);
                n->text = name.text;
                n->items.push_back(e);
                e = finish(n);
            } else {
                return e;
            }
        }
    }

    AstExprPtr parseSubscriptIndex(const Token& lb) {
        if (atOp("]")) fail(cur(), "expected an index but found ']'");
        std::vector<AstExprPtr> items;
        bool comma = false;
        while (true) {
            if (atOp(":")) fail(cur(), "slices are not supported in TE scripts");
            items.push_back(parseTest());
            if (atOp(":")) fail(cur(), "slices are not supported in TE scripts");
            if (!atOp(",")) break;
            take();
            comma = true;
            if (atOp("]")) break;
        }
        if (items.size() == 1 && !comma) return items[0];
        Node t = node(ExprKind::Tuple, items[0]->begin, items[0]->begin);
        t->items = std::move(items);
        return finish(t);
    }

    AstExprPtr parseCall(AstExprPtr callee) {
        const Token& lp = cur();
        SourceLoc loc = callee->kind == ExprKind::Attribute || callee->kind == ExprKind::Name
                            ? callee->loc
                            : lp.loc;
        Node n = node(ExprKind::Call, loc, callee->begin);
        n->items.push_back(callee);
        openBracket();
        std::set<std::string> keywordNames;
        while (!atOp(")")) {
            if (atOp("**")) fail(cur(), "'**' arguments are not supported in TE scripts");
            if (atOp("*")) {
                const Token& st = take();
                Node s = node(ExprKind::Starred, st);
                s->items.push_back(parseTest());
                if (!n->keywords.empty()) fail(st, "'*' argument follows a keyword argument");
                n->items.push_back(finish(s));
            } else if (at(TokenKind::Name) && peekTok().isOp("=")) {
                const Token& name = take();
                take(); // '='
                if (!keywordNames.insert(name.text).second)
                    fail(name, "keyword argument repeated: '" + name.text + "'");
                n->keywords.push_back({name.text, name.loc, parseTest()});
            } else {
                SourceLoc argLoc = cur().loc;
                AstExprPtr arg = parseTest();
                if (atOp("="))
                    fail(cur(), "expression cannot contain assignment; perhaps you meant '=='?");
                if (atKeyword("for")) fail(cur(), "comprehensions are not supported in TE scripts");
                if (!n->keywords.empty())
                    fail(argLoc, "positional argument follows keyword argument");
                n->items.push_back(arg);
            }
            if (!acceptOp(",")) {
                if (!atOp(")")) fail(cur(), "expected ')' but found " + describeToken(cur()));
            }
        }
        closeBracket(")");
        return finish(n);
    }

    AstExprPtr parseAtom() {
        const Token& t = cur();
        switch (t.kind) {
        case TokenKind::Name: {
            take();
            Node n = node(ExprKind::Name, t);
            n->text = t.text;
            return finish(n);
        }
        case TokenKind::Int: {
            take();
            Node n = node(ExprKind::Int, t);
            n->intValue = t.intValue;
            return finish(n);
        }
        case TokenKind::Float: {
            take();
            Node n = node(ExprKind::Float, t);
            n->floatValue = t.floatValue;
            return finish(n);
        }
        case TokenKind::String: {
            Node n = node(ExprKind::String, t);
            while (at(TokenKind::String))
                n->text += take().value;
            return finish(n);
        }
        case TokenKind::Keyword:
            if (t.text == "True" || t.text == "False") {
                take();
                Node n = node(ExprKind::Bool, t);
                n->intValue = t.text == "True";
                return finish(n);
            }
            if (t.text == "None") {
                take();
                return finish(node(ExprKind::None, t));
            }
            if (t.text == "yield" || t.text == "await")
                fail(t, "'" + t.text + "' is not supported in TE scripts");
            break;
        case TokenKind::Op:
            if (t.text == "(" || t.text == "[") return parseBracketed();
            if (t.text == "{") fail(t, "dict and set literals are not supported in TE scripts");
            if (t.text == "...") fail(t, "'...' is not supported in TE scripts");
            break;
        default:
            break;
        }
        fail(t, "expected an expression but found " + describeToken(t));
    }

    /// ( ... ) and [ ... ]: a parenthesised expression, a tuple or a list.
    AstExprPtr parseBracketed() {
        const Token& open = cur();
        bool isList = open.text == "[";
        const char* close = isList ? "]" : ")";
        openBracket();
        Node n = node(isList ? ExprKind::List : ExprKind::Tuple, open);
        bool comma = false;
        while (!atOp(close)) {
            if (atOp("*")) fail(cur(), "'*' unpacking is not supported in TE scripts");
            n->items.push_back(parseTest());
            if (atKeyword("for")) fail(cur(), "comprehensions are not supported in TE scripts");
            if (!acceptOp(",")) {
                if (!atOp(close))
                    fail(cur(),
                         "expected '" + std::string(close) + "' but found " + describeToken(cur()));
                break;
            }
            comma = true;
        }
        closeBracket(close);
        if (!isList && n->items.size() == 1 && !comma) return n->items[0];
        return finish(n);
    }

    std::vector<Token> toks_;
    size_t i_ = 0;
    int depth_ = 0;
    std::vector<Token> open_;
};

bool locBefore(const SourceLoc& a, const SourceLoc& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
}

} // namespace

ParseResult parseScript(std::string_view source) {
    LexResult lex = tokenize(source);
    ParseResult r;
    Parser p(std::move(lex.tokens));
    r.module = p.parseModule(r.diagnostics);
    if (lex.error) {
        r.diagnostics.push_back(*lex.error);
        std::stable_sort(
            r.diagnostics.begin(), r.diagnostics.end(),
            [](const Diagnostic& a, const Diagnostic& b) { return locBefore(a.loc, b.loc); });
    }
    return r;
}

AstExprPtr parseExpression(std::string_view source) {
    LexResult lex = tokenize(source);
    if (lex.error) throw CompileError(*lex.error);
    return Parser(std::move(lex.tokens)).parseSingleExpression();
}

} // namespace tessel::te::script
