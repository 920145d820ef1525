/// \file
/// Runs an ONNX node test (model.onnx + test_data_set_0) through the operator
/// library alone: every node's topi compute through its strategy (the graph
/// adapter, lower/Strategy.h), all stages at root under the default schedule
/// (no graph passes, no fusion), one function, compared with the test's
/// expected outputs at ONNX's tolerances. The whole pipeline is tested by
/// tests/conformance; this checks the computes themselves.
#pragma once

#include "driver/TeDriver.h"
#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"
#include "lower/Strategy.h"
#include "runtime/NDArray.h"
#include "te/Schedule.h"
#include "topi/Topi.h"

#include <QString>

#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
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

/// A compute run on given inputs: its outputs and the stages it made.
struct OpRun {
    std::vector<runtime::NDArray> outputs;
    std::vector<te::Operation> stages; ///< post-order, placeholders included
    std::string error;
};

using Tensors = std::vector<te::Tensor>;

/// Makes the schedule of a function from its outputs' operations.
using ScheduleMaker = std::function<te::Schedule(const std::vector<te::Operation>&)>;

/// Lowers `outs` (every stage at root, or under the schedule `makeSchedule`
/// makes) with the placeholders in `args` bound to `buffers`, runs it and
/// fills `r`. Placeholders the outputs do not read (Gemm's C when beta = 0)
/// are no arguments.
inline void runTensors(OpRun& r, const Tensors& args, const std::vector<runtime::NDArray>& buffers, const Tensors& outs,
                       const ScheduleMaker& makeSchedule = {}) {
    std::vector<te::Operation> outOps;
    for (auto& t : outs)
        outOps.push_back(t->op);
    r.stages = te::postOrderOps(outOps);
    std::vector<te::Tensor> used;
    std::vector<void*> ptrs;
    for (size_t i = 0; i < args.size(); ++i)
        for (auto& op : r.stages)
            if (op.get() == args[i]->op.get()) {
                used.push_back(args[i]);
                ptrs.push_back(const_cast<void*>(buffers[i].rawData()));
            }
    for (auto& t : outs) {
        used.push_back(t);
        r.outputs.emplace_back(topi::staticShape(t), t->dtype);
        ptrs.push_back(r.outputs.back().rawData());
    }
    auto f = driver::lowerSchedule(makeSchedule ? makeSchedule(outOps) : te::createSchedule(outOps), used, "op_test");
    codegen::BuildOptions bo;
    bo.emitAssembly = false;
    auto built = driver::buildFunctions({f}, codegen::hostTarget(), bo);
    if (built.module->function("op_test")(ptrs.data()) != 0) r.error = "kernel returned an error";
}

/// Placeholders x0, x1 ... for `inputs`.
inline Tensors placeholders(const std::vector<runtime::NDArray>& inputs) {
    Tensors args;
    for (size_t i = 0; i < inputs.size(); ++i)
        args.push_back(te::placeholder(topi::toExprs(inputs[i].shape()), inputs[i].dtype(), std::string("x").append(std::to_string(i))));
    return args;
}

