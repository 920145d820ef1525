/// \file
/// What a strategy (Strategy.h) sees of one graph operator: the node
/// (attributes, types after shape inference), one te::Tensor per input
/// (graph inputs, weights and the outputs of other fused functions are
/// placeholders; values computed earlier in the same fused function are
/// those tensors), the constant behind each input that has one (Reshape's
/// shape, Slice's starts, a weight), and where the computes may put
/// constants derived at compile time (packed weights). Every shape is static
/// here: the driver binds input shapes and runs shape inference first.
#pragma once

#include "graph/Graph.h"
#include "te/ConfigSpace.h"
#include "te/Tensor.h"
#include "topi/ConstantPacker.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::lower {

class OpContext {
public:
    /// `packer` (optional) makes packed weights kernel arguments; without
    /// one the computes pack them with a stage.
    /// `config` (optional) is the fused function's knob space: a compute
    /// whose layout is a knob (the blocked convolution's channel blocks)
    /// defines it there; without one it takes the default.
    OpContext(const graph::Node& node, std::vector<te::Tensor> inputs, std::vector<Ref<graph::Constant>> constants,
              topi::ConstantPacker* packer = nullptr, te::ConfigSpace* config = nullptr);

    const graph::Node& node() const { return node_; }
    const graph::Attributes& attrs() const { return node_.attrs; }
    /// A name for the operations this node makes: the node's name made an
    /// identifier (or the lower-case operator with the node id).
    const std::string& name() const { return name_; }

    int numInputs() const { return static_cast<int>(inputs_.size()); }
    bool hasInput(int i) const;
    /// Input i as a tensor; fails when it is absent.
    const te::Tensor& input(int i) const;
    /// Input i, or an undefined tensor when it is absent (an optional operand).
    te::Tensor optionalInput(int i) const;
    /// Input i, or a literal tensor (topi::literalTensor) of its value when it
    /// is a one-element constant, so that the compute folds it in.
    te::Tensor inputOrLiteral(int i) const;
    /// inputOrLiteral(i) of a scalar operand: fails when input i is a
    /// constant of more than one element.
    te::Tensor scalarInput(int i) const;
    /// The constant behind input i, or null.
    Ref<graph::Constant> constant(int i) const;
    /// The integers of constant input i (Reshape's shape, Slice's starts);
    /// fails when input i is not a constant.
    std::vector<int64_t> constInts(int i) const;
    /// The floats of constant input i; fails when it is not a constant.
    std::vector<double> constFloats(int i) const;
    /// Static type of input i (from the graph value).
    const graph::TensorType& inputType(int i) const;
    const graph::TensorType& outputType(int i = 0) const;
    int numOutputs() const { return node_.numOutputs(); }
    /// `n` integers of attribute `name` (each `fill` when absent); fails when
    /// it has another count.
    std::vector<int64_t> intsAttr(const std::string& name, size_t n, int64_t fill) const;

    /// Where packed weights go (null: nowhere, computes use a stage).
    topi::ConstantPacker* packer() const { return packer_; }
    /// The fused function's knob space (null: defaults).
    te::ConfigSpace* config() const { return config_; }

    /// Throws CompileError("node 'n' (Op): message").
    [[noreturn]] void fail(const std::string& message) const;

private:
    const graph::Node& node_;
    std::vector<te::Tensor> inputs_;
    std::vector<Ref<graph::Constant>> constants_;
    topi::ConstantPacker* packer_ = nullptr;
    te::ConfigSpace* config_ = nullptr;
    std::string name_;
};

} // namespace tessel::lower
