/// \file
/// Helpers shared by the operator library's convolution, pooling and matrix
/// product suites (tst_topi_nn, tst_topi_dense): seeded random arrays, a
/// plain-loop numpy matmul, the stage a run made with a tag, and CHECK_CLOSE
/// (outputs within rtol 1e-4, atol 1e-5).
#pragma once

#include "TopiTestUtil.h"

#include <QtTest>

namespace tessel::topi::test {

using runtime::NDArray;
using Shape = std::vector<int64_t>;

/// A float32 (or `t`) array of seeded random values.
inline NDArray randomArray(Shape shape, uint64_t seed, DataType t = DataType::float32()) {
    NDArray a(std::move(shape), t);
    a.fillRandom(seed);
    return a;
}

/// numpy matmul of float32 arrays (1-d operands promoted and dropped again).
inline NDArray matmulRef(const NDArray& a, const NDArray& b, const Shape& outShape) {
    Shape as = a.shape(), bs = b.shape();
    const bool aVec = as.size() == 1, bVec = bs.size() == 1;
    if (aVec) as.insert(as.begin(), 1);
    if (bVec) bs.push_back(1);
    const int64_t m = as[as.size() - 2], k = as.back(), nn = bs.back();
    Shape batch(outShape.begin(), outShape.end() - (aVec ? 0 : 1) - (bVec ? 0 : 1));
    int64_t batches = 1;
    for (int64_t d : batch)
        batches *= d;
    NDArray y(outShape, DataType::float32());
    for (int64_t bi = 0; bi < batches; ++bi) {
        Shape idx(batch.size());
        for (int64_t r = bi, d = int64_t(batch.size()) - 1; d >= 0; --d) {
            idx[size_t(d)] = r % batch[size_t(d)];
            r /= batch[size_t(d)];
        }
        // The flat offset of one operand's matrix for batch index idx (broadcast).
        auto base = [&](const Shape& s) {
            int64_t o = 0;
            const size_t rank = s.size() - 2;
            for (size_t d = 0; d < rank; ++d)
                o = o * s[d] + (s[d] == 1 ? 0 : idx[batch.size() - rank + d]);
            return o * s[s.size() - 2] * s.back();
        };
        const int64_t ao = base(as), bo = base(bs);
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < nn; ++j) {
                double acc = 0;
                for (int64_t p = 0; p < k; ++p)
                    acc +=
                        double(a.data<float>()[ao + i * k + p]) * b.data<float>()[bo + p * nn + j];
                y.data<float>()[(bi * m + i) * nn + j] = float(acc);
            }
    }
    return y;
}

/// The stage of `run` tagged `tag`, or null.
inline const te::OperationNode* stageTagged(const OpRun& run, const char* tag) {
    for (auto& op : run.stages)
        if (op->tag == tag) return op.get();
    return nullptr;
}

/// Whether `op` is a compute with a reduction.
inline bool isReduction(const te::OperationNode* op) {
    auto* c = dynamic_cast<const te::ComputeOpNode*>(op);
    return c && !c->reduceAxis.empty();
}

/// Runs graph operator `op` on `inputs` through its strategy (the graph
/// adapter: ONNX attributes resolved into the compute's parameters) under the
/// default schedule, as runNodeTest does for an imported node.
inline OpRun runOp(const std::string& op, const std::vector<NDArray>& inputs,
            const graph::Attributes& attrs, int numOutputs = 1) {
    OpRun r;
    try {
        graph::Graph g("t");
        std::vector<graph::Value> values;
        for (size_t i = 0; i < inputs.size(); ++i)
            values.push_back(g.addInput("x" + std::to_string(i), {inputs[i].dtype(), inputs[i].shape()}));
        auto node = g.addNode(op, values, attrs, numOutputs, "op");
        g.setOutputs(node->outputs());
        g = graph::inferShapes(g);
        Tensors args = placeholders(inputs);
        auto outs = lower::computeNode(
            lower::OpContext(*g.nodes()[0], args, std::vector<Ref<graph::Constant>>(args.size())));
        runTensors(r, args, inputs, outs);
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

/// Attributes from name/value pairs.
inline graph::Attributes attrs(std::initializer_list<std::pair<const char*, graph::AttrValue>> list) {
    graph::Attributes a;
    for (auto& [k, v] : list)
        a.set(k, v);
    return a;
}

} // namespace tessel::topi::test

#define CHECK_CLOSE(run, expected)                                                                 \
    do {                                                                                           \
        QVERIFY2((run).error.empty(), (run).error.c_str());                                        \
        auto cmp = runtime::compare((run).outputs[0], (expected), 1e-4, 1e-5);                     \
        QVERIFY2(cmp.allClose, ((run).outputs[0].str() + ": " + cmp.str()).c_str());               \
    } while (0)
