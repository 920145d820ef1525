/// \file
/// Offline trials, the tuning machine's half (runtime/TrialBatch.h has the
/// GPU host's): tuning a template for a device that this machine cannot
/// reach and that cannot run a compiler, such as a GPU host behind a file
/// exchange. Each round exports the configurations the tuner would measure
/// next as kernel bundles; the host measures them (`tessel-run DIR`); the
/// results come back as records, from which the next round's cost model
/// learns, exactly as `tesselc tune` resumes from a records file.
///
/// The manifest (DIR/trials.json) carries each trial's record without its
/// measurement, so that importing needs neither the template nor a compiler
/// and the records are those `tesselc tune` would have written.
#pragma once

#include "driver/TuneTasks.h"
#include "tune/CostModel.h"
#include "tune/Tuner.h"

#include <string>

namespace tessel::driver {

struct OfflineTrialOptions {
    /// Configurations in this round (the default first while it has no trial).
    int trials = 0;
    /// Trials already measured (records of the workload): not exported
    /// again, and the cost model's training data. May not exist yet.
    std::string records;
    /// Tuner, cost model, seed, features (trials and batchSize are ignored).
    tune::TuneOptions tune;
    /// The default configuration's bundle carries this CPU's outputs of the
    /// reference schedule (the batch's other trials are checked against the
    /// default's); off for a workload too large to compute here quickly.
    bool expected = true;
};

struct OfflineExport {
    /// Trials written (bundles), and trials that did not build (in the
    /// manifest with their error, never sent to the device).
    int exported = 0;
    int failed = 0;
    /// The workload's trials the records already had.
    int resumed = 0;
};

/// Writes the round into `dir` (created; an existing batch is replaced):
/// DIR/trial-NNN/ per configuration and DIR/trials.json. Throws
/// std::invalid_argument for a target that is not a GPU or bad options,
/// std::runtime_error when files cannot be written.
OfflineExport exportTrials(const ScriptTask& task, const std::string& dir, const OfflineTrialOptions& options,
                           const tune::CostModelRegistry& models);

struct OfflineImport {
    int trials = 0;
    int failed = 0;
    /// The best and the default configuration's GFLOP/s in this batch (0: none ran).
    double bestGflops = 0, defaultGflops = 0;
    tune::Config best;
    std::string workload;
};

/// Appends one record per trial of the batch in `dir` (its manifest and the
/// host's DIR/results.json) to `records`. Throws std::runtime_error when the
/// batch has no results yet or they do not belong to its manifest.
OfflineImport importTrials(const std::string& dir, const std::string& records);

} // namespace tessel::driver
