/// \file
/// Functions of one build that are the same code under other names.
///
/// A model's fused functions repeat: the 32 unrolled steps of an LSTM layer
/// are the same gate product and the same cell (582 functions, 76 distinct),
/// a transformer's layers the same attention (90, 15 distinct), ResNet-50's
/// bottleneck blocks the same convolutions (57, 28 distinct). Their TIR
/// differs only in names (each function names its buffers and loop variables
/// after its own tensors), and LLVM spends the same time on each copy: the
/// LSTM/GRU model's 12 s of code generation. identicalFunctions() finds them;
/// the build emits each distinct function once and the others as aliases of
/// it, so that every name still resolves (a JIT lookup, a symbol of the
/// exported library).
///
/// Two functions are identical when their printed TIR is the same once every
/// name is replaced by the order of its first appearance, their float
/// literals have the same bits (the printer rounds them to 9 digits) and
/// their parameters the same scope and alignment (not printed).
#pragma once

#include "tir/IR.h"

#include <string>
#include <vector>

namespace tessel::codegen {

/// For each function, the index of the first function identical to it (its
/// own index when none before it is). `printed[i]` is printPrimFunc(funcs[i]).
std::vector<size_t> identicalFunctions(const std::vector<tir::PrimFunc>& funcs,
                                       const std::vector<std::string>& printed);

/// The printed TIR with every identifier that is not a keyword or a `T.`
/// name replaced by `%k`, k the order of its first appearance; string
/// literals unchanged.
std::string canonicalNames(const std::string& printed);

} // namespace tessel::codegen
