#include "driver/TuneTasks.h"

#include "driver/Measure.h"
#include "ir/Diagnostic.h"
#include "te/script/Parser.h"
#include "te/ConfigSpace.h"
#include "te/script/Script.h"
#include "tune/Space.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessel::driver {

namespace {

/// The build request a task tunes: the one named, or the only one.
const te::script::BuildRequest& chooseBuild(const te::script::ScriptResult& r, const std::string& function,
                                            const std::string& fileName) {
    if (r.builds.empty())
        throw CompileError(fileName + ": the template builds no function (no tvm.build and no schedule)");
    std::string known;
    for (auto& b : r.builds) {
        if (!function.empty() && b.name == function) return b;
        known += " " + b.name;
    }
    if (function.empty() && r.builds.size() == 1) return r.builds.front();
    if (function.empty())
        throw CompileError(fileName + ": the template builds several functions; name one to tune:" + known);
    throw CompileError(fileName + ": the template builds no function '" + function + "'; functions:" + known);
}

} // namespace

ScriptTask::ScriptTask(std::string source, ScriptTaskOptions options)
    : source_(std::move(source)), options_(std::move(options)) {
    te::script::ParseResult parsed = te::script::parseScript(source_);
    if (!parsed.ok()) throw CompileError(parsed.diagnostics.front());
    module_ = parsed.module;
    stem_ = te::script::defaultFunctionName(options_.fileName);

    te::script::ScriptOptions so;
    so.fileName = options_.fileName;
    so.workload = options_.workload;
    for (auto& m : scriptModules(scheduleOptionsFor(options_.target))) so.modules.push_back(std::move(m));
    te::script::ScriptResult r = te::script::runScript(module_, so);
    const auto& build = chooseBuild(r, options_.function, options_.fileName);
    if (options_.function.empty()) options_.function = build.name;
    knobs_ = r.knobs;
    params_ = r.workload;
    flops_ = r.flop;
    if (flops_ <= 0) {
        // No cfg.add_flop: count the computation's floating-point operations.
        LoweredFunction f;
        f.args = build.args;
        f.name = build.name;
        flops_ = flopCount(f);
    }

    const std::string params = te::script::formatWorkload(params_);
    name_ = std::filesystem::path(options_.fileName).filename().string() + (params.empty() ? "" : " " + params);
    workload_.op = "template:" + stem_;
    workload_.key = workload_.op + "(" + params + ") " + options_.target.str();
    nlohmann::json p = nlohmann::json::object();
    for (auto& w : params_) p[w.name] = w.value;
    nlohmann::json j = {{"op", workload_.op},         {"key", workload_.key}, {"template", stem_},
                        {"function", options_.function}, {"params", p}};
    workload_.json = j.dump();
}

std::unique_ptr<ScriptTask> ScriptTask::fromFile(const std::string& path, ScriptTaskOptions options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CompileError("cannot read '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    if (options.fileName.empty()) options.fileName = path;
    return std::make_unique<ScriptTask>(ss.str(), std::move(options));
}

LoweredFunction ScriptTask::lower(const tune::Config& config, const LowerOptions& lowerOptions,
                                  std::vector<te::Knob>* knobs) const {
    te::script::ScriptOptions so;
    so.fileName = options_.fileName;
    so.workload = options_.workload;
    so.config = config;
    for (auto& m : scriptModules(scheduleOptionsFor(options_.target))) so.modules.push_back(std::move(m));
    te::script::ScriptResult r = te::script::runScript(module_, so);
    const auto& b = chooseBuild(r, options_.function, options_.fileName);
    if (knobs) *knobs = r.knobs;
    try {
        return lowerSchedule(b.schedule, b.args, b.name, lowerOptions);
    } catch (const CompileError& e) {
        Diagnostic d = e.diagnostic();
        if (!d.loc.known()) d.loc = b.loc;
        throw CompileError(d);
    }
}

tune::Instance ScriptTask::instantiate(const tune::Config& config) const {
    tune::Instance inst;
    LoweredFunction f = lower(config, {}, &inst.knobs);
    inst.job = buildJobOf(f, workload_.key);
    inst.job.flops = flops_;
    return inst;
}

tune::Instance ScriptTask::referenceFor(const tune::Config& config) const {
    tune::Instance inst;
    LoweredFunction f = lowerReference(lower(config, {}, &inst.knobs));
    inst.job = buildJobOf(f, workload_.key);
    inst.job.flops = flops_;
    return inst;
}

tir::PrimFunc ScriptTask::featureFunction(const tune::Config& config) const {
    LowerOptions lo;
    lo.pipeline = {"storage-flatten", "simplify"};
    return lower(config, lo).lowered;
}

std::unique_ptr<tune::Task> ScriptTask::forWorkload(const std::string& json) const {
    nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
    if (!j.is_object() || j.value("template", std::string()) != stem_ || !j.contains("params") ||
        !j["params"].is_object())
        return nullptr;
    ScriptTaskOptions o = options_;
    o.workload.clear();
    try {
        for (auto& [name, v] : j["params"].items()) o.workload[name] = v.get<int64_t>();
        return std::make_unique<ScriptTask>(source_, std::move(o));
    } catch (const std::exception&) {
        return nullptr; // parameters this template does not declare, or a workload it cannot build
    }
}

std::map<std::string, int64_t> parseWorkload(std::string_view text) { return te::parseConfig(text); }

std::map<std::string, std::string> describeConfig(const tune::Task& task, const tune::Config& config) {
    tune::Space space(task.knobs());
    return space.describe(space.index(config));
}

} // namespace tessel::driver
