// `tesselc compare`: one model two ways (untuned against a records file's
// best configurations, two records files, two thread counts), measured
// interleaved in one run (driver/ModelCompare.h), printed as a table per
// fused function with the ratio and an end-to-end line, optionally as CSV.
// main.cpp parses the arguments; this sets up where the sides run and runs it.
#pragma once

#include "frontend/OnnxImporter.h"

#include <cstdint>
#include <string>

namespace tessel::cli {

struct CompareArgs {
    std::string file;
    frontend::ImportOptions import;
    /// Records files whose best configurations each side compiles with;
    /// empty: the default schedules ("untuned").
    std::string recordsA, recordsB;
    /// Threads per side (0: the default of where it runs).
    int threadsA = 0, threadsB = 0;
    int rounds = 10;
    uint64_t seed = 1;
    /// Where to write the CSV (empty: none).
    std::string csv;
    /// Where the sides run: this process, a local tessel-rpc server child (the
    /// default), a server (--rpc HOST:PORT) or a tracker's key; every side has
    /// its own session there.
    bool inProcess = false;
    std::string rpc, rpcTracker, rpcKey, rpcTokenFile;
};

/// Runs the comparison and prints it; returns the exit status (1 when the
/// outputs disagree or the run failed). Throws CompileError for a model or a
/// records file that does not compile, std::invalid_argument for bad
/// arguments (e.g. a malformed address), RpcError when a device cannot be
/// reached at the start.
int runCompare(const CompareArgs& args);

} // namespace tessel::cli
