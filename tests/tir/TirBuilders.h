/// \file
/// Short builders for TIR in tests: loads, stores, loops and printed text.
#pragma once

#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <QString>

namespace tessel::tir::test {

inline QString text(const Stmt& s) { return QString::fromStdString(toString(s)); }
inline QString text(const PrimFunc& f) { return QString::fromStdString(toString(f)); }

inline Expr load(const Buffer& b, Expr i) { return BufferLoadNode::make(b, {std::move(i)}); }
inline Expr load(const Buffer& b, std::vector<Expr> idx) { return BufferLoadNode::make(b, std::move(idx)); }
inline Stmt store(const Buffer& b, Expr v, Expr i) { return BufferStoreNode::make(b, std::move(v), {std::move(i)}); }
inline Stmt store(const Buffer& b, Expr v, std::vector<Expr> idx) {
    return BufferStoreNode::make(b, std::move(v), std::move(idx));
}
inline Stmt loop(const Var& v, Expr extent, Stmt body, ForKind k = ForKind::Serial) {
    return ForNode::make(v, 0, std::move(extent), k, std::move(body));
}

} // namespace tessel::tir::test
