/// \file
/// Prints TIR in a TVMScript-like form, recording for every line the node it
/// came from (the line table the IDE and codegen's debug locations use).
#pragma once

#include "ir/LineTable.h"
#include "tir/IR.h"

#include <string>

namespace tessel::tir {

AnnotatedText printPrimFunc(const PrimFunc& f);
AnnotatedText printStmt(const Stmt& s);
std::string toString(const Expr& e);
std::string toString(const Stmt& s);
std::string toString(const PrimFunc& f);

} // namespace tessel::tir
