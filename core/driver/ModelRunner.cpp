#include "driver/ModelRunner.h"

#include "ir/Diagnostic.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <chrono>
#include <cmath>
#include <cstring>

namespace tessel::driver {

runtime::NDArray toNDArray(const graph::Constant& c) {
    runtime::NDArray a(c.shape, c.dtype);
    if (!c.bytes.empty()) std::memcpy(a.rawData(), c.bytes.data(), c.bytes.size());
    return a;
}

ModelRunReport runModel(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                        const std::vector<runtime::NDArray>& expected, const ModelRunOptions& options) {
    ModelRunReport rep;
    if (options.threads > 0) runtime::ThreadPool::global().setNumThreads(options.threads);
    rep.threads = runtime::ThreadPool::global().numThreads();
    auto exec = model.makeExecutor();
    for (int i = 0; i < exec->numInputs(); ++i) {
        const auto& info = exec->inputInfo(i);
        if (i < static_cast<int>(inputs.size()) && inputs[static_cast<size_t>(i)].defined()) {
            const auto& in = inputs[static_cast<size_t>(i)];
            if (in.dtype() != info.dtype || in.shape() != info.shape)
                throw CompileError("input '" + info.name + "' must be " + info.dtype.str() + " of shape " +
                                   runtime::NDArray(info.shape, info.dtype).str() + ", not " + in.str());
            exec->setInput(i, in);
        } else {
            exec->input(i).fillRandom(options.seed + static_cast<uint64_t>(i), 0.0, 1.0);
        }
    }
    try {
        exec->run();
        if (options.repeat > 0) {
            runtime::TimeEvaluator ev{1, options.repeat, 0, 0};
            for (double s : ev.measure([&] { exec->run(); })) rep.runsMs.push_back(s * 1e3);
            rep.latencyMs = runtime::median(rep.runsMs);
        }
        if (options.profile) {
            auto secs = exec->profile(std::max(options.repeat, 3));
            for (size_t s = 0; s < secs.size(); ++s) {
                KernelProfile k;
                k.function = model.plan.steps[s].function;
                k.ms = secs[s] * 1e3;
                if (auto* f = model.findFunction(k.function); f && secs[s] > 0) k.gflops = f->flops / secs[s] * 1e-9;
                rep.profile.push_back(k);
            }
        }
    } catch (const std::exception& e) {
        rep.error = e.what();
        return rep;
    }
    rep.ok = true;
    for (int o = 0; o < exec->numOutputs(); ++o) {
        OutputReport r;
        const auto& info = exec->outputInfo(o);
        r.name = info.name;
        runtime::NDArray got = exec->output(o);
        r.type = got.str();
        rep.values.push_back(got.copy());
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
