/// \file
/// Tuning records: one measured trial per line of a JSON-lines file
/// (AutoTVM's log format, in Tessel's words), appended and flushed as each
/// trial ends, so that a run killed at any moment loses at most the trial in
/// flight and leaves a file every later run can read.
///
/// One line, fields in this order (docs/tuning.md describes each):
///
///     {"workload": {"op": "template:gemm", "key": "gemm.te(M=1024,N=1024,K=1024) llvm ...",
///                   "template": "gemm", "params": {"M": 1024, ...}},
///      "target": "llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 ...",
///      "config": {"tile_y": 2, "tile_x": 12, ...},
///      "values": {"tile_y": [256, 4], "tile_x": [16, 4, 16], "unroll_k": true, ...},
///      "default": false, "costs": [0.0251, 0.0250, 0.0252], "error": "none", "message": "",
///      "flops": 2147483648, "threads": 2, "tuner": "xgb", "trial": 17,
///      "time": 1718000000.25, "version": "0.1.0"}
///
/// Reading skips a line that does not parse (the torn last line of a killed
/// run) with a warning naming the line, and a writer that opens a file whose
/// last line is torn starts on a new line, so the fragment stays one bad line.
#pragma once

#include "runtime/Runner.h"
#include "tune/Task.h"

#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::tune {

/// The Tessel version this build writes into records ("0.1.0").
const char* tesselVersion();

/// runtime::measureErrorName's inverse; nullopt for an unknown name.
std::optional<runtime::MeasureError> measureErrorFromName(std::string_view name);

/// One measured trial.
struct Record {
    /// key and op always set; json: the whole workload object as written.
    Workload workload;
    std::string target;
    /// Every knob's choice index.
    Config config;
    /// Every knob's chosen value in words, as `tesselc space` prints them
    /// ("[16, 4, 16]", "True", "'rows'"); stored as JSON values in the file.
    std::map<std::string, std::string> values;
    /// True for the template's default configuration (the untuned schedule).
    bool isDefault = false;
    /// Seconds per call, every repeat (empty when the trial failed).
    std::vector<double> costs;
    runtime::MeasureError error = runtime::MeasureError::None;
    std::string message;
    /// Floating-point operations of one call.
    double flops = 0;
    /// Threads the kernel was measured with (0: not known, a record written
    /// before the field). The fastest configuration on one thread need not be
    /// on two; apply-best prefers records of the run's thread count.
    int threads = 0;
    /// The tuner that chose it ("xgb", "grid" ...) and its trial number in
    /// the workload's records (0-based).
    std::string tuner;
    int64_t trial = -1;
    /// Seconds since the epoch when the trial ended.
    double timestamp = 0;
    std::string version;

    bool ok() const { return error == runtime::MeasureError::None && !costs.empty(); }
    /// The median of costs; +inf when the trial failed.
    double seconds() const;
    /// flops / seconds() / 1e9; 0 when the trial failed.
    double gflops() const;
};

/// The record as one line of JSON (no newline).
std::string formatRecord(const Record& r);
/// Reads one line; throws std::invalid_argument saying what is wrong.
Record parseRecord(std::string_view line);

/// Appends records to a file, one line each, flushed before write() returns.
/// Thread-safe.
class RecordWriter {
public:
    /// Opens `path` for appending (creating it); throws std::runtime_error.
    explicit RecordWriter(const std::string& path);
    ~RecordWriter();
    RecordWriter(const RecordWriter&) = delete;
    RecordWriter& operator=(const RecordWriter&) = delete;

    void write(const Record& r);
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::FILE* f_ = nullptr;
    std::mutex m_;
};

/// The records of one or more files, indexed by workload.
class Records {
public:
    /// Reads `path`; a line that does not parse is skipped and described in
    /// `warnings` ("F:12: skipped: ..."). A missing file reads as no records
    /// when `mustExist` is false; otherwise throws std::runtime_error.
    static Records load(const std::string& path, std::vector<std::string>* warnings = nullptr,
                        bool mustExist = true);

    void add(Record r);
    size_t size() const { return records_.size(); }
    /// Every record, in file order. Pointers stay valid while records are added.
    const std::deque<Record>& all() const { return records_; }
    /// Workload keys in order of first appearance.
    std::vector<std::string> workloads() const;
    /// The records of workload `key`, in order.
    std::vector<const Record*> forWorkload(std::string_view key) const;
    /// The fastest successful record of workload `key` (the earliest on a
    /// tie); null when there is none. With `threads` > 0, only records
    /// measured with that many threads. What apply-best uses.
    const Record* best(std::string_view key, int threads = 0) const;
    /// The default configuration's fastest successful record, or null.
    const Record* defaultRecord(std::string_view key) const;

    /// Per workload: trials, failures by kind, the best and the default.
    struct WorkloadSummary {
        Workload workload;
        std::string target;
        int trials = 0;
        int failed = 0;
        std::map<runtime::MeasureError, int> errors;
        const Record* best = nullptr;
        const Record* defaultRecord = nullptr;
    };
    std::vector<WorkloadSummary> summary() const;

private:
    std::deque<Record> records_;
    std::map<std::string, std::vector<size_t>, std::less<>> byKey_;
    std::vector<std::string> order_;
};

} // namespace tessel::tune
