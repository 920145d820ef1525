/// \file
/// Argument conversions the builtin modules share (te/script/builtins):
/// shapes, conditions, axes, loops, and the constructors of values.
#pragma once

#include "te/script/Interpreter.h"

#include <string>
#include <vector>

namespace tessel::te::script {

inline Value none() {
    return Value();
}

/// A tuple or list of `v`.
inline Value items(Value::Items v, bool asList) {
    return asList ? Value::list(std::move(v)) : Value::tuple(std::move(v));
}

/// An int if the expression is an integer constant, else the expression.
Value intOrExpr(const tir::Expr& e);

/// A list of IterVar values.
Value iterVarList(const std::vector<tir::IterVar>& ivs);

/// The positional arguments, or the items of a single tuple/list argument.
std::vector<CallArg> spread(const std::vector<CallArg>& args);

/// Argument i as a shape: an int, or a tuple of ints or integer expressions.
std::vector<tir::Expr> toShape(Interpreter& in, const BoundArgs& a, size_t i);

/// Argument i as a condition: booleans as they are, numbers compared with zero.
tir::Expr toCondition(Interpreter& in, const BoundArgs& a, size_t i);

/// Argument i as reduction axes: an IterVar or a list of them.
std::vector<tir::IterVar> toAxes(const BoundArgs& a, size_t i);

/// True for an IterVar or a sequence of IterVars.
bool isAxisValue(const Value& v);

/// The IterVars among a call's positional arguments (or in one list argument).
std::vector<tir::IterVar> iterVarArgs(Interpreter& in, const std::string& fname,
                                      const CallArgs& c);

/// Fails on any keyword argument (for functions that take positional ones only).
void noKeywords(Interpreter& in, const std::string& fname, const CallArgs& c);

/// te.const / tir.const / tvm.const named `fname`.
NativeFunction constFunction(std::string fname);

/// te.var / te.size_var / tir.Var.
NativeFunction varFunction(std::string fname);

} // namespace tessel::te::script
