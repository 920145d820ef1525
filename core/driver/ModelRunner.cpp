#include "driver/ModelRunner.h"

#include "runtime/Roofline.h"

#include "driver/ControlFlowProgram.h"

#include "ir/Diagnostic.h"
#include "ir/Half.h"
#include "runtime/TimeEvaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

namespace tessel::driver {

runtime::ModelPackage packageOf(const CompiledModel& model) {
    if (model.program) throw CompileError(kControlFlowInProcess);
    runtime::ModelPackage p;
    p.plan = model.plan;
    p.weights = model.weights;
    p.module = model.module;
    p.writeExport = [&model](const std::string& dir) { exportModel(model, dir, model.target); };
    return p;
}

runtime::NDArray toNDArray(const graph::Constant& c) {
    runtime::NDArray a(c.shape, c.dtype);
    if (!c.bytes.empty()) std::memcpy(a.rawData(), c.bytes.data(), c.bytes.size());
    return a;
}

namespace {

/// The inputs of a run: given ones (checked), seeded random ones for the rest.
std::vector<runtime::NDArray> inputValues(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                                          uint64_t seed) {
    std::vector<runtime::NDArray> values;
    for (size_t i = 0; i < model.plan.inputs.size(); ++i) {
        const auto& info = model.plan.tensors[static_cast<size_t>(model.plan.inputs[i])];
        if (i < inputs.size() && inputs[i].defined()) {
            const auto& in = inputs[i];
            if (in.dtype() != info.dtype || in.shape() != info.shape)
                throw CompileError("input '" + info.name + "' must be " + info.dtype.str() + " of shape " +
                                   runtime::NDArray(info.shape, info.dtype).str() + ", not " + in.str());
            values.push_back(in);
        } else {
            runtime::NDArray v(info.shape, info.dtype);
            v.fillRandom(seed + i, 0.0, 1.0);
            values.push_back(std::move(v));
        }
    }
    return values;
}

/// The per-kernel profile from each plan step's milliseconds; with a
/// roofline (a run on this machine), each kernel's share of it.
std::vector<KernelProfile> profileOf(const CompiledModel& model, const std::vector<double>& ms,
                                     const runtime::Roofline* roofline = nullptr) {
    std::vector<KernelProfile> out;
    for (size_t s = 0; s < ms.size() && s < model.plan.steps.size(); ++s) {
        KernelProfile k;
        k.function = model.plan.steps[s].function;
        k.ms = ms[s];
        if (auto* f = model.findFunction(k.function); f && ms[s] > 0) {
            k.gflops = f->flops / (ms[s] * 1e-3) * 1e-9;
            if (roofline) {
                k.roofline = roofline->share(f->flops, f->bytes, ms[s] * 1e-3);
                k.memoryBound = roofline->memoryBound(f->flops, f->bytes);
            }
        }
        out.push_back(k);
    }
    return out;
}

/// A float16 or bfloat16 tensor given as its bits in a uint16 tensor (how
/// numpy-based tools, ONNX's test data among them, carry bfloat16), as the
/// float32 tensor Tessel computes with; `a` itself otherwise.
runtime::NDArray fromStoredBits(const CompiledModel& model, int tensor, const runtime::NDArray& a) {
    if (!a.defined() || a.dtype() != DataType(DataType::Code::UInt, 16) || !a.isHost()) return a;
    const auto st = model.storedTypes.find(model.plan.tensors[static_cast<size_t>(tensor)].name);
    if (st == model.storedTypes.end()) return a;
    runtime::NDArray f = runtime::NDArray::empty(a.shape(), DataType::float32());
    const auto* bits = a.data<uint16_t>();
    float* v = f.data<float>();
    for (int64_t i = 0; i < a.numElements(); ++i)
        v[i] = st->second == "float16" ? halfToFloat(bits[i]) : bfloat16ToFloat(bits[i]);
    return f;
}

/// Runs the model on `runner`: the outputs (host copies) and timings into `rep`.
std::vector<runtime::NDArray> runOn(runtime::ModelRunner& runner, const CompiledModel& model,
                                    const std::vector<runtime::NDArray>& inputs, const ModelRunOptions& options,
                                    ModelRunReport& rep) {
    runner.load(packageOf(model));
    runner.setInputs(inputs);
    runtime::ModelRunSpec spec;
    spec.threads = options.threads;
    spec.timeoutSeconds = options.timeoutSeconds;
    rep.threads = runner.run(spec).threads; // once, untimed: the outputs
    std::vector<runtime::NDArray> outputs = runner.outputs();
    if (options.repeat > 0) {
        spec.repeat = options.repeat;
        rep.runsMs = runner.run(spec).ms;
        rep.latencyMs = runtime::median(rep.runsMs);
    }
    if (options.profile) {
        spec.repeat = std::max(options.repeat, 3);
        const std::vector<double> ms = runner.profile(spec).ms;
        // On this machine (in process, or its own tessel-rpc server) each
        // kernel's share of this machine's roofline; another device's is not known here.
        if (runner.onThisMachine()) {
            const runtime::Roofline roof = runtime::Roofline::local(rep.threads);
            rep.profile = profileOf(model, ms, &roof);
        } else {
            rep.profile = profileOf(model, ms);
        }
    }
    return outputs;
}

/// Runs a model with control flow on its host program, in this process:
/// also for this machine's local server (the same machine); a remote device
/// cannot run it yet.
std::vector<runtime::NDArray> runProgram(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                                         const ModelRunOptions& options, ModelRunReport& rep) {
    if (options.runner && !options.runner->onThisMachine())
        throw CompileError(std::string(kControlFlowInProcess) + " (asked to run on " + options.runner->name() + ")");
    std::vector<runtime::NDArray> outputs = model.program->run(inputs);
    for (int r = 0; r < options.repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        model.program->run(inputs);
        rep.runsMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    if (!rep.runsMs.empty()) rep.latencyMs = runtime::median(rep.runsMs);
    return outputs;
}

} // namespace

ModelRunReport runModel(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                        const std::vector<runtime::NDArray>& expected, const ModelRunOptions& options) {
    ModelRunReport rep;
    std::vector<runtime::NDArray> given = inputs;
    for (size_t i = 0; i < given.size() && i < model.plan.inputs.size(); ++i)
        given[i] = fromStoredBits(model, model.plan.inputs[i], given[i]);
    const std::vector<runtime::NDArray> values = inputValues(model, given, options.seed);
    std::vector<runtime::NDArray> outputs;
    try {
        runtime::InProcessModelRunner here;
        outputs = model.program ? runProgram(model, values, options, rep)
                                : runOn(options.runner ? *options.runner : here, model, values, options, rep);
    } catch (const std::exception& e) {
        rep.error = e.what();
        return rep;
    }
    rep.ok = true;
    for (int o = 0; o < static_cast<int>(outputs.size()); ++o) {
        OutputReport r;
        r.name = model.plan.tensors[static_cast<size_t>(model.plan.outputs[static_cast<size_t>(o)])].name;
        runtime::NDArray got = outputs[static_cast<size_t>(o)];
        const auto st = model.storedTypes.find(r.name);
        if (st != model.storedTypes.end() && got.dtype() == DataType::float32() && got.isHost()) {
            // Computed as float32; given back in the model's type, as float32 values.
            got = got.copy();
            float* v = got.data<float>();
            for (int64_t i = 0; i < got.numElements(); ++i)
                v[i] = st->second == "float16" ? halfToFloat(floatToHalf(v[i])) : roundToBfloat16(v[i]);
        }
        r.type = got.str();
        if (st != model.storedTypes.end()) r.type += " (" + st->second + " in the model)";
        rep.values.push_back(got);
        if (o < static_cast<int>(expected.size()) && expected[static_cast<size_t>(o)].defined()) {
            const runtime::NDArray want =
                fromStoredBits(model, model.plan.outputs[static_cast<size_t>(o)], expected[static_cast<size_t>(o)]);
            r.checked = true;
            // A bfloat16 output is compared at its own resolution (one step,
            // 2^-7 relative): writers round (PyTorch, ONNX Runtime: to nearest
            // even) or truncate (ONNX 1.12's reference) float32 differently.
            const bool bf16 = st != model.storedTypes.end() && st->second == "bfloat16";
            auto cmp = runtime::compare(got, want, bf16 ? std::max(options.rtol, 1.0 / 128) : options.rtol,
                                        options.atol);
            r.ok = cmp.shapesMatch && cmp.allClose;
            r.maxAbsErr = cmp.maxAbsError;
            r.maxRelErr = cmp.maxRelError;
            r.mismatches = cmp.numMismatches;
            for (int64_t i = 0; i < want.numElements(); ++i)
                r.maxAbsExpected = std::max(r.maxAbsExpected, std::fabs(want.at(i)));
            if (!cmp.shapesMatch) {
                r.ok = false;
                rep.error += "output '" + r.name + "' is " + got.str() + " but " + want.str() + " was expected; ";
            } else if (!r.ok) {
                rep.error += "output '" + r.name + "': " + cmp.str() + "; ";
            }
            rep.ok = rep.ok && r.ok;
        }
        rep.outputs.push_back(std::move(r));
    }
    return rep;
}

} // namespace tessel::driver
