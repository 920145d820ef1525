// The losses: negative log-likelihood and softmax cross-entropy.
#include "topi/Loss.h"

#include "ir/Diagnostic.h"
#include "topi/Reduce.h"
#include "topi/TopiUtil.h"

namespace tessel::topi::nn {

using namespace tir;

Tensor nllLoss(const Tensor& input, const Tensor& target, const Tensor& weight, const LossParams& p,
               const std::string& name) {
    const auto xs = staticShape(input), ts = staticShape(target);
    if (xs.size() < 2 || ts.size() + 1 != xs.size())
        throw CompileError("nll_loss: the input must be [N, C, d1 ...] and the target [N, d1 ...]");
    if (p.reduction != "none" && p.reduction != "sum" && p.reduction != "mean")
        throw CompileError("nll_loss: reduction '" + p.reduction + "' is not supported (none, sum or mean)");
    const int64_t classes = xs[1];
    const DataType t = input->dtype;
    // The class of a target (clamped) and whether it counts.
    auto classOf = [&](const std::vector<Var>& i) {
        return tir::cast(DataType::int32(), clampIndex(target(exprs(i)), 0, classes - 1));
    };
    auto counted = [&](const std::vector<Var>& i) -> Expr {
        if (!p.ignoreIndex) return Expr();
        Expr v = target(exprs(i));
        return v != makeConst(v.type(), *p.ignoreIndex);
    };
    auto weightOf = [&](const std::vector<Var>& i) {
        Expr w = weight.defined() ? weight({classOf(i)}) : constant(t, 1);
        Expr c = counted(i);
        return c.defined() ? select(c, w, makeZero(t)) : w;
    };
    Tensor picked = te::compute(
        toExprs(ts),
        [&](const std::vector<Var>& i) {
            std::vector<Expr> at = exprs(i);
            at.insert(at.begin() + 1, classOf(i));
            return makeZero(t) - input(at) * weightOf(i);
        },
        p.reduction == "none" ? name : name + "_picked", tag::kInjective);
    if (p.reduction == "none") return picked;
    ReduceParams all;
    all.keepDims = false;
    const bool mean = p.reduction == "mean";
    Tensor sum = reduce(picked, ReduceOp::Sum, all, mean ? name + "_sum" : name);
    if (!mean) return sum;
    Tensor weights = te::compute(toExprs(ts), weightOf, name + "_weights", tag::kInjective);
    Tensor total = reduce(weights, ReduceOp::Sum, all, name + "_weight_sum");
    return te::compute({}, [&](const std::vector<Var>&) { return sum({}) / total({}); }, name, tag::kElemWise);
}

CrossEntropyResult softmaxCrossEntropy(const Tensor& scores, const Tensor& labels, const Tensor& weight,
                                       const LossParams& p, const std::string& name) {
    Tensor logProb = logSoftmax(scores, 1, name + "_log_prob");
    return {nllLoss(logProb, labels, weight, p, name), logProb};
}

} // namespace tessel::topi::nn
