/// \file
/// The syntax tree of a TE script: a flat list of simple statements over a
/// Python-like expression language (see Parser.h for the accepted grammar).
///
/// Nodes are immutable once the parser has built them and are shared by
/// `std::shared_ptr`, so lambda closures and the IDE can keep pieces of a tree
/// alive after the parse. Every node carries two locations: `begin`, its first
/// character, and `loc`, the place a message about it points to (the operator
/// of a binary expression, the attribute name of `a.b`, the method name of a
/// call `s[C].split(...)`).
#pragma once

#include "ir/Diagnostic.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessel::te::script {

enum class ExprKind : uint8_t {
    Name,      ///< text = identifier
    Int,       ///< intValue
    Float,     ///< floatValue
    String,    ///< text = the decoded value
    Bool,      ///< intValue = 0 or 1
    None,      ///< `None`
    Tuple,     ///< items = elements
    List,      ///< items = elements
    Attribute, ///< items = {object}; text = attribute name
    Subscript, ///< items = {object, index} (a Tuple index for `A[i, j]`)
    Call,      ///< items = {callee, positional args...}; keywords
    Unary,     ///< items = {operand}; unaryOp
    Binary,    ///< items = {lhs, rhs}; binaryOp
    BoolOp,    ///< items = operands (two or more); boolOp
    Compare,   ///< items = operands; compareOps (one fewer), as in `a < b <= c`
    IfExp,     ///< items = {body, condition, orElse}: `body if condition else orElse`
    Lambda,    ///< items = {body}; params
    Starred,   ///< items = {value}: `*value` in a call's arguments
};

enum class UnaryOp : uint8_t { Neg, Pos, Not, Invert };
enum class BinaryOp : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    BitAnd,
    BitOr,
    BitXor,
    LShift,
    RShift
};
enum class BoolOpKind : uint8_t { And, Or };
enum class CompareOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

/// The Python spelling of an operator: "+", "//", "and", "<=" ...
const char* opSpelling(UnaryOp op);
const char* opSpelling(BinaryOp op);
const char* opSpelling(BoolOpKind op);
const char* opSpelling(CompareOp op);

struct AstExpr;
using AstExprPtr = std::shared_ptr<const AstExpr>;

/// `name=value` in a call.
struct AstKeyword {
    std::string name;
    SourceLoc loc; ///< of the name
    AstExprPtr value;
};

/// A lambda parameter.
struct AstParam {
    std::string name;
    SourceLoc loc;
};

struct AstExpr {
    ExprKind kind = ExprKind::None;
    SourceLoc loc;
    SourceLoc begin;
    std::string text;
    int64_t intValue = 0;
    double floatValue = 0;
    UnaryOp unaryOp = UnaryOp::Neg;
    BinaryOp binaryOp = BinaryOp::Add;
    BoolOpKind boolOp = BoolOpKind::And;
    std::vector<CompareOp> compareOps;
    std::vector<AstExprPtr> items;
    std::vector<AstKeyword> keywords;
    std::vector<AstParam> params;
    /// 1 for a leaf, else 1 + the deepest child (the parser bounds it, so
    /// walking a tree recursively cannot overflow the stack).
    int depth = 1;
};

enum class StmtKind : uint8_t {
    Assign,    ///< targets = one or more (`a = b = value`); value
    AugAssign, ///< targets = {name}; value; augOp (`a += value`)
    Expr,      ///< value
    Import,    ///< imports; fromModule non-empty for `from m import ...`
    Pass,      ///< `pass`
};

/// One name of an import: `import tvm.te as te` or `from tvm import te`.
struct AstImport {
    std::vector<std::string> path; ///< dotted path: {"tvm", "te"}
    std::string asName;            ///< the bound name ("" = default)
    SourceLoc loc;
};

struct AstStmt {
    StmtKind kind = StmtKind::Pass;
    SourceLoc loc;
    /// The line of its last token: a statement may continue over several
    /// lines inside brackets.
    int endLine = 0;
    /// Assignment targets: Name, Tuple or List (of targets) expressions.
    std::vector<AstExprPtr> targets;
    AstExprPtr value;
    BinaryOp augOp = BinaryOp::Add;
    std::vector<std::string> fromModule;
    std::vector<AstImport> imports;
};
using AstStmtPtr = std::shared_ptr<const AstStmt>;

/// A whole script.
struct AstModule {
    std::vector<AstStmtPtr> body;
};

} // namespace tessel::te::script
