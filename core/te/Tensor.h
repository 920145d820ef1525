/// \file
/// Tensor expressions: placeholders, computes and reductions (TVM's `te`).
///
/// An Operation produces one or more Tensors. A ComputeOp describes each output
/// element as an expression of its axis variables; reads of other tensors are
/// ProducerLoad nodes whose producer is the read Tensor.
#pragma once

#include "tir/IR.h"

#include <functional>
#include <string>
#include <vector>

namespace tessel::te {

using tessel::DataType;
using tir::Expr;
using tir::IterVar;
using tir::Range;
using tir::Var;

class Operation;
class Tensor;

enum class OpKind : uint8_t { Placeholder, Compute };

struct OperationNode : Object {
    std::string name;
    std::string tag;
    virtual OpKind opKind() const = 0;
    virtual int numOutputs() const { return 1; }
    virtual DataType outputType(int i) const = 0;
    virtual std::vector<Expr> outputShape(int i) const = 0;
    /// Tensors this operation reads, each once, in first-use order.
    virtual std::vector<Tensor> inputTensors() const = 0;
};

class Operation : public Ref<OperationNode> {
public:
    using Ref::Ref;
    Tensor output(int i = 0) const;
};

struct TensorNode : tir::DataProducerNode {
    Operation op;
    int valueIndex = 0;
    std::vector<Expr> shape;
    DataType dtype;

    std::string producerName() const override;
    std::vector<Expr> producerShape() const override { return shape; }
    DataType producerType() const override { return dtype; }
};

class Tensor : public Ref<TensorNode> {
public:
    using Ref::Ref;
    /// Reads this tensor at `indices` (builds a ProducerLoad).
    Expr operator()(std::vector<Expr> indices) const;
    int ndim() const { return static_cast<int>(get()->shape.size()); }
    const std::string& name() const { return get()->op->name; }
    /// Tensors are equal when they are the same output of the same operation.
    bool same(const Tensor& o) const {
        return get()->op.get() == o->op.get() && get()->valueIndex == o->valueIndex;
    }
};

struct TensorHash {
    size_t operator()(const Tensor& t) const {
        return std::hash<const void*>()(t->op.get()) ^ size_t(t->valueIndex);
    }
};
struct TensorEqual {
    bool operator()(const Tensor& a, const Tensor& b) const { return a.same(b); }
};

struct PlaceholderOpNode : OperationNode {
    std::vector<Expr> shape;
    DataType dtype;
    OpKind opKind() const override { return OpKind::Placeholder; }
    DataType outputType(int) const override { return dtype; }
    std::vector<Expr> outputShape(int) const override { return shape; }
    std::vector<Tensor> inputTensors() const override { return {}; }
};

struct ComputeOpNode : OperationNode {
    /// One data-parallel axis per output dimension.
    std::vector<IterVar> axis;
    /// Reduction axes (all outputs share them); empty without a reduction.
    std::vector<IterVar> reduceAxis;
    /// One expression per output. With a reduction each is a ReduceNode.
    std::vector<Expr> body;
    OpKind opKind() const override { return OpKind::Compute; }
    int numOutputs() const override { return static_cast<int>(body.size()); }
    DataType outputType(int i) const override { return body[i].type(); }
    std::vector<Expr> outputShape(int i) const override;
    std::vector<Tensor> inputTensors() const override;
};

/// A new input tensor.
Tensor placeholder(std::vector<Expr> shape, DataType dtype = DataType::float32(),
                   std::string name = "placeholder");

using ComputeFunction = std::function<Expr(const std::vector<Var>&)>;

/// A new tensor of `shape` whose element at (i, j, ...) is fcompute(i, j, ...).
/// Axis variables are named from `axisNames` when given ("i", "j", ... otherwise).
Tensor compute(std::vector<Expr> shape, const ComputeFunction& fcompute, std::string name = "compute",
               std::string tag = {}, std::vector<std::string> axisNames = {});

/// A reduction axis over `dom`.
IterVar reduceAxis(Range dom, std::string name = "rv");

Expr sum(Expr source, std::vector<IterVar> axis, Expr where = {});
Expr max(Expr source, std::vector<IterVar> axis, Expr where = {});
Expr min(Expr source, std::vector<IterVar> axis, Expr where = {});
Expr prod(Expr source, std::vector<IterVar> axis, Expr where = {});

/// Every operation that `outputs` depend on, inputs first (post-order).
std::vector<Operation> postOrderOps(const std::vector<Operation>& outputs);

/// "float32[1, 64, 56, 56]": a tensor's type as messages show it (a symbolic
/// extent printed as TIR).
std::string typeText(const Tensor& t);

} // namespace tessel::te
