/// \file
/// The graph adapter of the operator library: for every graph operator, a
/// strategy that reads the node's attributes, types and constant inputs,
/// builds the typed parameters and calls the topi compute (TVM's op
/// strategies). All records are listed explicitly in opStrategies(), file by
/// file; there is no static self-registration.
#pragma once

#include "lower/OpContext.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::lower {

/// Computes one node: one tensor per node output (undefined for an output
/// inference never computes, such as Dropout's mask in training), or an empty
/// vector when this strategy does not apply and the next one should run.
using StrategyFunction = std::function<std::vector<te::Tensor>(const OpContext&)>;

/// How one graph operator is computed. Several records may name the same
/// operator: computeNode() takes the first that applies, so specialised
/// computes (a blocked convolution) come before the general one.
struct OpStrategy {
    std::string op;      ///< ONNX operator name
    std::string compute; ///< the topi compute it calls ("topi::nn::conv"), for listings
    StrategyFunction apply;
};

/// Every strategy, specialised before general.
const std::vector<OpStrategy>& opStrategies();
/// The first strategy of `op`, or null when the operator library has no
/// compute for it (then the operator can only be folded away).
const OpStrategy* findStrategy(std::string_view op);

/// Runs the strategies of `ctx.node()` in order until one applies and checks
/// its outputs against the node's inferred types (count, shape, dtype): a
/// mismatch is an internal error. A CompileError of the compute is prefixed
/// with the node; with no strategy for the operator, CompileError naming the
/// node. `used`, when given, receives the strategy that applied.
std::vector<te::Tensor> computeNode(const OpContext& ctx, const OpStrategy** used = nullptr);

// --- the per-file record lists, gathered by opStrategies() -----------------------------
void addElementwiseStrategies(std::vector<OpStrategy>& s); // StrategyElementwise.cpp
void addNnStrategies(std::vector<OpStrategy>& s);          // StrategyNn.cpp: conv, gemm, matmul, pooling
void addTransformStrategies(std::vector<OpStrategy>& s);   // StrategyTransform.cpp: reshape, slice, concat ...
void addReduceStrategies(std::vector<OpStrategy>& s);      // StrategyReduce.cpp: reductions, softmax, norms

} // namespace tessel::lower
