// topi's reductions (topi.sum, topi.max ...), softmax and the normalisations
// (topi/Reduce.h).
#include "topi/script/Bindings.h"

#include "topi/Reduce.h"
#include "topi/TopiUtil.h"

#include <algorithm>

namespace tessel::topi::script {

using te::Tensor;
using ts::Value;

namespace {

/// Axis arguments in [-rank, rank), made non-negative, each at most once.
std::vector<int64_t> axesOf(const Call& c, size_t i, const Tensor& x) {
    const int64_t rank = x.ndim();
    std::vector<int64_t> axes;
    for (int64_t a : c.ints(i)) {
        if (a < -rank || a >= rank)
            c.fail(i, "axis " + std::to_string(a) + " is out of range for '" + x.name() +
                          "' of rank " + std::to_string(rank));
        const int64_t axis = a < 0 ? a + rank : a;
        if (std::find(axes.begin(), axes.end(), axis) != axes.end())
            c.fail(i, "axis " + std::to_string(axis) + " is given twice");
        axes.push_back(axis);
    }
    return axes;
}

Body reduce(ReduceOp op, std::string defaultName) {
    return [op, defaultName](Call& c) {
        Tensor x = c.tensor(0);
        ReduceParams p;
        p.axes = axesOf(c, 1, x);
        // axis=() reduces nothing (numpy); None reduces every axis.
        p.noopWithEmptyAxes = c.has(1) && p.axes.empty();
        p.keepDims = c.has(2) && c.flag(2);
        return c.result(topi::reduce(x, op, p, c.name(3, defaultName)));
    };
}

/// One axis argument.
int64_t axisOf(const Call& c, size_t i, const Tensor& x, int64_t fallback) {
    if (!c.has(i)) return fallback;
    const int64_t a = c.integer(i), rank = x.ndim();
    if (a < -rank || a >= rank)
        c.fail(i, "axis " + std::to_string(a) + " is out of range for '" + x.name() + "' of rank " +
                      std::to_string(rank));
    return a;
}

Body softmax(bool log, std::string defaultName) {
    return [log, defaultName](Call& c) {
        Tensor x = c.tensor(0);
        if (!x->dtype.isFloat())
            c.fail(0, "'x' must be a floating-point tensor, not " + x->dtype.str());
        const int64_t axis = axisOf(c, 1, x, -1);
        const std::string name = c.name(2, defaultName);
        return c.result(log ? nn::logSoftmax(x, axis, name) : nn::softmax(x, axis, name));
    };
}

Value layerNorm(Call& c) {
    Tensor x = c.tensor(0), gamma = c.tensor(1), beta = c.optionalTensor(2);
    if (!x->dtype.isFloat())
        c.fail(0, "'data' must be a floating-point tensor, not " + x->dtype.str());
    nn::LayerNormParams p;
    if (c.has(3) && !c.args.value(3).isSequence()) {
        p.axis = axisOf(c, 3, x, -1); // ONNX: the first normalised axis
    } else if (c.has(3)) {
        // TVM: every normalised axis; they must be the last ones.
        auto axes = axesOf(c, 3, x);
        if (axes.empty()) c.fail(3, "'axis' names no axis");
        std::sort(axes.begin(), axes.end());
        for (size_t k = 0; k < axes.size(); ++k)
            if (axes[k] != x.ndim() - int64_t(axes.size() - k))
                c.fail(3, "the normalised axes must be the last ones of 'data' (such as (-2, -1))");
        p.axis = axes.front();
    }
    if (c.has(4)) p.epsilon = c.number(4);
    if (p.epsilon < 0) c.fail(4, "'epsilon' must not be negative");
    for (size_t i : {size_t(1), size_t(2)}) {
        if (i == 2 && !beta.defined()) continue;
        const Tensor& t = i == 1 ? gamma : beta;
        if (t->dtype != x->dtype)
            c.fail(i, c.param(i) + " must have the dtype of 'data' (" + x->dtype.str() + ")");
        try {
            broadcastShape(staticShape(x), staticShape(t));
        } catch (const CompileError&) {
            c.fail(i, "'" + t.name() + "' does not broadcast against 'data'");
        }
    }
    return c.result(nn::layerNorm(x, gamma, beta, p, c.name(5, "layer_norm")).output);
}

Value instanceNorm(Call& c) {
    Tensor x = c.tensor(0), gamma = c.tensor(1), beta = c.tensor(2);
    if (x.ndim() < 3) c.fail(0, "'data' needs a spatial axis (N, C, D1, ...)");
    const int64_t channels = staticShape(x)[1];
    for (size_t i : {size_t(1), size_t(2)}) {
        const Tensor& t = i == 1 ? gamma : beta;
        if (t.ndim() != 1 || staticShape(t)[0] != channels)
            c.fail(i, c.param(i) + " must be 1-d with one value per channel (" +
                          std::to_string(channels) + ")");
        if (t->dtype != x->dtype) c.fail(i, c.param(i) + " must have the dtype of 'data'");
    }
    const double epsilon = c.has(3) ? c.number(3) : 1e-5;
    if (epsilon < 0) c.fail(3, "'epsilon' must not be negative");
    return c.result(nn::instanceNorm(x, gamma, beta, epsilon, c.name(4, "instance_norm")));
}

} // namespace

void addReduceBindings(std::vector<Binding>& out) {
    struct Red {
        const char* name;
        ReduceOp op;
    };
    static const Red kReductions[] = {{"sum", ReduceOp::Sum},
                                      {"max", ReduceOp::Max},
                                      {"min", ReduceOp::Min},
                                      {"prod", ReduceOp::Prod},
                                      {"mean", ReduceOp::Mean}};
    for (auto& r : kReductions)
        out.push_back({std::string("topi.") + r.name,
                       {{"data"},
                        {"axis", "None"},
                        {"keepdims", "False"},
                        {"name", std::string("\"") + r.name + "\""}},
                       "reduction over axis (an int or a tuple; None: every axis, (): none)",
                       reduce(r.op, r.name)});
    out.push_back({"topi.nn.softmax",
                   {{"x"}, {"axis", "-1"}, {"name", "\"softmax\""}},
                   "exp(x - max) / sum(exp(x - max)) along axis",
                   softmax(false, "softmax")});
    out.push_back({"topi.nn.log_softmax",
                   {{"x"}, {"axis", "-1"}, {"name", "\"log_softmax\""}},
                   "log(softmax(x)) along axis",
                   softmax(true, "log_softmax")});
    out.push_back({"topi.nn.layer_norm",
                   {{"data"},
                    {"gamma"},
                    {"beta", "None"},
                    {"axis", "-1"},
                    {"epsilon", "1e-05"},
                    {"name", "\"layer_norm\""}},
                   "normalisation over the axes from axis on (an int: the first of them; a tuple: "
                   "all of them)",
                   layerNorm});
    out.push_back(
        {"topi.nn.instance_norm",
         {{"data"}, {"gamma"}, {"beta"}, {"epsilon", "1e-05"}, {"name", "\"instance_norm\""}},
         "normalisation of every (image, channel) plane, then gamma[C] and beta[C]",
         instanceNorm});
}

} // namespace tessel::topi::script
