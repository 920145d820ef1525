/// \file
/// The losses NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: an
/// inference run can meet them (a model that reports its loss), and they are
/// reductions over a gather of the class scores at the targets.
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

/// Input [N, C, d1 ...], target [N, d1 ...], weight [C]: the loss per
/// element ("none") or a scalar.
Types inferLoss(const InferContext& ctx, bool softmax) {
    const TensorType& x = ctx.input(0);
    const TensorType& t = ctx.input(1);
    requireMinRank(ctx, 0, 2, "input");
    requireFloat(ctx, 0);
    if (!t.dtype.isInt()) ctx.fail("target " + t.str() + " must be int32 or int64");
    Shape want = x.shape;
    want.erase(want.begin() + 1);
    if (t.rank() != static_cast<int>(want.size()))
        ctx.fail("target " + t.str() + " must have shape " + shapeStr(want));
    if (ctx.hasInput(2)) {
        requireSameDtype(ctx, 0, 2);
        if (ctx.input(2).rank() != 1) ctx.fail("weight " + ctx.input(2).str() + " must be 1-D");
    }
    const std::string r = ctx.attrs().getString("reduction", "mean");
    if (r != "none" && r != "sum" && r != "mean")
        ctx.fail("reduction '" + r + "' is not supported (none, sum or mean)");
    Types out{TensorType(x.dtype, r == "none" ? want : Shape{})};
    if (softmax && ctx.numOutputs() > 1) out.push_back(x);
    return out;
}

} // namespace

void registerLossOps(OpRegistry& r) {
    using P = OpPattern;
    const std::vector<AttrSchema> attrs{
        attrString("reduction", "mean", "none (per element), sum or mean (weighted)"),
        attrInt("ignore_index", std::nullopt, "a target value that contributes nothing"),
    };
    r.add(op("NegativeLogLikelihoodLoss", "-input[n, target[n], ...] * weight[target], reduced", P::Opaque, 2, 3,
             [](const InferContext& c) { return inferLoss(c, false); }, attrs));
    r.add(op("SoftmaxCrossEntropyLoss", "the negative log-likelihood of log_softmax(scores) over axis 1",
             P::Opaque, 2, 3, [](const InferContext& c) { return inferLoss(c, true); }, attrs, 1, 2));
}

} // namespace tessel::graph::ops
