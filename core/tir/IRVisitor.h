/// \file
/// Read-only traversal of TIR. Override the `visit` overloads for the kinds
/// you care about (add `using IRVisitor::visit;`); the defaults visit children.
#pragma once

#include "tir/IR.h"

#include <functional>

namespace tessel::tir {

class IRVisitor {
public:
    virtual ~IRVisitor() = default;
    /// Dispatches on the node kind.
    virtual void visitExpr(const Expr& e);
    virtual void visitStmt(const Stmt& s);

protected:
#define TESSEL_EXPR_NODE(N) virtual void visit(const N##Node* op);
#define TESSEL_STMT_NODE(N) virtual void visit(const N##Node* op);
#include "tir/NodeKinds.def"
};

/// Calls `f` on every expression and statement node, children first.
void postOrderVisit(const Stmt& s, const std::function<void(const Object*)>& f);
void postOrderVisit(const Expr& e, const std::function<void(const Object*)>& f);

} // namespace tessel::tir
