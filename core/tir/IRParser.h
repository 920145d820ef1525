/// \file
/// Parses the TVMScript-like TIR text that IRPrinter prints back into TIR, so
/// that pass tests can be written as "TIR text in -> TIR text out".
///
/// The parser builds nodes with their plain `make()`s (never the folding
/// operators of IROperators.h), so the tree is exactly what the text says and
/// `print(parse(print(x))) == print(x)` for what the printer produces.
///
/// Names resolve by scope: a loop or let binding creates a new Var that is
/// visible in its body; a name that nothing binds is a free variable, created
/// as an int32 Var on its first use and shared by every later use. Buffers are
/// the function's parameters, `T.allocate`d buffers (visible in the rest of
/// their block) and the buffers the caller declares. The text does not say
/// the type of a free variable or the type and shape of a realized buffer:
/// declare them (`vars`, `buffers`) when they are not int32, or not float32
/// with the realized extents as shape.
///
/// Not parsed: ProducerLoad and Reduce (TE constructs, they need a producer).
/// Errors are CompileErrors located at the offending token's line and column.
#pragma once

#include "tir/IR.h"

#include <string_view>
#include <vector>

namespace tessel::tir {

/// Parses `@T.prim_func def name(A: T.Buffer((16, 16), "float32"), ...):` and
/// its body. A parameter whose name matches a buffer in `buffers` (same dtype
/// and rank) is that buffer; other parameters are new buffers. `buffers` and
/// `vars` are also visible in the body (see the file comment).
PrimFunc parsePrimFunc(std::string_view text, const std::vector<Buffer>& buffers = {},
                       const std::vector<Var>& vars = {});

/// Parses a list of statements (the first line's indentation is level 0; one
/// statement is returned alone, several as a SeqStmt). `buffers` are the
/// buffers the text reads, writes or realizes; `vars` are free variables it
/// uses by name (otherwise free names become int32 Vars).
Stmt parseStmt(std::string_view text, const std::vector<Buffer>& buffers = {},
               const std::vector<Var>& vars = {});

/// Parses one expression (same name rules as parseStmt).
Expr parseExpr(std::string_view text, const std::vector<Buffer>& buffers = {},
               const std::vector<Var>& vars = {});

} // namespace tessel::tir
