/// \file
/// The tuning loop every front end runs (`tesselc tune`, the IDE's Tuning
/// view): tasks one after another against one measurer and one records file,
/// each resumed from the trials the file already has for its workload and,
/// by default, its cost model warm-started from the file's records of other
/// workloads (transfer learning), those of the tasks tuned earlier in the same
/// run included; every trial appended as it ends. What the
/// front ends differ in (printing a progress line, emitting a signal, a
/// pause and stop button) comes in through the callbacks and the control.
/// Both run it on a DeviceRunners (Devices.h) through the same entry.
#pragma once

#include "codegen/Builder.h"
#include "driver/CompileRequest.h"
#include "driver/Devices.h"
#include "runtime/Runner.h"
#include "tune/CostModel.h"
#include "tune/Features.h"
#include "tune/Measure.h"
#include "tune/Task.h"
#include "tune/Tuner.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

struct TuningJob {
    std::shared_ptr<const tune::Task> task;
    /// How often a run calls it (a model's identical functions): for order and messages.
    int weight = 1;
};

struct TuningLoopOptions {
    /// Tuner, cost model, trials per task, early stopping, seed, features, batch.
    tune::TuneOptions tune;
    /// Warm-start each task's cost model from the records of other workloads.
    bool transfer = true;
    /// The records file: read for resuming, appended to. Required.
    std::string records;
    tune::MeasureOptions measure;
};

/// Where the kernels are built and run, and the reference (null: the same).
struct TuningDevice {
    codegen::Builder* builder = nullptr;
    runtime::Runner* runner = nullptr;
    codegen::Builder* referenceBuilder = nullptr;
    runtime::Runner* referenceRunner = nullptr;
};

/// What the loop tells its front end; any may be empty. `job` indexes the jobs.
struct TuningEvents {
    /// The records file had lines it could not read.
    std::function<void(const std::string& warning)> onWarning;
    /// A task starts: its tuner, the trials resumed from the file, the
    /// records of other workloads its model was warm-started from.
    std::function<void(size_t job, const tune::Tuner& tuner, int resumed, int transferred)> onStart;
    std::function<void(size_t job, const tune::TrialEvent& event)> onTrial;
    std::function<void(size_t job, const tune::TuneResult& result)> onDone;
    /// The task could not be tuned (its template fails, no tuner): the loop goes on.
    std::function<void(size_t job, const std::string& error)> onFailed;
};

/// Tunes the jobs in order. Stops between tasks (and the tuner within one)
/// when `control` asks. Throws std::invalid_argument for options that cannot
/// work (no records file, no trials) before anything is measured.
void runTuningLoop(const std::vector<TuningJob>& jobs, const TuningLoopOptions& options, const TuningDevice& device,
                   const tune::CostModelRegistry& models, const TuningEvents& events = {},
                   tune::TuneControl* control = nullptr);

/// Tunes the jobs on `device` as `tesselc tune` and the IDE's Tuning view
/// do: each candidate built in this process for `request`'s target (its
/// build options), run by the device's runner, and for a remote device
/// checked against this machine's reference. Throws as runTuningLoop above.
void runTuningLoopOn(DeviceRunners& device, const CompileRequest& request, const std::vector<TuningJob>& jobs,
                     const TuningLoopOptions& options, const tune::CostModelRegistry& models,
                     const TuningEvents& events = {}, tune::TuneControl* control = nullptr);

/// The tuners a user can choose (tune::tunerNames()): the model-based ones
/// ("xgb", "xgb-reg") only when `models` has the "xgb" cost model.
std::vector<std::string> availableTuners(const tune::CostModelRegistry& models);
/// Whether `name` names a tuner (available or not).
bool isTunerName(const std::string& name);
/// The loop features a user names ("itervar", "knob", "curve"); none for another name.
std::optional<tune::FeatureKind> featureKindNamed(const std::string& name);

} // namespace tessel::driver
