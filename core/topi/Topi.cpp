#include "topi/Topi.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

#include <algorithm>
#include <cctype>

namespace tessel::topi {

bool tag::isInjectiveTag(std::string_view t) {
    return t == kElemWise || t == kBroadcast || t == kInjective;
}

namespace {
std::string identifierOf(const graph::Node& node) {
    std::string s;
    for (char c : node.name)
        s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) {
        std::string op = node.op;
        std::transform(op.begin(), op.end(), op.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        s = op + "_" + std::to_string(node.id) + (s.empty() ? "" : "_" + s);
    }
    return s;
}
} // namespace

OpContext::OpContext(const graph::Node& node, std::vector<te::Tensor> inputs,
                     std::vector<Ref<graph::Constant>> constants)
    : node_(node), inputs_(std::move(inputs)), constants_(std::move(constants)),
      name_(identifierOf(node)) {
    inputs_.resize(node.inputs.size());
    constants_.resize(node.inputs.size());
}

bool OpContext::hasInput(int i) const {
    return i >= 0 && i < numInputs() && node_.inputs[static_cast<size_t>(i)].defined();
}

const te::Tensor& OpContext::input(int i) const {
    if (!hasInput(i)) fail("input " + std::to_string(i) + " is absent");
    const auto& t = inputs_[static_cast<size_t>(i)];
    TESSEL_CHECK(t.defined(), node_.describe() + ": input " + std::to_string(i) + " has no tensor");
    return t;
}

Ref<graph::Constant> OpContext::constant(int i) const {
    if (!hasInput(i)) return {};
    return constants_[static_cast<size_t>(i)];
}

std::vector<int64_t> OpContext::constInts(int i) const {
    auto c = constant(i);
    if (!c) fail("input " + std::to_string(i) + " must be a constant (after constant folding)");
    return c->toInts();
}

std::vector<double> OpContext::constFloats(int i) const {
    auto c = constant(i);
    if (!c) fail("input " + std::to_string(i) + " must be a constant (after constant folding)");
    return c->toDoubles();
}

const graph::TensorType& OpContext::inputType(int i) const {
    if (!hasInput(i)) fail("input " + std::to_string(i) + " is absent");
    return node_.inputs[static_cast<size_t>(i)].type();
}

const graph::TensorType& OpContext::outputType(int i) const {
    TESSEL_CHECK(i >= 0 && i < node_.numOutputs(), node_.describe() + ": no output " + std::to_string(i));
    return node_.outputTypes[static_cast<size_t>(i)];
}

std::vector<te::Expr> OpContext::outputShape(int i) const { return toExprs(outputType(i).shape); }

void OpContext::fail(const std::string& message) const {
    throw CompileError(node_.describe() + ": " + message);
}

const std::vector<TopiOp>& topiOps() {
    static const std::vector<TopiOp> ops = [] {
        std::vector<TopiOp> v;
        addElementwiseOps(v);
        addConv2dNCHWcOps(v); // before the general Conv of addNnOps
        addDensePackedOps(v); // before the general Gemm
        addNnOps(v);
        addTransformOps(v);
        addReduceOps(v);
        return v;
    }();
    return ops;
}

const TopiOp* findTopiOp(std::string_view op) {
    for (auto& o : topiOps())
        if (o.name == op) return &o;
    return nullptr;
}

std::vector<te::Tensor> computeNode(const OpContext& ctx) {
    const auto& node = ctx.node();
    std::vector<te::Tensor> outs;
    bool found = false;
    for (auto& op : topiOps()) {
        if (op.name != node.op) continue;
        found = true;
        outs = op.compute(ctx);
        if (!outs.empty()) break;
    }
    if (!found) ctx.fail("the operator library has no compute for " + node.op);
    TESSEL_CHECK(static_cast<int>(outs.size()) == node.numOutputs(),
                 node.describe() + ": compute made " + std::to_string(outs.size()) + " outputs, node has " +
                     std::to_string(node.numOutputs()));
    for (int i = 0; i < node.numOutputs(); ++i) {
        const auto& want = node.outputTypes[static_cast<size_t>(i)];
        const auto& t = outs[static_cast<size_t>(i)];
        if (!t.defined()) continue; // an output nobody may read (Dropout's mask)
        TESSEL_CHECK(t->dtype == want.dtype && staticShape(t) == want.shape,
                     node.describe() + ": output " + std::to_string(i) + " computed as " +
                         t->dtype.str() + " of the wrong shape; inferred " + want.str());
    }
    return outs;
}

} // namespace tessel::topi
