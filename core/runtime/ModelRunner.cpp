#include "runtime/ModelRunner.h"

#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <chrono>
#include <stdexcept>

namespace tessel::runtime {

void InProcessModelRunner::load(const ModelPackage& model) {
    exec_.reset();
    exec_ = std::make_unique<GraphExecutor>(model.plan, model.module, model.weights);
}

GraphExecutor& InProcessModelRunner::executor() {
    if (!exec_) throw std::runtime_error("no model is loaded");
    return *exec_;
}

int InProcessModelRunner::threads(const ModelRunSpec& spec) const {
    auto& pool = ThreadPool::global();
    if (spec.threads > 0 && pool.numThreads() != spec.threads) pool.setNumThreads(spec.threads);
    return pool.numThreads();
}

void InProcessModelRunner::setInputs(const std::vector<NDArray>& inputs) {
    GraphExecutor& e = executor();
    if (static_cast<int>(inputs.size()) != e.numInputs())
        throw std::runtime_error("the model takes " + std::to_string(e.numInputs()) + " inputs, not " +
                                 std::to_string(inputs.size()));
    for (int i = 0; i < e.numInputs(); ++i) e.setInput(i, inputs[static_cast<size_t>(i)]);
}

ModelTiming InProcessModelRunner::run(const ModelRunSpec& spec) {
    GraphExecutor& e = executor();
    ModelTiming t;
    t.threads = threads(spec);
    if (spec.repeat <= 0) {
        for (int i = 0; i < spec.warmup; ++i) e.run();
        const auto t0 = std::chrono::steady_clock::now();
        e.run();
        t.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        return t;
    }
    const TimeEvaluator ev{1, spec.repeat, 0, spec.warmup};
    for (double s : ev.measure([&] { e.run(); })) t.ms.push_back(s * 1e3);
    return t;
}

std::vector<NDArray> InProcessModelRunner::outputs() {
    GraphExecutor& e = executor();
    std::vector<NDArray> out;
    for (int o = 0; o < e.numOutputs(); ++o) out.push_back(e.output(o).copyTo(Device::cpu()));
    return out;
}

ModelTiming InProcessModelRunner::profile(const ModelRunSpec& spec) {
    GraphExecutor& e = executor();
    ModelTiming t;
    t.threads = threads(spec);
    for (int i = 0; i < spec.warmup; ++i) e.run();
    for (double s : e.profile(std::max(spec.repeat, 1))) t.ms.push_back(s * 1e3);
    return t;
}

} // namespace tessel::runtime
