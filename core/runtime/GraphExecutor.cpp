#include "runtime/GraphExecutor.h"

#include "runtime/DeviceAPI.h"
#include "runtime/TimeEvaluator.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

namespace tessel::runtime {

GraphExecutor::GraphExecutor(ExecutorPlan plan, ModulePtr module, NDArray weights)
    : plan_(std::move(plan)), module_(std::move(module)), device_(module_ ? module_->device() : Device::cpu()),
      weights_(std::move(weights)) {
    plan_.validate();
    if (plan_.weightsBytes > 0 && (!weights_.defined() || static_cast<int64_t>(weights_.numBytes()) < plan_.weightsBytes))
        throw std::runtime_error("graph executor: the weights hold fewer bytes than the plan needs");
    if (weights_.defined() && weights_.device() != device_) weights_ = weights_.copyTo(device_); // once
    for (int64_t bytes : plan_.storages)
        storages_.push_back(NDArray::empty({std::max<int64_t>(bytes, 1)}, DataType::int8(), device_));
    for (auto& step : plan_.steps) {
        Kernel k = module_ ? module_->kernel(step.function) : Kernel();
        if (!k) throw std::runtime_error("graph executor: the module has no kernel '" + step.function + "'");
        kernels_.push_back(k);
        std::vector<void*> args;
        for (int a : step.args) args.push_back(address(a));
        stepArgs_.push_back(std::move(args));
    }
}

void* GraphExecutor::address(int index) const {
    const PlanTensor& t = plan_.tensors.at(static_cast<size_t>(index));
    if (t.kind == PlanTensor::Kind::Constant)
        return static_cast<char*>(const_cast<void*>(weights_.rawData())) + t.offset;
    return const_cast<void*>(storages_.at(static_cast<size_t>(t.storage)).rawData());
}

const PlanTensor& GraphExecutor::inputInfo(int i) const {
    return plan_.tensors.at(static_cast<size_t>(plan_.inputs.at(static_cast<size_t>(i))));
}

const PlanTensor& GraphExecutor::outputInfo(int i) const {
    return plan_.tensors.at(static_cast<size_t>(plan_.outputs.at(static_cast<size_t>(i))));
}

NDArray GraphExecutor::tensor(int index) const {
    const PlanTensor& t = plan_.tensors.at(static_cast<size_t>(index));
    return NDArray::view(address(index), t.shape, t.dtype, device_);
}

NDArray GraphExecutor::input(int i) const { return tensor(plan_.inputs.at(static_cast<size_t>(i))); }
NDArray GraphExecutor::output(int i) const { return tensor(plan_.outputs.at(static_cast<size_t>(i))); }

void GraphExecutor::setInput(int i, const NDArray& value) {
    if (i < 0 || i >= numInputs()) throw std::runtime_error("graph executor: no input " + std::to_string(i));
    const PlanTensor& t = inputInfo(i);
    if (value.dtype() != t.dtype || value.shape() != t.shape)
        throw std::runtime_error("input '" + t.name + "' is " + t.dtype.str() + " of another shape than the " +
                                 value.str() + " given");
    if (t.numBytes() > 0) tensor(plan_.inputs[static_cast<size_t>(i)]).copyFrom(value);
}

void GraphExecutor::launch(size_t s) {
    const auto& args = stepArgs_[s];
    if (kernels_[s].launch(args.data(), static_cast<int32_t>(args.size())) != 0)
        throw std::runtime_error("kernel '" + plan_.steps[s].function + "' failed");
}

std::vector<double> GraphExecutor::profile(int repeat) {
    std::vector<std::vector<double>> times(kernels_.size());
    DeviceTimer timer(device_);
    for (int r = 0; r < std::max(repeat, 1); ++r) {
        for (size_t s = 0; s < kernels_.size(); ++s) {
            timer.start();
            launch(s);
            timer.stop();
            times[s].push_back(timer.ms() * 1e-3);
        }
    }
    std::vector<double> out;
    for (auto& t : times) out.push_back(median(t));
    return out;
}

void GraphExecutor::run() { runUntil(static_cast<int>(kernels_.size()) - 1); }

void GraphExecutor::runUntil(int last) {
    for (int s = 0; s <= last && s < static_cast<int>(kernels_.size()); ++s) launch(static_cast<size_t>(s));
    if (!device_.isCpu()) deviceAPI(device_).synchronize(device_);
}

} // namespace tessel::runtime
