// A synthetic tuning task, builder and runner for the tuner's tests: the
// "kernels" are never compiled; the runner times a configuration by a formula
// of its knob choices, so a tuning run takes milliseconds and its results are
// exact. The task's feature function is a loop nest whose extents are the
// choices, so the loop features see the configuration too.
#pragma once

#include "codegen/Builder.h"
#include "ir/Diagnostic.h"
#include "runtime/Runner.h"
#include "tir/IR.h"
#include "tir/IROperators.h"
#include "tune/Task.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <mutex>
#include <set>

namespace synthetic {

using namespace tessel;

/// `sizes.size()` plain knobs k0, k1, ... with `sizes[i]` integer choices 0..n-1.
inline std::vector<te::Knob> knobs(const std::vector<int64_t>& sizes, const std::vector<int64_t>& defaults = {}) {
    std::vector<te::Knob> out;
    for (size_t i = 0; i < sizes.size(); ++i) {
        // Through ConfigSpace, as a template defines them.
        te::ConfigSpace cfg;
        std::vector<te::KnobValue> choices;
        choices.reserve(size_t(sizes[i]));
        for (int64_t c = 0; c < sizes[i]; ++c) choices.emplace_back(c);
        std::string name = "k";
        name += std::to_string(i);
        te::Knob k = cfg.define(std::move(name), te::KnobKind::Knob, std::move(choices),
                                i < defaults.size() ? defaults[i] : 0);
        out.push_back(std::move(k));
    }
    return out;
}

class Task : public tune::Task {
public:
    Task(std::vector<te::Knob> knobs, std::string op = "synthetic", int64_t scale = 1)
        : knobs_(std::move(knobs)), scale_(scale) {
        workload_.op = op;
        workload_.key = op + "(scale=" + std::to_string(scale) + ")";
        workload_.json = nlohmann::json{{"op", op}, {"key", workload_.key}, {"scale", scale}}.dump();
    }
    std::string name() const override { return workload_.key; }
    const tune::Workload& workload() const override { return workload_; }
    std::string target() const override { return "llvm -mtriple=synthetic"; }
    const std::vector<te::Knob>& knobs() const override { return knobs_; }
    double flops() const override { return 1e9; }

    /// Configurations that cannot be instantiated (a CompileError: a build failure).
    std::set<std::string> unbuildable;

    tune::Instance instantiate(const tune::Config& config) const override {
        const std::string text = te::formatConfig(full(config));
        if (unbuildable.count(text)) throw CompileError("planted: this configuration does not schedule");
        tune::Instance inst;
        inst.job.func = featureFunction(config);
        inst.job.signature.name = "synthetic";
        inst.job.flops = flops();
        inst.job.workload = text;
        inst.knobs = knobs_;
        return inst;
    }
    tune::Instance reference() const override {
        tune::Instance inst;
        inst.job.signature.name = "synthetic";
        inst.job.workload = "reference";
        return inst;
    }
    /// for k0 in range(c0 + 1): for k1 in range(c1 + 1): ... out[k0 + ...] = in[...] * 2
    tir::PrimFunc featureFunction(const tune::Config& config) const override {
        const tune::Config c = full(config);
        tir::Buffer in = tir::Buffer::make("in", DataType::float32(), {tir::Expr(1 << 20)});
        tir::Buffer out = tir::Buffer::make("out", DataType::float32(), {tir::Expr(1 << 20)});
        std::vector<tir::Var> vars;
        tir::Expr index = tir::Expr(0);
        for (size_t i = 0; i < knobs_.size(); ++i) {
            vars.emplace_back("i" + std::to_string(i));
            index = tir::AddNode::make(tir::MulNode::make(index, tir::Expr(int(knobs_[i].size()))), vars.back());
        }
        tir::Stmt body = tir::BufferStoreNode::make(
            out, tir::MulNode::make(tir::BufferLoadNode::make(in, {index}), tir::FloatImmNode::make(DataType::float32(), 2.0)),
            {index});
        for (size_t i = knobs_.size(); i-- > 0;)
            body = tir::ForNode::make(vars[i], tir::Expr(0), tir::Expr(int(c.at(knobs_[i].name) + 1)),
                                      i + 1 == knobs_.size() ? tir::ForKind::Vectorized : tir::ForKind::Serial, body);
        return tir::PrimFunc::make("synthetic", {in, out}, body);
    }
    std::unique_ptr<tune::Task> forWorkload(const std::string& json) const override {
        auto j = nlohmann::json::parse(json, nullptr, false);
        if (!j.is_object() || j.value("op", std::string()) != workload_.op) return nullptr;
        return std::make_unique<Task>(knobs_, workload_.op, j.value("scale", int64_t(1)));
    }

    tune::Config full(const tune::Config& config) const {
        tune::Config c;
        for (auto& k : knobs_) c[k.name] = k.defaultIndex;
        for (auto& [n, v] : config) c[n] = v;
        return c;
    }

private:
    std::vector<te::Knob> knobs_;
    tune::Workload workload_;
    int64_t scale_;
};

/// Hands the job's workload (the configuration's text) through as the artifact.
class Builder : public codegen::Builder {
public:
    const Target& target() const override { return target_; }
    runtime::BuildArtifact build(const codegen::BuildJob& job) override {
        runtime::BuildArtifact a;
        a.signature = job.signature;
        a.workload = job.workload;
        a.flops = job.flops;
        return a;
    }

private:
    Target target_;
};

/// Times a configuration as `seconds(config)`; a configuration in `failures`
/// fails with that kind. Records what it ran.
class Runner : public runtime::Runner {
public:
    explicit Runner(std::function<double(const tune::Config&)> seconds) : seconds_(std::move(seconds)) {}
    std::string name() const override { return "synthetic"; }
    runtime::DeviceInfo device() const override { return {}; }
    runtime::RunResult run(const runtime::BuildArtifact& a, const runtime::RunRequest&) override {
        runtime::RunResult r;
        if (a.workload == "reference") {
            r.ok = true;
            return r;
        }
        std::lock_guard<std::mutex> lock(m_);
        ran.push_back(a.workload);
        auto f = failures.find(a.workload);
        if (f != failures.end()) {
            r.error = f->second;
            r.message = "planted";
            return r;
        }
        const double s = seconds_(te::parseConfig(a.workload));
        r.ok = true;
        r.repeatsMs = {s * 1e3, s * 1e3, s * 1e3};
        r.latencyMs = s * 1e3;
        return r;
    }

    std::vector<std::string> ran;
    std::map<std::string, runtime::MeasureError> failures;

private:
    std::function<double(const tune::Config&)> seconds_;
    std::mutex m_;
};

/// Seconds of a smooth bowl with its minimum at `best` (1 ms there).
inline std::function<double(const tune::Config&)> bowl(std::vector<int64_t> best) {
    return [best](const tune::Config& c) {
        double d = 0;
        size_t i = 0;
        for (auto& [name, v] : c) {
            const double x = double(v - best[std::stoul(name.substr(1))]);
            d += x * x;
            ++i;
        }
        return 1e-3 * (1.0 + d);
    };
}

} // namespace synthetic
