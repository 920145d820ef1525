/// \file
/// Apply-best: which tuned configuration each fused function of a model is
/// compiled with (CompileOptions::configs), from records measured on this
/// target or on another machine of the same kind.
///
/// A record's workload key ends in the full target it was measured on (CPU
/// name and every feature), so records tuned on one Zen 4 do not match a Zen 5
/// by key. Like TVM's TopHub, the bundled records (resources/records/, one
/// file per zoo model) are meant for every machine of a kind: a workload
/// without a record of its own target takes the best record of a target of
/// the same kind (same code generator, architecture and vector width: the
/// knobs mean the same and the configuration fits; its speed is that other
/// machine's). Records of the target itself always win.
#pragma once

#include "ir/Target.h"
#include "tune/Records.h"
#include "tune/Task.h"

#include <map>
#include <string>
#include <vector>

namespace tessel::driver {

/// Whether records measured on `measured` may configure code for `target`:
/// the same kind, architecture and vector width.
bool sameTargetKind(const Target& measured, const Target& target);

/// The records of a file, or of every `*.jsonl` file in a folder (in name
/// order). Lines that do not parse are skipped and described in `warnings`.
/// Throws std::runtime_error when the path does not exist.
tune::Records loadRecords(const std::string& path, std::vector<std::string>* warnings = nullptr);

/// What apply-best takes from a set of records for one target.
struct AppliedRecords {
    /// Workload key (rebased on the target) -> configuration.
    std::map<std::string, tune::Config> configs;
    /// Workloads whose record was measured on the target itself, and those
    /// borrowed from another machine of its kind.
    int exact = 0, sameKind = 0;
    /// With a thread count asked for: workloads whose only records were
    /// measured with another number of threads (or an unknown one).
    int otherThreads = 0;
    /// applyBest(): "<path>: 3 workloads measured on another x86_64 machine
    /// of this kind", or empty.
    std::string note;
};

/// Per workload of `records`, the configuration of its fastest successful
/// trial measured on `target`, else on a target of the same kind (the
/// fastest of those; one with the same CPU name first). Records of other
/// kinds are ignored. With `threads` > 0 (the run's thread count) a record
/// measured with that many threads wins over any other; a workload tuned
/// only with another count still takes its best (counted in otherThreads:
/// a configuration tuned on one thread is valid on two, only maybe not the
/// fastest there).
AppliedRecords bestConfigsFor(const tune::Records& records, const Target& target, int threads = 0);

/// Apply-best as every front end takes it (tesselc run/compile/compare --records,
/// the IDE's Records… and compare sides): the records of a file or folder
/// for `target`; an empty path gives none. `warnings` receives the lines that
/// did not parse; `note` says how many workloads were borrowed from another
/// machine of the target's kind, and how many were tuned with another thread
/// count than `threads` (0: not asked). Throws std::runtime_error when the
/// path does not exist.
AppliedRecords applyBest(const std::string& path, const Target& target, std::vector<std::string>* warnings = nullptr,
                         int threads = 0);

} // namespace tessel::driver
