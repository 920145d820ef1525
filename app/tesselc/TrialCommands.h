// `tesselc tune --export-trials DIR` and `--import-trials DIR`: offline
// trials for a GPU host this machine cannot reach (driver/OfflineTrials.h,
// docs/tuning.md). main.cpp parses the arguments; these run the commands.
#pragma once

#include "ir/Target.h"
#include "tune/CostModel.h"

#include <cstdint>
#include <map>
#include <string>

namespace tessel::cli {

struct TrialArgs {
    std::string file;
    std::map<std::string, int64_t> workload;
    std::string records;
    std::string dir;
    std::string tuner = "xgb";
    std::string costModel;
    std::string features = "itervar";
    int trials = 0;
    uint64_t seed = 1;
    bool expected = true;
    Target target;
};

/// Writes the next round of trials; returns the exit status.
int exportTrials(const TrialArgs& a, const tune::CostModelRegistry& models);
/// Appends the measured round to the records; returns the exit status.
int importTrials(const TrialArgs& a);

} // namespace tessel::cli
