/// \file
/// Rewriting traversal of TIR. Override the `visit` overloads you need (add
/// `using IRMutator::visit;`); the defaults rebuild a node only when a child
/// changed, and otherwise return the same node, so unchanged subtrees stay shared.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

class IRMutator {
public:
    virtual ~IRMutator() = default;
    virtual Expr mutate(const Expr& e);
    virtual Stmt mutate(const Stmt& s);

protected:
#define TESSEL_EXPR_NODE(N) virtual Expr visit(const N##Node* op);
#define TESSEL_STMT_NODE(N) virtual Stmt visit(const N##Node* op);
#include "tir/NodeKinds.def"

    /// Mutates every element; returns true when any changed.
    bool mutateAll(const std::vector<Expr>& in, std::vector<Expr>& out);
};

} // namespace tessel::tir
