/// \file
/// Tuning tasks the driver makes (tune/Task.h): a TE script template
/// instantiated for one workload (`tesselc tune gemm.te`). The tasks of a
/// model's fused functions join them here.
///
/// A template is a TE script with `cfg` knobs (`cfg.define_split`,
/// `define_knob`, `define_reorder`, `define_annotate`) and, optionally, a
/// workload (`tessel.workload(M=1024, ...)`, overridden per task), as in
/// resources/templates/. A configuration runs the script with those knob
/// choices and lowers the function it builds into a BuildJob; the
/// reference is the same function under the default schedule
/// (lowerReference), per configuration because a template's knobs may
/// choose the layout of its arguments.
#pragma once

#include "codegen/Target.h"
#include "driver/TeDriver.h"
#include "tune/Task.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace tessel::te::script {
struct AstModule;
}

namespace tessel::driver {

struct ScriptTaskOptions {
    /// The template's file (its stem names the template: "gemm" for
    /// gemm.te), shown in messages.
    std::string fileName;
    /// Workload parameters (tessel.workload); the others take their defaults.
    std::map<std::string, int64_t> workload;
    /// What the kernels are built for (topi.schedule_default's vector width too).
    Target target = codegen::hostTarget();
    /// The function to tune when the script builds several; empty: the only one.
    std::string function;
};

/// A TE script template for one workload. Thread-safe: every instantiation
/// runs the (once parsed) script afresh.
class ScriptTask : public tune::Task {
public:
    /// Runs the template once with its default configuration. Throws
    /// CompileError (located in the script) when it does not run, builds no
    /// function, or builds several and options.function names none of them.
    ScriptTask(std::string source, ScriptTaskOptions options);
    /// Reads `path` first; CompileError when it cannot.
    static std::unique_ptr<ScriptTask> fromFile(const std::string& path, ScriptTaskOptions options);

    /// "gemm.te M=1024,N=1024,K=1024".
    std::string name() const override { return name_; }
    /// op "template:<stem>"; key "template:<stem>(<params>) <target>"; json
    /// {"op", "key", "template", "function", "params": {...}}.
    const tune::Workload& workload() const override { return workload_; }
    std::string target() const override { return options_.target.str(); }
    const std::vector<te::Knob>& knobs() const override { return knobs_; }
    double flops() const override { return flops_; }
    tune::Instance instantiate(const tune::Config& config) const override;
    tune::Instance reference() const override { return referenceFor({}); }
    tune::Instance referenceFor(const tune::Config& config) const override;
    /// Lowered through storage-flatten and simplify only.
    tir::PrimFunc featureFunction(const tune::Config& config) const override;
    /// The template for the "params" of another workload's json (same
    /// template name); null for a json of another template.
    std::unique_ptr<tune::Task> forWorkload(const std::string& json) const override;

    /// The workload parameters with the values this task uses, in declaration order.
    const std::vector<te::script::WorkloadParam>& workloadParams() const { return params_; }

    /// The function `config` makes, lowered for the target (what
    /// instantiate() builds); offline trials export it as a kernel bundle.
    LoweredFunction lowered(const tune::Config& config) const { return lower(config, {}); }

private:
    /// Runs the script with `config` and lowers the chosen function.
    LoweredFunction lower(const tune::Config& config, const LowerOptions& lowerOptions,
                          std::vector<te::Knob>* knobs = nullptr) const;

    std::string source_;
    ScriptTaskOptions options_;
    std::shared_ptr<const te::script::AstModule> module_;
    std::string stem_;
    std::string name_;
    tune::Workload workload_;
    std::vector<te::Knob> knobs_;
    std::vector<te::script::WorkloadParam> params_;
    double flops_ = 0;
};

/// Workload parameters as a user types them ("M=1024,N=512"), for
/// ScriptTaskOptions::workload. Throws CompileError (no location) for
/// anything else.
std::map<std::string, int64_t> parseWorkload(std::string_view text);

/// The knob values of `config` for `task`, in words ("tile_y" -> "[4, 16]"),
/// as a summary of the best configuration shows them.
std::map<std::string, std::string> describeConfig(const tune::Task& task, const tune::Config& config);

} // namespace tessel::driver
