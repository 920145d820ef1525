#include "lower/OpContext.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "topi/TopiUtil.h"

#include <algorithm>
#include <cctype>

namespace tessel::lower {

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
                     std::vector<Ref<graph::Constant>> constants, topi::ConstantPacker* packer,
                     te::ConfigSpace* config)
    : node_(node), inputs_(std::move(inputs)), constants_(std::move(constants)), packer_(packer), config_(config),
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
    // An empty constant (a frozen input with a dimension of 0) has no tensor.
    if (!t.defined() && constants_[static_cast<size_t>(i)] && constants_[static_cast<size_t>(i)]->numElements() == 0)
        fail("input " + std::to_string(i) + " is empty (a dimension of 0), which is not supported");
    TESSEL_CHECK(t.defined(), node_.describe() + ": input " + std::to_string(i) + " has no tensor");
    return t;
}

te::Tensor OpContext::optionalInput(int i) const {
    return hasInput(i) ? input(i) : te::Tensor();
}

te::Tensor OpContext::inputOrLiteral(int i) const {
    auto c = constant(i);
    if (!c || c->numElements() != 1) return input(i);
    te::Expr v = c->dtype.isFloat() ? tir::makeConst(c->dtype, c->toDoubles()[0])
                                    : tir::makeConst(c->dtype, c->toInts()[0]);
    return topi::literalTensor(c->shape, v, name_ + "_in" + std::to_string(i));
}

te::Tensor OpContext::scalarInput(int i) const {
    if (auto c = constant(i); c && c->numElements() != 1)
        fail("input " + std::to_string(i) + " must hold one element");
    return inputOrLiteral(i);
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

std::vector<int64_t> OpContext::intsAttr(const std::string& name, size_t n, int64_t fill) const {
    auto v = attrs().getInts(name, std::vector<int64_t>(n, fill));
    if (v.size() != n)
        fail("attribute '" + name + "' has " + std::to_string(v.size()) + " values, expected " + std::to_string(n));
    return v;
}

void OpContext::fail(const std::string& message) const {
    throw CompileError(node_.describe() + ": " + message);
}

} // namespace tessel::lower
