#include "runtime/ExecutorPlan.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace tessel::runtime {

const char* planTensorKindName(PlanTensor::Kind k) {
    switch (k) {
    case PlanTensor::Kind::Input: return "input";
    case PlanTensor::Kind::Constant: return "constant";
    case PlanTensor::Kind::Intermediate: return "intermediate";
    case PlanTensor::Kind::Output: return "output";
    }
    return "?";
}

namespace {
PlanTensor::Kind kindFromName(const std::string& s) {
    if (s == "input") return PlanTensor::Kind::Input;
    if (s == "constant") return PlanTensor::Kind::Constant;
    if (s == "intermediate") return PlanTensor::Kind::Intermediate;
    if (s == "output") return PlanTensor::Kind::Output;
    throw std::runtime_error("executor plan: unknown tensor kind '" + s + "'");
}
} // namespace

int64_t PlanTensor::numElements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

int64_t PlanTensor::numBytes() const { return numElements() * dtype.bytes(); }

int64_t ExecutorPlan::storageBytes() const {
    int64_t n = 0;
    for (int64_t s : storages) n += s;
    return n;
}

std::string ExecutorPlan::toJson() const {
    nlohmann::json j;
    j["format"] = "tessel-executor-plan";
    j["version"] = 1;
    auto& ts = j["tensors"] = nlohmann::json::array();
    for (auto& t : tensors) {
        nlohmann::json o = {{"name", t.name}, {"dtype", t.dtype.str()}, {"shape", t.shape}, {"kind", planTensorKindName(t.kind)}};
        if (t.kind == PlanTensor::Kind::Constant)
            o["offset"] = t.offset;
        else
            o["storage"] = t.storage;
        ts.push_back(o);
    }
    j["storages"] = storages;
    auto& ss = j["steps"] = nlohmann::json::array();
    for (auto& s : steps) ss.push_back({{"function", s.function}, {"args", s.args}});
    j["inputs"] = inputs;
    j["outputs"] = outputs;
    j["weights_bytes"] = weightsBytes;
    return j.dump(1);
}

ExecutorPlan ExecutorPlan::fromJson(const std::string& text) {
    ExecutorPlan p;
    try {
        auto j = nlohmann::json::parse(text);
        if (j.value("format", "") != "tessel-executor-plan")
            throw std::runtime_error("executor plan: not a Tessel executor plan");
        if (j.value("version", 0) != 1) throw std::runtime_error("executor plan: unsupported version");
        for (auto& o : j.at("tensors")) {
            PlanTensor t;
            t.name = o.at("name").get<std::string>();
            auto dt = DataType::parse(o.at("dtype").get<std::string>());
            if (!dt) throw std::runtime_error("executor plan: bad dtype in tensor '" + t.name + "'");
            t.dtype = *dt;
            t.shape = o.at("shape").get<std::vector<int64_t>>();
            t.kind = kindFromName(o.at("kind").get<std::string>());
            if (t.kind == PlanTensor::Kind::Constant)
                t.offset = o.at("offset").get<int64_t>();
            else
                t.storage = o.at("storage").get<int>();
            p.tensors.push_back(std::move(t));
        }
        p.storages = j.at("storages").get<std::vector<int64_t>>();
        for (auto& o : j.at("steps"))
            p.steps.push_back({o.at("function").get<std::string>(), o.at("args").get<std::vector<int>>()});
        p.inputs = j.at("inputs").get<std::vector<int>>();
        p.outputs = j.at("outputs").get<std::vector<int>>();
        p.weightsBytes = j.at("weights_bytes").get<int64_t>();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("executor plan: ") + e.what());
    }
    p.validate();
    return p;
}

void ExecutorPlan::validate() const {
    auto bad = [](const std::string& m) { throw std::runtime_error("executor plan: " + m); };
    auto checkTensor = [&](int i) {
        if (i < 0 || i >= static_cast<int>(tensors.size())) bad("tensor index " + std::to_string(i) + " out of range");
    };
    for (auto& t : tensors) {
        for (int64_t d : t.shape)
            if (d < 0) bad("tensor '" + t.name + "' has a negative dimension");
        if (t.kind == PlanTensor::Kind::Constant) {
            if (t.offset < 0 || t.offset + t.numBytes() > weightsBytes)
                bad("constant '" + t.name + "' lies outside the weights");
        } else {
            if (t.storage < 0 || t.storage >= static_cast<int>(storages.size()))
                bad("tensor '" + t.name + "' has no storage");
            if (storages[static_cast<size_t>(t.storage)] < t.numBytes())
                bad("storage of tensor '" + t.name + "' is too small");
        }
    }
    for (auto& s : steps)
        for (int a : s.args) checkTensor(a);
    for (int i : inputs) checkTensor(i);
    for (int i : outputs) checkTensor(i);
}

ExecutorPlan ExecutorPlan::forKernel(const KernelSignature& signature) {
    ExecutorPlan plan;
    PlanStep step{signature.name, {}};
    for (auto& a : signature.args) {
        const int index = static_cast<int>(plan.tensors.size());
        PlanTensor t{a.name, a.dtype, a.shape, a.output ? PlanTensor::Kind::Output : PlanTensor::Kind::Input};
        t.storage = static_cast<int>(plan.storages.size());
        plan.storages.push_back(t.numBytes());
        plan.tensors.push_back(std::move(t));
        (a.output ? plan.outputs : plan.inputs).push_back(index);
        step.args.push_back(index);
    }
    plan.steps.push_back(std::move(step));
    plan.validate();
    return plan;
}

} // namespace tessel::runtime
