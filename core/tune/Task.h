/// \file
/// A tuning task: one workload of one template, and how a configuration of
/// its knobs becomes a kernel to build and measure (AutoTVM's Task).
///
/// The tuner (tune/Tuner.h) sees a task only through this interface, so the
/// same search runs over a TE script template instantiated for a workload
/// (`tesselc tune gemm.te`) and over a fused function of a model whose
/// anchor operator's schedule has knobs (`tesselc tune model.onnx`). Both
/// implementations live in driver (driver/TuneTasks.h), which can lower and
/// compile; tune itself never lowers.
///
/// A configuration is a map knob name -> choice index (te::ConfigSpace);
/// the empty configuration is the template's default, which is the default
/// schedule the model compiler uses, so "untuned" and "tuned" differ only in
/// the configuration.
#pragma once

#include "codegen/Builder.h"
#include "te/ConfigSpace.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::tune {

using Config = std::map<std::string, int64_t>;

/// What identifies a task across runs and records: equal keys are one task.
struct Workload {
    /// The template or operator class: "conv2d_nchwc", "dense_pack",
    /// "matmul", "conv2d_transpose", "template:gemm".
    std::string op;
    /// Canonical text of everything that changes the kernel: operator,
    /// shapes, dtype, layout, fused epilogue kind, target. Records match on it.
    std::string key;
    /// The same as a JSON object (written into every record as "workload").
    std::string json;
};

/// A configuration made into a kernel.
struct Instance {
    /// The lowered function, its signature, FLOPs and workload key.
    codegen::BuildJob job;
    /// Every knob with the choice this instance took.
    std::vector<te::Knob> knobs;
};

class Task {
public:
    virtual ~Task() = default;
    /// Short, for progress lines and tables: "conv2d_nchwc 1x64x56x56 -> 64, 3x3/1".
    virtual std::string name() const = 0;
    virtual const Workload& workload() const = 0;
    /// The target the kernels are built for (ir/Target.h's str()).
    virtual std::string target() const = 0;
    /// The space: every knob with its choices (and its default).
    virtual const std::vector<te::Knob>& knobs() const = 0;
    /// Floating-point operations of one call (for GFLOP/s).
    virtual double flops() const = 0;
    /// Instantiates the template with `config` (knobs it does not name take
    /// their defaults). Thread-safe. Throws CompileError when the
    /// configuration cannot be scheduled or lowered (a failed trial of kind
    /// build, never the end of a run).
    virtual Instance instantiate(const Config& config) const = 0;
    /// The same computation under the plain reference schedule, whose
    /// outputs every trial's are checked against.
    virtual Instance reference() const = 0;

    /// The reference for `config`'s kernel. A template whose knobs choose the
    /// layout of its arguments (conv2d_nchwc.te packs its input in blocks of
    /// tile_ic) computes the same thing on differently shaped arguments, so
    /// each layout needs its own reference; the measurer asks once per
    /// distinct signature. By default: reference().
    virtual Instance referenceFor(const Config& config) const { return reference(); }

    /// The function loop features are computed from (tune/Features.h): the
    /// kernel flattened and simplified, its loops still annotated (before
    /// vectorization and unrolling take them apart), which is cheaper than
    /// instantiate() when only features are wanted. Throws CompileError as
    /// instantiate() does. By default: instantiate(config).job.func.
    virtual tir::PrimFunc featureFunction(const Config& config) const { return instantiate(config).job.func; }

    /// The same template or operator for another workload of its class (the
    /// `json` of a record's workload), for transfer learning from records of
    /// other workloads; null when the task cannot make one (then those
    /// records do not warm-start the model).
    virtual std::unique_ptr<Task> forWorkload(const std::string& json) const { return nullptr; }
};

} // namespace tessel::tune
