/// \file
/// Runs an ONNX node test (model.onnx + test_data_set_0) through the operator
/// library alone: every node's topi compute, all stages at root under the
/// default schedule (no graph passes, no fusion), one function, compared with
/// the test's expected outputs at ONNX's tolerances. The whole pipeline is
/// tested by tests/conformance; this checks the computes themselves.
#pragma once

#include "driver/TeDriver.h"
#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"
#include "runtime/NDArray.h"
#include "te/Schedule.h"
#include "topi/Topi.h"
#include "topi/TopiUtil.h"

#include <QString>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessel::topi::test {

inline const char* kNodeData = "/usr/share/libonnx-testdata/data/node/";

inline runtime::NDArray toArray(const graph::Constant& c) {
    runtime::NDArray a(c.shape, c.dtype);
    if (!c.bytes.empty()) std::memcpy(a.rawData(), c.bytes.data(), c.bytes.size());
    return a;
}

/// The outcome of one node test: empty `failure` when it passed.
struct NodeTestResult {
    std::string failure;
    std::string compareText;
};

/// Runs node test `name` (a folder under kNodeData). A CompileError while
/// importing or computing is a failure too: these tests only list cases the
/// library claims to support.
inline NodeTestResult runNodeTest(const std::string& name, double rtol = 1e-3, double atol = 1e-7) {
    namespace fs = std::filesystem;
    NodeTestResult r;
    const std::string dir = std::string(kNodeData) + name;
    try {
        graph::Graph g = frontend::importOnnx(dir + "/model.onnx");
        std::unordered_map<graph::Value, te::Tensor, graph::ValueHash> tensors;
        std::vector<te::Tensor> args;
        std::vector<runtime::NDArray> buffers;
        for (auto& in : g.inputs()) {
            auto t = te::placeholder(topi::toExprs(in->outputTypes[0].shape), in->outputTypes[0].dtype,
                                     "in_" + std::to_string(args.size()));
            tensors.emplace(in->output(0), t);
            args.push_back(t);
            buffers.emplace_back(); // filled from input_i.pb below
        }
        size_t numGraphInputs = args.size();
        for (auto& c : g.constants()) {
            auto t = te::placeholder(topi::toExprs(c->constant->shape), c->constant->dtype,
                                     "const_" + std::to_string(args.size()));
            tensors.emplace(c->output(0), t);
            args.push_back(t);
            buffers.push_back(toArray(*c->constant));
        }
        for (auto& n : g.nodes()) {
            std::vector<te::Tensor> ins;
            std::vector<Ref<graph::Constant>> consts;
            for (auto& v : n->inputs) {
                ins.push_back(v.defined() ? tensors.at(v) : te::Tensor());
                consts.push_back(v.defined() ? v.constant() : Ref<graph::Constant>());
            }
            OpContext ctx(*n, ins, consts);
            auto outs = computeNode(ctx);
            for (int i = 0; i < n->numOutputs(); ++i) tensors.emplace(n->output(i), outs[size_t(i)]);
        }
        std::vector<te::Operation> outOps;
        for (auto& o : g.outputs()) {
            auto t = tensors.at(o);
            args.push_back(t);
            outOps.push_back(t->op);
            buffers.emplace_back(topi::staticShape(t), t->dtype);
        }
        // Inputs and constants nobody reads are not arguments of the function.
        std::vector<te::Tensor> used;
        std::vector<runtime::NDArray> usedBuffers;
        auto ops = te::postOrderOps(outOps);
        for (size_t i = 0; i < args.size(); ++i) {
            bool reached = i >= args.size() - g.outputs().size();
            for (auto& op : ops) reached = reached || op.get() == args[i]->op.get();
            if (!reached) continue;
            used.push_back(args[i]);
            usedBuffers.push_back(buffers[i]);
            if (i < numGraphInputs) {
                auto in = frontend::readTensorProto(dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb");
                usedBuffers.back() = toArray(*in.value);
            }
        }
        auto sch = te::createSchedule(outOps);
        auto f = driver::lowerSchedule(sch, used, "node_test");
        codegen::BuildOptions bo;
        bo.emitAssembly = false;
        auto built = driver::buildFunctions({f}, codegen::Target::host(), bo);
        auto fn = built.module->function("node_test");
        std::vector<void*> ptrs;
        for (auto& b : usedBuffers) ptrs.push_back(b.rawData());
        if (fn(ptrs.data()) != 0) return {"kernel returned an error", ""};
        for (size_t o = 0; o < g.outputs().size(); ++o) {
            auto want = frontend::readTensorProto(dir + "/test_data_set_0/output_" + std::to_string(o) + ".pb");
            const auto& got = usedBuffers[usedBuffers.size() - g.outputs().size() + o];
            auto cmp = runtime::compare(got, toArray(*want.value), rtol, atol);
            r.compareText += cmp.str() + "; ";
            if (!cmp.allClose)
                r.failure += "output " + std::to_string(o) + " " + got.str() + ": " + cmp.str() + "; ";
        }
    } catch (const CompileError& e) {
        r.failure = std::string("compile error: ") + e.what();
    } catch (const std::exception& e) {
        r.failure = std::string("error: ") + e.what();
    }
    return r;
}

} // namespace tessel::topi::test
