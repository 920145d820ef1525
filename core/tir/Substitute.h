/// \file
/// Replacing variables by expressions in TIR.
#pragma once

#include "tir/IR.h"

#include <unordered_map>

namespace tessel::tir {

using VarMap = std::unordered_map<const VarNode*, Expr>;

Expr substitute(const Expr& e, const VarMap& map);
Stmt substitute(const Stmt& s, const VarMap& map);
inline Expr substitute(const Expr& e, const Var& v, const Expr& value) {
    return substitute(e, VarMap{{v.get(), value}});
}
inline Stmt substitute(const Stmt& s, const Var& v, const Expr& value) {
    return substitute(s, VarMap{{v.get(), value}});
}

/// True when `e` (or `s`) uses variable `v` (as a value or as a buffer's data pointer).
bool usesVar(const Expr& e, const VarNode* v);
bool usesVar(const Stmt& s, const VarNode* v);

} // namespace tessel::tir