/// Runs a topi compute, called directly on placeholders for `inputs`.
inline OpRun runCompute(const std::vector<runtime::NDArray>& inputs, const std::function<Tensors(const Tensors&)>& compute) {
    OpRun r;
    try {
        Tensors args = placeholders(inputs);
        runTensors(r, args, inputs, compute(args));
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

/// The outcome of one node test: empty `failure` when it passed.
struct NodeTestResult {
    std::string failure;
    std::string compareText;
};

struct NodeTestOptions {
    /// Graph inputs (by position, as input_<i>.pb numbers them) bound as
    /// constants holding their test values: operands Tessel needs as constants
    /// (Reshape's shape, Slice's starts, Resize's scales) that the ONNX tests
    /// pass as graph inputs.
    std::vector<int> constantInputs;
    double rtol = 1e-3;
    double atol = 1e-7;
};

inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CompileError(path + ": cannot read the file");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Appends a length-delimited protobuf field.
inline void appendProtoField(std::string& out, uint32_t field, const std::string& bytes) {
    auto varint = [&](uint64_t v) {
        for (; v >= 0x80; v >>= 7)
            out += static_cast<char>((v & 0x7f) | 0x80);
        out += static_cast<char>(v);
    };
    varint(uint64_t(field) << 3 | 2);
    varint(bytes.size());
    out += bytes;
}

/// The model bytes of node test `dir` with `constantInputs` made initializers.
/// Protobuf merges repeated occurrences of a message field, so appending a
/// ModelProto.graph (7) that holds only initializers (GraphProto field 5) adds
/// them to the graph; the importer then treats those inputs as constants.
inline std::string modelWithConstantInputs(const std::string& dir,
                                           const std::vector<int>& constantInputs) {
    std::string model = readBytes(dir + "/model.onnx");
    std::string inits;
    for (int i : constantInputs) {
        const std::string file = dir + "/test_data_set_0/input_" + std::to_string(i) + ".pb";
        if (frontend::readTensorProto(file).name.empty())
            throw CompileError(file + ": the tensor has no name");
        appendProtoField(inits, 5, readBytes(file));
    }
    if (!inits.empty()) appendProtoField(model, 7, inits);
    return model;
}

/// Runs graph `g` through the operator library alone with `inputs` (by graph
/// input name) and compares its outputs with `expected`. A CompileError while
/// computing or building is a failure too: tests only list cases the library
/// claims to support.
inline NodeTestResult runGraphTest(const graph::Graph& g,
                                   const std::map<std::string, Ref<graph::Constant>>& inputs,
                                   const std::vector<Ref<graph::Constant>>& expected,
                                   double rtol = 1e-3, double atol = 1e-7) {
    NodeTestResult r;
    try {
        std::unordered_map<graph::Value, te::Tensor, graph::ValueHash> tensors;
        std::vector<te::Tensor> args;
        std::vector<runtime::NDArray> buffers;
        for (auto& in : g.inputs()) {
            auto it = inputs.find(in->name);
            if (it == inputs.end()) return {"no value for input '" + in->name + "'", ""};
            auto t = te::placeholder(topi::toExprs(in->outputTypes[0].shape),
                                     in->outputTypes[0].dtype, "in_" + std::to_string(args.size()));
            tensors.emplace(in->output(0), t);
            args.push_back(t);
            buffers.push_back(toArray(*it->second));
        }
        for (auto& c : g.constants()) {
            // An empty constant (no axes, Resize's unused scales) has no tensor:
            // computes read such operands only through ctx.constant().
            if (c->constant->numElements() == 0) continue;
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
                auto it = v.defined() ? tensors.find(v) : tensors.end();
                ins.push_back(it != tensors.end() ? it->second : te::Tensor());
                consts.push_back(v.defined() ? v.constant() : Ref<graph::Constant>());
            }
            auto outs = lower::computeNode(lower::OpContext(*n, ins, consts));
            for (int i = 0; i < n->numOutputs(); ++i)
                tensors.emplace(n->output(i), outs[size_t(i)]);
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
            for (auto& op : ops)
                reached = reached || op.get() == args[i]->op.get();
            if (!reached) continue;
            used.push_back(args[i]);
            usedBuffers.push_back(buffers[i]);
        }
        auto sch = te::createSchedule(outOps);
        auto f = driver::lowerSchedule(sch, used, "node_test");
        codegen::BuildOptions bo;
        bo.emitAssembly = false;
        auto built = driver::buildFunctions({f}, codegen::hostTarget(), bo);
        auto fn = built.module->function("node_test");
        std::vector<void*> ptrs;
        for (auto& b : usedBuffers)
            ptrs.push_back(b.rawData());
        if (fn(ptrs.data()) != 0) return {"kernel returned an error", ""};
        if (expected.size() != g.outputs().size())
            return {"expected values for every output are needed", ""};
        for (size_t o = 0; o < g.outputs().size(); ++o) {
            const auto& got = usedBuffers[usedBuffers.size() - g.outputs().size() + o];
            auto cmp = runtime::compare(got, toArray(*expected[o]), rtol, atol);
            r.compareText += cmp.str() + "; ";
            if (!cmp.allClose)
                r.failure +=
                    "output " + std::to_string(o) + " " + got.str() + ": " + cmp.str() + "; ";
        }
    } catch (const CompileError& e) {
        r.failure = std::string("compile error: ") + e.what();
    } catch (const std::exception& e) {
        r.failure = std::string("error: ") + e.what();
    }
    return r;
}

/// Runs node test `name` (a folder under kNodeData: model.onnx and
/// test_data_set_0) through runGraphTest.
inline NodeTestResult runNodeTest(const std::string& name, const NodeTestOptions& options) {
    namespace fs = std::filesystem;
    const std::string dir = std::string(kNodeData) + name;
    const std::string data = dir + "/test_data_set_0/";
    try {
        std::map<std::string, Ref<graph::Constant>> inputs;
        for (int i = 0; fs::exists(data + "input_" + std::to_string(i) + ".pb"); ++i) {
            auto t = frontend::readTensorProto(data + "input_" + std::to_string(i) + ".pb");
            inputs[t.name] = t.value;
        }
        std::vector<Ref<graph::Constant>> expected;
        for (int i = 0; fs::exists(data + "output_" + std::to_string(i) + ".pb"); ++i)
            expected.push_back(
                frontend::readTensorProto(data + "output_" + std::to_string(i) + ".pb").value);
        frontend::ImportOptions io;
        io.modelName = dir + "/model.onnx";
        graph::Graph g =
            frontend::importOnnxBytes(modelWithConstantInputs(dir, options.constantInputs), io);
        return runGraphTest(g, inputs, expected, options.rtol, options.atol);
    } catch (const CompileError& e) {
        return {std::string("compile error: ") + e.what(), ""};
    }
}

inline NodeTestResult runNodeTest(const std::string& name, double rtol = 1e-3, double atol = 1e-7) {
    NodeTestOptions o;
    o.rtol = rtol;
    o.atol = atol;
    return runNodeTest(name, o);
}

/// Packs weights as the model compiler does (compile-time constants that
/// become kernel arguments), for the placeholders whose values it is given.
class TestPacker : public topi::ConstantPacker {
public:
    void know(const te::Tensor& t, const runtime::NDArray& values) { known_.push_back({t, values}); }
    te::Tensor derive(const te::Tensor& source, const std::string& name, DataType dtype,
                      const std::vector<int64_t>& shape, const topi::PackFunction& fill) override {
        for (auto& [t, values] : known_)
            if (t.same(source)) {
                runtime::NDArray out = runtime::NDArray::zeros(shape, dtype);
                fill(values.rawData(), out.rawData());
                args.push_back(te::placeholder(topi::toExprs(shape), dtype, name));
                buffers.push_back(out);
                return args.back();
            }
        return {};
    }
    std::vector<te::Tensor> args;          ///< the packed constants made
    std::vector<runtime::NDArray> buffers; ///< their values
private:
    std::vector<std::pair<te::Tensor, runtime::NDArray>> known_;
};

} // namespace tessel::topi::test
