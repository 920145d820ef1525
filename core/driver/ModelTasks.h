/// \file
/// Tuning tasks from a model (AutoTVM's extract_from_program): every fused
/// function whose anchor's compute or schedule has knobs is a tune::Task;
/// functions with the same workload key (operator, attributes, shapes,
/// dtypes, fused epilogue, target: driver::workloadKey) are one task, weighted
/// by how many times one run of the model calls them.
///
/// A task instantiates its group again, alone, from the compiled model's
/// graph: lower::lowerGroup with the configuration (the knobs of the compute,
/// the blocked layout, and of the schedule), then the TIR pipeline. The empty
/// configuration gives the function exactly as the model compiler built it.
/// The kernel is measured on its own with seeded random inputs (packed
/// weights included), and checked against the same computation under the
/// plain reference schedule.
#pragma once

#include "driver/ModelCompiler.h"
#include "tune/Records.h"
#include "tune/Task.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::driver {

/// One task of a model and where the model uses it.
struct ModelTask {
    std::shared_ptr<const tune::Task> task;
    /// Calls per run of the model (the functions below).
    int weight = 0;
    /// The fused functions that share it, in execution order.
    std::vector<std::string> functions;
};

/// The tasks of `model` (compiled with `options`, whose target and schedule
/// options the tasks keep), in the order the model first calls them.
std::vector<ModelTask> extractTasks(const CompiledModel& model, const CompileOptions& options = {});

/// Apply-best: per workload key of `records`, the configuration of its
/// fastest successful trial (for CompileOptions::configs). Workloads without
/// a successful trial are left out, so their functions keep the default.
std::map<std::string, tune::Config> bestConfigs(const tune::Records& records);

/// The task of one fused group of `graph` (the graph after the passes, as
/// CompiledModel::graph holds it); null when it has no knobs.
std::shared_ptr<const tune::Task> makeFusedTask(std::shared_ptr<const graph::Graph> graph,
                                                const graph::FusionGroup& group, const CompileOptions& options);

} // namespace tessel::driver
