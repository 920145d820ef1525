// `tesselc tune` and `tesselc records`: the tuner and its records from the
// command line (docs/tuning.md). main.cpp parses the arguments and sets up
// where kernels are measured; these run the commands.
#pragma once

#include "driver/Devices.h"
#include "driver/TuningLoop.h"
#include "ir/Target.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::cli {

struct TuneArgs {
    std::string file;
    /// One task per entry (each --workload); one task of the defaults when empty.
    std::vector<std::map<std::string, int64_t>> workloads;
    std::string records;
    std::string tuner = "xgb";
    std::string costModel;
    std::string features = "itervar";
    int trials = 0;
    int earlyStopping = 0;
    /// Threads the kernels run with while measured (0: the runner's default).
    int threads = 0;
    int buildJobs = 0;
    int batch = 0;
    uint64_t seed = 1;
    double timeoutSeconds = 10;
    bool transfer = true;
    bool verbose = false;
    Target target;
};

/// Tunes every task on `device` (driver::runTuningLoopOn: built here for
/// args.target, run on the device, a remote device's kernels checked against
/// this machine's reference); returns the exit status. Throws CompileError for a
/// template that does not run, std::invalid_argument for a tuner that
/// cannot be made (an unknown name, the "xgb" model not loaded).
int runTune(const TuneArgs& args, driver::DeviceRunners& device, const tune::CostModelRegistry& models);

/// One task to tune and how many times a run of its model calls it.
struct WeightedTask {
    std::shared_ptr<const tune::Task> task;
    int weight = 1;
};

/// Tunes `tasks` in turn (a model's: `tesselc tune MODEL.onnx`) as runTune
/// tunes a template's workloads; a summary line per task with its weight.
int runTuneTasks(const std::vector<WeightedTask>& tasks, const TuneArgs& args, driver::DeviceRunners& device,
                 const tune::CostModelRegistry& models);

/// `tesselc records F [--best] [--json]`: a summary per workload, or the
/// best record of each.
int runRecords(const std::string& file, bool best, bool json);

} // namespace tessel::cli
