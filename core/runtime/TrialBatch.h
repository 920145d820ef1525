/// \file
/// Offline trials: tuning trials for a GPU host that the tuning machine
/// cannot reach (no network between them, only files carried both ways).
/// `tesselc tune --export-trials DIR` writes the configurations the tuner
/// would measure next as kernel bundles (runtime/KernelBundle.h) with a
/// manifest, DIR/trials.json; on the GPU host `tessel-run DIR` measures each
/// bundle and writes DIR/results.json; back on the tuning machine `tesselc
/// tune --import-trials DIR` turns the results into records, which the next
/// export's cost model learns from (driver/OfflineTrials.h).
///
/// This half needs only the runtime: it runs on a host without LLVM. Every
/// trial is checked against the default configuration's outputs from the
/// same batch (one rule, runtime/OutputCheck.h), and against the bundle's
/// expected outputs where it carries them (small workloads).
#pragma once

#include "runtime/Device.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace tessel::runtime {

inline constexpr const char* kTrialManifest = "trials.json";
inline constexpr const char* kTrialResults = "results.json";

/// One exported trial, as the manifest lists it.
struct TrialEntry {
    /// The bundle's folder under the batch's, empty when the configuration
    /// did not build (then error and message say why).
    std::string bundle;
    bool isDefault = false;
    std::string error = "none";
    std::string message;
};

/// One measured trial, as results.json lists it.
struct TrialResult {
    std::string bundle;
    /// Milliseconds per call, every repeat (empty when it failed).
    std::vector<double> ms;
    /// A runtime::measureErrorName.
    std::string error = "none";
    std::string message;
    double maxAbsErr = 0;
};

/// True when DIR holds a batch of trials (a trials.json).
bool isTrialBatch(const std::string& dir);

/// The manifest's trials; throws std::runtime_error for a file that is not one.
std::vector<TrialEntry> readTrialManifest(const std::string& dir);

/// Runs every bundle of the batch in DIR on `device`, the default
/// configuration's first (its outputs are the others' reference), `repeat`
/// timed calls each, writes DIR/results.json and a line per trial to `log`.
/// A trial that fails (a launch error, wrong outputs) is that trial's
/// result; the batch goes on. Returns the results in the manifest's order.
std::vector<TrialResult> runTrialBatch(const std::string& dir, Device device, int repeat, std::ostream& log);

/// Reads DIR/results.json; throws std::runtime_error when it is missing or malformed.
std::vector<TrialResult> readTrialResults(const std::string& dir);

} // namespace tessel::runtime
