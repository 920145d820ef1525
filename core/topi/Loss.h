/// \file
/// The losses an inference graph can carry (ONNX NegativeLogLikelihoodLoss
/// and SoftmaxCrossEntropyLoss): a gather of the scores at the targets, then
/// a sum (or a weighted mean) over every element, as reduce stages the
/// default schedule parallelises.
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::topi::nn {

struct LossParams {
    /// "none" (the loss per element, [N, d1 ...]), "sum" or "mean" (the sum
    /// divided by the sum of the weights of the counted targets).
    std::string reduction = "mean";
    /// A target value that adds nothing (and no weight).
    std::optional<int64_t> ignoreIndex;
};

/// -input[n, target[n, d...], d...] * weight[target] for input [N, C, d1 ...]
/// and target [N, d1 ...]; `weight` [C] is optional (all ones). Targets out
/// of [0, C) read a clamped class.
te::Tensor nllLoss(const te::Tensor& input, const te::Tensor& target, const te::Tensor& weight,
                   const LossParams& params, const std::string& name = "nll_loss");

/// nllLoss(log_softmax(scores, axis 1), labels, weight) and the log-probabilities.
struct CrossEntropyResult {
    te::Tensor loss, logProb;
};
CrossEntropyResult softmaxCrossEntropy(const te::Tensor& scores, const te::Tensor& labels, const te::Tensor& weight,
                                       const LossParams& params, const std::string& name = "softmax_cross_entropy");

} // namespace tessel::topi::nn
