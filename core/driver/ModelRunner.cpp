#include "driver/ModelRunner.h"

#include "runtime/Roofline.h"

#include "ir/Diagnostic.h"
#include "rpc/Client.h"
#include "runtime/ExportedModel.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace tessel::driver {

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

/// Runs the model in this process: the outputs (copies) and timings into `rep`.
std::vector<runtime::NDArray> runHere(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                                      const ModelRunOptions& options, ModelRunReport& rep) {
    if (options.threads > 0) runtime::ThreadPool::global().setNumThreads(options.threads);
    rep.threads = runtime::ThreadPool::global().numThreads();
    auto exec = model.makeExecutor();
    for (int i = 0; i < exec->numInputs(); ++i) exec->setInput(i, inputs[static_cast<size_t>(i)]);
    exec->run();
    if (options.repeat > 0) {
        runtime::TimeEvaluator ev{1, options.repeat, 0, 0};
        for (double s : ev.measure([&] { exec->run(); })) rep.runsMs.push_back(s * 1e3);
        rep.latencyMs = runtime::median(rep.runsMs);
    }
    if (options.profile) {
        std::vector<double> ms;
        for (double s : exec->profile(std::max(options.repeat, 3))) ms.push_back(s * 1e3);
        const runtime::Roofline roof = runtime::Roofline::local(rep.threads);
        rep.profile = profileOf(model, ms, &roof);
    }
    std::vector<runtime::NDArray> outputs;
    for (int o = 0; o < exec->numOutputs(); ++o) outputs.push_back(exec->output(o).copy());
    return outputs;
}

/// Runs the model on options.device: exported, uploaded, run in the session.
std::vector<runtime::NDArray> runOnDevice(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                                          const ModelRunOptions& options, ModelRunReport& rep) {
    rpc::Client& c = *options.device;
    std::string dir = (std::filesystem::temp_directory_path() / "tessel-export-XXXXXX").string();
    if (!::mkdtemp(dir.data())) throw std::runtime_error("cannot create a folder for the export");
    struct Cleanup {
        std::string dir;
        ~Cleanup() {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    } cleanup{dir};
    exportModel(model, dir, options.deviceTarget);
    for (const char* file : {runtime::kExportLibrary, runtime::kExportPlan, runtime::kExportWeights})
        c.uploadFile(file, dir + "/" + file);
    c.loadModel();
    std::vector<uint64_t> in, out;
    for (const auto& v : inputs) {
        in.push_back(c.alloc(v.dtype(), v.shape()));
        c.copyTo(in.back(), v);
    }
    for (int o : model.plan.outputs) {
        const auto& t = model.plan.tensors[static_cast<size_t>(o)];
        out.push_back(c.alloc(t.dtype, t.shape));
    }
    rpc::RunSpec spec;
    spec.threads = static_cast<uint32_t>(std::max(0, options.threads));
    spec.timeoutMs = static_cast<uint32_t>(std::clamp(options.timeoutSeconds * 1e3, 1.0, 3.6e6));
    spec.repeat = 0;
    rep.threads = c.runModel(in, out, spec).threads;
    std::vector<runtime::NDArray> outputs;
    for (size_t o = 0; o < out.size(); ++o) {
        const auto& t = model.plan.tensors[static_cast<size_t>(model.plan.outputs[o])];
        outputs.push_back(c.copyFrom(out[o], t.shape, t.dtype));
    }
    if (options.repeat > 0) {
        spec.repeat = static_cast<uint32_t>(options.repeat);
        spec.number = 1;
        spec.minRepeatMs = 0;
        spec.warmup = 0;
        rep.runsMs = c.runModel(in, out, spec).repeatsMs;
        rep.latencyMs = runtime::median(rep.runsMs);
    }
    if (options.profile) {
        spec.repeat = static_cast<uint32_t>(std::max(options.repeat, 3));
        const std::vector<double> ms = c.profileModel(in, spec).repeatsMs;
        if (ms.size() != model.plan.steps.size())
            throw std::runtime_error("the device profiled " + std::to_string(ms.size()) + " steps of " +
                                     std::to_string(model.plan.steps.size()));
        // A server on this machine (the local tessel-rpc child) runs under this
        // machine's roofline; another device's is not known here.
        const runtime::DeviceInfo device = c.device();
        const runtime::DeviceInfo& here = runtime::DeviceInfo::local();
        if (device.triple == here.triple && device.cpuName == here.cpuName && device.cores == here.cores) {
            const runtime::Roofline roof = runtime::Roofline::local(rep.threads);
            rep.profile = profileOf(model, ms, &roof);
        } else {
            rep.profile = profileOf(model, ms);
        }
    }
    for (uint64_t id : in) c.free(id);
    for (uint64_t id : out) c.free(id);
    return outputs;
}

} // namespace

ModelRunReport runModel(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                        const std::vector<runtime::NDArray>& expected, const ModelRunOptions& options) {
    ModelRunReport rep;
    const std::vector<runtime::NDArray> values = inputValues(model, inputs, options.seed);
    std::vector<runtime::NDArray> outputs;
    try {
        outputs = options.device ? runOnDevice(model, values, options, rep) : runHere(model, values, options, rep);
    } catch (const std::exception& e) {
        rep.error = e.what();
        return rep;
    }
    rep.ok = true;
    for (int o = 0; o < static_cast<int>(outputs.size()); ++o) {
        OutputReport r;
        r.name = model.plan.tensors[static_cast<size_t>(model.plan.outputs[static_cast<size_t>(o)])].name;
        const runtime::NDArray& got = outputs[static_cast<size_t>(o)];
        r.type = got.str();
        rep.values.push_back(got);
        if (o < static_cast<int>(expected.size()) && expected[static_cast<size_t>(o)].defined()) {
            const auto& want = expected[static_cast<size_t>(o)];
            r.checked = true;
            auto cmp = runtime::compare(got, want, options.rtol, options.atol);
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
